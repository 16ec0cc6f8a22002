"""The page's engine, as the page loads it (docs/page-engine.md): the Python sources that make an answer (the
engine, the answer-building modules of the service, their sentences, marshmallow for the request checks) in
one zip, the catalogs compiled into it (Babel is not in the page), and where Pyodide's own files are.

Made from the files the service itself runs, when the page is served or written (``gostop page``): there is
no second copy to keep in step. No Flask here: ``service.api.page`` serves what this makes.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import zipfile
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import marshmallow
import mypy_extensions

import engine
from engine.rules import LAYOUT_SIZE

from .i18n import LOCALE_DIR, compile_catalog

__all__ = ["PYODIDE_FILES", "Bundle", "bundle", "pyodide_dir", "write_page"]

ROOT = Path(__file__).resolve().parent.parent
SERVICE = Path(__file__).resolve().parent
WEB = SERVICE / "web"
# The service's modules an answer is made with (service.answers imports them, and nothing with Flask).
SERVICE_MODULES = (
    "__init__",
    "answers",
    "catalogs",
    "codes",
    "details",
    "evening",
    "i18n",
    "loading",
    "replay",
    "schemas",
    "score",
    "settlement",
)
# Pyodide's core and standard library: all the page loads of it (no package of its own repository).
PYODIDE_FILES = ("pyodide.mjs", "pyodide.asm.js", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json")
_EPOCH = (2020, 1, 1, 0, 0, 0)  # every entry's time: the same sources make the same zip, and the same name


def pyodide_dir() -> Path | None:
    """Where ``make pyodide`` put Pyodide's files (GOSTOP_PYODIDE_DIR to say elsewhere), or None without them."""
    said = os.environ.get("GOSTOP_PYODIDE_DIR")
    folder = Path(said) if said else ROOT / "tools" / "pyodide" / "node_modules" / "pyodide"
    return folder if all((folder / name).is_file() for name in PYODIDE_FILES) else None


def _sources() -> Iterator[tuple[str, Path]]:
    """(name in the zip, file) of every Python source of the page's engine."""
    for package in (engine, marshmallow):
        folder = Path(package.__file__ or "").parent
        for path in sorted(folder.glob("*.py")):
            yield f"{folder.name}/{path.name}", path
    yield "mypy_extensions.py", Path(mypy_extensions.__file__ or "")
    for name in SERVICE_MODULES:
        yield f"service/{name}.py", SERVICE / f"{name}.py"
    for path in sorted((SERVICE / "sentences").glob("*.py")):
        yield f"service/sentences/{path.name}", path


class Bundle:
    """The engine's zip (its bytes, and its name: by its content, so a cache may keep it for good) and the
    manifest the page reads first (``engine.json``: the zip's and Pyodide's places, relative to it, and the deal's
    layout size the page's entry needs)."""

    def __init__(self) -> None:
        out = io.BytesIO()
        with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zipped:
            for name, path in _sources():
                zipped.writestr(zipfile.ZipInfo(name, _EPOCH), path.read_bytes(), zipfile.ZIP_DEFLATED)
            for po in sorted(LOCALE_DIR.glob("*/LC_MESSAGES/messages.po")):
                lang = po.parent.parent.name
                info = zipfile.ZipInfo(f"service/locale/{lang}/LC_MESSAGES/messages.mo", _EPOCH)
                zipped.writestr(info, compile_catalog(lang, po), zipfile.ZIP_DEFLATED)
        self.zip = out.getvalue()
        self.name = f"engine-{hashlib.sha256(self.zip).hexdigest()[:16]}.zip"
        folder = pyodide_dir()
        self.pyodide = folder
        self.pyodide_version = json.loads((folder / "package.json").read_text())["version"] if folder else None
        manifest: dict[str, object] = {
            "engine": f"engine/{self.name}",
            "pyodide": f"pyodide/{self.pyodide_version}/" if folder else None,
            "engine_version": engine.ENGINE_VERSION,
            # what the page's entry needs before any ruling, from the engine rather than a copy in JavaScript:
            # the month cards dealt to the layout, by the number of players (RULES.md 4)
            "layout_size": {str(players): size for players, size in LAYOUT_SIZE.items()},
        }
        if folder is None:
            manifest["why"] = "Pyodide is not installed (`make pyodide` needs npm): the service rules"
        self.manifest = json.dumps(manifest).encode()


@cache
def bundle() -> Bundle:
    """The bundle, made once per process (about 0.1 s)."""
    return Bundle()


def write_page(folder: Path) -> list[Path]:
    """Write the table page as static files into ``folder``: the page, its modules, the engine's zip and
    Pyodide's files, laid out as the service serves them, for any static host (or a phone's saved copy) with
    no service at all: the page marks itself standalone and asks its engine for everything (the catalogs
    too). Refused (``RuntimeError``) without Pyodide. Returns the files written."""
    made = bundle()
    if made.pyodide is None or made.pyodide_version is None:
        raise RuntimeError("Pyodide is not installed: run `make pyodide` (it needs npm)")
    written: list[Path] = []

    def put(name: str, data: bytes) -> None:
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        written.append(path)

    page = (WEB / "index.html").read_text(encoding="utf-8")
    put("index.html", page.replace("<html ", "<html data-standalone ", 1).encode())
    put("sw.js", (WEB / "sw.js").read_bytes())
    icon = (WEB / "icon.svg").read_bytes()
    put("favicon.ico", icon)
    for path in sorted(WEB.rglob("*")):
        if path.is_file() and path.name not in ("index.html", "sw.js"):
            put(f"table/{path.relative_to(WEB).as_posix()}", path.read_bytes())
    # the page's words, which the service answers at GET /v1/words: one file a language (words.js reads them)
    from .catalogs import words_json
    from .i18n import LANGUAGES

    for lang in LANGUAGES:
        put(f"table/words/{lang}.json", json.dumps(words_json(lang), ensure_ascii=False).encode())
    put("table/engine.json", made.manifest)
    put(f"table/engine/{made.name}", made.zip)
    for name in PYODIDE_FILES:
        put(f"table/pyodide/{made.pyodide_version}/{name}", (made.pyodide / name).read_bytes())
    return written
