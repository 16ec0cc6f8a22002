"""gostop's rules engine: Go-Stop and Matgo scoring, settlement and move-log replay.

A library first: pure Python, no I/O, no web framework. The rule book is RULES.md; each module owns one
concept and explains its Korean terms once:

    cards       the deck (Card, CARDS, by_id)
    rules       knobs and presets (RuleSet, resolve, PRESETS)
    scoring     combination score (score, Score)
    settlement  who pays whom (settle, HandResult, Settlement)
    moves       a logged move (Move)
    table       seats, events and instant payments
    turn        one turn, checked in full before anything moves
    game        the hand as a state machine (GameState, legal_moves, replay)
    simulate    seeded random hands (python -m engine.simulate)
    errors      what the engine refuses (GoStopError and its tree)
"""

from .cards import CARDS, Card, by_id, parse_cards
from .errors import CardError, GoStopError, HandError, IllegalMoveError, RulesError
from .game import Event, GameState, InstantPayment, Replay, replay
from .moves import Move
from .rules import KNOBS, PRESETS, RuleSet, find_rules, resolve
from .scoring import Item, Score, score
from .settlement import Factor, HandResult, Payment, PlayerHand, Settlement, settle

__version__ = "1.0.0"
ENGINE_VERSION = __version__

__all__ = [
    "CARDS",
    "ENGINE_VERSION",
    "KNOBS",
    "PRESETS",
    "Card",
    "CardError",
    "Event",
    "Factor",
    "GameState",
    "GoStopError",
    "HandError",
    "HandResult",
    "IllegalMoveError",
    "InstantPayment",
    "Item",
    "Move",
    "Payment",
    "PlayerHand",
    "Replay",
    "RuleSet",
    "RulesError",
    "Score",
    "Settlement",
    "by_id",
    "find_rules",
    "parse_cards",
    "replay",
    "resolve",
    "score",
    "settle",
]
