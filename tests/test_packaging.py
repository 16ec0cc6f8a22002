"""The layout promises: the engine stays pure, and Docker starts the service exactly like `make run`."""

import ast
import json
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from dockerfile_parse import DockerfileParser

from tests.conftest import ROOT

FORBIDDEN = (
    "flask",
    "flask_smorest",
    "marshmallow",
    "werkzeug",
    "service",
    "requests",
    "gunicorn",
    "socket",
    "http",
    "urllib",
    "logging",
    "os",
    "io",
    "subprocess",
    "pathlib",
)
# engine/build.py looks at the package's own files and GOSTOP_PURE once, at import, to choose the build
LOOKS_AT_ITS_FILES = {"build.py": {"pathlib", "os"}}


def test_engine_imports_nothing_from_the_web_side_and_does_no_io():
    for path in (ROOT / "engine").glob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                names = [node.module or ""]
            for name in names:
                top = name.split(".")[0]
                allowed = LOOKS_AT_ITS_FILES.get(path.name, ())
                assert top not in FORBIDDEN or top in allowed, f"{path.name} imports {name}"
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) in ("open", "print", "input"):
                assert path.name in ("simulate.py", "perft.py"), f"{path.name} calls {node.func.id}"  # CLIs print


def _imports(package: str) -> dict[str, set[tuple[str, str]]]:
    """{module: {(imported module, imported name)}} of a package's own modules, relative or absolute."""
    out: dict[str, set[tuple[str, str]]] = {}
    for path in (ROOT / package).rglob("*.py"):
        module = ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
        found = out.setdefault(module, set())
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                if node.level:
                    base = module.split(".")[: len(module.split(".")) - node.level + (path.name == "__init__.py")]
                    source = ".".join([*base, node.module] if node.module else base)
                else:
                    source = node.module or ""
                found |= {(source, alias.name) for alias in node.names}
    return out


def test_no_module_imports_a_private_name_of_another():
    for package in ("engine", "service"):
        for module, names in _imports(package).items():
            private = {(src, name) for src, name in names if name.startswith("_") and name != "__version__"}
            assert not private, f"{module} imports {private}"


def test_the_engine_has_no_import_cycle_and_a_turn_never_imports_the_game():
    graph = {m: {src for src, _ in names if src.startswith("engine.")} for m, names in _imports("engine").items()}
    graph = {m: deps - {"engine"} for m, deps in graph.items() if m != "engine"}
    assert "engine.game" not in graph["engine.turn"] and "engine.game" not in graph["engine.table"]
    done: set[str] = set()

    def visit(module: str, path: tuple[str, ...]) -> None:
        assert module not in path, f"import cycle: {' -> '.join((*path, module))}"
        if module in done:
            return
        for dep in graph.get(module, ()):
            visit(dep, (*path, module))
        done.add(module)

    for module in graph:
        visit(module, ())


def _loaded_at_import(packages: tuple[str, ...]) -> dict[str, set[str]]:
    """{module: the project modules it imports when it is imported} over ``packages``: the statements at the top
    of a module only, since an import inside a function (``service.create_app``'s) runs when it is called."""
    modules = {
        ".".join(p.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__"): p
        for package in packages
        for p in (ROOT / package).rglob("*.py")
    }
    graph: dict[str, set[str]] = {}
    for module, path in modules.items():
        found: set[str] = set()
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.Import):
                found |= {alias.name for alias in node.names}
            elif isinstance(node, ast.ImportFrom):
                parts = module.split(".")
                base = parts[: len(parts) - node.level + (path.name == "__init__.py")] if node.level else []
                source = ".".join([*base, node.module] if node.module else base)
                found |= {f"{source}.{a.name}" if f"{source}.{a.name}" in modules else source for a in node.names}
        graph[module] = {m for m in found if m in modules and m != module}
    return graph


def test_no_import_cycle_in_the_engine_the_service_or_the_command():
    graph = _loaded_at_import(("engine", "service", "gostop"))
    assert len(graph) > 60  # every module was read
    done: set[str] = set()

    def visit(module: str, path: tuple[str, ...]) -> None:
        assert module not in path, f"import cycle: {' -> '.join((*path, module))}"
        if module in done:
            return
        for dep in sorted(graph[module]):
            visit(dep, (*path, module))
        done.add(module)

    for module in sorted(graph):
        visit(module, ())


def _dockerfile():
    parser = DockerfileParser(path=str(ROOT / "Dockerfile"))
    return parser


def _make_serve_command() -> list[str]:
    text = (ROOT / "Makefile").read_text(encoding="utf-8")
    serve = re.search(r"^SERVE := (.+)$", text, re.M).group(1)
    assert re.search(r"^run: .*\n\t\$\(BIN\)/\$\(SERVE\)$", text, re.M), "make run must start $(SERVE)"
    return shlex.split(serve)


def test_dockerfile_starts_the_service_the_same_way_as_make_run():
    cmd = [i for i in _dockerfile().structure if i["instruction"] == "CMD"][-1]["value"]
    assert json.loads(cmd) == _make_serve_command()


def test_dockerfile_is_slim_non_root_with_healthcheck_and_binds_all_interfaces():
    df = _dockerfile()
    froms = [i["value"] for i in df.structure if i["instruction"] == "FROM"]
    # the stages that build and run Python; the Pyodide stage's node image gives only npm's files
    assert all(f.split()[0] == "python:3.11-slim" for f in froms if not f.endswith(" AS pyodide"))
    assert len(froms) >= 2, "a build stage and a final stage without build tools"
    final = df.structure[max(i for i, ins in enumerate(df.structure) if ins["instruction"] == "FROM") :]
    users = [i["value"] for i in final if i["instruction"] == "USER"]
    assert users and users[-1] not in ("root", "0")
    health = [i["value"] for i in final if i["instruction"] == "HEALTHCHECK"]
    assert health and "/healthz" in health[0]
    assert df.envs.get("HOST") == "0.0.0.0" and df.envs.get("PORT") == "8000"
    runs = " ".join(i["value"] for i in final if i["instruction"] == "RUN")
    assert "apt-get" not in runs and "gcc" not in runs


def test_the_image_builds_the_compiled_engine_and_refuses_the_pure_one():
    """setup.py compiles the engine where a C compiler is there: the build stage has one, and checks the result."""
    df = _dockerfile()
    last = max(i for i, ins in enumerate(df.structure) if ins["instruction"] == "FROM")
    build = " ".join(i["value"] for i in df.structure[:last] if i["instruction"] in ("RUN", "COPY"))
    assert "gcc" in build and "setup.py" in build and "pip install ." in build
    assert "engine.COMPILED" in build


def test_the_image_reads_nothing_from_a_checkout():
    """The installed package carries its data (the rule books among the catalogs): the final stage copies only
    the venv and gunicorn's settings (tests/test_install.py builds the wheel from the build stage's COPY list)."""
    df = _dockerfile()
    final = df.structure[max(i for i, ins in enumerate(df.structure) if ins["instruction"] == "FROM") :]
    copies = [shlex.split(ins["value"]) for ins in final if ins["instruction"] == "COPY"]
    assert copies[:2] == [
        ["--from=build", "/opt/venv", "/opt/venv"],
        ["service/gunicorn.conf.py", "./service/gunicorn.conf.py"],
    ]
    assert [c[0] for c in copies[2:]] == ["--from=pyodide"]  # and Pyodide's files, from npm (the next test)


def _pyodide_copy() -> tuple[list[str], str]:
    """The files the final stage copies from the Pyodide stage, and where to."""
    df = _dockerfile()
    final = df.structure[max(i for i, ins in enumerate(df.structure) if ins["instruction"] == "FROM") :]
    (copy,) = [shlex.split(i["value"]) for i in final if i["value"].startswith("--from=pyodide")]
    return copy[1:-1], copy[-1]


def test_the_image_carries_pyodide_from_npm_pinned_by_the_lock_file():
    """The page's engine works from the container (docs/page-engine.md): a stage installs the npm package with
    `npm ci` from tools/pyodide's package.json and lock file (as `make pyodide`, never a CDN), and the final
    stage copies Pyodide's core files, every one the service serves, where GOSTOP_PYODIDE_DIR says."""
    from service.bundle import PYODIDE_FILES

    df = _dockerfile()
    stages = [i for i, ins in enumerate(df.structure) if ins["instruction"] == "FROM"]
    start = next(i for i in stages if df.structure[i]["value"].endswith(" AS pyodide"))
    stage = df.structure[start : next(i for i in stages if i > start)]
    assert df.structure[start]["value"].startswith("node:")
    copied = [shlex.split(i["value"]) for i in stage if i["instruction"] == "COPY"]
    assert copied == [["tools/pyodide/package.json", "tools/pyodide/package-lock.json", "./"]]
    assert (ROOT / "tools/pyodide/package-lock.json").is_file()
    runs = [i["value"] for i in stage if i["instruction"] == "RUN"]
    assert len(runs) == 1 and runs[0].startswith("npm ci ")
    workdir = [i["value"] for i in stage if i["instruction"] == "WORKDIR"][-1]
    sources, target = _pyodide_copy()
    assert {Path(s).name for s in sources} == {*PYODIDE_FILES, "package.json"}
    assert all(s == f"{workdir}/node_modules/pyodide/{Path(s).name}" for s in sources)
    assert df.envs.get("GOSTOP_PYODIDE_DIR", "").rstrip("/") == target.rstrip("/")


def test_the_files_the_image_copies_of_pyodide_are_enough_for_the_page_engine(tmp_path, monkeypatch):
    """Those files alone, where GOSTOP_PYODIDE_DIR points (as in the image), give the page an engine: the
    manifest names Pyodide's version and the service serves each file (the page's engine needs no other)."""
    from service.bundle import Bundle, pyodide_dir

    monkeypatch.delenv("GOSTOP_PYODIDE_DIR", raising=False)
    installed = pyodide_dir()
    if installed is None:
        pytest.skip("Pyodide is not installed (make pyodide needs npm)")
    sources, _ = _pyodide_copy()
    for source in sources:
        shutil.copy(installed / Path(source).name, tmp_path / Path(source).name)
    monkeypatch.setenv("GOSTOP_PYODIDE_DIR", str(tmp_path))
    assert pyodide_dir() == tmp_path
    made = Bundle()
    manifest = json.loads(made.manifest)
    version = json.loads((installed / "package.json").read_text())["version"]
    assert manifest["pyodide"] == f"pyodide/{version}/" and "why" not in manifest

    monkeypatch.setattr("service.api.page.bundle", lambda: made)
    from service.app import create_app

    client = create_app().test_client()
    for name in sources:
        with client.get(f"/table/pyodide/{version}/{Path(name).name}") as answer:
            if Path(name).name == "package.json":
                assert answer.status_code == 404  # read by the service, not served
            else:
                assert answer.status_code == 200 and answer.data == (tmp_path / Path(name).name).read_bytes(), name


def test_ci_runs_make_test_like_the_readme():
    assert "make test" in (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "make run" in readme[:1500] and "make test" in readme[:1500]


def test_gunicorn_settings_come_from_the_environment(monkeypatch, tmp_path):
    import runpy

    monkeypatch.setenv("HOST", "0.0.0.0")
    monkeypatch.setenv("PORT", "9123")
    monkeypatch.setenv("WORKERS", "5")
    monkeypatch.setenv("TIMEOUT", "7")
    monkeypatch.setenv("PROMETHEUS_MULTIPROC_DIR", str(tmp_path / "metrics"))
    conf = runpy.run_path(str(ROOT / "service" / "gunicorn.conf.py"))
    assert (conf["bind"], conf["workers"], conf["timeout"]) == ("0.0.0.0:9123", 5, 7)
    assert (tmp_path / "metrics").is_dir() and callable(conf["child_exit"])


def test_kubernetes_manifests_fit_together():
    import yaml

    docs = {}
    for path in (ROOT / "deploy" / "k8s").glob("*.yaml"):
        doc = yaml.safe_load(path.read_text(encoding="utf-8"))
        docs[doc["kind"]] = doc
    deployment, service, hpa = docs["Deployment"], docs["Service"], docs["HorizontalPodAutoscaler"]
    labels = deployment["spec"]["template"]["metadata"]["labels"]
    assert deployment["spec"]["selector"]["matchLabels"] == labels == service["spec"]["selector"]
    (container,) = deployment["spec"]["template"]["spec"]["containers"]
    assert container["readinessProbe"]["httpGet"]["path"] == "/healthz"
    assert container["livenessProbe"]["httpGet"]["path"] == "/healthz"
    exposed = [i["value"] for i in _dockerfile().structure if i["instruction"] == "EXPOSE"]
    assert [str(p["containerPort"]) for p in container["ports"]] == exposed
    assert deployment["spec"]["template"]["spec"]["securityContext"]["runAsNonRoot"] is True
    assert container["resources"]["requests"]["cpu"]
    assert hpa["spec"]["scaleTargetRef"]["name"] == deployment["metadata"]["name"]


def test_engine_all_lists_exactly_the_public_names():
    import types

    import engine

    public = {n for n, v in vars(engine).items() if not n.startswith("_") and not isinstance(v, types.ModuleType)}
    assert set(engine.__all__) == public


def test_the_service_worker_keeps_every_file_of_the_page():
    """The table page opens offline from the service worker's copy only if that copy lists all its files."""
    sw = (ROOT / "service" / "web" / "sw.js").read_text(encoding="utf-8")
    modules = set(
        re.search(r"\[((?:\s*\"[\w-]+\",?)+)\s*\]\s*\.map", sw).group(1).replace('"', "").replace(",", " ").split()
    )
    assert modules == {p.stem for p in (ROOT / "service" / "web" / "js").glob("*.js")}
    for name in ("table.css", "icon.svg", "engine.json"):
        assert f'"table/{name}"' in sw
    index = (ROOT / "service" / "web" / "index.html").read_text(encoding="utf-8")
    # preloaded: all but the engine's modules, which load on first use, after the page is drawn
    assert set(re.findall(r"table/js/(\w+)\.js", index)) == modules - {"engine", "engine-worker"}


def test_the_page_and_the_catalogs_ship_in_the_package():
    """The Docker image installs with `pip install .`: pyproject's package-data must take every file the
    service reads at run time: the table page, the docs page's files and the language catalogs."""
    import tomllib

    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    patterns = config["tool"]["setuptools"]["package-data"]["service"]
    service = ROOT / "service"
    shipped = {p for pattern in patterns for p in service.glob(pattern) if p.is_file()}
    needed = {
        p
        for folder in ("web", "static", "locale")
        for p in (service / folder).rglob("*")
        if p.is_file() and "__pycache__" not in p.parts  # the catalogs' compiled copies are made where they run
    }
    assert needed and needed <= shipped, sorted(str(p.relative_to(service)) for p in needed - shipped)


BENCH_SCRIPTS = sorted(p.stem for p in (ROOT / "bench").glob("*.py") if "def main(" in p.read_text(encoding="utf-8"))


@pytest.mark.parametrize("script", BENCH_SCRIPTS)
def test_every_benchmark_script_finds_what_it_imports(script):
    """The benchmarks run by hand (make bench, load, chaos), not in this suite: a helper renamed or moved under
    them must fail here, not on the next person's machine. Each is imported as its command line imports it."""
    check = f"import sys; sys.path.insert(0, 'bench'); import {script}; assert callable({script}.main)"
    done = subprocess.run([sys.executable, "-c", check], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr[-2000:]


# --- one owner per answer (issue 16) --------------------------------------------------------------------------

FAMILIES = ("score", "settlement", "replay", "catalogs", "problems")


def test_no_answer_is_made_when_a_module_is_imported():
    """Every answer body (the catalogs, the documented examples, the rule book, the problem pages, the
    document) is made by create_app: importing the modules makes none, so nothing the engine or the words
    would compute runs before the app is built."""
    check = """
import engine, markdown_it
from service import i18n
def refuse(*args, **kwargs):
    raise AssertionError("an answer was made at import time")
engine.score = engine.settle = engine.replay = engine.resolve = refuse
i18n.Words.template = i18n.Words.plural_template = refuse
markdown_it.MarkdownIt.parse = refuse
import service.answers, service.api.docs, service.api.rulebook, service.api.page
for family in FAMILIES:
    __import__("service." + family)
""".replace("FAMILIES", repr(FAMILIES))
    done = subprocess.run([sys.executable, "-c", check], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr[-2000:]


def test_each_answer_family_is_one_module_with_its_schemas_renderer_and_endpoint():
    import importlib

    for family in FAMILIES:
        module = importlib.import_module(f"service.{family}")
        schemas = [n for n, v in vars(module).items() if isinstance(v, type) and n.endswith(("Response", "Schema"))]
        assert schemas, family
        assert callable(getattr(module, "blueprint", None) or getattr(module, "pages", None)), family
    for gone in ("render", "responses", "sentences.py", "api/examples", "api/hands"):
        assert not (ROOT / "service" / f"{gone}.py").exists() and not (ROOT / "service" / gone).is_file()
    from service import answers, replay, score, settlement

    assert (answers.score_answer, answers.settle_answer, answers.replay_answer) == (
        score.score_answer,
        settlement.settle_answer,
        replay.replay_answer,
    )


def test_the_words_are_keyed_by_the_engines_own_names_and_codes():
    """A module per family, each table keyed by the engine's enums and codes; no message key the engine never
    raises (every ``why`` of a refusal's sentence is one the engine's source names)."""
    import re

    from engine import Combination, EventType, Outcome
    from service.codes import RULE_CODES
    from service.sentences import names, problems, replay, score

    assert set(replay.EVENTS) == set(EventType)
    assert set(score.ITEMS) == set(score.SHORTFALLS) == set(Combination)
    assert set(names.OUTCOMES) == set(Outcome)
    assert {code for code, _ in problems.REFUSALS} == set(RULE_CODES)
    source = "\n".join(p.read_text(encoding="utf-8") for p in (ROOT / "engine").glob("*.py"))
    named = set(re.findall(r'"([a-z0-9]+(?:-[a-z0-9]+)*)"', source))
    invented = {why for _, why in problems.REFUSALS if why not in named}
    assert invented == set()
