"""Rule sets: every house rule of RULES.md 10 as a *knob*, and the five named presets.

A ``RuleSet`` is a frozen record of knob values. Each knob is declared once, as a typed field of it: its value in
the base rule set (korean-2p), what it does, and its bounds; a knob of a few choices is an Enum. ``KNOBS`` (what
validates a request, and what the API schema and the docs show) is read off those fields, and the presets are
the base and their differences from it. A table's house rules are a preset plus overrides:
``resolve({"preset": "korean-3p", "gobak": "double"})``. A new knob is one field here.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Hashable, Mapping
from dataclasses import dataclass, field
from enum import Enum, StrEnum
from functools import lru_cache
from typing import Any, Final

from .cards import BONUS_CARDS, CARDS, CUP, DOUBLE_JUNK, JUNK, CardSet, Kind, Place
from .errors import CardError, HandError, RulesError
from .events import EventType

__all__ = [
    "HAND_SIZE",
    "KNOBS",
    "LAYOUT_SIZE",
    "PRESETS",
    "PRESET_SOURCES",
    "BonusFromHand",
    "ChongtongAtDeal",
    "ChongtongByBonus",
    "CupPlacement",
    "DealRuling",
    "FlipTiming",
    "GoScheme",
    "Gobak",
    "Knob",
    "PresetSource",
    "RuleSet",
    "Shodang",
    "Steal",
    "TwoCardBomb",
    "find_rules",
    "resolve",
]

HAND_SIZE: Final = {2: 10, 3: 7}  # RULES.md 4: cards dealt to each hand, by number of players
LAYOUT_SIZE: Final = {2: 8, 3: 6}  # month cards dealt face up


# --- the choices of the knobs that take one of a few ---------------------------------------------------------


class BonusFromHand(StrEnum):
    """``bonus_from_hand`` (RULES.md 5): the stock top joins the hand and a hand card is played, or the stock top
    is played as if from hand."""

    REPLACE = "replace"
    EXTRA_FLIP = "extra-flip"


class CupPlacement(StrEnum):
    """``sep_animal`` (RULES.md 3): the cup goes where it scores more, or is always an animal."""

    BEST = "best"
    ANIMAL = "animal"


class DealRuling(StrEnum):
    """``floor_four``, ``multiple_chongtong`` (RULES.md 4): a deal that cannot be played as dealt is dealt again
    (no carry), is a nagari, or is won by the dealer (as a chongtong)."""

    REDEAL = "redeal"
    NAGARI = "nagari"
    DEALER_WINS = "dealer-wins"


class ChongtongAtDeal(StrEnum):
    """``chongtong_at_deal`` (RULES.md 4): a chongtong dealt wins at once, or the holder plays on (and may shake
    the four), or the holder chooses which at each deal."""

    WIN = "win"
    PLAY_ON = "play-on"
    CHOICE = "choice"  # the holder chooses, per hand, before the first play (a move of the log)


class ChongtongByBonus(StrEnum):
    """``chongtong_by_bonus`` (RULES.md 4): the card taken into the hand for a bonus card played from hand
    completes a chongtong never, only on the player's first turn, or at any turn."""

    NEVER = "never"
    FIRST = "first"
    ALWAYS = "always"


class TwoCardBomb(StrEnum):
    """``two_card_bomb`` (RULES.md 5): two hand cards of a month played at once onto the two on the layout are
    not a move, a bomb with no multiplier, or a bomb that counts for the bomb multiplier."""

    OFF = "off"
    NO_MULTIPLIER = "no-multiplier"
    BOMB_MULTIPLIER = "bomb-multiplier"


class FlipTiming(StrEnum):
    """``bomb_flip_timing`` (RULES.md 5): a bomb's flip turns at any later turn, or the very next ones."""

    ANY = "any"
    NEXT = "next"


class GoScheme(StrEnum):
    """``go_scheme`` (RULES.md 7): how go calls turn a score into base points."""

    ADD_AND_DOUBLE = "add-and-double"
    DOUBLE_FROM_THREE = "double-from-three"
    CHIPS = "chips"


class Gobak(StrEnum):
    """``gobak`` (RULES.md 8): what a loser who called go pays."""

    NONE = "none"
    DOUBLE = "double"
    PAYS_ALL = "pays-all"
    PAYS_ALL_DOUBLE = "pays-all-double"
    PAYS_ALL_OWN_DOUBLE = "pays-all-own-double"  # every share, and their own doubled (a calculator app's rule)
    BY_TABLE = "by-table"  # double with two players, pays-all with three (the online services' rule)


class Shodang(StrEnum):
    """``shodang`` (RULES.md 8.7): a three-player standoff cannot be called (``off``), or can; when one of the
    two others accepts it and the other declines, and the one who accepted wins, the ``decliner`` pays the
    caller's share too (the caller pays nothing), or the ``caller`` pays the decliner's."""

    OFF = "off"
    DECLINER = "decliner"
    CALLER = "caller"


class Steal(StrEnum):
    """The events that steal junk (RULES.md 6), as ``no_steal_on_last_turn`` names them."""

    CHOK = "chok"
    TTADAK = "ttadak"
    SSEUL = "sseul"
    STACK = "stack"
    JA_PPUK = "ja_ppuk"
    BOMB = "bomb"
    BONUS = "bonus"


# The event each steal is, and the knob of its amount: the one place the knob names and the event names meet.
STEALS: Final[tuple[tuple[Steal, EventType, str], ...]] = (
    (Steal.CHOK, EventType.CHOK, "steal_chok"),
    (Steal.TTADAK, EventType.TTADAK, "steal_ttadak"),
    (Steal.SSEUL, EventType.SSEUL, "steal_sseul"),
    (Steal.STACK, EventType.STACK_CAPTURE, "steal_stack"),
    (Steal.JA_PPUK, EventType.JA_PPUK, "steal_ja_ppuk"),
    (Steal.BOMB, EventType.BOMB, "steal_bomb"),
    (Steal.BONUS, EventType.BONUS, "steal_bonus"),
)
STEAL_NAMES: Final = tuple(steal.value for steal in Steal)
BONUS_IDS: Final = tuple(BONUS_CARDS.ids())


# --- the knobs --------------------------------------------------------------------------------------------------


def _knob(
    default: Any,
    doc: str,
    *,
    minimum: int | None = None,
    maximum: int | None = None,
    max_items: int | None = None,
    items: tuple[str, ...] | type[StrEnum] | None = None,
) -> Any:
    """Declare a knob: its value in the base rule set (korean-2p), what it does (citing RULES.md), its bounds;
    ``items`` are the values a set knob takes (an Enum, or the values themselves)."""
    meta = {"doc": doc, "minimum": minimum, "maximum": maximum, "max_items": max_items, "items": items}
    return field(default=default, metadata=meta)


STAKES: Final = 1000  # the most junk units or points a knob may name
MAX_PUSHES: Final = 5  # the most pushes in a row a table may allow: x32 (RULES.md 11)


@dataclass(frozen=True, slots=True)
class RuleSet:
    """The effective value of every knob; build one with ``resolve``. ``RuleSet()`` is the base, korean-2p.

    A few facts follow from the knobs and are worked out once, when the rule set is built: the cards in
    play (``deck``), what each junk card is worth (``junk_masks``), which rules a payment is checked against
    (``checked``) and what each event steals.
    """

    preset: str = "korean-2p"
    players: int = _knob(2, "number of players (RULES.md 4)", minimum=2, maximum=3)
    target_score: int = _knob(7, "combination score that allows a stop (RULES.md 7)", minimum=1, maximum=100)
    bonus_cards: tuple[str, ...] = _knob(
        ("bonus-2a", "bonus-3"), "bonus cards in the deck (RULES.md 1)", items=BONUS_IDS
    )
    bonus_from_hand: BonusFromHand = _knob(
        BonusFromHand.REPLACE, "what playing a bonus card from hand does (RULES.md 5)"
    )
    double_junk: bool = _knob(True, "nov-double and dec-double count 2 junk units (RULES.md 1)")
    sep_animal: CupPlacement = _knob(CupPlacement.BEST, "how the cup is placed (RULES.md 3)")
    sep_animal_protects: bool = _knob(True, "a loser's cup counts 2 junk units against pibak (RULES.md 3)")
    floor_four: DealRuling = _knob(DealRuling.NAGARI, "four of a month dealt on the layout (RULES.md 4)")
    chongtong_points: int = _knob(
        10, "points of a chongtong instant win, 0 = off (RULES.md 4)", minimum=0, maximum=STAKES
    )
    multiple_chongtong: DealRuling = _knob(DealRuling.NAGARI, "two or more players dealt chongtong (RULES.md 4)")
    allow_shake: bool = _knob(True, "shaking three cards of a month is allowed (RULES.md 5)")
    allow_bomb: bool = _knob(True, "bombs are allowed (RULES.md 5)")
    bomb_flip_turns: int = _knob(2, "flip-only turns a bomb gives (RULES.md 5)", minimum=0, maximum=2)
    bomb_flip_timing: FlipTiming = _knob(
        FlipTiming.ANY, "when a bomb's flip turns are used: at any later turn, or the very next ones (RULES.md 5)"
    )
    ppuk_on_last_turn: bool = _knob(False, "a ppuk can be made with the last hand card (RULES.md 5)")
    steal_chok: int = _knob(1, "junk units taken from each opponent for a chok (RULES.md 6)", minimum=0, maximum=STAKES)
    steal_ttadak: int = _knob(1, "junk units taken for a ttadak (RULES.md 6)", minimum=0, maximum=STAKES)
    steal_sseul: int = _knob(1, "junk units taken for a sseul (RULES.md 6)", minimum=0, maximum=STAKES)
    steal_stack: int = _knob(
        1, "junk units taken for capturing another's ppuk or a dealt stack (RULES.md 6)", minimum=0, maximum=STAKES
    )
    steal_ja_ppuk: int = _knob(
        2, "junk units taken for capturing one's own ppuk (RULES.md 6)", minimum=0, maximum=STAKES
    )
    steal_bomb: int = _knob(1, "junk units taken for a bomb (RULES.md 6)", minimum=0, maximum=STAKES)
    steal_bonus: int = _knob(1, "junk units taken for gaining a bonus card (RULES.md 6)", minimum=0, maximum=STAKES)
    no_steal_on_last_turn: tuple[Steal, ...] = _knob(
        (Steal.CHOK, Steal.TTADAK, Steal.SSEUL, Steal.STACK, Steal.JA_PPUK),
        "events that steal nothing on the player's last turn (RULES.md 6)",
        items=Steal,
    )
    go_scheme: GoScheme = _knob(GoScheme.ADD_AND_DOUBLE, "how go calls turn a score into base points (RULES.md 7)")
    shake_multiplier: int = _knob(2, "factor per winner's shake, 1 = off (RULES.md 8)", minimum=1, maximum=10)
    bomb_multiplier: int = _knob(2, "factor per winner's bomb, 1 = off (RULES.md 8)", minimum=1, maximum=10)
    meongtta_min_animals: int = _knob(7, "winner's animals for meongtta x2, 0 = off (RULES.md 8)", minimum=0, maximum=9)
    pibak_max_loser_junk: int = _knob(
        7, "most junk units a loser can hold and be pibak, -1 = off (RULES.md 8)", minimum=-1, maximum=100
    )
    pibak_zero_exempt: bool = _knob(True, "a loser with no junk at all is not pibak (RULES.md 8)")
    gwangbak: bool = _knob(True, "gwangbak x2 is played (RULES.md 8)")
    gobak: Gobak = _knob(Gobak.DOUBLE, "what a loser who called go pays (RULES.md 8)")
    nagari_multiplier: int = _knob(
        2, "factor per consecutive nagari before the hand (RULES.md 8)", minimum=1, maximum=10
    )
    nagari_cap: int = _knob(0, "largest nagari carry factor, 0 = no cap (RULES.md 8)", minimum=0, maximum=STAKES)
    empty_loser_exempt: bool = _knob(True, "a loser with no captured card pays nothing (RULES.md 8)")
    three_ppuk_points: int = _knob(
        7, "points of a three-ppuk instant win, 0 = off (RULES.md 8)", minimum=0, maximum=STAKES
    )
    heodang_points: int = _knob(0, "points of a heodang instant win, 0 = off (RULES.md 8)", minimum=0, maximum=STAKES)
    first_ppuk_payments: tuple[int, ...] = _knob(
        (7, 14, 21), "payments for a ppuk on the 1st, 2nd, 3rd turn (RULES.md 8)", max_items=3
    )
    first_ttadak_payment: int = _knob(
        7, "payment for a ttadak on the 1st turn, 0 = off (RULES.md 8)", minimum=0, maximum=STAKES
    )
    four_brights_points: int = _knob(4, "points of four brights (RULES.md 2)", minimum=4, maximum=15)
    ten_ribbons_points: int = _knob(
        0,
        "points of all ten ribbons instead of the count, 0 = counted as usual (RULES.md 2)",
        minimum=0,
        maximum=STAKES,
    )
    gwang_palgi: bool = _knob(
        False, "four at a three-player table: one sits out, the fourth sells their brights (RULES.md 4)"
    )
    chongtong_at_deal: ChongtongAtDeal = _knob(
        ChongtongAtDeal.WIN,
        "a chongtong dealt wins at once, is played on and may be shaken, or the holder chooses (RULES.md 4)",
    )
    chongtong_by_bonus: ChongtongByBonus = _knob(
        ChongtongByBonus.NEVER,
        "a bonus card's replacement completes a chongtong: never, first turn, always (RULES.md 4)",
    )
    two_card_bomb: TwoCardBomb = _knob(
        TwoCardBomb.OFF, "two hand cards played onto the two of their month on the layout (RULES.md 5)"
    )
    bonus_on_ppuk: bool = _knob(False, "a bonus card flipped onto a ppuk stays with its stack (RULES.md 5)")
    chok_sseul: bool = _knob(False, "a chok on a layout empty when the turn began is also a sseul (RULES.md 5)")
    steal_dealt_stack: int = _knob(
        -1,
        "junk units taken for capturing a stack dealt on the layout, -1 = as steal_stack (RULES.md 6)",
        minimum=-1,
        maximum=STAKES,
    )
    sep_animal_stealable: bool = _knob(
        False, "a steal may take the cup while its owner counts it as double junk (RULES.md 6)"
    )
    all_in: bool = _knob(False, "in an evening, a loser pays at most their balance; the rest is forgiven (RULES.md 11)")
    limited_liability: bool = _knob(
        False, "in an evening, a winner takes from a hand at most the balance they began it with (RULES.md 11)"
    )
    push: int = _knob(
        0,
        "in an evening, the most pushes in a row, each doubling the next hand, 0 = off (RULES.md 11)",
        minimum=0,
        maximum=MAX_PUSHES,
    )
    ppuk_price: int = _knob(
        0,
        "price of a ppuk: first-turn ppuks in a row pay x1, x2, x4 of it, 0 = first_ppuk_payments (RULES.md 8)",
        minimum=0,
        maximum=STAKES,
    )
    meongbak: bool = _knob(False, "a loser with no animal pays x2 when the winner scores animals (RULES.md 8)")
    three_ppuk_baks: bool = _knob(False, "a three-ppuk win keeps the losers' baks (RULES.md 8)")
    bright_sale_price: int = _knob(
        0,
        "points per bright the fourth sells, paid by each player, 0 = the hand's value (RULES.md 4)",
        minimum=0,
        maximum=STAKES,
    )
    chongtong_play_on_multiplier: int = _knob(
        1, "factor for winning after playing on a chongtong dealt, 1 = off (RULES.md 8)", minimum=1, maximum=10
    )
    first_chok_payment: int = _knob(
        0, "payment for a chok on the 1st turn, 0 = off (RULES.md 8)", minimum=0, maximum=STAKES
    )
    first_bomb_payment: int = _knob(
        0, "payment for a bomb on the 1st turn, 0 = off (RULES.md 8)", minimum=0, maximum=STAKES
    )
    shodang: Shodang = _knob(
        Shodang.OFF, "three players: a shodang may be called, and who pays alone when it splits (RULES.md 8)"
    )

    deck: CardSet = field(init=False, repr=False, compare=False)
    """The cards in play: the 48 month cards and the rule set's bonus cards."""
    unused_bonus: CardSet = field(init=False, repr=False, compare=False)
    junk_masks: tuple[int, int, int] = field(init=False, repr=False, compare=False)
    """The masks of the junk cards worth 1, 2 and 3 units (RULES.md 1), cheapest first; the cup is not among
    them."""
    checked: tuple[str, ...] = field(init=False, repr=False, compare=False)
    """The rules of RULES.md 8 this rule set switches on (the chips go doubling of RULES.md 7 first), in that
    order: each payment of a settlement is checked against every one of them."""
    checked_in_evening: tuple[str, ...] = field(init=False, repr=False, compare=False)
    """``checked`` for a hand of an evening (RULES.md 11), where the push, when the rule set allows it, is
    checked too, right after the nagari carry."""
    hand_size: int = field(init=False, repr=False, compare=False)
    layout_size: int = field(init=False, repr=False, compare=False)
    bright_table: tuple[tuple[int, ...], tuple[int, ...]] = field(init=False, repr=False, compare=False)
    """The points of 0 to 5 brights (RULES.md 2): without the rain bright, and with it."""
    dealt_stack_units: int = field(init=False, repr=False, compare=False)
    """Junk units a stack dealt on the layout takes when captured (RULES.md 6)."""
    gobak_played: Gobak = field(init=False, repr=False, compare=False)
    """The gobak this table size plays (``by-table``: double for two players, pays-all for three, RULES.md 8.3)."""
    ppuk_pays: tuple[int, ...] = field(init=False, repr=False, compare=False)
    """What first-turn ppuks in a row pay (RULES.md 8.6): ``first_ppuk_payments``, or x1, x2, x4 of
    ``ppuk_price``."""
    _steals: dict[EventType, tuple[int, bool]] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        self._check_together()
        put = object.__setattr__  # the record is frozen: these are set once, here
        bonus = CardSet(c for c in BONUS_CARDS if c.id in self.bonus_cards)
        put(self, "deck", _MONTH_CARDS | bonus)
        put(self, "unused_bonus", BONUS_CARDS - bonus)
        doubles = DOUBLE_JUNK.mask if self.double_junk else 0
        put(self, "junk_masks", (JUNK.mask & ~doubles, doubles | _BONUS_WORTH_2.mask, _BONUS_WORTH_3.mask))
        switched_on = (
            ("go", self.go_scheme is GoScheme.CHIPS),
            ("shake", self.shake_multiplier > 1),
            ("bomb", self.bomb_multiplier > 1),
            ("meongtta", self.meongtta_min_animals > 0),
            ("pibak", self.pibak_max_loser_junk >= 0),
            ("gwangbak", self.gwangbak),
            ("meongbak", self.meongbak),
            ("gobak", self.gobak is not Gobak.NONE),
            (
                "chongtong",
                self.chongtong_play_on_multiplier > 1 and self.chongtong_at_deal is not ChongtongAtDeal.WIN,
            ),
            ("nagari", self.nagari_multiplier > 1),
            ("push", self.push > 0),
            ("empty-loser", self.empty_loser_exempt),
        )
        in_evening = tuple(rule for rule, on in switched_on if on)
        put(self, "checked_in_evening", in_evening)
        put(self, "checked", tuple(rule for rule in in_evening if rule != "push"))  # a push is an evening's
        put(self, "hand_size", HAND_SIZE.get(self.players, 0))
        put(self, "layout_size", LAYOUT_SIZE.get(self.players, 0))
        steals = {event: (getattr(self, knob), name in self.no_steal_on_last_turn) for name, event, knob in STEALS}
        put(self, "_steals", steals)
        four = self.four_brights_points
        put(self, "bright_table", ((0, 0, 0, 3, four, 15), (0, 0, 0, 2, four, 15)))
        put(self, "dealt_stack_units", self.steal_stack if self.steal_dealt_stack < 0 else self.steal_dealt_stack)
        gobak = self.gobak
        if gobak is Gobak.BY_TABLE:
            gobak = Gobak.DOUBLE if self.players == 2 else Gobak.PAYS_ALL
        put(self, "gobak_played", gobak)
        price = self.ppuk_price
        put(self, "ppuk_pays", (price, 2 * price, 4 * price) if price else self.first_ppuk_payments)

    def _check_together(self) -> None:
        """Refuse a value the other knobs leave no room for (RulesError ``invalid-knob``, ``not-a-choice``): the
        ``choices`` it has beside them, and the knob it ``depends_on``."""
        if self.gwang_palgi and self.players != 3:  # four at a table of three (RULES.md 4.5)
            raise RulesError(
                "invalid-knob",
                why="not-a-choice",
                knob="gwang_palgi",
                value=repr(True),
                choices=[False],
                depends_on="players",
            )
        for name in ("floor_four", "multiple_chongtong"):  # the dealer wins as a chongtong (RULES.md 4)
            if getattr(self, name) is DealRuling.DEALER_WINS and not self.chongtong_points:
                raise RulesError(
                    "invalid-knob",
                    why="not-a-choice",
                    knob=name,
                    value=repr(DealRuling.DEALER_WINS.value),
                    choices=[DealRuling.REDEAL.value, DealRuling.NAGARI.value],
                    depends_on="chongtong_points",
                )

    def __copy__(self) -> RuleSet:
        return self  # frozen: a copy is the rule set itself

    def __deepcopy__(self, memo: object) -> RuleSet:
        return self

    def asdict(self) -> dict[str, Any]:
        """The ``rules`` echo of API.md: the preset name and every knob (lists as lists, choices as strings)."""
        out: dict[str, Any] = {"preset": self.preset}
        for name in KNOBS:
            value = getattr(self, name)
            if isinstance(value, tuple):
                out[name] = [_plain(v) for v in value]
            else:
                out[name] = _plain(value)
        return out

    def steal(self, event: EventType, last_turn: bool) -> int:
        """Junk units ``event`` takes from each opponent (RULES.md 6); 0 for an event that does not steal."""
        units, spared_on_last_turn = self._steals.get(event, (0, False))
        return 0 if last_turn and spared_on_last_turn else units

    def steal_stack_units(self, dealt: bool, last_turn: bool) -> int:
        """Junk units a stack capture takes from each opponent (RULES.md 6): another's ppuk (``steal_stack``) or a
        stack dealt on the layout (``steal_dealt_stack``); ``stack`` in ``no_steal_on_last_turn`` spares both."""
        units, spared_on_last_turn = self._steals[EventType.STACK_CAPTURE]
        if last_turn and spared_on_last_turn:
            return 0
        return self.dealt_stack_units if dealt else units

    def check_in_play(self, cards: CardSet, *, owner: Place | None = None) -> None:
        """Refuse a bonus card these rules leave out of the deck (CardError ``bonus-not-in-play``)."""
        unused = cards.mask & self.unused_bonus.mask
        if unused:
            card = next(iter(CardSet.from_mask(unused)))
            player = owner.player if owner else None
            raise CardError(
                "bonus-not-in-play",
                card=card.id,
                player=player,
                place=owner,
                preset=self.preset,
                bonus_cards=list(self.bonus_cards),  # those these rules play: the twin of a 2-junk card may be one
            )

    def check_cup_pin(self, pin: str | None, *, player: str | None = None) -> None:
        """Refuse the cup declared as junk where it is always an animal (HandError ``sep-animal-pin``)."""
        if pin == "junk" and self.sep_animal is CupPlacement.ANIMAL:
            raise HandError("sep-animal-pin", player=player, card=CUP.id)

    def check_players(self, ids: list[str]) -> None:
        """Refuse a hand of the wrong number of players or with an id used twice (HandError)."""
        if len(ids) != self.players:
            raise HandError("player-count", players=self.players, given=len(ids), preset=self.preset)
        for i, pid in enumerate(ids):
            if pid in ids[:i]:
                raise HandError("duplicate-player", player=pid)


def _plain(value: Any) -> Any:
    return value.value if isinstance(value, Enum) else value


@dataclass(frozen=True, slots=True)
class Knob:
    """How one knob is typed and bounded, read off its field of ``RuleSet``. ``kind`` is int, bool, choice, set
    or list; ``choices`` are the values a choice or a set takes, and ``enum`` their Enum where they have one."""

    name: str
    kind: str
    doc: str
    choices: tuple[str, ...] = ()
    minimum: int | None = None
    maximum: int | None = None
    max_items: int | None = None
    enum: type[StrEnum] | None = None

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
            if not isinstance(value, str) or value not in self.choices:
                raise bad("not-a-choice", choices=list(self.choices))
            return self.enum(value) if self.enum is not None else value
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
            ordered = [c for c in self.choices if c in value]  # canonical order
            return tuple(self.enum(c) for c in ordered) if self.enum is not None else tuple(ordered)
        if any(isinstance(v, bool) or not isinstance(v, int) or v < 0 for v in value):
            raise bad("not-an-int")
        return tuple(value)


def _knob_of(f: dataclasses.Field[Any]) -> Knob:
    """What a knob's field declares, as validation and the docs read it."""
    default, meta = f.default, f.metadata
    bounds = {"minimum": meta["minimum"], "maximum": meta["maximum"], "max_items": meta["max_items"]}
    items = meta["items"]
    if isinstance(default, bool):
        return Knob(f.name, "bool", meta["doc"])
    if isinstance(default, int):
        return Knob(f.name, "int", meta["doc"], **bounds)
    if isinstance(default, StrEnum):
        return Knob(f.name, "choice", meta["doc"], tuple(m.value for m in type(default)), enum=type(default))
    if items is not None:
        enum = items if isinstance(items, type) else None
        return Knob(f.name, "set", meta["doc"], tuple(str(i) for i in items), enum=enum, **bounds)
    return Knob(f.name, "list", meta["doc"], **bounds)


# What no knob changes, for the sets each rule set derives (built once here, not per rule set)
_MONTH_CARDS: Final = CardSet(c for c in CARDS if c.kind is not Kind.BONUS)
_BONUS_WORTH_2: Final = CardSet(c for c in BONUS_CARDS if c.junk_units == 2)
_BONUS_WORTH_3: Final = CardSet(c for c in BONUS_CARDS if c.junk_units == 3)


KNOBS: Final[dict[str, Knob]] = {
    f.name: _knob_of(f) for f in dataclasses.fields(RuleSet) if f.init and f.name != "preset"
}
"""Every knob by name, in the order of RULES.md 10: its type, bounds and what it does."""
# The presets of RULES.md 10: the base (korean-2p) and each one's differences from it.
_BASE: Final = RuleSet()
_CHIPS: Final[dict[str, Any]] = {  # the English-language article of seeds 000/002/003
    "bonus_cards": (),
    "bonus_from_hand": BonusFromHand.EXTRA_FLIP,
    "double_junk": False,
    "sep_animal": CupPlacement.ANIMAL,
    "sep_animal_protects": False,
    "floor_four": DealRuling.REDEAL,
    "chongtong_points": 5,
    "multiple_chongtong": DealRuling.REDEAL,
    "ppuk_on_last_turn": True,
    "steal_bomb": 0,
    "steal_bonus": 0,
    "no_steal_on_last_turn": (),
    "go_scheme": GoScheme.CHIPS,
    "bomb_multiplier": 1,
    "pibak_max_loser_junk": 5,
    "pibak_zero_exempt": False,
    "gobak": Gobak.NONE,
    "empty_loser_exempt": False,
    "three_ppuk_points": 0,
    "first_ppuk_payments": (),
    "first_ttadak_payment": 0,
}
PRESETS: Final[dict[str, RuleSet]] = {
    r.preset: r
    for r in (
        _BASE,
        dataclasses.replace(  # seed 004's 3-player Go-Stop
            _BASE,
            preset="korean-3p",
            players=3,
            target_score=3,
            bonus_cards=("bonus-2a", "bonus-2b", "bonus-3"),
            chongtong_points=5,
            steal_bonus=0,
            pibak_max_loser_junk=5,
            gobak=Gobak.PAYS_ALL,
            three_ppuk_points=3,
            heodang_points=3,
            first_ppuk_payments=(3, 6, 9),
            first_ttadak_payment=3,
        ),
        dataclasses.replace(_BASE, preset="chips-2p", **_CHIPS),
        dataclasses.replace(_BASE, preset="chips-3p", players=3, target_score=3, **_CHIPS),
        dataclasses.replace(  # the 2-player rule card of seed 001
            _BASE,
            preset="basic-2p",
            bonus_cards=(),
            floor_four=DealRuling.REDEAL,
            chongtong_points=5,
            multiple_chongtong=DealRuling.REDEAL,
            allow_shake=False,
            allow_bomb=False,
            bomb_flip_turns=0,
            ppuk_on_last_turn=True,
            steal_bomb=0,
            steal_bonus=0,
            no_steal_on_last_turn=(Steal.CHOK, Steal.TTADAK, Steal.SSEUL),
            go_scheme=GoScheme.DOUBLE_FROM_THREE,
            shake_multiplier=1,
            bomb_multiplier=1,
            pibak_max_loser_junk=4,
            pibak_zero_exempt=False,
            gobak=Gobak.NONE,
            empty_loser_exempt=False,
            three_ppuk_points=5,
            first_ppuk_payments=(),
            first_ttadak_payment=0,
        ),
    )
}
DEFAULT_PRESET = {2: "korean-2p", 3: "korean-3p"}


@dataclass(frozen=True, slots=True)
class PresetSource:
    """Where a platform preset's rules come from (RULES.md 10.4): the ``service`` and its game, the official
    help pages (``pages``) as a public survey of them cites them, the survey's ``grade`` of those pages (A: the
    operator's current help; B: an archived or moved one; C: an encyclopedia; D: a user's observation), and the
    knobs whose value rests on a weaker source than that, or on none (``uncertain``: the rule book's choice)."""

    service: str
    pages: tuple[str, ...]
    grade: str
    uncertain: tuple[str, ...] = ()


# The platforms' presets (RULES.md 10.4): each online service's help pages, as kywoo26/p2p-gostop's survey
# docs/research/rules-commercial.md reads them, as differences from the base.
_HANGAME = "https://hangame-images.toastoven.net/hangame/pc/gostop/introduce/html/msduelgo/"
_HANGAME_M = "https://mgostop.hangame.com/guide/combine/"
_PMANG = "https://dl.gostop.pmang.cloud/gamerule/"
_NETMARBLE = "https://web.archive.org/web/20080620045735/http://c2.img.netmarble.kr/web/help/cardgame/matgo20/"
_PLATFORMS: Final[tuple[tuple[RuleSet, PresetSource], ...]] = (
    (
        dataclasses.replace(
            _BASE,
            preset="hangame-matgo",
            floor_four=DealRuling.DEALER_WINS,
            multiple_chongtong=DealRuling.DEALER_WINS,
            chongtong_by_bonus=ChongtongByBonus.ALWAYS,
            two_card_bomb=TwoCardBomb.NO_MULTIPLIER,
            pibak_zero_exempt=False,
            empty_loser_exempt=False,
            all_in=True,
            limited_liability=True,
            push=2,
        ),
        PresetSource(
            "Hangame 신맞고 (new Matgo)",
            (
                _HANGAME + "guide_msduelgo01_02.html",
                _HANGAME + "guide_msduelgo02_01.html",
                _HANGAME + "guide_msduelgo04_04.html",
                _HANGAME_M + "02_02_rule.html",
                _HANGAME_M + "02_04_rule.html",
            ),
            "A",
            ("floor_four", "chongtong_by_bonus", "pibak_zero_exempt", "empty_loser_exempt"),
        ),
    ),
    (
        dataclasses.replace(
            _BASE,
            preset="pmang-matgo",
            chongtong_points=7,
            chongtong_at_deal=ChongtongAtDeal.CHOICE,  # 끝내기 (7 points) or 계속하기, at each deal
            two_card_bomb=TwoCardBomb.BOMB_MULTIPLIER,
            no_steal_on_last_turn=(Steal.CHOK, Steal.TTADAK, Steal.SSEUL, Steal.JA_PPUK),
            nagari_cap=8,
            empty_loser_exempt=False,
            first_ppuk_payments=(7,),
            first_ttadak_payment=0,
            limited_liability=True,
        ),
        PresetSource(
            "Pmang 뉴맞고 (new Matgo)",
            (
                _PMANG + "basicRule.pc-newmatgo.md",
                _PMANG + "Rule_01.pc.md",
                _PMANG + "Rule_02.md",
                "https://helpdesk.pmang.com/faq/searchFaq.do?fsCategoryId=PF006001002",
            ),
            "A",
            ("empty_loser_exempt",),
        ),
    ),
    (
        dataclasses.replace(
            _BASE,
            preset="netmarble-matgo",
            chongtong_at_deal=ChongtongAtDeal.CHOICE,  # 그만하기 (10 points) or 계속하기 (x2), at each deal
            chongtong_by_bonus=ChongtongByBonus.FIRST,
            chongtong_play_on_multiplier=2,
            first_chok_payment=7,
            first_bomb_payment=7,
            pibak_zero_exempt=False,
            empty_loser_exempt=False,
            three_ppuk_points=10,
            all_in=True,
        ),
        PresetSource(
            "Netmarble 맞고 2.0 (Matgo 2.0, 2008)",
            (
                _NETMARBLE + "guide04_01.html",
                _NETMARBLE + "guide04_02.html",
                _NETMARBLE + "guide04_04.html",
                "https://web.archive.org/web/20080620045658/http://c2.img.netmarble.kr/web/help/cardgame/matgo20/"
                "guide01_06.html",
            ),
            "B",
            ("floor_four", "multiple_chongtong", "pibak_zero_exempt", "empty_loser_exempt", "steal_bonus"),
        ),
    ),
    (
        dataclasses.replace(
            PRESETS["korean-3p"],
            preset="hangame-gostop",
            floor_four=DealRuling.DEALER_WINS,
            multiple_chongtong=DealRuling.DEALER_WINS,
            chongtong_points=10,
            heodang_points=0,
            gobak=Gobak.BY_TABLE,
            pibak_zero_exempt=False,
            empty_loser_exempt=False,
            all_in=True,
            limited_liability=True,
        ),
        PresetSource(
            "Hangame 고스톱 (Go-Stop for three, the mobile guide's Go-Stop mode)",
            (_HANGAME_M + "04_05_game_mode.html", _HANGAME_M + "02_04_rule.html"),
            "A",
            (
                "bonus_cards",
                "floor_four",
                "pibak_max_loser_junk",
                "pibak_zero_exempt",
                "empty_loser_exempt",
                "first_ppuk_payments",
                "first_ttadak_payment",
                "three_ppuk_points",
            ),
        ),
    ),
    (
        dataclasses.replace(
            PRESETS["korean-3p"],
            preset="pmang-gostop",
            chongtong_points=7,
            gobak=Gobak.BY_TABLE,
            heodang_points=0,
            no_steal_on_last_turn=(Steal.CHOK, Steal.TTADAK, Steal.SSEUL, Steal.JA_PPUK),
            nagari_cap=8,
            empty_loser_exempt=False,
            first_ppuk_payments=(3,),
            first_ttadak_payment=0,
            limited_liability=True,
        ),
        PresetSource(
            "Pmang 고스톱 (Go-Stop for three)",
            (_PMANG + "Rule_01.pc.md", "https://helpdesk.pmang.com/faq/searchFaq.do?fsCategoryId=PF006001002"),
            "A",
            (
                "bonus_cards",
                "steal_bonus",
                "chongtong_points",
                "nagari_cap",
                "empty_loser_exempt",
                "first_ppuk_payments",
                "three_ppuk_points",
            ),
        ),
    ),
)
PRESETS.update((rules.preset, rules) for rules, _ in _PLATFORMS)
PRESET_SOURCES: Final[dict[str, PresetSource]] = {rules.preset: source for rules, source in _PLATFORMS}
"""The sources of the platform presets, by name; the project's own presets (RULES.md 10.1) have none here."""


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
