"""Rule sets: every house rule of RULES.md 10 as a *knob*, and the five named presets.

A ``RuleSet`` is a frozen record of knob values; presets are plain instances of it, and a table's house
rules are a preset plus overrides: ``resolve({"preset": "korean-3p", "gobak": "double"})``. Each knob is
described once in ``KNOBS`` (type, allowed values, what it does), which drives validation, the API
schema and the docs, so a new knob is one line here and one field below.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Hashable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from .cards import BONUS_CARDS, CARDS, CUP, DOUBLE_JUNK, JUNK, CardSet, Kind, Place
from .errors import CardError, HandError, RulesError
from .events import EventType

__all__ = ["HAND_SIZE", "KNOBS", "LAYOUT_SIZE", "PRESETS", "Knob", "RuleSet", "find_rules", "resolve"]

HAND_SIZE = {2: 10, 3: 7}  # RULES.md 4: cards dealt to each hand, by number of players
LAYOUT_SIZE = {2: 8, 3: 6}  # month cards dealt face up

# The events that steal junk (RULES.md 6): the name ``no_steal_on_last_turn`` gives each, the event, and
# the knob of its amount. This table is the one place the knob names and the event names meet.
STEALS: tuple[tuple[str, EventType, str], ...] = (
    ("chok", EventType.CHOK, "steal_chok"),
    ("ttadak", EventType.TTADAK, "steal_ttadak"),
    ("sseul", EventType.SSEUL, "steal_sseul"),
    ("stack", EventType.STACK_CAPTURE, "steal_stack"),
    ("ja_ppuk", EventType.JA_PPUK, "steal_ja_ppuk"),
    ("bomb", EventType.BOMB, "steal_bomb"),
    ("bonus", EventType.BONUS, "steal_bonus"),
)
STEAL_NAMES = tuple(name for name, _, _ in STEALS)


@dataclass(frozen=True, slots=True)
class Knob:
    """How one knob is typed and bounded. ``kind`` is int, bool, choice, set or list."""

    name: str
    kind: str
    doc: str
    choices: tuple[str, ...] = ()
    minimum: int | None = None
    maximum: int | None = None
    max_items: int | None = None

    def check(self, value: Any) -> Any:
        """Return the value in its canonical form, or raise RulesError(``invalid-knob``) naming the knob.

        ``why`` says what is wrong: ``not-a-bool``, ``not-an-int``, ``below-minimum``, ``above-maximum``,
        ``not-a-choice``, ``not-a-list``, ``too-many`` or ``listed-twice``.
        """

        def bad(why: str, **facts: Any) -> RulesError:
            return RulesError("invalid-knob", why=why, knob=self.name, value=repr(value), **facts)

        if self.kind == "bool":
            if not isinstance(value, bool):
                raise bad("not-a-bool")
            return value
        if self.kind == "int":
            if isinstance(value, bool) or not isinstance(value, int):
                raise bad("not-an-int")
            if self.minimum is not None and value < self.minimum:
                raise bad("below-minimum", minimum=self.minimum)
            if self.maximum is not None and value > self.maximum:
                raise bad("above-maximum", maximum=self.maximum)
            return value
        if self.kind == "choice":
            if value not in self.choices:
                raise bad("not-a-choice", choices=list(self.choices))
            return value
        if not isinstance(value, (list, tuple)):
            raise bad("not-a-list")
        if self.max_items is not None and len(value) > self.max_items:
            raise bad("too-many", maximum=self.max_items)
        if self.kind == "set":
            for item in value:
                if item not in self.choices:
                    raise bad("not-a-choice", choices=list(self.choices))
            if len(set(value)) != len(value):
                raise bad("listed-twice")
            return tuple(c for c in self.choices if c in value)  # canonical order
        if any(isinstance(v, bool) or not isinstance(v, int) or v < 0 for v in value):
            raise bad("not-an-int")
        return tuple(value)


def _k(name: str, kind: str, doc: str, **kw: Any) -> Knob:
    return Knob(name, kind, doc, **kw)


_INT0 = {"minimum": 0, "maximum": 1000}
GOBAK = ("none", "double", "pays-all", "pays-all-double")
KNOBS: dict[str, Knob] = {
    k.name: k
    for k in (
        _k("players", "int", "number of players (RULES.md 4)", minimum=2, maximum=3),
        _k("target_score", "int", "combination score that allows a stop (RULES.md 7)", minimum=1, maximum=100),
        _k("bonus_cards", "set", "bonus cards in the deck (RULES.md 1)", choices=tuple(BONUS_CARDS.ids())),
        _k(
            "bonus_from_hand",
            "choice",
            "what playing a bonus card from hand does (RULES.md 5)",
            choices=("replace", "extra-flip"),
        ),
        _k("double_junk", "bool", "nov-double and dec-double count 2 junk units (RULES.md 1)"),
        _k("sep_animal", "choice", "how the cup is placed (RULES.md 3)", choices=("best", "animal")),
        _k("sep_animal_protects", "bool", "a loser's cup counts 2 junk units against pibak (RULES.md 3)"),
        _k("floor_four", "choice", "four of a month dealt on the layout (RULES.md 4)", choices=("redeal", "nagari")),
        _k("chongtong_points", "int", "points of a chongtong instant win, 0 = off (RULES.md 4)", **_INT0),
        _k(
            "multiple_chongtong",
            "choice",
            "two or more players dealt chongtong (RULES.md 4)",
            choices=("redeal", "nagari"),
        ),
        _k("allow_shake", "bool", "shaking three cards of a month is allowed (RULES.md 5)"),
        _k("allow_bomb", "bool", "bombs are allowed (RULES.md 5)"),
        _k("bomb_flip_turns", "int", "flip-only turns a bomb gives (RULES.md 5)", minimum=0, maximum=2),
        _k(
            "bomb_flip_timing",
            "choice",
            "when a bomb's flip turns are used: at any later turn, or the very next ones (RULES.md 5)",
            choices=("any", "next"),
        ),
        _k("ppuk_on_last_turn", "bool", "a ppuk can be made with the last hand card (RULES.md 5)"),
        _k("steal_chok", "int", "junk units taken from each opponent for a chok (RULES.md 6)", **_INT0),
        _k("steal_ttadak", "int", "junk units taken for a ttadak (RULES.md 6)", **_INT0),
        _k("steal_sseul", "int", "junk units taken for a sseul (RULES.md 6)", **_INT0),
        _k(
            "steal_stack", "int", "junk units taken for capturing another's ppuk or a dealt stack (RULES.md 6)", **_INT0
        ),
        _k("steal_ja_ppuk", "int", "junk units taken for capturing one's own ppuk (RULES.md 6)", **_INT0),
        _k("steal_bomb", "int", "junk units taken for a bomb (RULES.md 6)", **_INT0),
        _k("steal_bonus", "int", "junk units taken for gaining a bonus card (RULES.md 6)", **_INT0),
        _k(
            "no_steal_on_last_turn",
            "set",
            "events that steal nothing on the player's last turn (RULES.md 6)",
            choices=STEAL_NAMES,
        ),
        _k(
            "go_scheme",
            "choice",
            "how go calls turn a score into base points (RULES.md 7)",
            choices=("add-and-double", "double-from-three", "chips"),
        ),
        _k("shake_multiplier", "int", "factor per winner's shake, 1 = off (RULES.md 8)", minimum=1, maximum=10),
        _k("bomb_multiplier", "int", "factor per winner's bomb, 1 = off (RULES.md 8)", minimum=1, maximum=10),
        _k(
            "meongtta_min_animals",
            "int",
            "winner's animals for meongtta x2, 0 = off (RULES.md 8)",
            minimum=0,
            maximum=9,
        ),
        _k(
            "pibak_max_loser_junk",
            "int",
            "most junk units a loser can hold and be pibak, -1 = off (RULES.md 8)",
            minimum=-1,
            maximum=100,
        ),
        _k("pibak_zero_exempt", "bool", "a loser with no junk at all is not pibak (RULES.md 8)"),
        _k("gwangbak", "bool", "gwangbak x2 is played (RULES.md 8)"),
        _k("gobak", "choice", "what a loser who called go pays (RULES.md 8)", choices=GOBAK),
        _k(
            "nagari_multiplier",
            "int",
            "factor per consecutive nagari before the hand (RULES.md 8)",
            minimum=1,
            maximum=10,
        ),
        _k("nagari_cap", "int", "largest nagari carry factor, 0 = no cap (RULES.md 8)", **_INT0),
        _k("empty_loser_exempt", "bool", "a loser with no captured card pays nothing (RULES.md 8)"),
        _k("three_ppuk_points", "int", "points of a three-ppuk instant win, 0 = off (RULES.md 8)", **_INT0),
        _k("heodang_points", "int", "points of a heodang instant win, 0 = off (RULES.md 8)", **_INT0),
        _k("first_ppuk_payments", "list", "payments for a ppuk on the 1st, 2nd, 3rd turn (RULES.md 8)", max_items=3),
        _k("first_ttadak_payment", "int", "payment for a ttadak on the 1st turn, 0 = off (RULES.md 8)", **_INT0),
    )
}


# What no knob changes, for the sets each rule set derives (built once here, not per rule set)
_MONTH_CARDS = CardSet(c for c in CARDS if c.kind is not Kind.BONUS)
_BONUS_WORTH_2 = CardSet(c for c in BONUS_CARDS if c.junk_units == 2)
_BONUS_WORTH_3 = CardSet(c for c in BONUS_CARDS if c.junk_units == 3)


@dataclass(frozen=True, slots=True)
class RuleSet:
    """The effective value of every knob; build one with ``resolve``. Field docs live in ``KNOBS``.

    A few facts follow from the knobs and are worked out once, when the rule set is built: the cards in
    play (``deck``), what each junk card is worth (``junk_masks``), and what each event steals.
    """

    preset: str
    players: int
    target_score: int
    bonus_cards: tuple[str, ...]
    bonus_from_hand: str
    double_junk: bool
    sep_animal: str
    sep_animal_protects: bool
    floor_four: str
    chongtong_points: int
    multiple_chongtong: str
    allow_shake: bool
    allow_bomb: bool
    bomb_flip_turns: int
    bomb_flip_timing: str
    ppuk_on_last_turn: bool
    steal_chok: int
    steal_ttadak: int
    steal_sseul: int
    steal_stack: int
    steal_ja_ppuk: int
    steal_bomb: int
    steal_bonus: int
    no_steal_on_last_turn: tuple[str, ...]
    go_scheme: str
    shake_multiplier: int
    bomb_multiplier: int
    meongtta_min_animals: int
    pibak_max_loser_junk: int
    pibak_zero_exempt: bool
    gwangbak: bool
    gobak: str
    nagari_multiplier: int
    nagari_cap: int
    empty_loser_exempt: bool
    three_ppuk_points: int
    heodang_points: int
    first_ppuk_payments: tuple[int, ...]
    first_ttadak_payment: int

    deck: CardSet = field(init=False, repr=False, compare=False)
    """The cards in play: the 48 month cards and the rule set's bonus cards."""
    unused_bonus: CardSet = field(init=False, repr=False, compare=False)
    junk_masks: tuple[int, int, int] = field(init=False, repr=False, compare=False)
    """The masks of the junk cards worth 1, 2 and 3 units (RULES.md 1), cheapest first; the cup is not among
    them."""
    checked: tuple[str, ...] = field(init=False, repr=False, compare=False)
    """The rules of RULES.md 8 this rule set switches on (the chips go doubling of RULES.md 7 first), in that
    order: each payment of a settlement is checked against every one of them."""
    hand_size: int = field(init=False, repr=False, compare=False)
    layout_size: int = field(init=False, repr=False, compare=False)
    _steals: dict[EventType, tuple[int, bool]] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        put = object.__setattr__  # the record is frozen: these are set once, here
        bonus = CardSet(c for c in BONUS_CARDS if c.id in self.bonus_cards)
        put(self, "deck", _MONTH_CARDS | bonus)
        put(self, "unused_bonus", BONUS_CARDS - bonus)
        doubles = DOUBLE_JUNK.mask if self.double_junk else 0
        put(self, "junk_masks", (JUNK.mask & ~doubles, doubles | _BONUS_WORTH_2.mask, _BONUS_WORTH_3.mask))
        switched_on = (
            ("go", self.go_scheme == "chips"),
            ("shake", self.shake_multiplier > 1),
            ("bomb", self.bomb_multiplier > 1),
            ("meongtta", self.meongtta_min_animals > 0),
            ("pibak", self.pibak_max_loser_junk >= 0),
            ("gwangbak", self.gwangbak),
            ("gobak", self.gobak != "none"),
            ("nagari", self.nagari_multiplier > 1),
            ("empty-loser", self.empty_loser_exempt),
        )
        put(self, "checked", tuple(rule for rule, on in switched_on if on))
        put(self, "hand_size", HAND_SIZE.get(self.players, 0))
        put(self, "layout_size", LAYOUT_SIZE.get(self.players, 0))
        steals = {event: (getattr(self, knob), name in self.no_steal_on_last_turn) for name, event, knob in STEALS}
        put(self, "_steals", steals)

    def __copy__(self) -> RuleSet:
        return self  # frozen: a copy is the rule set itself

    def __deepcopy__(self, memo: object) -> RuleSet:
        return self

    def asdict(self) -> dict[str, Any]:
        """The ``rules`` echo of API.md: the preset name and every knob (lists as lists)."""
        out: dict[str, Any] = {"preset": self.preset}
        for name in KNOBS:
            value = getattr(self, name)
            out[name] = list(value) if isinstance(value, tuple) else value
        return out

    def steal(self, event: EventType, last_turn: bool) -> int:
        """Junk units ``event`` takes from each opponent (RULES.md 6); 0 for an event that does not steal."""
        units, spared_on_last_turn = self._steals.get(event, (0, False))
        return 0 if last_turn and spared_on_last_turn else units

    def check_in_play(self, cards: CardSet, *, owner: Place | None = None) -> None:
        """Refuse a bonus card these rules leave out of the deck (CardError ``bonus-not-in-play``)."""
        unused = cards.mask & self.unused_bonus.mask
        if unused:
            card = next(iter(CardSet.from_mask(unused)))
            player = owner.player if owner else None
            raise CardError("bonus-not-in-play", card=card.id, player=player, place=owner, preset=self.preset)

    def check_cup_pin(self, pin: str | None, *, player: str | None = None) -> None:
        """Refuse the cup declared as junk where it is always an animal (HandError ``sep-animal-pin``)."""
        if pin == "junk" and self.sep_animal == "animal":
            raise HandError("sep-animal-pin", player=player, card=CUP.id)

    def check_players(self, ids: list[str]) -> None:
        """Refuse a hand of the wrong number of players or with an id used twice (HandError)."""
        if len(ids) != self.players:
            raise HandError("player-count", players=self.players, given=len(ids), preset=self.preset)
        for i, pid in enumerate(ids):
            if pid in ids[:i]:
                raise HandError("duplicate-player", player=pid)


_LAST_TURN_KOREAN = ("chok", "ttadak", "sseul", "stack", "ja_ppuk")

_KOREAN_2P = RuleSet(
    preset="korean-2p",
    players=2,
    target_score=7,
    bonus_cards=("bonus-2a", "bonus-3"),
    bonus_from_hand="replace",
    double_junk=True,
    sep_animal="best",
    sep_animal_protects=True,
    floor_four="nagari",
    chongtong_points=10,
    multiple_chongtong="nagari",
    allow_shake=True,
    allow_bomb=True,
    bomb_flip_turns=2,
    bomb_flip_timing="any",
    ppuk_on_last_turn=False,
    steal_chok=1,
    steal_ttadak=1,
    steal_sseul=1,
    steal_stack=1,
    steal_ja_ppuk=2,
    steal_bomb=1,
    steal_bonus=1,
    no_steal_on_last_turn=_LAST_TURN_KOREAN,
    go_scheme="add-and-double",
    shake_multiplier=2,
    bomb_multiplier=2,
    meongtta_min_animals=7,
    pibak_max_loser_junk=7,
    pibak_zero_exempt=True,
    gwangbak=True,
    gobak="double",
    nagari_multiplier=2,
    nagari_cap=0,
    empty_loser_exempt=True,
    three_ppuk_points=7,
    heodang_points=0,
    first_ppuk_payments=(7, 14, 21),
    first_ttadak_payment=7,
)
_KOREAN_3P = dataclasses.replace(
    _KOREAN_2P,
    preset="korean-3p",
    players=3,
    target_score=3,
    bonus_cards=("bonus-2a", "bonus-2b", "bonus-3"),
    chongtong_points=5,
    steal_bonus=0,
    pibak_max_loser_junk=5,
    gobak="pays-all",
    three_ppuk_points=3,
    heodang_points=3,
    first_ppuk_payments=(3, 6, 9),
    first_ttadak_payment=3,
)
_CHIPS_2P = RuleSet(
    preset="chips-2p",
    players=2,
    target_score=7,
    bonus_cards=(),
    bonus_from_hand="extra-flip",
    double_junk=False,
    sep_animal="animal",
    sep_animal_protects=False,
    floor_four="redeal",
    chongtong_points=5,
    multiple_chongtong="redeal",
    allow_shake=True,
    allow_bomb=True,
    bomb_flip_turns=2,
    bomb_flip_timing="any",
    ppuk_on_last_turn=True,
    steal_chok=1,
    steal_ttadak=1,
    steal_sseul=1,
    steal_stack=1,
    steal_ja_ppuk=2,
    steal_bomb=0,
    steal_bonus=0,
    no_steal_on_last_turn=(),
    go_scheme="chips",
    shake_multiplier=2,
    bomb_multiplier=1,
    meongtta_min_animals=7,
    pibak_max_loser_junk=5,
    pibak_zero_exempt=False,
    gwangbak=True,
    gobak="none",
    nagari_multiplier=2,
    nagari_cap=0,
    empty_loser_exempt=False,
    three_ppuk_points=0,
    heodang_points=0,
    first_ppuk_payments=(),
    first_ttadak_payment=0,
)
_CHIPS_3P = dataclasses.replace(
    _CHIPS_2P,
    preset="chips-3p",
    players=3,
    target_score=3,
)
_BASIC_2P = RuleSet(
    preset="basic-2p",
    players=2,
    target_score=7,
    bonus_cards=(),
    bonus_from_hand="replace",
    double_junk=True,
    sep_animal="best",
    sep_animal_protects=True,
    floor_four="redeal",
    chongtong_points=5,
    multiple_chongtong="redeal",
    allow_shake=False,
    allow_bomb=False,
    bomb_flip_turns=0,
    bomb_flip_timing="any",
    ppuk_on_last_turn=True,
    steal_chok=1,
    steal_ttadak=1,
    steal_sseul=1,
    steal_stack=1,
    steal_ja_ppuk=2,
    steal_bomb=0,
    steal_bonus=0,
    no_steal_on_last_turn=("chok", "ttadak", "sseul"),
    go_scheme="double-from-three",
    shake_multiplier=1,
    bomb_multiplier=1,
    meongtta_min_animals=7,
    pibak_max_loser_junk=4,
    pibak_zero_exempt=False,
    gwangbak=True,
    gobak="none",
    nagari_multiplier=2,
    nagari_cap=0,
    empty_loser_exempt=False,
    three_ppuk_points=5,
    heodang_points=0,
    first_ppuk_payments=(),
    first_ttadak_payment=0,
)

PRESETS: dict[str, RuleSet] = {r.preset: r for r in (_KOREAN_2P, _KOREAN_3P, _CHIPS_2P, _CHIPS_3P, _BASIC_2P)}
DEFAULT_PRESET = {2: "korean-2p", 3: "korean-3p"}


def find_rules(name: str) -> RuleSet:
    """The preset of that name; raises RulesError(code="unknown-preset")."""
    try:
        return PRESETS[name]
    except (KeyError, TypeError):
        raise RulesError("unknown-preset", knob="preset", preset=str(name), presets=list(PRESETS)) from None


def resolve(spec: str | Mapping[str, Any] | RuleSet | None, *, players: int | None = None) -> RuleSet:
    """Build the rule set a request names: a preset name, ``{"preset": name, knob: value...}``, or None.

    None (or a mapping without ``preset``) starts from the default preset for ``players`` (2 or 3).
    Raises RulesError naming the unknown preset, the unknown knob or the knob with a bad value.
    """
    if isinstance(spec, RuleSet):
        return spec
    if spec is None or isinstance(spec, str):
        return find_rules(spec if spec is not None else DEFAULT_PRESET.get(players or 2, "korean-2p"))
    if not isinstance(spec, Mapping):
        raise RulesError("invalid-knob", why="rules-not-an-object", knob="rules")
    try:
        key = tuple((name, _frozen(value)) for name, value in spec.items())
    except TypeError:  # a value no knob takes (an object, a list of them): refused below, never cached
        return _resolve(spec, players)
    return _resolve_frozen(key, players)


@lru_cache(maxsize=512)
def _resolve_frozen(key: tuple[tuple[Any, Hashable], ...], players: int | None) -> RuleSet:
    """``_resolve`` of a mapping given as its frozen items: a table sends the same house rules with every
    request, and a rule set is a value, so each is built once (a refusal raises, and is not cached)."""
    return _resolve({name: _thawed(value) for name, value in key}, players)


def _frozen(value: Any) -> Hashable:
    """A hashable form of a knob's value that keeps its type (True and 1 are the same key to a dict)."""
    if isinstance(value, (list, tuple)):
        return (type(value).__name__, tuple(_frozen(item) for item in value))
    hash(value)  # TypeError for anything unhashable
    return (type(value).__name__, value)


def _thawed(frozen: Any) -> Any:
    kind, value = frozen
    if kind == "list":
        return [_thawed(item) for item in value]
    if kind == "tuple":
        return tuple(_thawed(item) for item in value)
    return value


def _resolve(spec: Mapping[str, Any], players: int | None) -> RuleSet:
    name = spec.get("preset", DEFAULT_PRESET.get(players or 2, "korean-2p"))
    if not isinstance(name, str):
        raise RulesError("unknown-preset", knob="preset", preset=repr(name), presets=list(PRESETS))
    base = find_rules(name)
    overrides: dict[str, Any] = {}
    for knob_name, value in spec.items():
        if knob_name == "preset":
            continue
        knob = KNOBS.get(knob_name)
        if knob is None:
            raise RulesError("unknown-knob", knob=str(knob_name))
        overrides[knob_name] = knob.check(value)
    if not overrides:
        return base
    return dataclasses.replace(base, **overrides)
