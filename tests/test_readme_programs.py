"""docs/library.md (the README's "Use it from a program"): its Python example runs against a live service and
prints what it shows, and every command of its console sessions runs, in order, in one shell, and prints what is
shown."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from gostop.server import Server
from tests.conftest import ROOT

pytestmark = pytest.mark.xdist_group("programs")

README = (ROOT / "README.md").read_text(encoding="utf-8")
SECTION = (ROOT / "docs" / "library.md").read_text(encoding="utf-8")
PYTHON = re.search(r"```python\n(.*?)```\n```text\n(.*?)```", SECTION, re.S)
SESSIONS = re.findall(r"```console\n(.*?)```", SECTION, re.S)
CURL = r"```sh\ncurl -s localhost:8000(\S+) ([^`]*?)-d '([^`]*?)'\n```"
SETTLE = next(
    body
    for path, headers, body in re.findall(CURL, README, re.S)
    if path == "/v1/settle" and "Accept-Language" not in headers
)
MARK = "@@@ next command @@@"


def _timing(text: str) -> str:
    """A summary's time and rate change from run to run."""
    return re.sub(r"in [\d.]+ s: [\d,]+ hands a second", "in <seconds> s: <rate> hands a second", text)


def test_the_python_example_prints_what_the_readme_shows():
    code, shown = PYTHON.groups()
    assert "gostop.Client(" in code and "except gostop.ProblemError" in code
    with Server({"WORKERS": "1", "ACCESS_LOG_LEVEL": "WARNING"}) as service:
        done = subprocess.run(
            [sys.executable, "-c", code.replace("http://127.0.0.1:8000", service.url)],
            capture_output=True,
            text=True,
            timeout=60,
        )
    assert done.stderr == "" and done.stdout == shown


def test_every_command_of_the_sessions_prints_what_the_readme_shows(tmp_path):
    (tmp_path / "settle.json").write_text(json.dumps(json.loads(SETTLE)))
    steps: list[tuple[str, str]] = []
    for session in SESSIONS:
        for block in re.split(r"^\$ ", session, flags=re.M)[1:]:
            command, _, shown = block.partition("\n")
            steps.append((command, shown))
    assert len(steps) >= 10 and any(c.startswith("gostop audit") for c, _ in steps)
    script = "".join(f"{command} 2>&1; s=$?; echo '{MARK}'; (exit $s)\n" for command, _ in steps)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("LC_", "GOSTOP_"))}
    env.update(PATH=f"{Path(sys.executable).parent}:{env['PATH']}", COLUMNS="100", LANG="en_US.UTF-8")
    done = subprocess.run(["bash", "-c", script], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
    outputs = done.stdout.split(MARK + "\n")
    assert len(outputs) == len(steps) + 1, done.stderr
    for (command, shown), output in zip(steps, outputs, strict=False):
        assert _timing(output) == _timing(shown), command
