"""The two builds of the engine side by side: the compiled modules setup.py builds in place, and the sources.

Python prefers a compiled module to the source beside it. To test the pure engine in a checkout where the
compiled one is built, ``use_sources("engine")`` makes every ``engine`` module load from its source
(``GOSTOP_TEST_ENGINE=pure``, read by conftest.py before anything imports the engine), and
``load_sources("engine_pure")`` loads a second copy of the engine from its sources under another name, beside
the compiled ``engine`` in the same process.
"""

from __future__ import annotations

import importlib.abc
import importlib.util
import sys
from importlib.machinery import ModuleSpec
from pathlib import Path
from types import ModuleType

ENGINE_DIR = Path(__file__).resolve().parent.parent / "engine"


class SourceFinder(importlib.abc.MetaPathFinder):
    """Finds the modules of package ``name`` as the Python files of ``folder``, never as compiled modules."""

    def __init__(self, name: str, folder: Path = ENGINE_DIR) -> None:
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


def use_sources(name: str = "engine") -> None:
    """From now on, import the engine from its sources (call before anything imports it).

    Done once: conftest.py, which calls it, runs a second time when a test imports it as ``tests.conftest``."""
    if any(isinstance(f, SourceFinder) and f.name == name for f in sys.meta_path):
        return
    if name in sys.modules:
        raise RuntimeError(f"{name} is imported already")
    sys.meta_path.insert(0, SourceFinder(name))


def load_sources(name: str = "engine_pure") -> ModuleType:
    """The engine's sources imported as package ``name``, beside whatever ``engine`` is."""
    if name not in sys.modules:
        sys.meta_path.insert(0, SourceFinder(name))
        importlib.import_module(name)
    return sys.modules[name]


def answers(engine: ModuleType, body: dict) -> list:
    """Everything an engine answers to a /v1/replay body, move by move, as plain data: the state after each
    move (whose turn, the cards of every seat, the layout, every legal move where the deal is known, what a stop
    would pay at a call), then the events, the instant payments and the settlement; or the refusal (its code,
    reason and facts) at the move where it came."""
    rules = engine.resolve(body["rules"], players=len(body["players"]))
    out: list = []
    try:
        state = engine.GameState(body["players"], rules, body["deal"])
    except engine.GoStopError as err:
        return ["refused at the deal", err.code, err.why, plain(err.params)]
    for i, data in enumerate(body["moves"]):
        try:
            state.apply(engine.Move.from_dict(data, index=i))
        except engine.GoStopError as err:
            out.append(["refused", i, err.code, err.why, plain(err.params)])
            break
        seats = [
            [s.id, s.hand.ids(), s.captured.ids(), s.hidden, s.go_count, s.shakes, s.bombs, s.ppuk_count, s.flip_turns]
            for s in state.seats
        ]
        out.append([plain(state.expects), state.to_move, plain(state.outcome), state.stock_left, seats])
        out.append(state.layout_cards().ids())
        if state.expects is not None and state.deal_is_known:
            out.append([m.to_dict() for m in state.legal_moves()])
        if state.expects == "call":
            out.append(plain(state.settle_if_stop(1, 100)))
    out += [plain(state.events), plain(state.instant_payments)]
    if state.is_over:
        out.append(plain(state.settle(2, 100)))
    return out


def plain(value: object) -> object:
    """A value of either engine as plain data (cards as ids, records and tuples as lists)."""
    kind = type(value).__name__  # the same names in both engines, whose classes differ
    if kind == "Card":
        return value.id  # type: ignore[attr-defined]
    if kind == "CardSet":
        return value.ids()  # type: ignore[attr-defined]
    if hasattr(value, "_asdict"):  # a record
        return {k: plain(v) for k, v in value._asdict().items()}  # type: ignore[attr-defined]
    if hasattr(value, "items"):
        return {str(k): plain(v) for k, v in value.items()}  # type: ignore[attr-defined]
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, str):  # an enum member compares as its value
        return str(value)
    return value
