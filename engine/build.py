"""Which build of the engine runs, and the refusal of a stale one.

``setup.py`` compiles the engine's modules with mypyc wherever a C compiler is there (about 4x faster a hand)
and installs them as plain Python elsewhere; both builds give the same answers. In a source checkout the
compiled modules sit beside their sources (an editable install), where Python prefers the compiled one: a
source edited after the last compilation would silently not run. Importing this module (the engine's
``__init__`` does it first) refuses that instead.
"""

from __future__ import annotations

from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path
from types import ModuleType

__all__ = ["is_compiled", "stale_modules"]

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


# Only a source checkout (setup.py beside the package) is checked: nobody edits an installed package's sources.
if (PACKAGE.parent / "setup.py").exists() and (stale := stale_modules()):
    raise ImportError(
        f"{', '.join(p.name for p in stale)} changed after the engine was compiled, and Python would run the old "
        "compiled code: run `make` (or `pip install -e .`) to compile it again, or delete engine/*.so to use "
        "the pure-Python engine"
    )
