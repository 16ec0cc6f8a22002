"""A hand of Go-Stop as a state machine: the deal, legal moves, and strict replay of a move log (RULES.md 4-9).

Vocabulary of a turn (RULES.md 5): the played card and the flipped card (the *draw*) are matched against the
layout by month. Special outcomes, each an event:

- ppuk (뻑): the draw lands on the pair just made; the three stay on the layout as a *stack*;
- chok (쪽): the draw captures the card just played alone;
- ttadak (따닥): the played card took one of two, and the draw takes the other: all four;
- sseul (쓸): the turn leaves an empty layout that was not empty before;
- ja-ppuk (자뻑): a player captures the stack of their own ppuk; a stack capture is anyone else's;
- shake (흔들기) and bomb (폭탄): see ``engine.moves``;
- chongtong (총통), three-ppuk, heodang (허당): instant wins; nagari (나가리): the cards ran out.

``GameState.apply`` checks a move completely before changing anything, so an illegal move raises
``IllegalMoveError`` and leaves the state as it was. ``replay`` applies a whole log and stops at the first
illegal move. Hands and the stock may be unknown (a physical game logged card by card): then a played or
flipped card must simply be one nobody has seen.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import combinations
from typing import Any, NamedTuple

from .cards import CARDS, CUP, Card, by_id
from .errors import CardError, IllegalMoveError
from .moves import Move
from .rules import RuleSet
from .scoring import total
from .settlement import HandResult, PlayerHand, Settlement, settle

__all__ = ["Event", "GameState", "InstantPayment", "Replay", "replay"]

HAND_SIZE = {2: 10, 3: 7}
LAYOUT_SIZE = {2: 8, 3: 6}
HEODANG_TURNS = 5
# RULES.md 6: a steal takes the lowest unit value first, ties by catalog order; the cup (an animal) never
# goes. Per double_junk: (mask of the junk cards worth n units, n), cheapest first.
_STEAL_GROUPS = {
    double: [
        (
            sum(
                1 << c.index
                for c in CARDS
                if c.kind in ("junk", "bonus") and (c.junk_units if double or c.kind == "bonus" else 1) == units
            ),
            units,
        )
        for units in (1, 2, 3)
    ]
    for double in (True, False)
}
_FIRST_PPUK = {
    1: "first-turn ppuk",
    2: "ppuk on each of the first two turns",
    3: "ppuk on each of the first three turns",
}


class Event(NamedTuple):
    """Something that happened, with the index of the move that caused it (None: at the deal)."""

    move_index: int | None
    player: str | None
    type: str
    detail: str
    data: Mapping[str, Any]


class InstantPayment(NamedTuple):
    """A first-turn ppuk or ttadak payment: paid at once, outside the hand's result (RULES.md 8)."""

    payer: str
    payee: str
    points: int
    reason: str
    move_index: int


@dataclass(slots=True)
class Seat:
    """One player's side of the table."""

    id: str
    hand: set[Card]  # cards known to be in the hand
    hidden: int  # further cards in the hand that nobody has seen
    captured: list[Card] = field(default_factory=list)
    go_count: int = 0
    go_bar: int | None = None  # the score at the last go: the next decision needs more
    shakes: int = 0
    bombs: int = 0
    ppuk_count: int = 0
    ppuk_streak: int = 0  # ppuks on each of the first turns in a row
    turns: int = 0
    empty_turns: int = 0  # turns in a row that captured nothing (heodang)
    flip_turns: int = 0
    sep_animal_as: str | None = None
    mask: int = 0  # the captured cards as a bitmask, kept in step with ``captured`` for fast scoring
    checked_mask: int = 0  # the captures at the last go/stop check
    checked_pin: str | None = None

    @property
    def hand_size(self) -> int:
        return len(self.hand) + self.hidden

    def gain(self, cards: Iterable[Card]) -> None:
        for card in cards:
            self.captured.append(card)
            self.mask |= 1 << card.index

    def lose(self, card: Card) -> None:
        self.captured.remove(card)
        self.mask &= ~(1 << card.index)


@lru_cache(maxsize=8)
def _deck(bonus_cards: tuple[str, ...]) -> tuple[Card, ...]:
    """The cards in play: the 48 month cards and the rule set's bonus cards."""
    return tuple(c for c in CARDS if c.kind != "bonus" or c.id in bonus_cards)


def _has_four_of_a_month(hand: Iterable[Card]) -> bool:
    """Chongtong (총통): four cards of one month in a dealt hand (RULES.md 4)."""
    counts = [0] * 13
    for card in hand:
        counts[card.month] += 1
    return max(counts[1:]) == 4


def _cards(cards: Iterable[Card]) -> str:
    return ", ".join(c.id for c in cards)


class GameState:
    """The table during a hand. Build it from the deal; feed it moves with ``apply``."""

    def __init__(
        self,
        players: Sequence[str],
        rules: RuleSet,
        *,
        layout: Sequence[Card],
        hands: Mapping[str, Sequence[Card]] | None = None,
        stock: Sequence[Card] | None = None,
    ) -> None:
        """Deal. Raises IllegalMoveError(code="bad-deal", move_index=None) for a deal that cannot be."""
        self.rules = rules
        self.order = list(players)
        self.moves: list[Move] = []
        self.events: list[Event] = []
        self.instant_payments: list[InstantPayment] = []
        self.layout: dict[int, list[Card]] = {m: [] for m in range(1, 13)}
        self.stack_maker: dict[int, str | None] = {}  # month -> who made the ppuk (None: dealt stack)
        self.outcome: str | None = None
        self.winner: str | None = None
        self.last_go: str | None = None
        self.expects: str | None = "play"
        self.turn = 0
        self.auto_stop_at: int | None = None  # the move whose last turn stopped automatically
        self._check_deal(players, layout, hands, stock)
        deck = _deck(rules.bonus_cards)
        size = HAND_SIZE[rules.players]
        self.seats = [
            Seat(pid, set(hands[pid]) if hands is not None else set(), 0 if hands is not None else size)
            for pid in self.order
        ]
        self.index = {pid: i for i, pid in enumerate(self.order)}
        self.stock: list[Card] | None = list(stock) if stock is not None else None
        self.stock_pos = 0
        seen = set(layout)
        for seat in self.seats:
            seen |= seat.hand
        if self.stock is not None:
            seen |= set(self.stock)
        self.unseen: set[Card] = {c for c in deck if c not in seen}
        self.stock_left = (
            len(self.stock) if self.stock is not None else len(deck) - len(seen) - sum(s.hidden for s in self.seats)
        )
        dealer = self.seats[0]
        for card in layout:
            if card.kind == "bonus":  # RULES.md 4: to the first player, stealing nothing
                dealer.gain([card])
                self._event(
                    None, dealer.id, "bonus", f"{card.id} was dealt to the layout and goes to {dealer.id}", card=card.id
                )
            else:
                self.layout[card.month].append(card)
        for month, cards in self.layout.items():
            if len(cards) == 3:
                self.stack_maker[month] = None
        self._deal_outcome()
        if self.expects is not None:
            self._set_next(0)

    # --- the deal --------------------------------------------------------------------------------------

    def _check_deal(
        self,
        players: Sequence[str],
        layout: Sequence[Card],
        hands: Mapping[str, Sequence[Card]] | None,
        stock: Sequence[Card] | None,
    ) -> None:
        rules = self.rules

        def bad(why: str, **ctx: Any) -> IllegalMoveError:
            return IllegalMoveError(f"bad deal: {why}", code="bad-deal", move_index=None, **ctx)

        if len(players) != rules.players:
            raise bad(f"{rules.preset} is played by {rules.players} players, not {len(players)}")
        if len(set(players)) != len(players):
            raise bad("a player id is used twice")
        where: dict[Card, str] = {}

        def place(cards: Iterable[Card], name: str) -> None:
            for card in cards:
                if card.kind == "bonus" and card.id not in rules.bonus_cards:
                    raise bad(f"{card.id} is a bonus card {rules.preset} does not use", card=card.id)
                if card in where:
                    raise bad(f"{card.id} is dealt twice ({where[card]} and {name})", card=card.id)
                where[card] = name

        regular = [c for c in layout if c.kind != "bonus"]
        if len(regular) != LAYOUT_SIZE[rules.players]:
            raise bad(
                f"the layout has {len(regular)} month cards, not {LAYOUT_SIZE[rules.players]} "
                "(list bonus cards dealt there and the cards that replaced them)"
            )
        place(layout, "the layout")
        if hands is not None:
            if set(hands) != set(players):
                raise bad("hands must be given for exactly the players")
            for pid in players:
                if len(hands[pid]) != HAND_SIZE[rules.players]:
                    raise bad(f"{pid} is dealt {len(hands[pid])} cards, not {HAND_SIZE[rules.players]}", player=pid)
                place(hands[pid], f"{pid}'s hand")
        if stock is not None:
            place(stock, "the stock")
            expected = 48 + len(rules.bonus_cards) - len(layout) - rules.players * HAND_SIZE[rules.players]
            if len(stock) != expected:
                raise bad(f"the stock has {len(stock)} cards, not {expected}")
            if hands is not None:
                deck_size = 48 + len(rules.bonus_cards)
                if len(where) != deck_size:
                    raise bad(f"hands, layout and stock hold {len(where)} cards, not the {deck_size} of the deck")

    def _deal_outcome(self) -> None:
        rules = self.rules
        for month, cards in self.layout.items():
            if len(cards) == 4:  # RULES.md 4: floor_four
                self._finish(
                    rules.floor_four,
                    None,
                    None,
                    f"four cards of month {month} were dealt on the layout: {rules.floor_four}",
                )
                return
        if not rules.chongtong_points:
            return
        holders = [seat.id for seat in self.seats if _has_four_of_a_month(seat.hand)]
        if len(holders) == 1:
            self._event(None, holders[0], "chongtong", f"{holders[0]} was dealt four cards of one month (chongtong)")
            self._finish("chongtong", holders[0], None, "")
        elif len(holders) > 1:
            what = rules.multiple_chongtong
            self._finish(what, None, None, f"{' and '.join(holders)} were each dealt chongtong: {what}")

    # --- queries ---------------------------------------------------------------------------------------

    @property
    def is_over(self) -> bool:
        return self.expects is None

    @property
    def to_move(self) -> str | None:
        """The player the log expects next (None when the hand is over)."""
        return None if self.expects is None else self.order[self.turn]

    def layout_cards(self) -> list[Card]:
        return sorted((c for cards in self.layout.values() for c in cards), key=lambda c: c.index)

    def score_of(self, seat: Seat) -> int:
        """The seat's combination score now (RULES.md 2-3)."""
        return total(seat.mask, self.rules, seat.sep_animal_as)

    def hand_result(self, nagari_streak: int = 0, stake: int = 1) -> HandResult:
        """The finished hand as settlement sees it (the same record /v1/settle builds)."""
        return HandResult(
            tuple(
                PlayerHand(s.id, tuple(s.captured), s.go_count, s.shakes, s.bombs, s.sep_animal_as) for s in self.seats
            ),
            self.winner,
            self.outcome or "nagari",
            nagari_streak,
            stake,
            self.last_go,
        )

    # --- legal moves ----------------------------------------------------------------------------------

    def legal_moves(self) -> list[Move]:
        """Every move the player to move may make now, with every capture choice spelled out.

        Needs a known deal (hands and stock): with hidden cards the choices are not knowable. Moves state
        their ``draw`` and ``bonus_flipped`` explicitly, so the log also replays without the stock.
        """
        if self.expects is None:
            return []
        if self.stock is None or any(s.hidden for s in self.seats):
            raise ValueError("legal_moves needs a known deal: hands and stock")
        seat = self.seats[self.turn]
        if self.expects == "call":
            return [Move(seat.id, call="go"), Move(seat.id, call="stop")]
        if self.expects == "flip":
            return self._with_draw(Move(seat.id, flip=True), None, self.stock_pos, [])
        rules = self.rules
        hand = sorted(seat.hand, key=lambda c: c.index)
        moves: list[Move] = []
        months: dict[int, list[Card]] = {}
        for card in hand:
            if card.kind == "bonus":
                moves += self._bonus_moves(seat, card, hand)
                continue
            months.setdefault(card.month, []).append(card)
            for choice in self._choices(card):
                moves += self._with_draw(Move(seat.id, play=card, capture=choice), card, self.stock_pos, [])
        for month, cards in months.items():
            on_layout = len(self.layout[month])
            if rules.allow_shake and len(cards) >= 3 and on_layout == 0:
                for trio in combinations(cards, 3):
                    for card in trio:
                        moves += self._with_draw(Move(seat.id, play=card, shake=trio), card, self.stock_pos, [])
            if rules.allow_bomb and len(cards) == 3 and on_layout == 1:
                moves += self._with_draw(Move(seat.id, bomb=tuple(cards)), None, self.stock_pos, [])
        return moves

    def _choices(self, card: Card) -> list[Card | None]:
        here = self.layout[card.month]
        return list(here) if len(here) == 2 else [None]

    def _peek(self, pos: int) -> tuple[list[Card], Card | None, int]:
        """Bonus cards and the next month card off a known stock from ``pos``."""
        assert self.stock is not None
        bonus: list[Card] = []
        while pos < len(self.stock):
            card = self.stock[pos]
            pos += 1
            if card.kind != "bonus":
                return bonus, card, pos
            bonus.append(card)
        return bonus, None, pos

    def _with_draw(self, move: Move, played: Card | None, pos: int, bonus: list[Card]) -> list[Move]:
        more, draw, _ = self._peek(pos)
        flipped = tuple(bonus + more) or None
        if draw is None:
            return [move._replace(bonus_flipped=flipped)]
        choices: list[Card | None] = [None]
        if played is None or draw.month != played.month:
            choices = self._choices(draw)
        return [move._replace(draw=draw, draw_capture=c, bonus_flipped=flipped) for c in choices]

    def _bonus_moves(self, seat: Seat, card: Card, hand: list[Card]) -> list[Move]:
        pos = self.stock_pos
        base = Move(seat.id, bonus=card)
        if self.rules.bonus_from_hand == "extra-flip":
            bonus, flipped, pos = self._peek(pos)
            if flipped is None:
                return [base._replace(bonus_flipped=tuple(bonus) or None)]
            return [
                m
                for c in self._choices(flipped)
                for m in self._with_draw(base._replace(play=flipped, capture=c), flipped, pos, bonus)
            ]
        drawn = self.stock[pos] if self.stock is not None and pos < len(self.stock) else None
        pos += drawn is not None
        options = [c for c in hand if c is not card and c.kind != "bonus"]
        if drawn is not None and drawn.kind != "bonus":
            options.append(drawn)
        if not options:  # only bonus cards left in hand: the turn is the bonus card alone
            return self._with_draw(base, None, pos, [])
        return [
            m
            for h in options
            for c in self._choices(h)
            for m in self._with_draw(base._replace(play=h, capture=c), h, pos, [])
        ]

    # --- applying moves --------------------------------------------------------------------------------

    def apply(self, move: Move) -> None:
        """Apply one move; raises IllegalMoveError (state unchanged) when the rules forbid it here."""
        i = len(self.moves)
        if self.expects is None:
            if self.auto_stop_at == i - 1 and move.call is not None and move.player == self.winner:
                if move.call == "go":
                    raise IllegalMoveError(
                        f"{move.player} calls go on their last turn, where only stop is possible",
                        code="call-not-allowed",
                        move_index=i,
                        player=move.player,
                    )
                self.moves.append(move)  # RULES.md 7: a log may state the automatic stop
                self.auto_stop_at = None
                return
            raise IllegalMoveError(
                f"{move.player} moves after the hand is over", code="game-over", move_index=i, player=move.player
            )
        if move.player not in self.index:
            raise IllegalMoveError(
                f"{move.player!r} is not a player of this hand", code="not-your-turn", move_index=i, player=move.player
            )
        kind = move.kind
        if kind == "declare":
            self._declare(move, i)
        elif kind == "call":
            self._call(move, i)
        else:
            who = self.order[self.turn]
            if self.expects == "call":
                raise IllegalMoveError(
                    f"{who} must call go or stop before {move.player} plays",
                    code="call-required",
                    move_index=i,
                    player=who,
                )
            if move.player != who:
                raise IllegalMoveError(
                    f"it is {who}'s turn, not {move.player}'s", code="not-your-turn", move_index=i, player=move.player
                )
            _Turn(self, move, i).run()
        self.moves.append(move)

    def _declare(self, move: Move, i: int) -> None:
        if self.rules.sep_animal == "animal" and move.sep_animal_as == "junk":
            raise IllegalMoveError(
                f"{move.player} declares the cup as junk, but under sep_animal 'animal' it is always an animal",
                code="sep-animal-pin",
                move_index=i,
                player=move.player,
            )
        seat = self.seats[self.index[move.player]]
        seat.sep_animal_as = move.sep_animal_as
        self._event(i, seat.id, "declare", f"{seat.id} counts the cup ({CUP.id}) as {move.sep_animal_as}")

    def _call(self, move: Move, i: int) -> None:
        if self.expects != "call":
            raise IllegalMoveError(
                f"{move.player} calls {move.call}, but no go or stop is due",
                code="call-not-allowed",
                move_index=i,
                player=move.player,
            )
        seat = self.seats[self.turn]
        if move.player != seat.id:
            raise IllegalMoveError(
                f"{seat.id} must call go or stop, not {move.player}",
                code="not-your-turn",
                move_index=i,
                player=move.player,
            )
        points = self.score_of(seat)
        if move.call == "stop":
            self._event(i, seat.id, "stop", f"{seat.id} stops with {points} points")
            self._finish("stop", seat.id, i, "")
            return
        seat.go_count += 1
        seat.go_bar = points
        self.last_go = seat.id
        self._event(i, seat.id, "go", f"{seat.id} calls go #{seat.go_count} at {points} points")
        self._advance(i)

    def _advance(self, i: int | None) -> None:
        """Hand the turn to the next player who still has something to play, or end in nagari."""
        seats = self.seats
        n = len(seats)
        for step in range(1, n + 1):
            j = (self.turn + step) % n
            seat = seats[j]
            if seat.hand or seat.hidden or seat.flip_turns:
                self.turn = j
                self.expects = "flip" if seat.flip_turns else "play"
                return
        self._event(i, None, "nagari", "the cards ran out with no stop: nagari")
        self._finish("nagari", None, i, "")

    def _set_next(self, j: int) -> None:
        self.turn = j
        self.expects = "flip" if self.seats[j].flip_turns else "play"

    def _finish(self, outcome: str, winner: str | None, i: int | None, why: str) -> None:
        if why:
            self._event(i, winner, outcome, why)
        self.outcome = outcome
        self.winner = winner
        self.expects = None

    def _event(self, i: int | None, player: str | None, type_: str, detail: str, **data: Any) -> None:
        self.events.append(Event(i, player, type_, detail, data))

    def steal(self, taker: Seat, units: int, cause: str, i: int) -> None:
        """Take ``units`` junk units from each opponent, cheapest card first (RULES.md 6)."""
        if units <= 0:
            return
        rules = self.rules
        for victim in self.seats:
            if victim is taker:
                continue
            taken: list[Card] = []
            owed = units
            for group, value in _STEAL_GROUPS[rules.double_junk]:  # cheapest first, catalog order within
                have = victim.mask & group
                while have and owed > 0:
                    low = have & -have
                    taken.append(CARDS[low.bit_length() - 1])
                    have ^= low
                    owed -= value
            if not taken:
                continue
            for card in taken:
                victim.lose(card)
            taker.gain(taken)
            self._event(
                i,
                taker.id,
                "steal",
                f"{taker.id} takes {_cards(taken)} from {victim.id} for the {cause.replace('_', '-')}",
                **{"from": victim.id, "cards": [c.id for c in taken], "cause": cause},
            )


class _Turn:
    """One turn: checked in full (``_plan``) before anything moves (``_commit``)."""

    # Defaults shared by every turn; a turn sets only what it changes (cheaper than setting them all).
    hidden_out = 0  # how many of the cards leaving the hand came from its hidden part
    hand_in: Card | None = None  # a known card entering the hand (bonus replace)
    hidden_in = 0  # an unknown card entering the hand (bonus replace, hidden stock)
    stock_used = 0
    draw_used = 0  # stated bonus_flipped entries consumed
    bonus: Card | None = None
    shown: tuple[Card, ...] = ()
    draw: Card | None = None
    h_choice: Card | None = None
    d_choice: Card | None = None
    is_last = False

    def __init__(self, game: GameState, move: Move, i: int) -> None:
        self.game = game
        self.move = move
        self.i = i
        self.seat = game.seats[game.turn]
        self.known_out: list[Card] = []  # cards leaving the hand (known, or hidden until now)
        self.bonus_flips: list[Card] = []
        self.played: list[Card] = []

    def fail(self, code: str, detail: str, card: Card | None = None) -> IllegalMoveError:
        return IllegalMoveError(
            detail, code=code, move_index=self.i, player=self.seat.id, card=card.id if card else None
        )

    def run(self) -> None:
        self._plan()
        self._commit()

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
                    "capture-required", f"{card.id} meets {_cards(here)}: {self.seat.id} must choose one ({name})"
                )
            if choice not in here:
                raise self.fail("capture-not-allowed", f"{name} {choice.id} is not one of {_cards(here)}", choice)
            return choice
        if choice is not None:
            raise self.fail(
                "capture-not-allowed", f"{card.id} has no choice of capture, but {name} names {choice.id}", choice
            )
        return None

    def _plan(self) -> None:
        game, seat, move, rules = self.game, self.seat, self.move, self.game.rules
        if game.expects == "flip" and not move.flip:
            raise self.fail("flip-required", f"{seat.id} owes a flip-only turn after a bomb and may only flip")
        if move.flip and game.expects != "flip":
            raise self.fail("flip-not-allowed", f"{seat.id} has no flip-only turn left")

        if move.bomb:
            self._plan_bomb()
        elif move.bonus is not None:
            self._plan_bonus()
        elif move.play is not None:
            if move.play.kind == "bonus":
                raise self.fail(
                    "bad-move", f"a bonus card is played with 'bonus', not 'play' ({move.play.id})", move.play
                )
            if move.shake:
                self._plan_shake()
            if move.play in seat.hand:
                self.known_out.append(move.play)
            else:
                self._take_from_hand([move.play], "plays")
            self.played = [move.play]
            self.h_choice = self._match(move.play, move.capture, "capture")

        hand_after = seat.hand_size + self.hidden_in + (self.hand_in is not None) - len(self.known_out)
        flips_after = seat.flip_turns - move.flip + (rules.bomb_flip_turns if move.bomb else 0)
        self.is_last = hand_after == 0 and flips_after == 0

        self.draw = self._flip(move.draw, "draw")
        if game.stock is None and move.bonus_flipped and self.draw_used < len(move.bonus_flipped):
            extra = move.bonus_flipped[self.draw_used]
            raise self.fail("draw-mismatch", f"bonus_flipped lists {extra.id}, but no flip turned it up", extra)
        if game.stock is not None and move.bonus_flipped is not None and list(move.bonus_flipped) != self.bonus_flips:
            raise self.fail(
                "draw-mismatch",
                f"the stock turned up bonus cards [{_cards(self.bonus_flips)}], not [{_cards(move.bonus_flipped)}]",
            )
        if self.draw is not None:
            h = self.played[0] if self.played else None
            if h is None or self.draw.month != h.month:
                self.d_choice = self._match(self.draw, move.draw_capture, "draw_capture")
            elif move.draw_capture is not None:
                raise self.fail(
                    "capture-not-allowed",
                    f"{self.draw.id} falls on {h.id}'s month: there is no choice",
                    move.draw_capture,
                )
        elif move.draw_capture is not None:
            raise self.fail(
                "capture-not-allowed", "nothing was flipped, so there is no draw_capture", move.draw_capture
            )

    def _plan_shake(self) -> None:
        game, seat, move = self.game, self.seat, self.move
        cards = move.shake
        month = cards[0].month if cards else 0
        if not game.rules.allow_shake:
            raise self.fail("shake-not-allowed", f"{game.rules.preset} does not allow shaking (allow_shake is off)")
        if len(cards) != 3 or len(set(cards)) != 3 or any(c.month != month or c.kind == "bonus" for c in cards):
            raise self.fail("shake-not-allowed", f"a shake shows three cards of one month, not {_cards(cards)}")
        assert move.play is not None  # a shake always plays (Move.from_dict checks the form)
        if move.play not in cards:
            raise self.fail(
                "shake-not-allowed", f"{seat.id} shakes {_cards(cards)} but plays {move.play.id}", move.play
            )
        if game.layout[month]:
            raise self.fail(
                "shake-not-allowed",
                f"{seat.id} cannot shake month {month}: the layout holds {_cards(game.layout[month])}",
            )
        for card in cards:
            if card not in seat.hand and card not in game.unseen:
                raise self._not_in_hand(card, "shakes")
        hidden_needed = sum(1 for c in cards if c not in seat.hand)
        if hidden_needed > seat.hidden:
            raise self.fail("card-not-in-hand", f"{seat.id} cannot hold all of {_cards(cards)}")
        self.shown = cards

    def _plan_bomb(self) -> None:
        game, move = self.game, self.move
        cards = move.bomb
        month = cards[0].month
        if not game.rules.allow_bomb:
            raise self.fail("bomb-not-allowed", f"{game.rules.preset} does not allow bombs (allow_bomb is off)")
        if len(cards) != 3 or len(set(cards)) != 3 or any(c.month != month or c.kind == "bonus" for c in cards):
            raise self.fail("bomb-not-allowed", f"a bomb plays three cards of one month, not {_cards(cards)}")
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

    def _commit(self) -> None:
        game, seat, move, rules, i = self.game, self.seat, self.move, self.game.rules, self.i
        layout = game.layout
        before = any(layout.values())
        took_any = False
        last = self.is_last
        events: list[str] = []
        ppuk = False

        # hand and stock bookkeeping
        seat.hidden += self.hidden_in - self.hidden_out
        if self.hand_in is not None:
            seat.hand.add(self.hand_in)
        for card in self.known_out:
            seat.hand.discard(card)
            game.unseen.discard(card)
        for card in self.shown:
            game.unseen.discard(card)
        if self.shown:
            hidden_shown = [c for c in self.shown if c not in seat.hand and c not in self.known_out]
            seat.hand.update(hidden_shown)
            seat.hidden -= len(hidden_shown)
        if self.draw is not None:
            game.unseen.discard(self.draw)
        for card in self.bonus_flips:
            game.unseen.discard(card)
        extra_flip = self.bonus is not None and rules.bonus_from_hand == "extra-flip" and self.played
        if extra_flip:
            game.unseen.discard(self.played[0])
        game.stock_pos += self.stock_used if game.stock is not None else 0
        game.stock_left -= self.stock_used
        if move.flip:
            seat.flip_turns -= 1
        seat.turns += 1

        if self.shown:
            seat.shakes += 1
            game._event(i, seat.id, "shake", f"{seat.id} shakes {_cards(self.shown)}", cards=[c.id for c in self.shown])
        gains = ([self.bonus] if self.bonus else []) + self.bonus_flips
        for card in gains:
            seat.gain([card])
            game._event(i, seat.id, "bonus", f"{seat.id} gains {card.id}", card=card.id)
            game.steal(seat, rules.steal("bonus", last), "bonus", i)

        # the played card (or bomb) meets the layout
        h = self.played[0] if self.played else None
        pending: list[Card] = []  # a pair waiting for the flip
        alone = False
        pair_of_two = False
        if move.bomb:
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
                f"{seat.id} bombs with {_cards(self.played)} and takes {_cards(taken)}",
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
            if h is not None and not move.bomb and d.month == h.month:
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
                        f"{seat.id} takes all four of month {h.month}: {_cards(taken)} (ttadak)",
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
        if before and not any(layout.values()):
            game._event(i, seat.id, "sseul", f"{seat.id} sweeps the layout clean (sseul)")
            events.append("sseul")
        for event in events:
            game.steal(seat, rules.steal(event, last), event, i)

        self._after_turn(took_any, ppuk, "ttadak" in events)

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
            game._event(
                i,
                seat.id,
                "ja-ppuk",
                f"{seat.id} captures their own ppuk of month {month} (ja-ppuk)",
                cards=[c.id for c in taken],
            )
            return "ja_ppuk"
        whose = "the stack dealt on the layout" if maker is None else f"{maker}'s ppuk"
        game._event(
            i,
            seat.id,
            "stack-capture",
            f"{seat.id} captures {whose} of month {month} (stack capture)",
            cards=[c.id for c in taken],
        )
        return "stack"

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
        points = game.score_of(seat)
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


@dataclass(frozen=True, slots=True)
class Replay:
    """A replayed log: the final state, and its settlement when the hand is over."""

    state: GameState
    settlement: Settlement | None


def parse_deal(deal: Mapping[str, Any]) -> dict[str, Any]:
    """Card ids of a deal -> Card values; raises IllegalMoveError(code="bad-deal") for unknown ids."""

    def resolve(ids: Any, where: str) -> list[Card]:
        try:
            return [by_id(x) for x in ids]
        except CardError as err:
            raise IllegalMoveError(
                f"bad deal: {err.detail} ({where})", code="bad-deal", move_index=None, card=err.context.get("card")
            ) from None

    out: dict[str, Any] = {"layout": resolve(deal["layout"], "layout")}
    if deal.get("hands") is not None:
        out["hands"] = {pid: resolve(cards, f"{pid}'s hand") for pid, cards in deal["hands"].items()}
    if deal.get("stock") is not None:
        out["stock"] = resolve(deal["stock"], "stock")
    return out


def replay(
    players: Sequence[str],
    rules: RuleSet,
    deal: Mapping[str, Any],
    moves: Iterable[Move | Mapping[str, Any]],
    *,
    nagari_streak: int = 0,
    stake: int = 1,
) -> Replay:
    """Replay a log from the deal; raises IllegalMoveError at the first move the rules forbid.

    ``deal`` holds card ids (``layout``, and optionally ``hands`` and ``stock``, top first); moves may be
    Move values or their dict form. A finished hand is settled by the same ``settle`` as /v1/settle.
    """
    state = GameState(players, rules, **parse_deal(deal))
    for i, raw in enumerate(moves):
        state.apply(raw if isinstance(raw, Move) else Move.from_dict(raw, index=i))
    result = None
    if state.is_over:
        result = settle(state.hand_result(nagari_streak, stake), rules)
    return Replay(state, result)
