"""The contract as integrators meet it: openapi.yaml passes a linter of the ecosystem (Redocly's CLI), the
TypeScript types openapi-typescript makes of it accept the README's requests (compiled with tsc), and one
version names the package, the engine and the API, with a changelog and a compatibility promise.

The JavaScript tools come from npm (``make openapi-tools``: tools/openapi/package.json and its lock). Without
them the tests that need them skip and say why; with CI=true they fail instead.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import tomllib
from importlib.metadata import version
from pathlib import Path

import pytest
import yaml

from tests.conftest import ROOT, guides_text
from tests.test_readme import EXAMPLES as README_EXAMPLES

TOOLS = ROOT / "tools" / "openapi" / "node_modules" / ".bin"
DOCUMENT = ROOT / "openapi.yaml"

pytestmark = pytest.mark.xdist_group("node")  # the node tools run one at a time: two cores


def _tool(name: str) -> Path:
    path = TOOLS / name
    if path.exists():
        return path
    why = f"{path.relative_to(ROOT)} is missing: `make openapi-tools` installs it from npm"
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(f"the contract tests cannot run in CI: {why}")
    pytest.skip(f"CONTRACT TOOL TESTS SKIPPED: {why}")


def _run(command: list[str | Path], cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(c) for c in command], cwd=cwd, capture_output=True, text=True, timeout=300)


def test_redocly_finds_no_error_in_the_document():
    done = _run([_tool("redocly"), "lint", DOCUMENT, "--format", "json"])
    report = json.loads(done.stdout[done.stdout.index("{") :])
    errors = [p for p in report["problems"] if p["severity"] == "error"]
    assert done.returncode == 0 and errors == [], json.dumps(errors, indent=1)[:3000]


def test_redocly_sees_an_error(tmp_path):
    """The lint above can fail: a reference to a schema the document does not hold is an error."""
    spec = yaml.safe_load(DOCUMENT.read_text(encoding="utf-8"))
    spec["components"]["schemas"]["Problem"]["properties"]["code"] = {"$ref": "#/components/schemas/Nowhere"}
    broken = tmp_path / "broken.yaml"
    broken.write_text(yaml.safe_dump(spec), encoding="utf-8")
    done = _run([_tool("redocly"), "lint", broken, "--format", "json"])
    assert done.returncode != 0


def _typescript(tmp_path: Path, requests: dict[str, tuple[str, object]]) -> subprocess.CompletedProcess[str]:
    """Types from the document (openapi-typescript), then ``tsc --strict`` on each request typed as its
    operation's request body."""
    types = tmp_path / "gostop.d.ts"
    made = _run([_tool("openapi-typescript"), DOCUMENT, "--output", types])
    assert made.returncode == 0, made.stderr
    lines = ['import type { operations } from "./gostop";', ""]
    for i, (name, (operation, body)) in enumerate(requests.items()):
        kind = f'NonNullable<operations["{operation}"]["requestBody"]>["content"]["application/json"]'
        lines.append(f"// {name}")
        lines.append(f"export const request{i}: {kind} = {json.dumps(body)};")
    source = tmp_path / "requests.ts"
    source.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return _run([_tool("tsc"), "--strict", "--noEmit", "--target", "es2022", "--module", "es2022", source], tmp_path)


OPERATIONS = {
    "/v1/score": "scoreCards",
    "/v1/settle": "settleHand",
    "/v1/replay": "replayLog",
    "/v1/evening": "keepEvening",
}


def test_typescript_types_accept_the_readme_requests(tmp_path):
    requests = {
        f"README {path} #{i}": (OPERATIONS[path], json.loads(body))
        for i, (_, path, body, _) in enumerate(README_EXAMPLES)
    }
    spec = yaml.safe_load(DOCUMENT.read_text(encoding="utf-8"))
    for path, operation in OPERATIONS.items():
        content = spec["paths"][path]["post"]["requestBody"]["content"]["application/json"]
        for name, example in content.get("examples", {"example": {"value": content.get("example")}}).items():
            requests[f"{path} example {name}"] = (operation, example["value"])
    assert len(requests) >= 6
    done = _typescript(tmp_path, requests)
    assert done.returncode == 0, done.stdout[-3000:]


def test_typescript_types_refuse_a_wrong_request(tmp_path):
    """The types have teeth: a card id that is no card, and an unknown preset, do not compile."""
    done = _typescript(
        tmp_path,
        {
            "a card that is no card": ("scoreCards", {"cards": ["jan-brite"]}),
            "an unknown preset": ("settleHand", {"rules": "korean-9p", "players": [{"id": "A"}, {"id": "B"}]}),
        },
    )
    assert done.returncode != 0
    assert "requests.ts(4," in done.stdout and "requests.ts(6," in done.stdout  # each request's line


# --- one version ------------------------------------------------------------------------------------------


def test_one_version_names_the_package_the_engine_and_the_api(client):
    import engine

    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert "version" not in pyproject["project"] and "version" in pyproject["project"]["dynamic"]
    assert pyproject["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "engine.__version__"}
    spec = yaml.safe_load(DOCUMENT.read_text(encoding="utf-8"))
    answer = client.post("/v1/score", json={"cards": []}).get_json()
    assert version("gostop") == engine.__version__ == spec["info"]["version"] == answer["engine_version"]


def test_the_changelog_starts_with_this_version():
    import engine

    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    versions = re.findall(r"^## (\d+\.\d+\.\d+)", changelog, re.M)
    assert versions[0] == engine.__version__ and versions == sorted(versions, reverse=True, key=_numbers)
    assert {"1.0.0", "1.1.0"} <= set(versions)


def _numbers(text: str) -> tuple[int, ...]:
    return tuple(int(n) for n in text.split("."))


def test_the_compatibility_promise_is_in_the_readme_and_the_document():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    description = yaml.safe_load(DOCUMENT.read_text(encoding="utf-8"))["info"]["description"]
    for text in (readme, description):
        assert re.search(r"additive", text) and re.search(r"ignore[s]? (fields|unknown)", text), text[:300]


def test_images_and_manifests_carry_the_version():
    import engine

    deployment = yaml.safe_load((ROOT / "deploy" / "k8s" / "deployment.yaml").read_text(encoding="utf-8"))
    (container,) = deployment["spec"]["template"]["spec"]["containers"]
    assert container["image"] == f"gostop:{engine.__version__}"
    assert set(re.findall(r"gostop:(\d+\.\d+\.\d+)", guides_text())) == {engine.__version__}


def test_any_current_python_may_install_it():
    from packaging.specifiers import SpecifierSet

    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    allowed = SpecifierSet(pyproject["project"]["requires-python"])
    assert all(v in allowed for v in ("3.11.0", "3.12.7", "3.13.1", "3.14.0")) and "3.10.12" not in allowed
