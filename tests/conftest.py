from __future__ import annotations

import os
from pathlib import Path

import pytest

if os.environ.get("GOSTOP_TEST_ENGINE") == "pure":  # the pure engine, even where the compiled one is built
    from tests.engines import use_sources

    use_sources("engine")

from engine import by_id  # (after the choice of build above)
from service import create_app

ROOT = Path(__file__).resolve().parent.parent
SPEC_DIR = ROOT.parent / "shared" / "spec"


@pytest.fixture(scope="session")
def app():
    return create_app({"TESTING": True})


@pytest.fixture()
def client(app):
    return app.test_client()


@pytest.fixture(scope="session")
def rules_md() -> str:
    path = SPEC_DIR / "RULES.md"
    if not path.exists():
        pytest.skip("the shared spec is not beside this checkout")
    return path.read_text(encoding="utf-8")


def cards(*ids: str):
    """Card objects from ids, for engine calls."""
    return tuple(by_id(i) for i in ids)
