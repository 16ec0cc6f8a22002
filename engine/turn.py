"""One turn of a hand (RULES.md 5 and 6): checked in full before anything moves, then done.

``Turn.plan`` reads the move against the table and raises ``IllegalMoveError`` for anything the rules
forbid; only then does ``Turn.commit`` move cards, record events, take steals, and ``_after_turn`` pay
first-turn payments, end the hand on an instant win, or ask for a go/stop call. So an illegal move never
leaves a half-applied state.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from .cards import Card
from .errors import IllegalMoveError
from .moves import Move
from .scoring import total
from .table import InstantPayment, card_list

if TYPE_CHECKING:
    from .game import GameState

__all__ = ["HEODANG_TURNS", "Turn"]

HEODANG_TURNS = 5
_FIRST_PPUK = {
    1: "first-turn ppuk",
    2: "ppuk on each of the first two turns",
    3: "ppuk on each of the first three turns",
}


class Turn:
    """One turn: checked in full (``plan``) before anything moves (``commit``)."""

    def __init__(self, game: GameState, move: Move, i: int) -> None:
        self.game = game
        self.move = move
        self.i = i
        self.seat = game.seats[game.turn]
        self.known_out: list[Card] = []  # cards leaving the hand (known, or hidden until now)
        self.bonus_flips: list[Card] = []
        self.played: list[Card] = []
        self.hidden_out = 0  # how many of the cards leaving the hand came from its hidden part
        self.hand_in: Card | None = None  # a known card entering the hand (bonus replace)
        self.hidden_in = 0  # an unknown card entering the hand (bonus replace, hidden stock)
        self.stock_used = 0
        self.draw_used = 0  # stated bonus_flipped entries consumed
        self.bonus: Card | None = None
        self.shown: tuple[Card, ...] = ()
        self.draw: Card | None = None
        self.h_choice: Card | None = None
        self.d_choice: Card | None = None
        self.is_last = False

    def fail(self, code: str, detail: str, card: Card | None = None) -> IllegalMoveError:
        return IllegalMoveError(
            detail, code=code, move_index=self.i, player=self.seat.id, card=card.id if card else None
        )

    # --- checking ---------------------------------------------------------------------------------------

    def _take_from_hand(self, cards: Sequence[Card], what: str) -> None:
        """Check that the cards can leave the hand; they are counted into known_out (and hidden_out)."""
        seat = self.seat
        for card in cards:
            if card in self.known_out:
                raise self.fail("bad-move", f"{seat.id} {what} {card.id} twice", card)
            if card in seat.hand or card is self.hand_in:
                self.known_out.append(card)
            elif card in self.game.unseen and seat.hidden + self.hidden_in - self.hidden_out > 0:
                self.hidden_out += 1
                self.known_out.append(card)
            else:
                raise self._not_in_hand(card, what)

    def _not_in_hand(self, card: Card, what: str) -> IllegalMoveError:
        seat = self.seat
        if card in self.game.unseen or seat.hidden + self.hidden_in == 0:
            return self.fail("card-not-in-hand", f"{seat.id} {what} {card.id}, which is not in {seat.id}'s hand", card)
        return self.fail("card-already-seen", f"{seat.id} {what} {card.id}, which has already been seen", card)

    def _flip(self, stated: Card | None, role: str) -> Card | None:
        """The next non-bonus card off the stock (bonus cards on the way go to bonus_flips)."""
        game = self.game
        while game.stock_left - self.stock_used > 0:
            if game.stock is not None:
                card = game.stock[game.stock_pos + self.stock_used]
            else:
                card = self._stated_flip(stated, role)
            self.stock_used += 1
            if card.kind == "bonus":
                self.bonus_flips.append(card)
                continue
            if stated is not None and stated is not card:
                raise self.fail(
                    "draw-mismatch", f"{self.seat.id}'s {role} is {stated.id}, but the stock top is {card.id}", stated
                )
            return card
        if stated is not None:
            raise self.fail("draw-mismatch", f"{self.seat.id}'s {role} is {stated.id}, but the stock is empty", stated)
        return None

    def _stated_flip(self, stated: Card | None, role: str) -> Card:
        """With an unknown stock, the log says what came up: stated bonus cards first, then the card."""
        listed = self.move.bonus_flipped or ()
        if self.draw_used < len(listed):
            card = listed[self.draw_used]
            self.draw_used += 1
            if card.kind != "bonus":
                raise self.fail("bad-move", f"bonus_flipped lists {card.id}, which is not a bonus card", card)
        elif stated is None:
            raise self.fail(
                "draw-required", f"{self.seat.id} must say which card the {role} turned up (the stock is not known)"
            )
        else:
            card = stated
        if card not in self.game.unseen or card in self.bonus_flips or card in self.played or card in self.known_out:
            raise self.fail("card-already-seen", f"{self.seat.id}'s {role} {card.id} has already been seen", card)
        return card

    def _match(self, card: Card, choice: Card | None, name: str) -> Card | None:
        """How a card meets the layout of its month; returns the chosen card when two were there."""
        here = self.game.layout[card.month]
        if len(here) == 2:
            if choice is None:
                raise self.fail(
                    "capture-required", f"{card.id} meets {card_list(here)}: {self.seat.id} must choose one ({name})"
                )
            if choice not in here:
                raise self.fail("capture-not-allowed", f"{name} {choice.id} is not one of {card_list(here)}", choice)
            return choice
        if choice is not None:
            raise self.fail(
                "capture-not-allowed", f"{card.id} has no choice of capture, but {name} names {choice.id}", choice
            )
        return None

    def plan(self) -> None:
        game, seat, move, rules = self.game, self.seat, self.move, self.game.rules
        # one unpacking instead of a descriptor lookup per field read
        _, play, capture, stated_draw, draw_capture, shake, bomb, flip, bonus, bonus_flipped, _, _ = move
        flip_due = game.expects == "flip"
        if flip_due and not flip:
            raise self.fail("flip-required", f"{seat.id} owes a flip-only turn after a bomb and may only flip")
        if flip and not flip_due:
            raise self.fail("flip-not-allowed", f"{seat.id} has no flip-only turn left")

        if bomb:
            self._plan_bomb()
        elif bonus is not None:
            self._plan_bonus()
        elif play is not None:
            if play.kind == "bonus":
                raise self.fail("bad-move", f"a bonus card is played with 'bonus', not 'play' ({play.id})", play)
            if shake:
                self._plan_shake()
            if play in seat.hand:
                self.known_out.append(play)
            else:
                self._take_from_hand([play], "plays")
            self.played = [play]
            self.h_choice = self._match(play, capture, "capture")

        hand_after = seat.hand_size + self.hidden_in + (self.hand_in is not None) - len(self.known_out)
        flips_after = seat.flip_turns - flip + (rules.bomb_flip_turns if bomb else 0)
        self.is_last = hand_after == 0 and flips_after == 0

        draw = self.draw = self._flip(stated_draw, "draw")
        if bonus_flipped is not None:
            if game.stock is None and self.draw_used < len(bonus_flipped):
                extra = bonus_flipped[self.draw_used]
                raise self.fail("draw-mismatch", f"bonus_flipped lists {extra.id}, but no flip turned it up", extra)
            if game.stock is not None and list(bonus_flipped) != self.bonus_flips:
                raise self.fail(
                    "draw-mismatch",
                    f"the stock turned up bonus cards [{card_list(self.bonus_flips)}], "
                    f"not [{card_list(bonus_flipped)}]",
                )
        if draw is not None:
            h = self.played[0] if self.played else None
            if h is None or draw.month != h.month:
                self.d_choice = self._match(draw, draw_capture, "draw_capture")
            elif draw_capture is not None:
                raise self.fail(
                    "capture-not-allowed", f"{draw.id} falls on {h.id}'s month: there is no choice", draw_capture
                )
        elif draw_capture is not None:
            raise self.fail("capture-not-allowed", "nothing was flipped, so there is no draw_capture", draw_capture)

    def _plan_shake(self) -> None:
        game, seat, move = self.game, self.seat, self.move
        cards = move.shake
        month = cards[0].month if cards else 0
        if not game.rules.allow_shake:
            raise self.fail("shake-not-allowed", f"{game.rules.preset} does not allow shaking (allow_shake is off)")
        if len(cards) != 3 or len(set(cards)) != 3 or any(c.month != month or c.kind == "bonus" for c in cards):
            raise self.fail("shake-not-allowed", f"a shake shows three cards of one month, not {card_list(cards)}")
        assert move.play is not None  # a shake always plays (Move.from_dict checks the form)
        if move.play not in cards:
            raise self.fail(
                "shake-not-allowed", f"{seat.id} shakes {card_list(cards)} but plays {move.play.id}", move.play
            )
        if game.layout[month]:
            raise self.fail(
                "shake-not-allowed",
                f"{seat.id} cannot shake month {month}: the layout holds {card_list(game.layout[month])}",
            )
        for card in cards:
            if card not in seat.hand and card not in game.unseen:
                raise self._not_in_hand(card, "shakes")
        hidden_needed = sum(1 for c in cards if c not in seat.hand)
        if hidden_needed > seat.hidden:
            raise self.fail("card-not-in-hand", f"{seat.id} cannot hold all of {card_list(cards)}")
        self.shown = cards

    def _plan_bomb(self) -> None:
        game, move = self.game, self.move
        cards = move.bomb
        month = cards[0].month
        if not game.rules.allow_bomb:
            raise self.fail("bomb-not-allowed", f"{game.rules.preset} does not allow bombs (allow_bomb is off)")
        if len(cards) != 3 or len(set(cards)) != 3 or any(c.month != month or c.kind == "bonus" for c in cards):
            raise self.fail("bomb-not-allowed", f"a bomb plays three cards of one month, not {card_list(cards)}")
        if len(game.layout[month]) != 1:
            raise self.fail("bomb-not-allowed", f"a bomb of month {month} needs the fourth card alone on the layout")
        self._take_from_hand(cards, "bombs with")
        self.played = list(cards)

    def _plan_bonus(self) -> None:
        game, seat, move, rules = self.game, self.seat, self.move, self.game.rules
        card = move.bonus
        assert card is not None
        if card.kind != "bonus":
            raise self.fail("bad-move", f"{card.id} is not a bonus card", card)
        if card.id not in rules.bonus_cards:
            raise self.fail("bonus-not-in-play", f"{card.id} is not in {rules.preset}'s deck", card)
        self._take_from_hand([card], "plays the bonus card")
        self.bonus = card
        if rules.bonus_from_hand == "replace":
            # the stock top goes into the hand, unseen by the others
            if game.stock_left > 0:
                if game.stock is not None:
                    self.hand_in = game.stock[game.stock_pos]
                else:
                    self.hidden_in = 1
                self.stock_used = 1
            if move.play is None:
                month_cards = [c for c in (*seat.hand, self.hand_in) if c is not None and c.kind != "bonus"]
                if month_cards:  # with hidden cards, the log's word that none is a month card is taken
                    raise self.fail("bad-move", f"after the bonus card {seat.id} plays a hand card in the same turn")
                return
            if move.play.kind == "bonus":
                raise self.fail(
                    "bad-move", f"after a bonus card, {seat.id} plays a month card, not {move.play.id}", move.play
                )
            self._take_from_hand([move.play], "plays")
            self.played = [move.play]
            self.h_choice = self._match(move.play, move.capture, "capture")
            return
        # extra-flip: the stock top is played as if it were the hand card
        flipped = self._flip(move.play, "extra flip")
        if flipped is None:
            return
        self.played = [flipped]
        self.h_choice = self._match(flipped, move.capture, "capture")

    # --- doing ------------------------------------------------------------------------------------------

    def commit(self) -> None:
        game, seat, rules, i = self.game, self.seat, self.game.rules, self.i
        bomb = self.move.bomb
        layout = game.layout
        took_any = False
        last = self.is_last
        events: list[str] = []
        ppuk = False

        # hand and stock bookkeeping
        hand, unseen = seat.hand, game.unseen
        if self.hidden_out or self.hidden_in:
            seat.hidden += self.hidden_in - self.hidden_out
        if self.hand_in is not None:
            hand.add(self.hand_in)
        for card in self.known_out:
            hand.discard(card)
            unseen.discard(card)
        if self.shown:
            unseen.difference_update(self.shown)
            hidden_shown = [c for c in self.shown if c not in hand and c not in self.known_out]
            hand.update(hidden_shown)
            seat.hidden -= len(hidden_shown)
        if self.draw is not None:
            unseen.discard(self.draw)
        if self.stock_used:
            if game.stock is not None:
                game.stock_pos += self.stock_used
            game.stock_left -= self.stock_used
        if self.move.flip:
            seat.flip_turns -= 1
        seat.turns += 1

        if self.shown:
            seat.shakes += 1
            game._event(
                i, seat.id, "shake", f"{seat.id} shakes {card_list(self.shown)}", cards=[c.id for c in self.shown]
            )
        if self.bonus is not None or self.bonus_flips:
            self._gain_bonus_cards()

        # the played card (or bomb) meets the layout
        h = self.played[0] if self.played else None
        pending: list[Card] = []  # a pair waiting for the flip
        alone = False
        pair_of_two = False
        if bomb:
            assert h is not None  # _plan_bomb put the three cards in played
            target = layout[h.month]
            taken = [*target, *self.played]
            target.clear()
            seat.gain(taken)
            took_any = True
            seat.bombs += 1
            seat.flip_turns += rules.bomb_flip_turns
            game._event(
                i,
                seat.id,
                "bomb",
                f"{seat.id} bombs with {card_list(self.played)} and takes {card_list(taken)}",
                cards=[c.id for c in taken],
            )
            events.append("bomb")
        elif h is not None:
            here = layout[h.month]
            if not here:
                here.append(h)
                alone = True
            elif len(here) == 1:
                pending = [here[0], h]
            elif len(here) == 2:
                assert self.h_choice is not None  # _match required the choice
                pending = [self.h_choice, h]
                pair_of_two = True
            else:
                events.append(self._take_stack(h))
                took_any = True

        d = self.draw
        if d is not None:
            if h is not None and not bomb and d.month == h.month:
                here = layout[h.month]
                if alone:  # chok: the flip takes the card just played
                    here.remove(h)
                    seat.gain([h, d])
                    took_any = True
                    game._event(i, seat.id, "chok", f"{seat.id}'s flipped {d.id} takes the {h.id} just played (chok)")
                    events.append("chok")
                elif pair_of_two:  # ttadak: all four
                    taken = [*here, h, d]
                    here.clear()
                    seat.gain(taken)
                    took_any = True
                    game._event(
                        i,
                        seat.id,
                        "ttadak",
                        f"{seat.id} takes all four of month {h.month}: {card_list(taken)} (ttadak)",
                        cards=[c.id for c in taken],
                    )
                    events.append("ttadak")
                    pending = []
                elif last and not rules.ppuk_on_last_turn:
                    # RULES.md 5: no ppuk with the last card: the three are captured instead
                    taken = [*here, h, d]
                    here.clear()
                    seat.gain(taken)
                    took_any = True
                    pending = []
                else:  # ppuk: the three stay as a stack of this player's making
                    here.extend([h, d])
                    game.stack_maker[h.month] = seat.id
                    seat.ppuk_count += 1
                    ppuk = True
                    game._event(
                        i,
                        seat.id,
                        "ppuk",
                        f"{h.id} pairs with {here[0].id} and the flipped {d.id} makes a "
                        f"ppuk: the three stay on the layout (ppuk #{seat.ppuk_count} for {seat.id})",
                    )
                    pending = []
            else:
                there = layout[d.month]
                if not there:
                    there.append(d)
                elif len(there) == 1:
                    taken = [there.pop(), d]
                    seat.gain(taken)
                    took_any = True
                elif len(there) == 2:
                    assert self.d_choice is not None  # _match required the choice
                    there.remove(self.d_choice)
                    seat.gain([self.d_choice, d])
                    took_any = True
                else:
                    events.append(self._take_stack(d))
                    took_any = True
        if pending:
            here = layout[pending[0].month]
            for card in pending:
                if card in here:
                    here.remove(card)
            seat.gain(pending)
            took_any = True
        was_empty, game.layout_empty = game.layout_empty, not any(layout.values())
        if game.layout_empty and not was_empty:
            game._event(i, seat.id, "sseul", f"{seat.id} sweeps the layout clean (sseul)")
            events.append("sseul")
        for event in events:
            game.steal(seat, rules.steal(event, last), event, i)

        self._after_turn(took_any, ppuk, "ttadak" in events)

    def _gain_bonus_cards(self) -> None:
        """The bonus card played and those the stock turned up go to the captures, each stealing."""
        game, seat, rules, i = self.game, self.seat, self.game.rules, self.i
        game.unseen.difference_update(self.bonus_flips)
        if self.bonus is not None and rules.bonus_from_hand == "extra-flip" and self.played:
            game.unseen.discard(self.played[0])  # the stock top played as if from hand
        for card in ([self.bonus] if self.bonus else []) + self.bonus_flips:
            seat.gain([card])
            game._event(i, seat.id, "bonus", f"{seat.id} gains {card.id}", card=card.id)
            game.steal(seat, rules.steal("bonus", self.is_last), "bonus", i)

    def _take_stack(self, card: Card) -> str:
        """``card`` takes the stack of three on its month (RULES.md 5); returns the stealing event."""
        here = self.game.layout[card.month]
        taken = [*here, card]
        maker = self.game.stack_maker.pop(card.month, None)
        here.clear()
        self.seat.gain(taken)
        return self._stack_event(maker, taken)

    def _stack_event(self, maker: str | None, taken: list[Card]) -> str:
        game, seat, i = self.game, self.seat, self.i
        month = taken[0].month
        if maker == seat.id:
            event, detail = "ja-ppuk", f"{seat.id} captures their own ppuk of month {month} (ja-ppuk)"
        else:
            whose = "the stack dealt on the layout" if maker is None else f"{maker}'s ppuk"
            event, detail = "stack-capture", f"{seat.id} captures {whose} of month {month} (stack capture)"
        game._event(i, seat.id, event, detail, cards=[c.id for c in taken])
        return "ja_ppuk" if maker == seat.id else "stack"

    def _after_turn(self, took_any: bool, ppuk: bool, ttadak: bool) -> None:
        game, seat, rules, i = self.game, self.seat, self.game.rules, self.i
        n = seat.turns
        if ppuk and seat.ppuk_streak == n - 1 and n <= 3:
            seat.ppuk_streak = n
            if len(rules.first_ppuk_payments) >= n and rules.first_ppuk_payments[n - 1]:
                self._pay_all(rules.first_ppuk_payments[n - 1], _FIRST_PPUK[n])
        if ttadak and n == 1 and rules.first_ttadak_payment:
            self._pay_all(rules.first_ttadak_payment, "first-turn ttadak")
        if ppuk and seat.ppuk_count == 3 and rules.three_ppuk_points:
            game._event(i, seat.id, "three-ppuk", f"{seat.id} makes a third ppuk and wins at once (three-ppuk)")
            game._finish("three-ppuk", seat.id, i, "")
            return
        seat.empty_turns = 0 if took_any else seat.empty_turns + 1
        if seat.empty_turns == HEODANG_TURNS and rules.heodang_points:
            game._event(
                i,
                seat.id,
                "heodang",
                f"{seat.id} captured nothing in {HEODANG_TURNS} turns in a row and wins at once (heodang)",
            )
            game._finish("heodang", seat.id, i, "")
            return
        if not seat.mask & ~seat.checked_mask and seat.sep_animal_as == seat.checked_pin:
            # no card gained since the last check: scores only grow with cards, so nothing can be due
            game._advance(i)
            return
        seat.checked_mask, seat.checked_pin = seat.mask, seat.sep_animal_as
        points = total(seat.mask, rules, seat.sep_animal_as)
        if points >= rules.target_score and (seat.go_bar is None or points > seat.go_bar):
            if self.is_last:  # RULES.md 7: only stop on a last turn
                game._event(i, seat.id, "stop", f"{seat.id} reaches {points} points on their last turn: automatic stop")
                game._finish("stop", seat.id, i, "")
                game.auto_stop_at = i  # a following stop call by this player is accepted
                return
            game.expects = "call"
            return
        game._advance(i)

    def _pay_all(self, points: int, reason: str) -> None:
        game, seat = self.game, self.seat
        for other in game.seats:
            if other is not seat:
                game.instant_payments.append(InstantPayment(other.id, seat.id, points, reason, self.i))
