"""What a record's form costs: the engine's two forms of a three-field record, built, compared and hashed, in the
engine as built (compiled by mypyc where a C compiler was there) and in its Python sources, side by side.

Usage: ``python bench/record_forms.py``

The two records are the engine's own: ``scoring.Item`` (a hand-written ``Record``: ``__slots__``, ``fields`` and
an ``__init__`` that copies its parameters) and ``evening.Transfer`` (a frozen dataclass with slots). mypyc lays
both out as C structs, but builds a dataclass through the ``__init__`` the dataclasses module generates, in
Python: docs/speed.md gives the figures and which records stay hand-written because of them.
"""

from __future__ import annotations

import sys
import timeit
from collections.abc import Callable
from types import ModuleType

import engine
from engine.build import load_sources

N = 100_000


def calls(e: ModuleType) -> dict[str, Callable[[], object]]:
    item, transfer = sys.modules[f"{e.__name__}.scoring"].Item, sys.modules[f"{e.__name__}.evening"].Transfer
    junk = e.Combination.JUNK
    a, b = item(junk, 1, 3), item(junk, 1, 3)
    c, d = transfer("A", "B", 3), transfer("A", "B", 3)
    return {
        "build Item (Record)": lambda: item(junk, 1, 3),
        "build Transfer (dataclass)": lambda: transfer("A", "B", 3),
        "Item == Item": lambda: a == b,
        "Transfer == Transfer": lambda: c == d,
        "hash(Item)": lambda: hash(a),
        "hash(Transfer)": lambda: hash(c),
    }


def main() -> None:
    engines = {("compiled" if engine.COMPILED else "pure"): engine}
    if engine.COMPILED:
        engines["pure"] = load_sources("engine_pure")
    tables = {name: calls(e) for name, e in engines.items()}
    print(f"{'nanoseconds per call':30}" + "".join(f"{name:>12}" for name in engines))
    for row in next(iter(tables.values())):
        best = {name: min(timeit.repeat(table[row], number=N, repeat=5)) / N * 1e9 for name, table in tables.items()}
        print(f"{row:30}" + "".join(f"{best[name]:12.0f}" for name in engines))
    sys.stdout.flush()


if __name__ == "__main__":
    main()
