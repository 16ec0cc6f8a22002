"""Which build of the engine runs, the refusal of a stale one, and the Python sources beside a compiled engine.

``setup.py`` compiles the engine's modules with mypyc wherever a C compiler is there (about 4x faster a hand)
and installs them as plain Python elsewhere; both builds give the same answers. In a source checkout the
compiled modules sit beside their sources (an editable install), where Python prefers the compiled one: a
source edited after the last compilation would silently not run. Importing this module (the engine's
``__init__`` does it first) refuses that instead. With ``GOSTOP_PURE=1`` in the environment, the engine runs
from its Python sources even where compiled modules are built (the same variable makes ``pip install`` build
the pure engine). ``load_sources`` imports the Python sources under another name, beside the compiled engine,
to compare the two builds in one process (the tests, bench/engine_bench.py).
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.util
import os
import sys
from importlib.machinery import EXTENSION_SUFFIXES, ModuleSpec
from pathlib import Path
from types import ModuleType

__all__ = ["SourceFinder", "is_compiled", "load_sources", "stale_modules"]

PACKAGE = Path(__file__).parent


def is_compiled(module: ModuleType) -> bool:
    """Whether ``module`` was loaded from a compiled extension rather than from its Python source."""
    return any((module.__file__ or "").endswith(suffix) for suffix in EXTENSION_SUFFIXES)


def stale_modules(folder: Path = PACKAGE) -> list[Path]:
    """The sources in ``folder`` edited after their compiled module was built."""
    stale = []
    for compiled in folder.iterdir():
        suffix = next((s for s in EXTENSION_SUFFIXES if compiled.name.endswith(s)), None)
        if suffix is None:
            continue
        source = compiled.with_name(compiled.name[: -len(suffix)] + ".py")
        if source.exists() and source.stat().st_mtime > compiled.stat().st_mtime:
            stale.append(source)
    return sorted(stale)


class SourceFinder(importlib.abc.MetaPathFinder):
    """Finds the modules of package ``name`` as the Python files of ``folder``, never as compiled modules."""

    def __init__(self, name: str, folder: Path = PACKAGE) -> None:
        self.name = name
        self.folder = folder

    def find_spec(self, fullname: str, path: object = None, target: object = None) -> ModuleSpec | None:
        if fullname == self.name:
            return importlib.util.spec_from_file_location(
                fullname, self.folder / "__init__.py", submodule_search_locations=[str(self.folder)]
            )
        package, _, module = fullname.rpartition(".")
        if package != self.name or not (self.folder / f"{module}.py").exists():
            return None
        return importlib.util.spec_from_file_location(fullname, self.folder / f"{module}.py")


def load_sources(name: str = "engine_pure", folder: Path = PACKAGE) -> ModuleType:
    """The engine's Python sources (of ``folder``) imported as package ``name``, beside whatever ``engine`` is."""
    if name not in sys.modules:
        sys.meta_path.insert(0, SourceFinder(name, folder))
        importlib.import_module(name)
    return sys.modules[name]


if os.environ.get("GOSTOP_PURE", "") not in ("", "0"):  # the Python sources, even beside compiled modules
    if not any(isinstance(f, SourceFinder) and f.name == __package__ for f in sys.meta_path):
        sys.meta_path.insert(0, SourceFinder(__package__ or "engine"))
# Only a source checkout (setup.py beside the package) is checked: nobody edits an installed package's sources.
elif (PACKAGE.parent / "setup.py").exists() and (stale := stale_modules()):
    raise ImportError(
        f"{', '.join(p.name for p in stale)} changed after the engine was compiled, and Python would run the old "
        "compiled code: run `make` (or `pip install -e .`) to compile it again, or set GOSTOP_PURE=1 to run "
        "the Python sources"
    )
