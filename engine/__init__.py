"""gostop's rules engine: Go-Stop and Matgo scoring, settlement and move-log replay.

A library first: plain typed Python (compiled by mypyc where a C compiler is there: ``COMPILED``), no I/O, no
web framework. The rule book is RULES.md; each module owns one concept and explains its Korean terms once:

    cards       the deck: Card, CardSet (a set of cards over a bitmask), the named sets, parse_cards
    rules       knobs and presets: RuleSet, resolve, PRESETS
    scoring     combination score: score, Score (with what falls just short)
    settlement  who pays whom, and why each rule did or did not apply: settle, Settlement, Check
    events      what happens at the table: Event, EventType, InstantPayment
    moves       a logged move (Move), what the table expects next (Expect), how a hand ends (Outcome)
    deal        reading and checking a deal
    table       the cards on the table and the seats, with their operations
    turn        one turn, planned in full before anything moves
    sitout      four at a table of three: who sits out, and the sale of the brights (광팔기)
    game        the flow of a hand: GameState, legal_moves
    replay      replaying a log: replay, Replay, play
    evening     the hands of an evening as a ledger: evening, Evening, settle_up (the fewest transfers)
    notation    a whole log as text, as PGN is for chess: format_log, parse_log, read_log
    simulate    seeded random hands (python -m engine.simulate)
    perft       perft counts: legal moves along seeded hands, lines of play to a depth (python -m engine.perft)
    errors      what the engine refuses: GoStopError and its tree, each with a stable code
    record      the base of the records of facts (Score, Check, Event, ...)
    build       which build runs (compiled or pure), and the refusal of a stale compiled one

The engine states facts (codes, cards, numbers); sentences for people are made from them elsewhere.
"""

from . import build, cards  # build first: it refuses a stale compiled engine before any of it loads
from .cards import CARDS, SPELLINGS, Card, CardSet, Kind, Place, by_id, card_code, parse_cards, read_card
from .deal import Deal, read_deal
from .errors import (
    CardError,
    EveningError,
    GoStopError,
    HandError,
    IllegalMoveError,
    LogError,
    NotationError,
    RulesError,
)
from .evening import (
    Carry,
    DealerBy,
    DealerDraw,
    DrawTime,
    Evening,
    EveningHand,
    FirstDealer,
    LedgerHand,
    Limit,
    NextHand,
    Paid,
    Transfer,
    evening,
    first_dealer,
    settle_up,
)
from .events import Event, EventType, InstantPayment
from .game import GameState, TurnOptions
from .log import Log, Replay, play, replay
from .moves import INSTANT_WINS, Expect, Move, Outcome
from .notation import ParsedLog, format_log, parse_log, read_log
from .rules import (
    KNOBS,
    PRESET_SOURCES,
    PRESETS,
    BonusFromHand,
    ChongtongAtDeal,
    ChongtongByBonus,
    CupPlacement,
    DealRuling,
    FlipTiming,
    Gobak,
    GoScheme,
    Knob,
    PresetSource,
    RuleSet,
    Shodang,
    Steal,
    TwoCardBomb,
    find_rules,
    resolve,
)
from .scoring import Combination, Declared, Item, Score, Shortfall, score
from .settlement import Check, HandResult, Payment, PlayerHand, Settlement, checked_rules, settle
from .sitout import Sale, SitOut, read_sit_out
from .table import Seat

__version__ = "1.3.0"
ENGINE_VERSION = __version__
COMPILED: bool = build.is_compiled(cards)
"""Whether this engine is the build mypyc compiled, or the pure-Python one (``engine.build``, setup.py)."""

__all__ = [
    "CARDS",
    "COMPILED",
    "ENGINE_VERSION",
    "INSTANT_WINS",
    "KNOBS",
    "PRESETS",
    "PRESET_SOURCES",
    "SPELLINGS",
    "BonusFromHand",
    "Card",
    "CardError",
    "CardSet",
    "Carry",
    "Check",
    "ChongtongAtDeal",
    "ChongtongByBonus",
    "Combination",
    "CupPlacement",
    "Deal",
    "DealRuling",
    "DealerBy",
    "DealerDraw",
    "Declared",
    "DrawTime",
    "Evening",
    "EveningError",
    "EveningHand",
    "Event",
    "EventType",
    "Expect",
    "FirstDealer",
    "FlipTiming",
    "GameState",
    "GoScheme",
    "GoStopError",
    "Gobak",
    "HandError",
    "HandResult",
    "IllegalMoveError",
    "InstantPayment",
    "Item",
    "Kind",
    "Knob",
    "LedgerHand",
    "Limit",
    "Log",
    "LogError",
    "Move",
    "NextHand",
    "NotationError",
    "Outcome",
    "Paid",
    "ParsedLog",
    "Payment",
    "Place",
    "PlayerHand",
    "PresetSource",
    "Replay",
    "RuleSet",
    "RulesError",
    "Sale",
    "Score",
    "Seat",
    "Settlement",
    "Shodang",
    "Shortfall",
    "SitOut",
    "Steal",
    "Transfer",
    "TurnOptions",
    "TwoCardBomb",
    "by_id",
    "card_code",
    "checked_rules",
    "evening",
    "find_rules",
    "first_dealer",
    "format_log",
    "parse_cards",
    "parse_log",
    "play",
    "read_card",
    "read_deal",
    "read_log",
    "read_sit_out",
    "replay",
    "resolve",
    "score",
    "settle",
    "settle_up",
]
