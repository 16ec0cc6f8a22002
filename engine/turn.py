"""One turn (RULES.md 5 and 6): planned in full against the table before anything moves, then applied.

``Turn.plan`` reads the move against the table and raises ``IllegalMoveError`` for anything the rules
forbid; only then does ``Turn.apply`` move the cards, record the events and take the steals, and report
what happened (``TurnResult``). What follows a turn (first-turn payments, instant wins, go or stop, whose
turn is next) is the game's business, not the turn's.
"""

from __future__ import annotations

from .cards import Card, Kind
from .errors import IllegalMoveError
from .events import EventType
from .moves import Move
from .table import Seat, Table

__all__ = ["Turn"]

# Read on every turn, so bound once: in CPython 3.11 reading a member off its Enum class costs 5x a global.
BONUS = Kind.BONUS


def _three_of_a_month(cards: tuple[Card, ...]) -> bool:
    """Three different month cards of one month: what a shake shows and a bomb plays (RULES.md 5)."""
    month = cards[0].month if cards else 0
    return len(cards) == 3 and len(set(cards)) == 3 and all(c.month == month and c.kind is not BONUS for c in cards)


class Turn:
    """One turn of one seat. ``flip_due``: the seat must use a held flip turn now (RULES.md 5).

    Once applied, the turn says what happened: ``took_any`` (a card captured by matching: bonus cards and
    steals do not count, for heodang), ``ppuk``, ``ttadak``, and ``last``, the player's last turn (no hand card
    and no flip turn left after it, RULES.md 5).
    """

    def __init__(self, table: Table, seat: Seat, move: Move, move_index: int, *, flip_due: bool) -> None:
        self.table = table
        self.seat = seat
        self.move = move
        self.move_index = move_index
        self.flip_due = flip_due
        self.leaving: list[Card] = []  # cards leaving the hand, known or hidden until now
        self.hidden_leaving = 0  # how many of those came from the hidden part of the hand
        self.taken_in: Card | None = None  # a known card entering the hand (bonus card, replace)
        self.hidden_in = 0  # an unseen card entering the hand (bonus card, replace, hidden stock)
        self.stock_used = 0
        self.stated_used = 0  # entries of bonus_flipped consumed
        self.bonus_gained: list[Card] = []  # bonus cards the stock turned up
        self.played: list[Card] = []  # the card meeting the layout (three for a bomb)
        self.shown: tuple[Card, ...] = ()  # a shake's three cards
        self.draw: Card | None = None
        self.capture: Card | None = None  # the layout card the played card takes, of two
        self.draw_capture: Card | None = None
        self.last = False
        self.took_any = self.ppuk = self.ttadak = False

    def fail(self, code: str, card: Card | None = None, *, why: str | None = None, **facts: object) -> IllegalMoveError:
        return IllegalMoveError(
            code, why=why, move_index=self.move_index, player=self.seat.id, card=card.id if card else None, **facts
        )

    # --- planning ----------------------------------------------------------------------------------------

    def plan(self) -> None:
        """Check the move against the table; raises IllegalMoveError and changes nothing."""
        seat, move, rules = self.seat, self.move, self.table.rules
        if move.flip:
            if not seat.flip_turns:
                raise self.fail("flip-not-allowed")
        elif self.flip_due:
            raise self.fail("flip-required", why="flip-required-next" if seat.hand_size else "flip-required-empty")
        if move.bonus is not None:
            self._plan_bonus()
        elif move.bomb:
            self._plan_bomb()
        elif move.play is not None:
            self._plan_play()
        hand_after = seat.hand_mask.bit_count() + seat.hidden + self.hidden_in + (self.taken_in is not None)
        hand_after -= len(self.leaving)
        flips_after = seat.flip_turns - move.flip + (rules.bomb_flip_turns if move.bomb else 0)
        self.last = hand_after == 0 and flips_after == 0
        self.draw = self._flip(move.draw, "draw")
        if move.bonus_flipped is not None:
            self._check_bonus_flipped(move.bonus_flipped)
        played = self.played[0] if self.played else None
        if self.draw is not None:
            if played is None or move.bomb or self.draw.month != played.month:
                self.draw_capture = self._choose(self.draw, move.draw_capture, "draw_capture")
            elif move.draw_capture is not None:
                raise self.fail("capture-not-allowed", move.draw_capture, why="draw-on-own-month", drawn=self.draw)
        elif move.draw_capture is not None:
            raise self.fail("capture-not-allowed", move.draw_capture, why="nothing-flipped")

    def _plan_play(self) -> None:
        move = self.move
        card = move.play
        assert card is not None
        if card.kind is BONUS:
            raise self.fail("bad-move", card, why="bonus-with-play")
        if move.shake:
            self._plan_shake()
        if self.seat.hand_mask & card.bit:  # the usual case: a card known to be in the hand
            self.leaving.append(card)
        else:
            self._take_from_hand([card], "play")
        self.played = [card]
        self.capture = self._choose(card, move.capture, "capture")

    def _plan_shake(self) -> None:
        table, seat, move = self.table, self.seat, self.move
        cards = move.shake
        if not table.rules.allow_shake:
            raise self.fail("shake-not-allowed", why="shake-off")
        if not _three_of_a_month(cards):
            raise self.fail("shake-not-allowed", why="not-three-of-a-month", cards=list(cards))
        month = cards[0].month
        if move.play not in cards:
            raise self.fail("shake-not-allowed", move.play, why="plays-another", cards=list(cards))
        if table.layout[month]:
            raise self.fail("shake-not-allowed", why="month-on-layout", month=month, layout=list(table.layout[month]))
        hidden_needed = 0
        for card in cards:
            if seat.hand_mask & card.bit or card is self.taken_in:
                continue
            if card not in table.unseen:
                raise self._not_in_hand(card, "shake")
            hidden_needed += 1
        if hidden_needed > seat.hidden + self.hidden_in:
            raise self.fail("card-not-in-hand", why="cannot-hold", cards=list(cards))
        self.shown = cards

    def _plan_bomb(self) -> None:
        table, move = self.table, self.move
        cards = move.bomb
        if not table.rules.allow_bomb:
            raise self.fail("bomb-not-allowed", why="bomb-off")
        if not _three_of_a_month(cards):
            raise self.fail("bomb-not-allowed", why="not-three-of-a-month", cards=list(cards))
        month = cards[0].month
        if len(table.layout[month]) != 1:
            raise self.fail("bomb-not-allowed", why="fourth-not-alone", month=month, layout=list(table.layout[month]))
        self._take_from_hand(cards, "bomb")
        self.played = list(cards)

    def _plan_bonus(self) -> None:
        table, seat, move, rules = self.table, self.seat, self.move, self.table.rules
        card = move.bonus
        assert card is not None
        if card.kind is not BONUS:
            raise self.fail("bad-move", card, why="not-a-bonus-card")
        if card.id not in rules.bonus_cards:
            raise self.fail("bonus-not-in-play", card, preset=rules.preset)
        self._take_from_hand([card], "bonus")
        if rules.bonus_from_hand == "replace":
            # the stock top goes into the hand, unseen by the others; the hand card played after it may be a
            # shake or a bomb, counted with that card in the hand (RULES.md 5)
            if table.stock_left > 0:
                if table.stock is not None:
                    self.taken_in = table.stock_top()
                else:
                    self.hidden_in = 1
                self.stock_used = 1
            if move.bomb:
                self._plan_bomb()
            elif move.play is not None:
                self._plan_play()
            elif any(c.kind is not BONUS for c in (*seat.hand, self.taken_in) if c is not None):
                # with hidden cards, the log's word that none is a month card is taken
                raise self.fail("bad-move", why="bonus-then-nothing")
            return
        # extra-flip: the stock top is played as if it were the hand card
        if move.shake:
            raise self.fail("shake-not-allowed", why="after-extra-flip")
        if move.bomb:
            raise self.fail("bomb-not-allowed", why="after-extra-flip")
        flipped = self._flip(move.play, "extra-flip")
        if flipped is not None:
            self.played = [flipped]
            self.capture = self._choose(flipped, move.capture, "capture")

    def _take_from_hand(self, cards: tuple[Card, ...] | list[Card], action: str) -> None:
        """Check that the cards can leave the hand; they are counted into ``leaving``."""
        seat, table = self.seat, self.table
        for card in cards:
            if card in self.leaving:
                raise self.fail("bad-move", card, why="card-twice", action=action)
            if seat.hand_mask & card.bit or card is self.taken_in:
                self.leaving.append(card)
            elif card in table.unseen and seat.hidden + self.hidden_in - self.hidden_leaving > 0:
                self.hidden_leaving += 1
                self.leaving.append(card)
            else:
                raise self._not_in_hand(card, action)

    def _not_in_hand(self, card: Card, action: str) -> IllegalMoveError:
        seat, table = self.seat, self.table
        if card in table.unseen or seat.hidden + self.hidden_in == 0:
            return self.fail("card-not-in-hand", card, action=action)
        return self.fail("card-already-seen", card, action=action, seen=table.locate(card))

    def _flip(self, stated: Card | None, role: str) -> Card | None:
        """The next month card off the stock (bonus cards on the way go to ``bonus_gained``)."""
        table = self.table
        while table.stock_left - self.stock_used > 0:
            if table.stock is not None:
                card = table.stock[table.stock_pos + self.stock_used]
            else:
                card = self._stated_flip(stated, role)
            self.stock_used += 1
            if card.kind is BONUS:
                self.bonus_gained.append(card)
                if stated is card:  # the flips as they happened: this bonus card first, then the next
                    stated = None
                continue
            if stated is not None and stated is not card:
                raise self.fail("draw-mismatch", stated, why="not-the-top", role=role, top=card)
            return card
        if stated is not None:
            raise self.fail("draw-mismatch", stated, why="stock-empty", role=role)
        return None

    def _stated_flip(self, stated: Card | None, role: str) -> Card:
        """With an unknown stock, the log says what came up: the listed bonus cards first, then the card."""
        table = self.table
        listed = self.move.bonus_flipped or ()
        if self.stated_used < len(listed):
            card = listed[self.stated_used]
            self.stated_used += 1
            if card.kind is not BONUS:
                raise self.fail("bad-move", card, why="bonus-flipped-not-bonus")
        elif stated is None:
            if self.bonus_gained:  # the log named a bonus card as the draw, and nothing after it
                raise self.fail("draw-required", why="after-bonus-draw", role=role, bonus=self.bonus_gained[-1])
            raise self.fail("draw-required", role=role)
        else:
            card = stated
        if card not in table.unseen or card in self.bonus_gained or card in self.played or card in self.leaving:
            seen = table.locate(card) if card not in table.unseen else None
            raise self.fail("card-already-seen", card, action=role, seen=seen, this_turn=seen is None)
        return card

    def _check_bonus_flipped(self, listed: tuple[Card, ...]) -> None:
        if self.table.stock is None and self.stated_used < len(listed):
            extra = listed[self.stated_used]
            raise self.fail("draw-mismatch", extra, why="bonus-not-flipped")
        if self.table.stock is not None and list(listed) != self.bonus_gained:
            raise self.fail("draw-mismatch", why="bonus-list", flipped=self.bonus_gained, listed=list(listed))

    def _choose(self, card: Card, choice: Card | None, field: str) -> Card | None:
        """How a card meets the layout of its month; the chosen card when two were there."""
        here = self.table.layout[card.month]
        if len(here) == 2:
            if choice is None:
                raise self.fail("capture-required", card, field=field, layout=list(here))
            if choice not in here:
                raise self.fail("capture-not-allowed", choice, why="not-on-layout", field=field, layout=list(here))
            return choice
        if choice is not None:
            raise self.fail("capture-not-allowed", choice, why="no-choice", field=field, played=card)
        return None

    # --- applying ----------------------------------------------------------------------------------------

    def apply(self) -> None:
        """Move the cards, record the events, take the steals."""
        table, seat, rules, i = self.table, self.seat, self.table.rules, self.move_index
        move = self.move
        layout_was_empty = not any(table.layout)  # for sseul: the layout as the turn began

        # the hand and the stock
        seat.hidden += self.hidden_in - self.hidden_leaving
        hand = seat.hand_mask
        if self.taken_in is not None:
            hand |= self.taken_in.bit
        for card in self.leaving:
            hand &= ~card.bit
        if self.shown:  # the shaken cards not played are known to be in the hand from now on
            kept = [c for c in self.shown if c not in self.leaving and not hand & c.bit]
            for card in kept:
                hand |= card.bit
            seat.hidden -= len(kept)
        seat.hand_mask = hand
        if table.unseen.mask:  # (with a known deal every card was seen at the deal)
            # the stock top played as if from hand (extra-flip) is among the played cards
            flipped = [self.draw] if self.draw else []
            table.reveal([*self.leaving, *self.shown, *self.bonus_gained, *self.played, *flipped], i)
        if self.stock_used:
            if table.stock is not None:
                table.stock_pos += self.stock_used
            table.stock_left -= self.stock_used
        if move.flip:
            seat.flip_turns -= 1
        seat.turns += 1
        stealing: list[EventType] = []
        # as at the table: a bonus card from hand first, then the shake, then the bonus cards the flips turn up
        if move.bonus is not None:
            self._gain_bonus(move.bonus, "hand")
        if self.shown:
            seat.shakes += 1
            table.record(i, seat.id, EventType.SHAKE, cards=list(self.shown))
        for card in self.bonus_gained:
            self._gain_bonus(card, "stock")

        layout = table.layout
        took_any = ppuk = ttadak = False
        played = self.played[0] if self.played else None
        pending: list[Card] = []  # a pair waiting for the flip
        alone = paired_of_two = False
        if move.bomb:
            assert played is not None
            target = layout[played.month]
            taken = [*target, *self.played]
            target.clear()
            table.capture(seat, taken)
            took_any = True
            seat.bombs += 1
            seat.flip_turns += rules.bomb_flip_turns
            table.record(i, seat.id, EventType.BOMB, cards=taken, played=list(self.played))
            stealing.append(EventType.BOMB)
        elif played is not None:
            here = layout[played.month]
            if not here:
                here.append(played)
                alone = True
            elif len(here) == 1:
                pending = [here[0], played]
            elif len(here) == 2:
                assert self.capture is not None
                pending = [self.capture, played]
                paired_of_two = True
            else:
                stealing.append(self._take_stack(played))
                took_any = True

        drawn = self.draw
        if drawn is not None and played is not None and not move.bomb and drawn.month == played.month:
            here = layout[played.month]
            if alone:  # chok: the flip takes the card just played
                here.remove(played)
                table.capture(seat, [played, drawn])
                took_any = True
                table.record(i, seat.id, EventType.CHOK, played=played, drawn=drawn)
                stealing.append(EventType.CHOK)
            elif paired_of_two:  # ttadak: all four
                taken = [*here, played, drawn]
                here.clear()
                table.capture(seat, taken)
                took_any = ttadak = True
                table.record(i, seat.id, EventType.TTADAK, cards=taken, month=played.month)
                stealing.append(EventType.TTADAK)
            elif self.last and not rules.ppuk_on_last_turn:
                # RULES.md 5: no ppuk with the last card; the three are captured instead
                taken = [*here, played, drawn]
                here.clear()
                table.capture(seat, taken)
                took_any = True
            else:  # ppuk: the three stay on the layout as a stack of this player's making
                paired = here[0]
                here.extend([played, drawn])
                table.stack_maker[played.month] = seat.id
                seat.ppuk_count += 1
                ppuk = True
                table.record(
                    i, seat.id, EventType.PPUK, played=played, paired=paired, drawn=drawn, count=seat.ppuk_count
                )
            pending = []
        elif drawn is not None:
            there = layout[drawn.month]
            if not there:
                there.append(drawn)
            elif len(there) == 1:
                table.capture(seat, [there.pop(), drawn])
                took_any = True
            elif len(there) == 2:
                assert self.draw_capture is not None
                there.remove(self.draw_capture)
                table.capture(seat, [self.draw_capture, drawn])
                took_any = True
            else:
                stealing.append(self._take_stack(drawn))
                took_any = True
        if pending:
            here = layout[pending[0].month]
            for card in pending:
                if card in here:
                    here.remove(card)
            table.capture(seat, pending)
            took_any = True
        if not layout_was_empty and not any(layout):
            table.record(i, seat.id, EventType.SSEUL)
            stealing.append(EventType.SSEUL)
        for event in stealing:
            table.steal(seat, rules.steal(event, self.last), event, i)
        self.took_any, self.ppuk, self.ttadak = took_any, ppuk, ttadak

    def _gain_bonus(self, card: Card, source: str) -> None:
        """A bonus card goes to the captures at once and steals (RULES.md 5, 6)."""
        table, seat, i = self.table, self.seat, self.move_index
        table.capture(seat, [card])
        table.record(i, seat.id, EventType.BONUS, card=card, source=source)
        table.steal(seat, table.rules.steal(EventType.BONUS, self.last), EventType.BONUS, i)

    def _take_stack(self, card: Card) -> EventType:
        """``card`` takes the stack of three on its month (RULES.md 5); returns the event, which steals."""
        table, seat = self.table, self.seat
        here = table.layout[card.month]
        taken = [*here, card]
        maker = table.stack_maker.pop(card.month, None)
        here.clear()
        table.capture(seat, taken)
        event = EventType.JA_PPUK if maker == seat.id else EventType.STACK_CAPTURE
        table.record(self.move_index, seat.id, event, cards=taken, month=card.month, maker=maker)
        return event
