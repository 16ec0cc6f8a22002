"""A logged hand as one value (``Log``), as python-chess has ``pgn.Game``: read from the JSON of a POST /v1/replay
body (``Log.from_dict``) or from the text notation (``Log.parse``, docs/NOTATION.md), written back to either
(``log.to_dict()``, ``log.text()``), and replayed (``log.replay()``: strict, move by move, stopping at the first
illegal move, RULES.md 4-9).

``Log.from_dict`` is the one reader of the JSON shape, for every door (the service, the command, the audit): a
body of the wrong shape is refused with ``LogError`` (``validation-error``, each fault under its field path, the
limits the API documents), and the cards, the rules and the moves with the engine's own refusals, in the order a
replay meets them. ``shape_errors`` is its check of the shape alone: it refuses exactly the bodies the API's
schema refuses (tests/test_replay_shape.py), so the service checks a replay body with it and nothing else, and
reads the body with ``checked=True``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, NamedTuple

from .cards import CARDS
from .deal import Deal, read_deal
from .errors import IllegalMoveError, LogError
from .game import GameState
from .moves import Move
from .notation import format_log, read_log
from .rules import RuleSet, find_rules, resolve
from .settlement import Settlement

__all__ = [
    "MAX_ID_LENGTH",
    "MAX_MOVES",
    "MAX_PLAYERS",
    "MAX_STAKE",
    "MAX_STREAK",
    "Log",
    "Replay",
    "play",
    "replay",
    "shape_errors",
]

# The limits of a POST /v1/replay body (API.md, openapi.yaml): the service's schema documents the same numbers.
MAX_PLAYERS: Final = 3
MAX_ID_LENGTH: Final = 64
MAX_MOVES: Final = 200
MAX_STREAK: Final = 20
MAX_STAKE: Final = 10**9

_BODY_FIELDS: Final = frozenset({"rules", "players", "deal", "moves", "nagari_streak", "stake"})
_DEAL_FIELDS: Final = frozenset({"layout", "hands", "stock", "shown", "sit_out"})
_SIT_OUT_FIELDS: Final = frozenset({"player", "seat", "hand"})
_STRINGS: Final = frozenset({str})
_DICTS: Final = frozenset({dict})

# The faults of a body's shape, in the words the API's schema (marshmallow) gives them, so that a refusal reads
# the same whichever door a body came in by.
_MISSING: Final = "Missing data for required field."
_UNKNOWN: Final = "Unknown field."
_NOT_A_LIST: Final = "Not a valid list."
_NOT_A_STRING: Final = "Not a valid string."
_NOT_AN_INTEGER: Final = "Not a valid integer."
_NOT_AN_OBJECT: Final = "Invalid input type."


class Replay(NamedTuple):
    """A replayed log: the final state, and its settlement when the hand is over."""

    state: GameState
    settlement: Settlement | None


@dataclass(frozen=True, slots=True, init=False)
class Log:
    """The log of one hand: the rules, the players in turn order (the dealer first), the deal (its ``sit_out``
    and ``shown`` included), the moves, and the carry it is priced with (the nagari streak, RULES.md 8; the
    stake, money per point). Two logs of the same hand are equal, however they were written.

    ``written`` is where each move was written when the log was read from text (line, column), so that a
    refusal of ``replay`` names its line; it takes no part in equality.
    """

    rules: RuleSet
    players: tuple[str, ...]
    deal: Deal
    moves: tuple[Move, ...] = ()
    nagari_streak: int = 0
    stake: int = 1
    written: tuple[tuple[int, int], ...] = field(default=(), compare=False, repr=False)

    def __init__(
        self,
        rules: RuleSet,
        players: tuple[str, ...],
        deal: Deal,
        moves: tuple[Move, ...] = (),
        nagari_streak: int = 0,
        stake: int = 1,
        written: tuple[tuple[int, int], ...] = (),
    ) -> None:
        # the fields set as a frozen dataclass's own __init__ sets them, but in this module: that one is Python
        # made at run time, interpreted even where mypyc compiles the class (about 10k instructions a log)
        put = object.__setattr__
        put(self, "rules", rules)
        put(self, "players", players)
        put(self, "deal", deal)
        put(self, "moves", moves)
        put(self, "nagari_streak", nagari_streak)
        put(self, "stake", stake)
        put(self, "written", written)

    # --- reading --------------------------------------------------------------------------------------------

    @staticmethod
    def from_dict(data: Any, *, written: Sequence[tuple[int, int]] = (), checked: bool = False) -> Log:
        """Read the JSON of a POST /v1/replay body (a count written 2.0 is 2, as the API reads it); ``written``:
        where each move was written, when the body was read from text (a refusal names the line too);
        ``checked``: the caller found the body's shape sound (``shape_errors``, or the API's schema, which
        refuses the same bodies), so it is not checked again.

        Raises LogError (``validation-error``, ``errors``: field path -> messages) for a body not of that shape,
        RulesError for rules that cannot be built, IllegalMoveError (``bad-deal``) for a card id that is no card
        in the deal and (``bad-move``, ``unknown-card``) for a move of no known form, naming it. Where a move
        cannot be read, a fault of the deal or of a move before it is raised instead, as a replay meets it.
        """
        if not checked:
            errors = shape_errors(data)
            if errors:
                raise LogError(errors=errors)
        body: dict[str, Any] = data if type(data) is dict else dict(data)  # an exact dict: read in C, compiled
        players = tuple(body["players"])
        rules = resolve(body.get("rules"), players=len(players))
        deal = body["deal"]
        if not isinstance(deal, Deal):
            deal = read_deal(deal)
        moves: list[Move] = []
        for i, move in enumerate(body.get("moves") or ()):
            try:
                moves.append(Move.from_dict(move, index=i) if type(move) is dict else _move(move, i))
            except IllegalMoveError as err:
                fault = err
                try:
                    play(players, rules, deal, moves)  # the deal, or a move before, is refused first
                except IllegalMoveError as first:
                    fault = first
                raise _at(fault, written) from None
        return Log(
            rules,
            players,
            deal,
            tuple(moves),
            _count(body.get("nagari_streak"), 0),
            _count(body.get("stake"), 1),
            tuple(written),
        )

    @staticmethod
    def parse(text: str) -> Log:
        """Read a log in the text notation (docs/NOTATION.md), keeping where each move was written.

        Raises NotationError (``bad-notation``, with ``line`` and ``column``) for text that is not a log, and
        ``from_dict``'s refusals for a log past the API's limits.
        """
        read = read_log(text)
        log = Log.from_dict(read.body)
        return Log(log.rules, log.players, log.deal, log.moves, log.nagari_streak, log.stake, tuple(read.moves))

    # --- writing --------------------------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """The JSON of this log as a POST /v1/replay body (``Log.from_dict`` reads it back to an equal log): the
        rules as their preset's name, with the knobs that differ from it; the carry when it is not the default."""
        out: dict[str, Any] = {
            "rules": rules_spec(self.rules),
            "players": list(self.players),
            "deal": deal_dict(self.deal),
            "moves": [m.to_dict() for m in self.moves],
        }
        if self.nagari_streak:
            out["nagari_streak"] = self.nagari_streak
        if self.stake != 1:
            out["stake"] = self.stake
        return out

    def text(self, spelling: str = "ascii") -> str:
        """This log in the text notation, in ``ascii`` (``1B``, ``go``) or ``korean`` (``1광``, ``고``) spelling;
        ``Log.parse`` reads it back to an equal log. Raises ValueError for a player id on two lines."""
        return format_log(self.to_dict(), spelling=spelling)

    # --- replaying ------------------------------------------------------------------------------------------

    def replay(self) -> Replay:
        """Replay the log from the deal: the final state, and the settlement when the hand is over.

        Raises IllegalMoveError at the first move the rules forbid (``bad-deal`` for a deal that cannot be),
        naming its line and column too when the log was read from text.
        """
        try:
            state = play(self.players, self.rules, self.deal, self.moves)
        except IllegalMoveError as err:
            raise _at(err, self.written) from None
        return Replay(state, state.settle(self.nagari_streak, self.stake) if state.is_over else None)

    def play(self) -> GameState:
        """The state the log leads to, left unpriced (an evening prices it with the carry it works out)."""
        return play(self.players, self.rules, self.deal, self.moves)


# --- the pieces of a body ----------------------------------------------------------------------------------------


def rules_spec(rules: RuleSet) -> str | dict[str, Any]:
    """The ``rules`` of a body for a rule set: its preset's name, with the knobs that differ from the preset."""
    base = find_rules(rules.preset)
    if rules == base:
        return rules.preset
    mine, theirs = rules.asdict(), base.asdict()
    return {"preset": rules.preset, **{k: v for k, v in mine.items() if k != "preset" and theirs.get(k) != v}}


def deal_dict(deal: Deal) -> dict[str, Any]:
    """The card ids of a deal, as a body's ``deal`` holds them (what is unknown left out)."""
    out: dict[str, Any] = {}
    if deal.hands is not None:
        out["hands"] = {pid: [c.id for c in hand] for pid, hand in deal.hands.items()}
    out["layout"] = [c.id for c in deal.layout]
    if deal.stock is not None:
        out["stock"] = [c.id for c in deal.stock]
    if deal.shown:
        out["shown"] = {pid: [c.id for c in cards] for pid, cards in deal.shown.items()}
    if deal.sit_out is not None:
        sitter = deal.sit_out
        out["sit_out"] = {"player": sitter.player, "seat": sitter.seat, "hand": [c.id for c in sitter.hand]}
    return out


def _at(err: IllegalMoveError, written: Sequence[tuple[int, int]]) -> IllegalMoveError:
    """A refusal naming where its move was written, when the log was read from text."""
    if err.move_index is not None and err.move_index < len(written):
        err.written_at(*written[err.move_index])
    return err


def _move(move: Any, index: int) -> Move:
    """A move of a log given as a Move, or as a mapping that is not a dict."""
    return move if isinstance(move, Move) else Move.from_dict(move, index=index)


def _is_object(value: Any) -> bool:
    """A JSON object: a dict (what JSON gives, checked at once) or another mapping (the slow ABC check)."""
    return type(value) is dict or isinstance(value, Mapping)


def _count(value: Any, default: int) -> int:
    if value is None:
        return default
    return int(value)  # a whole number, checked by _shape_errors (2.0 is 2)


def _is_count(value: Any) -> bool:
    """A whole number as JSON Schema reads one: 2 and 2.0, not 2.5, "2" or true."""
    return type(value) is int or (type(value) is float and value.is_integer())


def _all_strings(items: list[Any]) -> bool:
    """Whether every item is exactly a str (what JSON gives). Compiled, a loop comparing a type per item; the
    pure build swaps in one pass in C (below), faster there."""
    return all(type(item) is str for item in items)  # mypyc makes this a plain loop


def _all_dicts(items: list[Any]) -> bool:
    """Whether every item is exactly a dict; as ``_all_strings``."""
    return all(type(item) is dict for item in items)


if __file__.endswith(".py"):  # the pure build: its callers look these up by name
    globals()["_all_strings"] = lambda items: set(map(type, items)) <= _STRINGS
    globals()["_all_dicts"] = lambda items: set(map(type, items)) <= _DICTS


def _sound_cards(value: Any) -> bool:
    """A sound list of card ids, as JSON gives one, checked at once."""
    return type(value) is list and len(value) <= len(CARDS) and _all_strings(value)


def _card_list(value: Any, path: str, errors: dict[str, list[str]], *, required: bool = False) -> None:
    if _sound_cards(value):
        return
    if value is None:
        if required:
            errors[path] = [_MISSING]
    elif not isinstance(value, list):
        errors[path] = [_NOT_A_LIST]
    elif len(value) > len(CARDS):
        errors[path] = [f"Longer than maximum length {len(CARDS)}."]
    elif not set(map(type, value)) <= {str}:
        errors[path] = [_NOT_A_STRING]


def _id(value: Any, path: str, errors: dict[str, list[str]]) -> None:
    if not isinstance(value, str):
        errors[path] = [_NOT_A_STRING]
    elif not 1 <= len(value) <= MAX_ID_LENGTH:
        errors[path] = [f"Length must be between 1 and {MAX_ID_LENGTH}."]


def _count_in(value: Any, path: str, top: int, errors: dict[str, list[str]]) -> None:
    if not _is_count(value):
        errors[path] = [_NOT_AN_INTEGER]
    elif not 0 <= value <= top:
        errors[path] = [f"Must be greater than or equal to 0 and less than or equal to {top}."]


def _sit_out(value: Any, errors: dict[str, list[str]]) -> None:
    """The shape of ``deal.sit_out`` (RULES.md 4.5)."""
    if value is None:
        return
    if not _is_object(value):
        errors["deal.sit_out"] = [_NOT_AN_OBJECT]
        return
    errors.update({f"deal.sit_out.{k}": [_UNKNOWN] for k in value if k not in _SIT_OUT_FIELDS})
    player = value.get("player")
    if player is None:
        errors["deal.sit_out.player"] = [_MISSING]
    else:
        _id(player, "deal.sit_out.player", errors)
    seat = value.get("seat")
    if seat is None:
        errors["deal.sit_out.seat"] = [_MISSING]
    elif not _is_count(seat):
        errors["deal.sit_out.seat"] = [_NOT_AN_INTEGER]
    if "hand" in value and value["hand"] is None:
        errors["deal.sit_out.hand"] = ["Field may not be null."]
    elif "hand" in value:
        _card_list(value["hand"], "deal.sit_out.hand", errors)


def shape_errors(data: Any) -> dict[str, list[str]]:
    """What is wrong with the shape of a POST /v1/replay body ({field path: messages}; empty when nothing),
    as the API's schema names it: fields unknown, missing or of the wrong type, and the documented limits.
    The check ``Log.from_dict`` makes first; of JSON, it refuses the bodies the API's schema refuses, no more
    and no fewer (the schema's words may be more, or other: the service has the schema say a refusal)."""
    if not _is_object(data):
        return {"_schema": [_NOT_AN_OBJECT]}
    return _shape_errors(data)


def _shape_errors(data: Mapping[str, Any]) -> dict[str, list[str]]:
    # the body and its deal as exact dicts (what JSON gives): read in C where compiled, not through Mapping's
    # methods; a path is written out only for a fault
    body: dict[str, Any] = data if type(data) is dict else dict(data)
    errors: dict[str, list[str]] = {}
    if not _BODY_FIELDS.issuperset(body):
        errors.update({str(k): [_UNKNOWN] for k in body if k not in _BODY_FIELDS})
    rules = body.get("rules")
    if rules is not None and not (type(rules) is str or _is_object(rules) or isinstance(rules, RuleSet)):
        errors["rules"] = ["must be a preset name or an object of knob overrides"]
    players = body.get("players")
    if players is None:
        errors["players"] = [_MISSING]
    elif not isinstance(players, (list, tuple)):
        errors["players"] = [_NOT_A_LIST]
    elif not 2 <= len(players) <= MAX_PLAYERS:
        errors["players"] = [f"Length must be between 2 and {MAX_PLAYERS}."]
    else:
        for i, player in enumerate(players):
            if type(player) is not str or not 0 < len(player) <= MAX_ID_LENGTH:
                _id(player, f"players.{i}", errors)
    given = body.get("deal")
    if given is None:
        errors["deal"] = [_MISSING]
    elif isinstance(given, Deal):
        pass
    elif not _is_object(given):
        errors["deal"] = [_NOT_AN_OBJECT]
    else:
        deal: dict[str, Any] = given if type(given) is dict else dict(given)
        if not _DEAL_FIELDS.issuperset(deal):
            errors.update({f"deal.{k}": [_UNKNOWN] for k in deal if k not in _DEAL_FIELDS})
        layout = deal.get("layout")
        if not _sound_cards(layout):
            _card_list(layout, "deal.layout", errors, required=True)
        stock = deal.get("stock")
        if stock is not None and not _sound_cards(stock):
            _card_list(stock, "deal.stock", errors)
        for name in ("hands", "shown"):
            held = deal.get(name)
            if held is not None and not _is_object(held):
                errors[f"deal.{name}"] = ["Not a valid mapping type."]
            elif held:
                each: dict[Any, Any] = held if type(held) is dict else dict(held)
                for who, cards in each.items():
                    if not _sound_cards(cards):
                        _card_list(cards, f"deal.{name}.{who}.value", errors, required=True)
        _sit_out(deal.get("sit_out"), errors)
    moves = body.get("moves", [])
    if not isinstance(moves, (list, tuple)):
        errors["moves"] = [_NOT_A_LIST]
    elif len(moves) > MAX_MOVES:
        errors["moves"] = [f"Longer than maximum length {MAX_MOVES}."]
    elif type(moves) is not list or not _all_dicts(moves):  # JSON gives a list of dicts
        errors.update(
            {f"moves.{i}": ["Not a valid move object."] for i, m in enumerate(moves) if not isinstance(m, (dict, Move))}
        )
    if "nagari_streak" in body:
        _count_in(body["nagari_streak"], "nagari_streak", MAX_STREAK, errors)
    if "stake" in body:
        _count_in(body["stake"], "stake", MAX_STAKE, errors)
    return errors


# --- replaying from the pieces -----------------------------------------------------------------------------------


def replay(
    players: Sequence[str],
    rules: RuleSet,
    deal: Deal | Mapping[str, Any],
    moves: Iterable[Move | Mapping[str, Any]],
    *,
    nagari_streak: int = 0,
    stake: int = 1,
) -> Replay:
    """Replay a log given by its pieces; raises IllegalMoveError at the first move the rules forbid.

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
