"""The two builds of the engine side by side, as plain data to compare.

``make test`` runs the engine's tests twice: on the compiled engine the install builds, and with
``GOSTOP_PURE=1`` on its Python sources (engine/build.py). ``load_sources("engine_pure")`` loads a second copy
of the engine from its sources under another name, beside the compiled ``engine`` in the same process;
``answers`` says everything an engine answers to a log, for comparing the two.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from types import ModuleType

from engine.build import load_sources

__all__ = ["ENGINE_DIR", "answers", "load_sources", "plain"]

ENGINE_DIR = Path(__file__).resolve().parent.parent / "engine"


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
    if dataclasses.is_dataclass(value):  # a record declared as a dataclass
        return {f.name: plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if hasattr(value, "items"):
        return {str(k): plain(v) for k, v in value.items()}  # type: ignore[attr-defined]
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, str):  # an enum member compares as its value
        return str(value)
    return value
