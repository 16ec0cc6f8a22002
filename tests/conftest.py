from __future__ import annotations

from pathlib import Path

import pytest

from engine import by_id
from service import create_app

ROOT = Path(__file__).resolve().parent.parent
# the game logs of tests/data with their answers (the perft counts, perft-*.json, are not logs)
GAME_LOGS = sorted(p for p in (ROOT / "tests" / "data").glob("*.json") if not p.name.startswith("perft-"))
SPEC_DIR = ROOT.parent / "shared" / "spec"
# The README and the guides in docs/ it links to (not the rule books or the notation, which have tests of their own):
# the examples in any of them are run by tests/test_readme.py and tests/test_readme_programs.py.
GUIDES = (
    ROOT / "README.md",
    *sorted(p for p in (ROOT / "docs").glob("*.md") if not p.name.startswith(("RULES", "NOTATION"))),
)


def guides_text() -> str:
    """The README and every guide, one after the other."""
    return "\n\n".join(path.read_text(encoding="utf-8") for path in GUIDES)


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
