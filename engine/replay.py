"""Replaying a move log (``replay``): strict, move by move, stopping at the first illegal move."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, NamedTuple

from .deal import Deal
from .game import GameState
from .moves import Move
from .rules import RuleSet
from .settlement import Settlement

__all__ = ["Replay", "play", "replay"]


class Replay(NamedTuple):
    """A replayed log: the final state, and its settlement when the hand is over."""

    state: GameState
    settlement: Settlement | None


def replay(
    players: Sequence[str],
    rules: RuleSet,
    deal: Deal | Mapping[str, Any],
    moves: Iterable[Move | Mapping[str, Any]],
    *,
    nagari_streak: int = 0,
    stake: int = 1,
) -> Replay:
    """Replay a log from the deal; raises IllegalMoveError at the first move the rules forbid.

    ``deal`` is a Deal or its card ids (``layout``, and optionally ``hands``, ``stock`` top first, and
    ``shown``: a chongtong shown at the deal of a hidden-hand game); moves may be Move values or their dict
    form. A finished hand is priced by the same ``price`` as /v1/settle's hands.
    """
    state = play(players, rules, deal, moves)
    return Replay(state, state.settle(nagari_streak, stake) if state.is_over else None)


def play(
    players: Sequence[str],
    rules: RuleSet,
    deal: Deal | Mapping[str, Any],
    moves: Iterable[Move | Mapping[str, Any]],
) -> GameState:
    """The state a log leads to, as ``replay`` reads it, left unpriced (an evening prices it with the carry it
    works out, RULES.md 11); raises IllegalMoveError at the first move the rules forbid."""
    state = GameState(players, rules, deal)
    for i, move in enumerate(moves):
        state.apply(move if isinstance(move, Move) else Move.from_dict(move, index=i))
    return state
