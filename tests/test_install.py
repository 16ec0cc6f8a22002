"""gostop installs like a library (issue 30): built from exactly what the Docker build stage copies, the sdist and
the wheel each install into a fresh venv in an empty folder outside the checkout, and every command works there.

Before, the wheel lacked the rule book (read from the checkout's docs/): the offline commands died with a
RuleBookMissing traceback and `gostop serve` could not boot, and the image's build stage did not copy the gostop
package. The builds skip mypyc (GOSTOP_PURE=1: the compiled engine is tests/test_builds.py's) and take their
build requirements and the dependencies from pip's usual sources and cache.
"""

from __future__ import annotations

import fnmatch
import json
import os
import posixpath
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import time
import zipfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
import requests
from dockerfile_parse import DockerfileParser

import engine
from engine.simulate import simulate
from gostop.local import LocalService
from gostop.server import free_port
from tests.conftest import ROOT
from tests.test_cli import SETTLE  # the README's settle example: B pays A 20 points (gwangbak)

pytestmark = pytest.mark.xdist_group("install")

PACKAGES = ("engine", "service", "gostop")
# what the wheel must carry besides the modules: each language's rule book, the page, the catalogs
DATA = (
    "service/locale/en/RULES.md",
    "service/locale/ko/RULES.md",
    "service/locale/ko/LC_MESSAGES/messages.po",
    "service/web/index.html",
    "service/web/sw.js",
    "service/static/docs.html",
    "service/static/rules.css",
)
SCORE = {"rules": "korean-2p", "cards": ["jan-bright", "mar-bright", "aug-bright"]}
EVENING = {"people": ["A", "B"], "stake": 100, "hands": [{"settle": {k: v for k, v in SETTLE.items() if k != "rules"}}]}
LOG = simulate("korean-2p", 5).to_dict()


def _environment() -> dict[str, str]:
    """This environment without anything that would let the installed command find the checkout."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME")}
    return {**env, "GOSTOP_PURE": "1", "PIP_DISABLE_PIP_VERSION_CHECK": "1", "LC_ALL": "C.UTF-8"}


def build_stage_copies(dockerfile: Path = ROOT / "Dockerfile") -> list[tuple[str, str]]:
    """(source in the build context, destination under the build stage's WORKDIR) of every COPY of the stage
    named ``build`` (the one that builds the wheel; the Pyodide stage copies only npm's files)."""
    structure = DockerfileParser(path=str(dockerfile)).structure
    froms = [i for i, ins in enumerate(structure) if ins["instruction"] == "FROM"]
    first = next(i for i in froms if structure[i]["value"].split()[-2:] == ["AS", "build"])
    last = next((i for i in froms if i > first), len(structure))
    workdir = "/"
    copies = []
    for ins in structure[first:last]:
        if ins["instruction"] == "WORKDIR":
            workdir = posixpath.join(workdir, ins["value"])
        elif ins["instruction"] == "COPY":
            *sources, dest = shlex.split(ins["value"])
            assert not any(s.startswith("--") for s in sources), ins["value"]
            target = posixpath.join(workdir, dest)
            for source in sources:
                path = posixpath.join(target, posixpath.basename(source)) if dest.endswith("/") else target
                copies.append((source, posixpath.relpath(posixpath.normpath(path), workdir)))
    return copies


def _ignored() -> list[str]:
    lines = (ROOT / ".dockerignore").read_text(encoding="utf-8").splitlines()
    return [line.strip() for line in lines if line.strip() and not line.startswith("#")]


def _context_copy(source: Path, target: Path) -> None:
    """What docker sends of ``source``: the files git tracks (a clean clone's), less .dockerignore's."""
    tracked = subprocess.run(
        ["git", "ls-files", "-z", "--", source.relative_to(ROOT).as_posix()],
        cwd=ROOT,
        capture_output=True,
        check=True,
    ).stdout.decode()
    ignored = _ignored()
    for name in filter(None, tracked.split("\0")):
        if any(fnmatch.fnmatch(name, p) or name.startswith(p.rstrip("/") + "/") for p in ignored):
            continue
        relative = Path(name).relative_to(source.relative_to(ROOT)) if source.is_dir() else Path()
        destination = target / relative
        destination.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, destination)


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> tuple[Path, Path]:
    """The sdist, and the wheel built from it, from a folder holding only what the build stage copies."""
    src = tmp_path_factory.mktemp("docker-build-stage")
    for source, dest in build_stage_copies():
        _context_copy(ROOT / source, src / dest)
    dist = tmp_path_factory.mktemp("dist")
    done = subprocess.run(
        [sys.executable, "-m", "build", "--outdir", str(dist), str(src)],
        cwd=src,
        env=_environment(),
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    (wheel,) = dist.glob("gostop-*.whl")
    (sdist,) = dist.glob("gostop-*.tar.gz")
    return wheel, sdist


def test_the_build_stage_copies_what_the_wheel_is_built_from():
    copied = {source for source, _ in build_stage_copies()}
    assert {*PACKAGES, "pyproject.toml", "setup.py", "README.md"} <= copied


def test_the_wheel_built_from_the_dockerfiles_copies_holds_every_file_the_packages_read(built):
    wheel, _ = built
    names = set(zipfile.ZipFile(wheel).namelist())
    assert set(DATA) <= names
    tracked = subprocess.run(["git", "ls-files", *PACKAGES], cwd=ROOT, capture_output=True, text=True, check=True)
    assert set(tracked.stdout.split()) - names == set()  # every module, the page, the catalogs and the rule books


def _venv(folder: Path, artifact: Path) -> Path:
    subprocess.run([sys.executable, "-m", "venv", str(folder)], check=True, timeout=120)
    done = subprocess.run(
        [str(folder / "bin" / "python"), "-m", "pip", "install", "--quiet", str(artifact)],
        cwd=folder.parent,
        env=_environment(),
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return folder / "bin" / "gostop"


@pytest.fixture(scope="module")
def installed(built, tmp_path_factory) -> dict[str, Path]:
    """The ``gostop`` command of a fresh venv per artifact, installed side by side."""
    wheel, sdist = built
    home = tmp_path_factory.mktemp("venvs")
    with ThreadPoolExecutor(2) as pool:
        scripts = pool.map(lambda kind, artifact: _venv(home / kind, artifact), ("wheel", "sdist"), (wheel, sdist))
        return dict(zip(("wheel", "sdist"), scripts, strict=True))


def _commands(work: Path) -> list[tuple[list[str], int]]:
    """Every command, with the exit status it must give, on files in ``work``."""
    for name, body in (
        ("score.json", SCORE),
        ("settle.json", SETTLE),
        ("log.json", LOG),
        ("evening.json", EVENING),
    ):
        (work / name).write_text(json.dumps(body), encoding="utf-8")
    (work / "archive.jsonl").write_text(json.dumps({**LOG, "id": "hand-1"}) + "\n", encoding="utf-8")
    return [
        (["--version"], 0),
        (["score", "score.json"], 0),
        (["settle", "--json", "settle.json"], 0),
        (["settle", "--lang", "ko", "settle.json"], 0),
        (["replay", "log.json"], 0),
        (["check", "log.json"], 0),
        (["evening", "evening.json"], 0),
        (["rules"], 0),
        (["rules", "korean-2p"], 0),
        (["rules", "no-such-preset"], 2),
        (["cards"], 0),
        (["audit", "--quiet", "archive.jsonl"], 0),
    ]


@pytest.mark.parametrize("kind", ["wheel", "sdist"])
def test_every_command_works_where_pip_put_it(installed, kind, tmp_path):
    gostop = installed[kind]
    work = tmp_path / "empty"
    work.mkdir()
    assert not (work / "docs").exists() and ROOT not in work.parents

    def run(argv: list[str]) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [str(gostop), *argv], cwd=work, env=_environment(), capture_output=True, text=True, timeout=120
        )

    commands = _commands(work)
    with ThreadPoolExecutor(2) as pool:
        results = list(pool.map(run, [argv for argv, _ in commands]))
    for (argv, status), done in zip(commands, results, strict=True):
        assert done.returncode == status, (argv, done.stdout[-2000:], done.stderr[-2000:])
        assert "Traceback" not in done.stderr, (argv, done.stderr[-2000:])
    by_argv = {" ".join(argv): done for (argv, _), done in zip(commands, results, strict=True)}
    assert by_argv["--version"].stdout.strip() == f"gostop {engine.__version__}"
    here = LocalService().request("POST", "/v1/settle", json.dumps(SETTLE).encode())
    assert by_argv["settle --json settle.json"].stdout.encode() == here.body  # the checkout's very answer
    assert "B" in by_argv["evening evening.json"].stdout and "korean-2p" in by_argv["rules"].stdout
    assert "no-such-preset" in by_argv["rules no-such-preset"].stderr


def _wait_for_port(port: int, proc: subprocess.Popen[bytes], seconds: float = 60.0) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        assert proc.poll() is None, "gostop serve stopped"
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return
        except OSError:
            time.sleep(0.1)
    raise AssertionError(f"gostop serve did not listen on {port} within {seconds} s")


@pytest.mark.parametrize("kind", ["wheel", "sdist"])
def test_serve_answers_healthz_the_rule_book_and_the_page(installed, kind, tmp_path):
    port = free_port()
    log = tmp_path / "serve.log"
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [str(installed[kind]), "serve", "--port", str(port), "--workers", "1"],
            cwd=tmp_path,
            env={**_environment(), "ACCESS_LOG_LEVEL": "WARNING"},
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    try:
        _wait_for_port(port, proc)
        url = f"http://127.0.0.1:{port}"
        assert requests.get(f"{url}/healthz", timeout=10).status_code == 200
        for lang, title in (("en", "<h1"), ("ko", "규칙")):
            page = requests.get(f"{url}/rules?lang={lang}", timeout=10)
            assert page.status_code == 200 and title in page.text, page.text[:500]
        assert requests.get(f"{url}/", timeout=10).status_code == 200
        korean = requests.post(f"{url}/v1/settle", json=SETTLE, headers={"Accept-Language": "ko"}, timeout=10)
        assert korean.status_code == 200 and "광박" in korean.text  # the Korean catalog came with the wheel
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    assert "Traceback" not in log.read_text(errors="replace")
