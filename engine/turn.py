"""One turn (RULES.md 5 and 6): planned in full against the table before anything moves, then applied.

``plan`` reads a move against the table and raises ``IllegalMoveError`` for anything the rules forbid; what
it returns, a ``Plan``, is an immutable value that says exactly what the turn will do: the cards that leave
the hand, what meets the layout, what the stock turns up, which card each choice takes. Only ``apply`` moves
the cards, records the events and takes the steals. What follows a turn (first-turn payments, instant wins,
go or stop, whose turn is next) is the game's business, not the turn's.

How a card meets the layout (RULES.md 5) is written once, in ``meets``: the game's list of legal moves asks
the same question.
"""

from __future__ import annotations

from typing import Final

from .cards import Card, popcount
from .deal import four_of_a_month
from .errors import IllegalMoveError
from .events import EventType
from .moves import Move
from .rules import BonusFromHand, ChongtongAtDeal, ChongtongByBonus, RuleSet, TwoCardBomb
from .table import Seat, Table

__all__ = [
    "Plan",
    "apply",
    "asks_choice",
    "bonus_then",
    "can_bomb",
    "can_shake",
    "can_two_card_bomb",
    "choices",
    "chongtong_by_bonus",
    "draw_asks_choice",
    "plan",
]

# Read on every turn, so bound once: in CPython 3.11 reading a member off its Enum class costs 5x a global.
BONUS_MONTH: Final = 0  # bonus cards have no month
CHOK: Final = EventType.CHOK
TTADAK: Final = EventType.TTADAK
SSEUL: Final = EventType.SSEUL
PPUK: Final = EventType.PPUK
BOMB: Final = EventType.BOMB
SHAKE: Final = EventType.SHAKE
BONUS: Final = EventType.BONUS
JA_PPUK: Final = EventType.JA_PPUK
STACK_CAPTURE: Final = EventType.STACK_CAPTURE
TWO_CARD_OFF: Final = TwoCardBomb.OFF
WIN_AT_DEAL: Final = ChongtongAtDeal.WIN
PLAY_ON: Final = ChongtongAtDeal.PLAY_ON
NO_CARDS: Final[tuple[Card, ...]] = ()


class Plan:
    """A turn checked against the table, and everything it will do there: a value nothing changes once made.

    ``leaving`` is the mask of the cards that leave the hand (``hidden_leaving`` of them were hidden until
    now); ``taken_in`` / ``hidden_in`` a card entering the hand (a bonus card played under ``replace``);
    ``stock_used`` the cards it takes off the stock, of which ``bonus_gained`` are bonus cards; ``played`` the
    card meeting the layout (three for a bomb); ``shown`` a shake's three cards; ``draw`` the flipped card;
    ``capture`` and ``draw_capture`` the layout card chosen of two; ``last``: the player's last turn (no hand
    card and no flip turn left after it, RULES.md 5); ``draw_bonus``: how many of ``bonus_gained`` the flip of
    ``draw`` turned up (the last ones); ``chongtong``: the month of a chongtong the card taken in for a bonus card
    completed (RULES.md 4.3), 0 for none: the turn ends there.
    """

    __slots__ = (
        "bonus_gained",
        "capture",
        "chongtong",
        "draw",
        "draw_bonus",
        "draw_capture",
        "hidden_in",
        "hidden_leaving",
        "last",
        "leaving",
        "move",
        "move_index",
        "played",
        "seat",
        "shown",
        "stock_used",
        "taken_in",
    )

    def __init__(
        self,
        seat: Seat,
        move: Move,
        move_index: int,
        leaving: int,
        hidden_leaving: int,
        taken_in: Card | None,
        hidden_in: int,
        stock_used: int,
        bonus_gained: tuple[Card, ...],
        played: tuple[Card, ...],
        shown: tuple[Card, ...],
        draw: Card | None,
        capture: Card | None,
        draw_capture: Card | None,
        last: bool,
        draw_bonus: int = 0,
        chongtong: int = 0,
    ) -> None:
        self.seat: Final = seat
        self.move: Final = move
        self.move_index: Final = move_index
        self.leaving: Final = leaving
        self.hidden_leaving: Final = hidden_leaving
        self.taken_in: Final = taken_in
        self.hidden_in: Final = hidden_in
        self.stock_used: Final = stock_used
        self.bonus_gained: Final = bonus_gained
        self.played: Final = played
        self.shown: Final = shown
        self.draw: Final = draw
        self.capture: Final = capture
        self.draw_capture: Final = draw_capture
        self.last: Final = last
        self.draw_bonus: Final = draw_bonus
        self.chongtong: Final = chongtong


# --- the rules of a card meeting the layout (RULES.md 5), for planning and for listing moves -------------


def meets(table: Table, card: Card) -> int:
    """How many layout cards of its month a card meets: 0 it stays, 1 a pair, 2 a choice, 3 the stack."""
    return len(table.layout[card.month])


def asks_choice(table: Table, month: int) -> bool:
    """Whether a card of ``month`` meeting the layout takes one of two cards the player names (RULES.md 5)."""
    return len(table.layout[month]) == 2


def draw_asks_choice(table: Table, month: int, played_month: int) -> bool:
    """Whether the card turned over, of ``month``, takes one of two layout cards the player names (RULES.md 5.2):
    two lie there and it is not of the month of the card played this turn (``played_month``; 0 when no card was
    played, or for a bomb, which takes every card of its month), whose card it meets instead: a jjok, a ppuk or
    a ttadak, never a choice."""
    return month != played_month and asks_choice(table, month)


def choices(table: Table, card: Card) -> list[Card]:
    """The layout cards a card must choose between (two of its month lie there), else none."""
    return list(table.layout[card.month]) if asks_choice(table, card.month) else []


def alike(a: Card, b: Card) -> bool:
    """Two cards the same to every rule (kind, junk units, the tags combinations and knobs read): which of the
    two a capture takes changes no score, only which card stays (RULES.md 5.1)."""
    return a.kind is b.kind and a.junk_units == b.junk_units and a.tags == b.tags


def bonus_stock_taken(rules: RuleSet) -> int:
    """The stock cards a bonus card played from hand takes before the turn's play (RULES.md 5.6): the stock top
    into the hand when it is replaced; none with an extra flip (the stock top turned over is the play)."""
    return 1 if rules.bonus_from_hand is BonusFromHand.REPLACE else 0


def bonus_then(rules: RuleSet) -> tuple[str, ...]:
    """What may follow a bonus card played from hand in the same turn (RULES.md 5.6), in the move format's words:
    when it is replaced by the stock top, a hand card played (``play``), perhaps shaken (``shake``) or in a bomb
    (``bomb``), or nothing when only bonus cards were left (``nothing``); with an extra flip, the stock top turned
    over and played (``extra-flip``), never a shake or a bomb."""
    if rules.bonus_from_hand is BonusFromHand.REPLACE:
        return ("play", "shake", "bomb", "nothing")
    return ("extra-flip",)


def three_of_a_month(cards: tuple[Card, ...]) -> bool:
    """Three different month cards of one month: what a shake shows and a bomb plays (RULES.md 5)."""
    if len(cards) != 3:
        return False
    a, b, c = cards
    return a.month == b.month == c.month != BONUS_MONTH and a.index != b.index != c.index != a.index


def of_one_month(cards: tuple[Card, ...], count: int) -> bool:
    """``count`` different month cards of one month (two for a two-card bomb, four for a chongtong)."""
    if len(cards) != count or cards[0].month == BONUS_MONTH:
        return False
    month, mask = cards[0].month, 0
    for card in cards:
        if card.month != month:
            return False
        mask |= card.bit
    return popcount(mask) == count


def can_shake(table: Table, month: int) -> bool:
    """A shake of ``month`` is allowed when the rules have shakes and the layout holds none of it."""
    return table.rules.allow_shake and not table.layout[month]


def can_bomb(table: Table, month: int) -> bool:
    """A bomb of ``month`` is allowed when the rules have bombs and its fourth card lies alone on the layout."""
    return table.rules.allow_bomb and len(table.layout[month]) == 1


def can_two_card_bomb(table: Table, month: int) -> bool:
    """A two-card bomb of ``month`` is allowed when the rules have them and two of its cards lie on the layout."""
    return table.rules.two_card_bomb is not TWO_CARD_OFF and len(table.layout[month]) == 2


def bomb_flip_turns(table: Table, cards: int) -> int:
    """The flip turns a bomb of ``cards`` hand cards gives (RULES.md 5.5): ``bomb_flip_turns`` for three, one fewer
    for two."""
    turns = table.rules.bomb_flip_turns
    return turns if cards == 3 else max(turns - 1, 0)


def chongtong_by_bonus(table: Table, seat: Seat) -> bool:
    """A card taken into the hand for a bonus card may complete a chongtong now (RULES.md 4.3): the rules win
    chongtong at once and let a bonus card's replacement complete one, on this turn of the player's."""
    rules = table.rules
    when = rules.chongtong_by_bonus
    # a chongtong dealt that may be chosen (choice) is won at the deal; only play-on sets completion aside
    if when is ChongtongByBonus.NEVER or not rules.chongtong_points or rules.chongtong_at_deal is PLAY_ON:
        return False
    return when is ChongtongByBonus.ALWAYS or seat.turns == 0


# --- planning ----------------------------------------------------------------------------------------------


class _Planner:
    """Reads one move against the table, collecting what the turn will do; raises and changes nothing."""

    __slots__ = (
        "bonus_gained",
        "capture",
        "chongtong",
        "hidden_in",
        "hidden_leaving",
        "leaving",
        "move",
        "move_index",
        "played",
        "seat",
        "shown",
        "stated_used",
        "stock_used",
        "table",
        "taken_in",
    )

    def __init__(self, table: Table, seat: Seat, move: Move, move_index: int) -> None:
        self.table = table
        self.seat = seat
        self.move = move
        self.move_index = move_index
        self.leaving = 0
        self.hidden_leaving = 0
        self.taken_in: Card | None = None
        self.hidden_in = 0
        self.stock_used = 0
        self.stated_used = 0  # entries of bonus_flipped consumed
        self.bonus_gained: tuple[Card, ...] = ()
        self.played: tuple[Card, ...] = ()
        self.shown: tuple[Card, ...] = ()
        self.capture: Card | None = None
        self.chongtong = 0

    def unseen(self) -> int:
        """The cards a hidden hand may hold now: those nobody has seen, and, once the hand took a hidden card off
        the stock this turn, the cards known to lie in it (RULES.md 4.5)."""
        table = self.table
        return table.unseen | table.in_stock if self.hidden_in else table.unseen

    def fail(self, code: str, card: Card | None = None, *, why: str | None = None, **facts: object) -> IllegalMoveError:
        return IllegalMoveError(
            code, why=why, move_index=self.move_index, player=self.seat.id, card=card.id if card else None, **facts
        )

    def play(self) -> None:
        move = self.move
        card = move.play
        assert card is not None
        if card.month == BONUS_MONTH:
            raise self.fail("bad-move", card, why="bonus-with-play")
        if move.shake:
            self.shake()
        if self.seat.hand_mask & card.bit:  # the usual case: a card known to be in the hand
            self.leaving |= card.bit
        else:
            self.take_from_hand((card,), "play")
        self.played = (card,)
        self.capture = self.choose(card, move.capture, "capture")

    def shake(self) -> None:
        table, seat, move = self.table, self.seat, self.move
        cards = move.shake
        if not table.rules.allow_shake:
            raise self.fail("shake-not-allowed", why="shake-off")
        # RULES.md 4.3: three cards of a month, or a chongtong played on (by the rules or the holder's choice)
        four = table.rules.chongtong_at_deal is not WIN_AT_DEAL and of_one_month(cards, 4)
        if not four and not three_of_a_month(cards):
            raise self.fail("shake-not-allowed", why="not-three-of-a-month", cards=list(cards))
        month = cards[0].month
        if move.play not in cards:
            raise self.fail("shake-not-allowed", move.play, why="plays-another", cards=list(cards))
        if not can_shake(table, month):
            raise self.fail("shake-not-allowed", why="month-on-layout", month=month, layout=list(table.layout[month]))
        hidden_needed = 0
        taken_in = self.taken_in.bit if self.taken_in is not None else 0
        for card in cards:
            if (seat.hand_mask | taken_in) & card.bit:
                continue
            if not self.unseen() & card.bit:
                raise self.not_in_hand(card, "shake")
            hidden_needed += 1
        if hidden_needed > seat.hidden + self.hidden_in:
            raise self.fail("card-not-in-hand", why="cannot-hold", cards=list(cards))
        self.shown = cards

    def bomb(self) -> None:
        table, move = self.table, self.move
        cards = move.bomb
        if len(cards) == 2 and table.rules.two_card_bomb is not TWO_CARD_OFF:
            # RULES.md 5.5: two hand cards onto the two of their month on the layout
            if not of_one_month(cards, 2):
                raise self.fail("bomb-not-allowed", why="not-two-of-a-month", cards=list(cards))
            month = cards[0].month
            if not can_two_card_bomb(table, month):
                raise self.fail(
                    "bomb-not-allowed", why="not-two-on-layout", month=month, layout=list(table.layout[month])
                )
            self.take_from_hand(cards, "bomb")
            self.played = cards
            return
        if not table.rules.allow_bomb:
            raise self.fail("bomb-not-allowed", why="bomb-off")
        if not three_of_a_month(cards):
            raise self.fail("bomb-not-allowed", why="not-three-of-a-month", cards=list(cards))
        month = cards[0].month
        if not can_bomb(table, month):
            raise self.fail("bomb-not-allowed", why="fourth-not-alone", month=month, layout=list(table.layout[month]))
        self.take_from_hand(cards, "bomb")
        self.played = cards

    def bonus(self) -> None:
        table, seat, move, rules = self.table, self.seat, self.move, self.table.rules
        card = move.bonus
        assert card is not None
        if card.month != BONUS_MONTH:
            raise self.fail("bad-move", card, why="not-a-bonus-card")
        if not rules.deck.mask & card.bit:
            raise self.fail("bonus-not-in-play", card, preset=rules.preset, bonus_cards=list(rules.bonus_cards))
        self.take_from_hand((card,), "bonus")
        if rules.bonus_from_hand is BonusFromHand.REPLACE:
            # the stock top goes into the hand, unseen by the others; the hand card played after it may be a
            # shake or a bomb, counted with that card in the hand (RULES.md 5)
            if table.stock_left > 0:
                if table.stock is not None:
                    self.taken_in = table.stock_top()
                else:
                    self.hidden_in = 1
                self.stock_used = 1
            if move.chongtong or (self.taken_in is not None and not seat.hidden and chongtong_by_bonus(table, seat)):
                self.chongtong = self.completed_chongtong()
                if self.chongtong:
                    if move.play is not None or move.bomb or move.draw is not None or move.bonus_flipped:
                        raise self.fail("game-over", why="after-chongtong", month=self.chongtong)
                    return
            if move.bomb:
                self.bomb()
            elif move.play is not None:
                self.play()
            elif any(c.month != BONUS_MONTH for c in (*seat.hand, self.taken_in) if c is not None):
                # with hidden cards, the log's word that none is a month card is taken
                raise self.fail("bad-move", why="bonus-then-nothing")
            return
        # extra-flip: the stock top is played as if it were the hand card
        if move.chongtong:
            raise self.fail("chongtong-not-allowed", why="extra-flip", cards=list(move.chongtong))
        if move.shake:
            raise self.fail("shake-not-allowed", why="after-extra-flip")
        if move.bomb:
            raise self.fail("bomb-not-allowed", why="after-extra-flip")
        flipped = self.flip(move.play, "extra-flip")
        if flipped is not None:
            self.played = (flipped,)
            self.capture = self.choose(flipped, move.capture, "capture")

    def completed_chongtong(self) -> int:
        """The month of the chongtong the card just taken in completes (RULES.md 4.3), or 0: what a known hand
        shows, or what the log claims (``chongtong``: the four cards), checked against what the hand can hold."""
        table, seat, move = self.table, self.seat, self.move
        claimed = move.chongtong
        taken_in = self.taken_in.bit if self.taken_in is not None else 0
        if not claimed:  # a known hand and stock: the engine sees it
            month = four_of_a_month(seat.hand_mask | taken_in)
            return month if month is not None and self.taken_in is not None and month == self.taken_in.month else 0
        if not chongtong_by_bonus(table, seat):
            why = "after-first-turn" if table.rules.chongtong_by_bonus is ChongtongByBonus.FIRST else "off"
            raise self.fail("chongtong-not-allowed", why=why, cards=list(claimed))
        if not of_one_month(claimed, 4):
            raise self.fail("chongtong-not-allowed", why="not-four-of-a-month", cards=list(claimed))
        hidden_needed, new = 0, False
        for card in claimed:
            if taken_in & card.bit:
                new = True
            elif not seat.hand_mask & card.bit:
                if not self.unseen() & card.bit:
                    raise self.not_in_hand(card, "chongtong")
                hidden_needed += 1
        # the card taken in is one of the four: known, or one of the hidden cards
        new = new or (self.hidden_in > 0 and hidden_needed > 0)
        if not new or hidden_needed > seat.hidden + self.hidden_in:
            raise self.fail("chongtong-not-allowed", why="cannot-hold", cards=list(claimed))
        return claimed[0].month

    def take_from_hand(self, cards: tuple[Card, ...], action: str) -> None:
        """Check that the cards can leave the hand; they are counted into ``leaving``."""
        seat = self.seat
        taken_in = self.taken_in.bit if self.taken_in is not None else 0
        unseen = self.unseen()
        for card in cards:
            bit = card.bit
            if self.leaving & bit:
                raise self.fail("bad-move", card, why="card-twice", action=action)
            if (seat.hand_mask | taken_in) & bit:
                self.leaving |= bit
            elif unseen & bit and seat.hidden + self.hidden_in - self.hidden_leaving > 0:
                self.hidden_leaving += 1
                self.leaving |= bit
            else:
                raise self.not_in_hand(card, action)

    def not_in_hand(self, card: Card, action: str) -> IllegalMoveError:
        seat, table = self.seat, self.table
        if self.unseen() & card.bit or seat.hidden + self.hidden_in == 0:
            return self.fail("card-not-in-hand", card, action=action)
        return self.fail("card-already-seen", card, action=action, seen=table.locate(card))

    def flip(self, stated: Card | None, role: str) -> Card | None:
        """The next month card off the stock (bonus cards on the way go to ``bonus_gained``)."""
        table = self.table
        stock = table.stock
        while table.stock_left - self.stock_used > 0:
            card = stock[table.stock_pos + self.stock_used] if stock is not None else self.stated_flip(stated, role)
            self.stock_used += 1
            if card.month == BONUS_MONTH:
                self.bonus_gained += (card,)
                if stated is not None and stated.index == card.index:
                    stated = None  # the flips as they happened: this bonus card first, then the next
                continue
            if stated is not None and stated.index != card.index:
                raise self.fail("draw-mismatch", stated, why="not-the-top", role=role, top=card)
            return card
        if stated is not None:
            raise self.fail("draw-mismatch", stated, why="stock-empty", role=role)
        return None

    def stated_flip(self, stated: Card | None, role: str) -> Card:
        """With an unknown stock, the log says what came up: the listed bonus cards first, then the card."""
        table = self.table
        listed = self.move.bonus_flipped or ()
        if self.stated_used < len(listed):
            card = listed[self.stated_used]
            self.stated_used += 1
            if card.month != BONUS_MONTH:
                raise self.fail("bad-move", card, why="bonus-flipped-not-bonus")
        elif stated is None:
            if self.bonus_gained:  # the log named a bonus card as the draw, and nothing after it
                raise self.fail("draw-required", why="after-bonus-draw", role=role, bonus=self.bonus_gained[-1])
            raise self.fail("draw-required", role=role)
        else:
            card = stated
        bit = card.bit
        this_turn = self.leaving
        for other in (*self.bonus_gained, *self.played):
            this_turn |= other.bit
        drawable = table.unseen | table.in_stock  # unseen, or known to lie in the stock (RULES.md 4.5)
        if not drawable & bit or this_turn & bit:
            seen = table.locate(card) if not drawable & bit else None
            raise self.fail("card-already-seen", card, action=role, seen=seen, this_turn=seen is None)
        return card

    def check_bonus_flipped(self, listed: tuple[Card, ...]) -> None:
        if self.table.stock is None and self.stated_used < len(listed):
            extra = listed[self.stated_used]
            raise self.fail("draw-mismatch", extra, why="bonus-not-flipped")
        if self.table.stock is not None and listed != self.bonus_gained:
            raise self.fail("draw-mismatch", why="bonus-list", flipped=list(self.bonus_gained), listed=list(listed))

    def choose(self, card: Card, choice: Card | None, field: str) -> Card | None:
        """How a card meets the layout of its month; the chosen card when two were there."""
        here = self.table.layout[card.month]
        if asks_choice(self.table, card.month):
            if choice is None:
                raise self.fail("capture-required", card, field=field, layout=list(here))
            if choice not in here:
                raise self.fail("capture-not-allowed", choice, why="not-on-layout", field=field, layout=list(here))
            return choice
        if choice is not None:
            raise self.fail("capture-not-allowed", choice, why="no-choice", field=field, played=card)
        return None


def plan(table: Table, seat: Seat, move: Move, move_index: int, flip_due: bool) -> Plan:
    """Check a turn of ``seat`` against the table; raises IllegalMoveError and changes nothing.

    ``flip_due``: the seat must use a held flip turn now (RULES.md 5).
    """
    p = _Planner(table, seat, move, move_index)
    if move.flip:
        if not seat.flip_turns:
            raise p.fail("flip-not-allowed")
    elif flip_due:
        raise p.fail("flip-required", why="flip-required-next" if seat.hand_size else "flip-required-empty")
    if move.bonus is not None:
        p.bonus()
    elif move.bomb:
        p.bomb()
    elif move.play is not None:
        p.play()
    hand_after = popcount(seat.hand_mask) + seat.hidden + p.hidden_in + (p.taken_in is not None)
    hand_after -= popcount(p.leaving)
    flips_after = seat.flip_turns - move.flip + (bomb_flip_turns(table, len(move.bomb)) if move.bomb else 0)
    last = hand_after == 0 and flips_after == 0
    if p.chongtong:  # RULES.md 4.3: the hand ends at the bonus card's replacement, before any flip
        return Plan(
            seat,
            move,
            move_index,
            p.leaving,
            p.hidden_leaving,
            p.taken_in,
            p.hidden_in,
            p.stock_used,
            (),
            (),
            (),
            None,
            None,
            None,
            last,
            0,
            p.chongtong,
        )
    flipped_before = len(p.bonus_gained)
    draw = p.flip(move.draw, "draw")
    if move.bonus_flipped is not None:
        p.check_bonus_flipped(move.bonus_flipped)
    draw_capture = None
    played = p.played[0] if p.played else None
    if draw is not None:
        # a card of the month played meets it (draw_asks_choice): never a choice, but for a bomb's month
        if draw.month != (0 if played is None or move.bomb else played.month):
            draw_capture = p.choose(draw, move.draw_capture, "draw_capture")
        elif move.draw_capture is not None:
            raise p.fail("capture-not-allowed", move.draw_capture, why="draw-on-own-month", drawn=draw)
    elif move.draw_capture is not None:
        raise p.fail("capture-not-allowed", move.draw_capture, why="nothing-flipped")
    return Plan(
        seat,
        move,
        move_index,
        p.leaving,
        p.hidden_leaving,
        p.taken_in,
        p.hidden_in,
        p.stock_used,
        p.bonus_gained,
        p.played,
        p.shown,
        draw,
        p.capture,
        draw_capture,
        last,
        len(p.bonus_gained) - flipped_before,
    )


# --- applying ----------------------------------------------------------------------------------------------


def apply(table: Table, plan: Plan) -> tuple[bool, bool, bool]:
    """Move the cards, record the events, take the steals (RULES.md 5, 6). Returns what the turn did, for the
    game: a card captured by matching (bonus cards and steals do not count, for heodang), a ppuk, a ttadak."""
    seat, move, i, rules = plan.seat, plan.move, plan.move_index, table.rules
    layout_was_empty = not table.layout_mask  # for sseul: the layout as the turn began

    # the hand and the stock
    seat.hidden += plan.hidden_in - plan.hidden_leaving
    if plan.hidden_in and table.in_stock:  # a hidden card off the stock may be one known to lie there
        table.unseen |= table.in_stock
        table.in_stock = 0
    hand = seat.hand_mask
    if plan.taken_in is not None:
        hand |= plan.taken_in.bit
    hand &= ~plan.leaving
    shown = 0
    if plan.shown:  # the shaken cards not played are known to be in the hand from now on
        for card in plan.shown:
            shown |= card.bit
        kept = shown & ~plan.leaving & ~hand
        hand |= kept
        seat.hidden -= popcount(kept)
    seat.hand_mask = hand
    if table.unseen or table.in_stock:  # (with a known deal every card was seen at the deal)
        # the stock top played as if from hand (extra-flip) is among the played cards
        seen = plan.leaving | shown
        for card in (*plan.bonus_gained, *plan.played):
            seen |= card.bit
        if plan.draw is not None:
            seen |= plan.draw.bit
        table.reveal(seen, i)
    if plan.stock_used:
        if table.stock is not None:
            table.stock_pos += plan.stock_used
        table.stock_left -= plan.stock_used
    if move.flip:
        seat.flip_turns -= 1
    seat.turns += 1
    last = plan.last
    stealing: list[tuple[EventType, int, str | None]] = []  # (event, junk units, a stack's maker)
    # as at the table: a bonus card from hand first, then the shake, then the bonus cards the flips turn up
    if move.bonus is not None:
        _gain_bonus(table, plan, move.bonus, "hand")
    if plan.shown:
        seat.shakes += 1
        table.record(i, seat.id, SHAKE, cards=list(plan.shown))
    gained, on_ppuk = plan.bonus_gained, NO_CARDS
    if plan.draw_bonus and rules.bonus_on_ppuk and _makes_ppuk(table, plan):
        # RULES.md 5.2: the bonus cards the ppuk's flip turned up stay with its stack
        cut = len(gained) - plan.draw_bonus
        gained, on_ppuk = gained[:cut], gained[cut:]
    for card in gained:
        _gain_bonus(table, plan, card, "stock")

    layout = table.layout
    took_any = ppuk = ttadak = False
    played = plan.played[0] if plan.played else None
    pending: list[Card] = []  # a pair waiting for the flip
    alone = paired_of_two = chok = False
    if move.bomb:
        assert played is not None
        taken = [*table.lift(played.month), *plan.played]
        _capture(seat, taken)
        took_any = True
        if len(plan.played) == 2:  # RULES.md 5.5: a two-card bomb
            seat.two_card_bombs += 1
        else:
            seat.bombs += 1
        seat.flip_turns += bomb_flip_turns(table, len(plan.played))
        table.record(i, seat.id, BOMB, cards=taken, played=list(plan.played))
        stealing.append((BOMB, rules.steal(BOMB, last), None))
    elif played is not None:
        here = layout[played.month]
        if not here:
            table.lay(played)
            alone = True
        elif len(here) == 1:
            pending = [here[0], played]
        elif len(here) == 2:
            assert plan.capture is not None
            pending = [plan.capture, played]
            paired_of_two = True
        else:
            stealing.append(_take_stack(table, plan, played))
            took_any = True

    drawn = plan.draw
    if drawn is not None and played is not None and not move.bomb and drawn.month == played.month:
        month = played.month
        if alone:  # chok: the flip takes the card just played
            table.lift_one(played)
            seat.captured_mask |= played.bit | drawn.bit
            took_any = chok = True
            table.record(i, seat.id, CHOK, played=played, drawn=drawn)
            stealing.append((CHOK, rules.steal(CHOK, last), None))
        elif paired_of_two:  # ttadak: all four
            taken = [*table.lift(month), played, drawn]
            _capture(seat, taken)
            took_any = ttadak = True
            table.record(i, seat.id, TTADAK, cards=taken, month=month)
            stealing.append((TTADAK, rules.steal(TTADAK, last), None))
        elif last and not rules.ppuk_on_last_turn:
            # RULES.md 5: no ppuk with the last card; the three are captured instead
            taken = [*table.lift(month), played, drawn]
            _capture(seat, taken)
            took_any = True
        else:  # ppuk: the three stay on the layout as a stack of this player's making
            paired = layout[month][0]
            table.lay(played)
            table.lay(drawn)
            table.stack_maker[month] = seat.id
            seat.ppuk_count += 1
            ppuk = True
            if on_ppuk:
                for card in on_ppuk:
                    table.put_under(month, card)
                table.record(
                    i, seat.id, PPUK, played=played, paired=paired, drawn=drawn, count=seat.ppuk_count, bonus=on_ppuk
                )
            else:
                table.record(i, seat.id, PPUK, played=played, paired=paired, drawn=drawn, count=seat.ppuk_count)
        pending = []
    elif drawn is not None:
        there = layout[drawn.month]
        if not there:
            table.lay(drawn)
        elif len(there) == 1:
            seat.captured_mask |= there[0].bit | drawn.bit
            table.lift(drawn.month)
            took_any = True
        elif len(there) == 2:
            chosen = plan.draw_capture
            assert chosen is not None
            table.lift_one(chosen)
            seat.captured_mask |= chosen.bit | drawn.bit
            took_any = True
        else:
            stealing.append(_take_stack(table, plan, drawn))
            took_any = True
    if pending:
        for card in pending:
            if table.layout_mask & card.bit:
                table.lift_one(card)
            seat.captured_mask |= card.bit
        took_any = True
    if not table.layout_mask and (not layout_was_empty or (chok and rules.chok_sseul)):
        # RULES.md 5.3: the layout swept clean; where a table plays it, a chok on an empty layout too
        table.record(i, seat.id, SSEUL)
        stealing.append((SSEUL, rules.steal(SSEUL, last), None))
    for event, units, maker in stealing:
        if not units and last and _steals_elsewhere(rules, event, maker):
            table.spare(event, i, None, "last-turn")  # RULES.md 6: no_steal_on_last_turn spares this one
        table.steal(seat, units, event, i, maker)
    return took_any, ppuk, ttadak


def _steals_elsewhere(rules: RuleSet, event: EventType, maker: str | None) -> bool:
    """Whether ``event`` would steal on a turn other than the last (its units spared only on the last)."""
    if event is STACK_CAPTURE:
        return rules.steal_stack_units(maker is None, False) > 0
    return rules.steal(event, False) > 0


def _capture(seat: Seat, cards: list[Card]) -> None:
    for card in cards:
        seat.captured_mask |= card.bit


def _gain_bonus(table: Table, plan: Plan, card: Card, source: str) -> None:
    """A bonus card goes to the captures at once and steals (RULES.md 5, 6)."""
    seat, i = plan.seat, plan.move_index
    seat.captured_mask |= card.bit
    table.record(i, seat.id, BONUS, card=card, source=source)
    units = table.rules.steal(BONUS, plan.last)
    if not units and plan.last and table.rules.steal(BONUS, False):
        table.spare(BONUS, i, None, "last-turn")
    table.steal(seat, units, BONUS, i)


def _take_stack(table: Table, plan: Plan, card: Card) -> tuple[EventType, int, str | None]:
    """``card`` takes the stack of three on its month (RULES.md 5), with any bonus card lying under it; returns
    the event, the junk units it steals (RULES.md 6) and whose ppuk the stack was (None: dealt)."""
    seat = plan.seat
    maker = table.stack_maker.pop(card.month, None)
    taken = [*table.lift(card.month), card]
    _capture(seat, taken)
    if maker == seat.id:
        table.record(plan.move_index, seat.id, JA_PPUK, cards=taken, month=card.month, maker=maker)
        return JA_PPUK, table.rules.steal(JA_PPUK, plan.last), maker
    table.record(plan.move_index, seat.id, STACK_CAPTURE, cards=taken, month=card.month, maker=maker)
    return STACK_CAPTURE, table.rules.steal_stack_units(maker is None, plan.last), maker


def _makes_ppuk(table: Table, plan: Plan) -> bool:
    """Whether the turn's flip makes a ppuk (RULES.md 5.2), known before the cards move."""
    played, drawn = plan.played[0] if plan.played else None, plan.draw
    if played is None or drawn is None or plan.move.bomb or drawn.month != played.month:
        return False
    return len(table.layout[played.month]) == 1 and not (plan.last and not table.rules.ppuk_on_last_turn)
