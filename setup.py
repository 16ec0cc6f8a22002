"""How gostop builds: the rules engine compiled with mypyc wherever a C compiler is there, pure Python elsewhere.

Every other setting is in pyproject.toml; this file only decides the engine's extension modules. The engine is
mypy --strict clean, so mypyc compiles it to C as it is (about 4x faster a hand). Without a C compiler (or the
Python headers, or mypyc), or with ``GOSTOP_PURE=1`` in the environment, the package installs the same engine
as plain Python and says so in one line on stderr (``pip install -v`` shows it; ``engine.COMPILED`` tells at
run time). A compilation that fails falls back the same way.
"""

from __future__ import annotations

import os
import shutil
import sys
import sysconfig
from pathlib import Path
from typing import Any

from setuptools import setup
from setuptools.command.build_ext import build_ext

# Every engine module but four: the package's __init__ and engine/build.py, which report the build and refuse a
# stale one, and the two command lines, the simulator's and the perft counts' (`python -m engine.simulate` needs a
# module the interpreter can run).
PURE_ONLY = {"__init__.py", "build.py", "simulate.py", "perft.py"}
ENGINE = sorted(str(p) for p in Path("engine").glob("*.py") if p.name not in PURE_ONLY)


def notice(why: str) -> None:
    print(f"gostop: building the pure-Python engine: {why}", file=sys.stderr)


def why_pure() -> str | None:
    """Why this build cannot compile the engine, or None when it can."""
    if os.environ.get("GOSTOP_PURE", "") not in ("", "0"):
        return "GOSTOP_PURE is set"
    compiler = (sysconfig.get_config_var("CC") or "cc").split()[0]
    if shutil.which(compiler) is None:
        return f"no C compiler ({compiler}) was found"
    if not (Path(sysconfig.get_paths()["include"]) / "Python.h").exists():
        return "the Python headers (Python.h) are not installed"
    try:
        import mypyc.build  # noqa: F401  (a build requirement; absent only when building without isolation)
    except ImportError:
        return "mypyc (from mypy) is not installed"
    return None


def engine_extensions() -> list[Any]:
    why = why_pure()
    if why is not None:
        notice(why)
        return []
    from mypyc.build import mypycify

    try:
        # group_name keeps mypyc's shared runtime inside the package (engine/_native__mypyc*.so), so the install
        # adds no top-level name; the type check runs with the same strictness as `make lint`.
        return mypycify(["--strict", "--config-file=", *ENGINE], opt_level="3", group_name="engine._native")
    except (SystemExit, Exception) as err:  # mypy refused the sources: build the pure engine rather than none
        notice(f"mypyc could not compile it ({err})")
        return []


class OptionalBuildExt(build_ext):
    """Compiling C is a speed-up, never a requirement: a compiler error leaves the pure engine, and no part of
    the compiled one (its modules load together or not at all)."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as err:
            notice(f"the C compiler failed ({err})")
            for output in self.get_outputs():
                Path(output).unlink(missing_ok=True)
            self.extensions = []


setup(ext_modules=engine_extensions(), cmdclass={"build_ext": OptionalBuildExt})
