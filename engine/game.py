"""A hand of Go-Stop as a state machine (RULES.md 4-9): the deal, legal moves, and the flow of the hand.

``GameState.apply`` checks a move completely before changing anything, so an illegal move raises
``IllegalMoveError`` and leaves the state as it was. The game owns the flow of the hand: whose turn it is,
the go/stop decisions (RULES.md 7), first-turn payments and instant wins (RULES.md 8), and how it ends.
A turn itself is ``engine.turn``'s; the cards on the table are ``engine.table``'s.

Hands and the stock may be unknown (a physical game logged card by card): then a played or flipped card
must simply be one nobody has seen.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import combinations
from typing import Any, Final

from .cards import BRIGHTS, CHEONGDAN, CHODAN, CUP, GODORI, HONGDAN, Card, CardSet, Kind
from .deal import Deal, check_deal, chongtong_holders, four_of_a_month, read_deal
from .errors import HandError, IllegalMoveError
from .events import Event, EventType, InstantPayment
from .moves import Expect, Move, Outcome
from .record import Record
from .rules import (
    BonusFromHand,
    ChongtongAtDeal,
    ChongtongByBonus,
    CupPlacement,
    DealRuling,
    FlipTiming,
    RuleSet,
    Shodang,
)
from .scoring import total
from .settlement import HandResult, PlayerHand, Settlement, price
from .sitout import Sale, SitOut, sale_of
from .table import Seat, Table
from .turn import (
    Plan,
    alike,
    apply,
    asks_choice,
    can_bomb,
    can_shake,
    can_two_card_bomb,
    choices,
    chongtong_by_bonus,
    draw_asks_choice,
    plan,
)

__all__ = ["HEODANG_TURNS", "SHODANG_GROUPS", "GameState", "TurnOptions"]

HEODANG_TURNS: Final = 5  # RULES.md 8: heodang (허당) is five empty turns in a row
# RULES.md 8.7: the combinations a shodang looks at, one card of each a month of its own
SHODANG_GROUPS: Final = (
    ("brights", BRIGHTS.mask),
    ("godori", GODORI.mask),
    ("hongdan", HONGDAN.mask),
    ("cheongdan", CHEONGDAN.mask),
    ("chodan", CHODAN.mask),
)

# Read on every turn, so bound once: in CPython 3.11 reading a member off its Enum class costs 5x a global.
BONUS: Final = Kind.BONUS
PLAY: Final = Expect.PLAY
FLIP: Final = Expect.FLIP
CALL: Final = Expect.CALL
CHOOSE: Final = Expect.CHONGTONG
ANSWER: Final = Expect.SHODANG


class TurnOptions(Record):
    """What a turn may ask of the player, month by month (RULES.md 5): ``capture_months`` hold two layout cards,
    so a card of theirs played or flipped takes one of the two the log must name; a shake is possible in
    ``shake_months`` (none of the month on the layout), a bomb of three in ``bomb_months`` (its fourth alone
    there) and a two-card bomb in ``two_card_bomb_months`` (two of the month there, RULES.md 5.5), where the
    rules have them; ``flip_turns`` the player holds after a bomb, and whether one is ``flip_due`` now.
    ``draw_capture_months``: (m, months) where a card of month ``m`` played changes the months where the card
    turned over asks which of two it takes (RULES.md 5.2: not in the month played); after any other play, or
    none, the flip asks in ``capture_months``."""

    __slots__ = (
        "bomb_months",
        "capture_months",
        "draw_capture_months",
        "flip_due",
        "flip_turns",
        "player",
        "shake_months",
        "two_card_bomb_months",
    )
    fields = (
        "player",
        "capture_months",
        "shake_months",
        "bomb_months",
        "flip_turns",
        "flip_due",
        "two_card_bomb_months",
        "draw_capture_months",
    )

    def __init__(
        self,
        player: str,
        capture_months: tuple[int, ...],
        shake_months: tuple[int, ...],
        bomb_months: tuple[int, ...],
        flip_turns: int,
        flip_due: bool,
        two_card_bomb_months: tuple[int, ...] = (),
        draw_capture_months: tuple[tuple[int, tuple[int, ...]], ...] = (),
    ) -> None:
        self.player: Final = player
        self.capture_months: Final = capture_months
        self.shake_months: Final = shake_months
        self.bomb_months: Final = bomb_months
        self.flip_turns: Final = flip_turns
        self.flip_due: Final = flip_due
        self.two_card_bomb_months: Final = two_card_bomb_months
        self.draw_capture_months: Final = draw_capture_months


class GameState:
    """The hand. Build it from the deal (card values); feed it moves with ``apply``; ask ``is_legal`` and
    ``legal_moves``; ``copy`` it to try a line without touching the original (``copy.deepcopy`` works too)."""

    def __init__(
        self, players: Sequence[str], rules: RuleSet, deal: Deal | Mapping[str, Any], *, _copy: GameState | None = None
    ) -> None:
        """Deal. ``deal`` is a Deal or its card ids (see ``read_deal``). Raises IllegalMoveError(``bad-deal``,
        ``move_index`` None) for a deal that cannot be.

        With hidden hands, ``deal.shown`` is what players showed at the deal: a chongtong, four cards of one
        month (RULES.md 4). Those cards are known to be in the hand, so the deal can end in chongtong.
        """
        if _copy is not None:  # copy(): a compiled (native) class is not made without its __init__
            self._copy_from(_copy)
            return
        if not isinstance(deal, Deal):
            deal = read_deal(deal)
        placed = check_deal(deal, players, rules)
        self.rules = rules
        self.players = tuple(players)
        self.moves: list[Move] = []
        self.outcome: Outcome | None = None
        self.winner: str | None = None
        self.expects: Expect | None = PLAY
        self.go_calls: list[str] = []  # who called go, in order (gobak pays-all needs the latest loser)
        self.played_on_chongtong: tuple[str, ...] = ()  # dealt a chongtong and played on (RULES.md 4.3, 8.2)
        self.auto_stop_at: int | None = None  # the move whose last turn stopped the hand by itself
        self._mover = 0  # the seat whose turn (or call) it is
        self.chongtong_month = 0  # the month of the chongtong whose holder is to choose (RULES.md 4.3)
        # RULES.md 8.7: who called shodang this hand, the answers given, and, when the answers split, the
        # (caller, accepter, decliner) whose win by the accepter makes one loser pay alone
        self.shodang_caller: str | None = None
        self.shodang_answers: dict[str, str] = {}
        self.shodang_split: tuple[str, str, str] | None = None

        self.sit_out = deal.sit_out  # the fourth at a table of three, who did not play (RULES.md 4.5)
        self.sale: Sale | None = None
        hidden = 0 if deal.hands is not None else rules.hand_size
        seats = []
        seen = placed.layout | placed.stock
        for pid in players:
            hand = placed.hands.get(pid, 0)
            seen |= hand
            seats.append(Seat(pid, hand, hidden - hand.bit_count() if hidden else 0))
        stock = deal.stock
        if stock is not None:
            if deal.sit_out is not None:  # the sitter's hand goes under the stock (RULES.md 4.5)
                stock = (*stock, *deal.sit_out.hand)
            stock_left = len(stock)
        else:
            stock_left = len(rules.deck) - seen.bit_count() - sum(seat.hidden for seat in seats)
        unseen = rules.deck.mask & ~seen & ~placed.sitter
        self.table = Table(rules, seats, stock, unseen, stock_left)
        if stock is None:
            self.table.in_stock = placed.sitter  # shown by the sitter, so known to be in the stock
        self._lay_out(deal.layout, placed.layout)
        if deal.sit_out is not None:
            self._sell(deal.sit_out)

    def _sell(self, sit_out: SitOut) -> None:
        """The fourth's sale of the brights (RULES.md 4.5), paid first of the hand's instant payments; a
        redealt deal sells nothing. (A method of its own: after ``_lay_out`` the outcome may have changed.)"""
        if self.outcome is Outcome.REDEAL:
            return
        self.sale = sale_of(sit_out, self.players, self.rules)
        if self.sale is not None:
            self.table.instant_payments[:0] = self.sale.payments()

    def _lay_out(self, layout: Sequence[Card], face_up: int) -> None:
        """Turn the layout face up and see what the deal decides at once (RULES.md 4)."""
        table, rules = self.table, self.rules
        dealer = table.seats[0]
        for card in layout:
            if card.kind is BONUS:  # to the first player, stealing nothing
                dealer.captured_mask |= card.bit
                table.record(None, dealer.id, EventType.BONUS, card=card, source="layout")
            else:
                table.lay(card)
        for m, cards in enumerate(table.layout):
            if len(cards) == 3:
                table.stack_maker[m] = None
        month = four_of_a_month(face_up)
        if month is not None:
            if rules.floor_four is DealRuling.DEALER_WINS:  # RULES.md 4.2: the dealer wins, as a chongtong
                table.record(None, dealer.id, EventType.CHONGTONG, month=month, reason="floor-four")
                self._finish(Outcome.CHONGTONG, dealer.id)
                return
            outcome = Outcome(rules.floor_four.value)
            table.record(None, None, EventType(outcome), reason="floor-four", month=month)
            self._finish(outcome, None)
            return
        if not rules.chongtong_points or rules.chongtong_at_deal is ChongtongAtDeal.PLAY_ON:
            if "chongtong" in rules.checked:  # a win after playing on is worth the knob's factor
                hands = {seat.id: seat.hand_mask for seat in table.seats}
                self.played_on_chongtong = tuple(pid for pid, _ in chongtong_holders(hands))
            return
        holders = chongtong_holders({seat.id: seat.hand_mask for seat in table.seats})
        if len(holders) == 1 and rules.chongtong_at_deal is ChongtongAtDeal.CHOICE:
            player, month = holders[0]  # RULES.md 4.3: the holder chooses before the first play
            self._mover = self.players.index(player)
            self.chongtong_month = month
            self.expects = CHOOSE
        elif len(holders) == 1:
            player, month = holders[0]
            table.record(None, player, EventType.CHONGTONG, month=month)
            self._finish(Outcome.CHONGTONG, player)
        elif holders:
            players = [pid for pid, _ in holders]
            if rules.multiple_chongtong is DealRuling.DEALER_WINS:
                # RULES.md 4.3: the dealer wins; of two holders, the one who plays first (the dealer, if one)
                player, month = holders[0]
                table.record(
                    None, player, EventType.CHONGTONG, month=month, reason="multiple-chongtong", players=players
                )
                self._finish(Outcome.CHONGTONG, player)
                return
            outcome = Outcome(rules.multiple_chongtong.value)
            table.record(None, None, EventType(outcome), reason="multiple-chongtong", players=players)
            self._finish(outcome, None)

    def _copy_from(self, other: GameState) -> None:
        self.rules, self.players = other.rules, other.players
        self.moves = list(other.moves)
        self.outcome, self.winner, self.expects = other.outcome, other.winner, other.expects
        self.go_calls = list(other.go_calls)
        self.auto_stop_at, self._mover = other.auto_stop_at, other._mover
        self.sit_out, self.sale = other.sit_out, other.sale
        self.played_on_chongtong = other.played_on_chongtong
        self.chongtong_month = other.chongtong_month
        self.shodang_caller, self.shodang_split = other.shodang_caller, other.shodang_split
        self.shodang_answers = dict(other.shodang_answers)
        self.table = other.table.copy()

    def copy(self) -> GameState:
        """An independent copy of the hand as it stands: moves applied to one never reach the other."""
        return GameState(self.players, self.rules, {}, _copy=self)

    def __copy__(self) -> GameState:
        return self.copy()

    def __deepcopy__(self, memo: object) -> GameState:
        return self.copy()

    def __repr__(self) -> str:
        if self.expects is None:
            what = f"over: {self.outcome}" + (f", {self.winner} wins" if self.winner else "")
        else:
            what = f"{self.to_move} to {self.expects}"
        seats = ", ".join(
            f"{s.id}: {s.hand_size} in hand, {len(s.captured)} captured, {s.go_count} go" for s in self.seats
        )
        return (
            f"<GameState {self.rules.preset} after {len(self.moves)} moves, {what}; layout {self.layout_cards().ids()},"
            f" {self.stock_left} in the stock; {seats}>"
        )

    # --- looking ------------------------------------------------------------------------------------------

    def seat(self, player: str) -> Seat:
        """The seat of ``player`` (KeyError for someone not at the table)."""
        return self.table.seat(player)

    @property
    def seats(self) -> list[Seat]:
        return self.table.seats

    @property
    def events(self) -> list[Event]:
        return self.table.events

    @property
    def instant_payments(self) -> list[InstantPayment]:
        return self.table.instant_payments

    @property
    def stock_left(self) -> int:
        return self.table.stock_left

    @property
    def is_over(self) -> bool:
        return self.expects is None

    @property
    def to_move(self) -> str | None:
        """The player the log expects next (None when the hand is over)."""
        return None if self.expects is None else self.players[self._mover]

    @property
    def deal_is_known(self) -> bool:
        """Hands and stock are known, so every legal move can be listed."""
        return self.table.stock is not None and not any(seat.hidden for seat in self.seats)

    def layout_cards(self) -> CardSet:
        return self.table.layout_cards()

    def turn_options(self) -> TurnOptions | None:
        """What the turn due now may ask of the player (RULES.md 5), for an app that logs a game whose hands are
        hidden and so cannot list the legal moves: None when no turn is due (a call, or the hand is over)."""
        if self.expects is not PLAY and self.expects is not FLIP:
            return None
        table = self.table
        seat = table.seats[self._mover]
        capture, shake, bomb, two_card_bomb = [], [], [], []
        for month in range(1, 13):
            if asks_choice(table, month):
                capture.append(month)
            if can_shake(table, month):
                shake.append(month)
            if can_bomb(table, month):
                bomb.append(month)
            if can_two_card_bomb(table, month):
                two_card_bomb.append(month)
        asked = tuple(capture)
        # a play changes where the flip asks only in a month among them (the play's own): those few are said
        draw = tuple((played, tuple([m for m in asked if draw_asks_choice(table, m, played)])) for played in asked)
        return TurnOptions(
            self.players[self._mover],
            asked,
            tuple(shake),
            tuple(bomb),
            seat.flip_turns,
            self.expects is FLIP,
            tuple(two_card_bomb),
            draw,
        )

    def alike_captures(self) -> tuple[Card, ...]:
        """For an app that enters a turn (RULES.md 5.1): in each month whose two layout cards are alike to every
        rule (``turn.alike``), the first of the two, which the log may name without asking the player which;
        none when no turn is due."""
        if self.expects is None or self.expects is CALL:
            return ()
        out: list[Card] = []
        for month in range(1, 13):
            cards = self.table.layout[month]
            if len(cards) == 2 and asks_choice(self.table, month) and alike(cards[0], cards[1]):
                out.append(cards[0] if cards[0].index < cards[1].index else cards[1])
        return tuple(out)

    def cup_holder(self) -> str | None:
        """The player who may declare the cup an animal or junk now (RULES.md 3): its captor, where the rules
        place it where it scores more (``sep_animal`` best) and the hand goes on; else None."""
        if self.expects is None or self.rules.sep_animal is not CupPlacement.BEST:
            return None
        bit = CUP.bit
        return next((seat.id for seat in self.table.seats if seat.captured_mask & bit), None)

    def hand_result(self, nagari_streak: int = 0, stake: int = 1, *, stop_now: bool = False) -> HandResult:
        """The hand as settlement sees it (the same record /v1/settle builds). ``stop_now``: as if the player
        due to call stopped now."""
        winner, outcome = (self.to_move, Outcome.STOP) if stop_now else (self.winner, self.outcome or Outcome.NAGARI)
        return HandResult(
            tuple(
                PlayerHand(
                    s.id,
                    s.captured,
                    s.go_count,
                    s.shakes,
                    s.bombs,
                    s.sep_animal_as,
                    two_card_bombs=s.two_card_bombs,
                    chongtong=s.id in self.played_on_chongtong,
                )
                for s in self.seats
            ),
            winner,
            outcome,
            nagari_streak,
            stake,
            # RULES.md 8: with several go-callers among the losers, the latest to call go pays for all
            next((pid for pid in reversed(self.go_calls) if pid != winner), None),
            sit_out=self.sit_out,
            pays_alone=self._pays_alone(winner),
        )

    def _pays_alone(self, winner: str | None) -> tuple[str, str] | None:
        """RULES.md 8.7: after a split shodang won by the one who accepted, the loser who pays alone and the one
        whose share they pay."""
        split = self.shodang_split
        if split is None or winner != split[1]:
            return None
        caller, _, decliner = split
        if self.rules.shodang is Shodang.CALLER:
            return caller, decliner
        return decliner, caller

    def shodang_threats(self, player: str) -> dict[str, str] | None:
        """RULES.md 8.7: for each other player, a combination of which they captured exactly two cards and whose
        missing card ``player`` holds (or may hold, hands hidden); None unless both others are so threatened."""
        table = self.table
        seat = table.seat(player)
        holds = seat.hand_mask | (table.unseen if seat.hidden else 0)
        out: dict[str, str] = {}
        for other in table.seats:
            if other is seat:
                continue
            for name, group in SHODANG_GROUPS:
                got = other.captured_mask & group
                if got.bit_count() == 2 and holds & group & ~got:
                    out[other.id] = name
                    break
            else:
                return None
        return out

    def can_call_shodang(self) -> bool:
        """Whether the player to move may call shodang now (RULES.md 8.7)."""
        return self._shodang_refusal(self.to_move) is None

    def _shodang_refusal(self, player: str | None) -> str | None:
        """Why ``player`` may not call shodang now (a ``why`` of ``shodang-not-allowed``), or None."""
        if self.rules.shodang is Shodang.OFF:
            return "shodang-off"
        if len(self.players) != 3:
            return "not-three-players"
        if self.shodang_caller is not None:
            return "already-called"
        if self.expects is not PLAY or player is None:
            return "not-at-turn"
        if self.shodang_threats(player) is None:
            return "no-standoff"
        return None

    def settle(self, nagari_streak: int = 0, stake: int = 1) -> Settlement:
        """The settlement of the finished hand (the engine played it, so it is priced without re-checking)."""
        if not self.is_over:
            raise ValueError("the hand is not over")
        return self._price(self.hand_result(nagari_streak, stake))

    def settle_if_stop(self, nagari_streak: int = 0, stake: int = 1) -> Settlement:
        """What a stop called now would settle (a go/stop decision must be due)."""
        if self.expects is not CALL:
            raise ValueError("no go/stop decision is due")
        return self._price(self.hand_result(nagari_streak, stake, stop_now=True))

    def _price(self, hand: HandResult) -> Settlement:
        return price(hand, self.rules, {seat.id: seat.captured for seat in self.seats})

    # --- legal moves -------------------------------------------------------------------------------------

    def legal_moves(self) -> list[Move]:
        """Every move the player to move may make now, with every capture choice spelled out.

        Needs a known deal (hands and stock): with hidden cards the choices are not knowable. Moves state
        their ``draw`` and ``bonus_flipped``, so the log also replays without the stock.
        """
        if self.expects is None:
            return []
        if not self.deal_is_known:
            raise ValueError("legal_moves needs a known deal: hands and stock")
        seat = self.table.seats[self._mover]
        if self.expects is CALL:
            return [Move(seat.id, call="go"), Move(seat.id, call="stop")]
        if self.expects is CHOOSE:
            return [Move(seat.id, chongtong_choice="win"), Move(seat.id, chongtong_choice="play-on")]
        if self.expects is ANSWER:
            return [Move(seat.id, shodang="accept"), Move(seat.id, shodang="decline")]
        moves: list[Move] = []
        if seat.flip_turns:
            moves += self._with_draw(Move(seat.id, flip=True), None, 0, [])
        if self.expects is FLIP:
            return moves
        if self.rules.shodang is not Shodang.OFF and self.can_call_shodang():
            moves.append(Move(seat.id, shodang="call"))
        return moves + self._hand_moves(Move(seat.id), list(seat.hand), 0, seat)

    def _hand_moves(self, base: Move, hand: list[Card], offset: int, seat: Seat | None = None) -> list[Move]:
        """Plays, shakes and bombs from ``hand`` (in catalog order) with the stock ``offset`` cards down
        (RULES.md 5); with ``seat``, the seat's bonus cards are played too."""
        table = self.table
        moves: list[Move] = []
        months: dict[int, list[Card]] = {}
        for card in hand:
            if card.kind is BONUS:
                if seat is not None:
                    moves += self._bonus_moves(seat, card)
                continue
            months.setdefault(card.month, []).append(card)
            for choice in self._choices(card):
                moves += self._with_draw(base.replace(play=card, capture=choice), card, offset, [])
        for month, cards in months.items():
            if len(cards) >= 3 and can_shake(table, month):
                for trio in combinations(cards, 3):
                    for card in trio:
                        moves += self._with_draw(base.replace(play=card, shake=trio), card, offset, [])
                if len(cards) == 4 and self.rules.chongtong_at_deal is not ChongtongAtDeal.WIN:
                    for card in cards:  # RULES.md 4.3: a chongtong played on, shaken
                        moves += self._with_draw(base.replace(play=card, shake=tuple(cards)), card, offset, [])
            if len(cards) == 3 and can_bomb(table, month):
                moves += self._with_draw(base.replace(bomb=tuple(cards)), None, offset, [])
            if len(cards) == 2 and can_two_card_bomb(table, month):
                moves += self._with_draw(base.replace(bomb=tuple(cards)), None, offset, [])
        return moves

    def _bonus_moves(self, seat: Seat, card: Card) -> list[Move]:
        base = Move(seat.id, bonus=card)
        if self.rules.bonus_from_hand is BonusFromHand.EXTRA_FLIP:
            bonus, flipped, offset = self._peek(0)
            if flipped is None:
                return [base.replace(bonus_flipped=tuple(bonus) or None)]
            return [
                m
                for c in self._choices(flipped)
                for m in self._with_draw(base.replace(play=flipped, capture=c), flipped, offset, bonus)
            ]
        # replace: the stock top joins the hand, and a hand card is played (a shake or a bomb too)
        drawn = self.table.stock_top()
        hand = [c for c in seat.hand if c != card] + ([drawn] if drawn is not None else [])
        offset = 1 if drawn is not None else 0
        if drawn is not None and chongtong_by_bonus(self.table, seat):
            four = [c for c in hand if c.month == drawn.month]
            if len(four) == 4:  # RULES.md 4.3: the card taken in completes a chongtong, and the hand ends
                return [base.replace(chongtong=tuple(sorted(four, key=lambda c: c.index)))]
        moves = self._hand_moves(base, sorted(hand, key=lambda c: c.index), offset)
        if not moves:  # only bonus cards in hand: the turn is the bonus card alone
            return self._with_draw(base, None, offset, [])
        return moves

    def _choices(self, card: Card) -> list[Card | None]:
        return [*choices(self.table, card)] or [None]

    def _peek(self, offset: int) -> tuple[list[Card], Card | None, int]:
        """Bonus cards and the next month card of a known stock, ``offset`` cards down."""
        bonus: list[Card] = []
        while (card := self.table.stock_top(offset)) is not None:
            offset += 1
            if card.kind is not BONUS:
                return bonus, card, offset
            bonus.append(card)
        return bonus, None, offset

    def _with_draw(self, move: Move, played: Card | None, offset: int, bonus: list[Card]) -> list[Move]:
        more, draw, _ = self._peek(offset)
        flipped = tuple(bonus + more) or None
        if draw is None:
            return [move.replace(bonus_flipped=flipped)]
        choices: list[Card | None] = [None]
        if played is None or draw.month != played.month:
            choices = self._choices(draw)
        return [move.replace(draw=draw, draw_capture=c, bonus_flipped=flipped) for c in choices]

    # --- applying moves ----------------------------------------------------------------------------------

    def apply(self, move: Move) -> None:
        """Apply one move; raises IllegalMoveError (state unchanged) when the rules forbid it here."""
        i = len(self.moves)
        planned = self._check(move, i)
        if planned is not None:
            took_any, ppuk, ttadak = apply(self.table, planned)
            if planned.chongtong:  # RULES.md 4.3: completed by a bonus card's replacement, an instant win
                self.table.record(i, planned.seat.id, EventType.CHONGTONG, month=planned.chongtong, source="bonus")
                self._finish(Outcome.CHONGTONG, planned.seat.id)
            else:
                self._after_turn(planned.seat, took_any, ppuk, ttadak, planned.last, i)
        elif self.expects is None:
            self.auto_stop_at = None  # the log stated the automatic stop (RULES.md 7)
        elif move.call is not None:
            self._call(move, i)
        elif move.chongtong_choice is not None:
            self._choose_chongtong(move, i)
        elif move.shodang is not None:
            self._shodang(move, i)
        else:
            self._declare(move, i)
        self.moves.append(move)

    def is_legal(self, move: Move) -> bool:
        """Whether ``apply`` would take this move now (the state is not changed either way)."""
        try:
            self._check(move, len(self.moves))
        except IllegalMoveError:
            return False
        return True

    def _check(self, move: Move, i: int) -> Plan | None:
        """Raise IllegalMoveError for a move the rules forbid here; a turn comes back planned in full."""
        why = move.form_error()
        if why:
            raise IllegalMoveError("bad-move", why=why, move_index=i, player=move.player)
        if move.chongtong:  # RULES.md 4.3: shown only in a bonus turn, where the rules let its replacement complete one
            if self.rules.chongtong_by_bonus is ChongtongByBonus.NEVER:
                raise IllegalMoveError(
                    "bad-move", why="unknown-field", move_index=i, player=move.player, field="chongtong"
                )
            if move.bonus is None or move.play is not None or move.shake or move.bomb or move.flip or move.call:
                raise IllegalMoveError("bad-move", why="chongtong-without-bonus", move_index=i, player=move.player)
        if self.expects is None:
            if self.auto_stop_at == i - 1 and move.call is not None and move.player == self.winner:
                if move.call == "go":  # RULES.md 7: on a last turn only stop is possible
                    raise IllegalMoveError("call-not-allowed", why="go-on-last-turn", move_index=i, player=move.player)
                return None  # a log may state the automatic stop
            raise IllegalMoveError("game-over", move_index=i, player=move.player)
        if move.player not in self.players:
            raise IllegalMoveError("not-your-turn", why="not-a-player", move_index=i, player=move.player)
        seat = self.table.seats[self._mover]
        if move.chongtong_choice is not None:  # RULES.md 4.3
            if self.expects is not CHOOSE:
                raise IllegalMoveError("chongtong-not-allowed", why="no-choice-due", move_index=i, player=move.player)
            if move.player != seat.id:
                raise IllegalMoveError(
                    "not-your-turn", why="chongtong-choice-due", move_index=i, player=move.player, expected=seat.id
                )
            return None
        if move.shodang is not None:  # RULES.md 8.7
            self._check_shodang(move, i, seat)
            return None
        if self.expects is CHOOSE and move.kind != "declare":
            raise IllegalMoveError(
                "call-required", why="chongtong-choice", move_index=i, player=seat.id, mover=move.player
            )
        if self.expects is ANSWER and move.kind != "declare":
            raise IllegalMoveError(
                "call-required", why="shodang-answer", move_index=i, player=seat.id, mover=move.player
            )
        if move.call is not None:
            if self.expects is not CALL:
                raise IllegalMoveError("call-not-allowed", why="no-call-due", move_index=i, player=move.player)
            if move.player != seat.id:
                raise IllegalMoveError(
                    "not-your-turn", why="call-due", move_index=i, player=move.player, expected=seat.id
                )
            return None
        if move.sep_animal_as is not None and move.kind == "declare":
            try:
                self.rules.check_cup_pin(move.sep_animal_as, player=move.player)
            except HandError as err:
                raise IllegalMoveError(err.code, move_index=i, **err.params) from None
            return None
        if self.expects is CALL:
            raise IllegalMoveError("call-required", move_index=i, player=seat.id, mover=move.player)
        if move.player != seat.id:
            raise IllegalMoveError("not-your-turn", move_index=i, player=move.player, expected=seat.id)
        return plan(self.table, seat, move, i, self.expects is FLIP)

    def _check_shodang(self, move: Move, i: int, seat: Seat) -> None:
        """A shodang call or answer (RULES.md 8.7), refused with what makes it illegal."""
        if move.shodang != "call":
            if self.expects is not ANSWER:
                raise IllegalMoveError("shodang-not-allowed", why="no-answer-due", move_index=i, player=move.player)
            if move.player != seat.id:
                raise IllegalMoveError(
                    "not-your-turn", why="shodang-answer-due", move_index=i, player=move.player, expected=seat.id
                )
            return
        why = self._shodang_refusal(move.player)
        if why not in ("shodang-off", "not-three-players", "already-called") and move.player != seat.id:
            raise IllegalMoveError("not-your-turn", move_index=i, player=move.player, expected=seat.id)
        if why is not None:
            raise IllegalMoveError("shodang-not-allowed", why=why, move_index=i, player=move.player)

    def _choose_chongtong(self, move: Move, i: int) -> None:
        """The holder's chongtong choice (RULES.md 4.3): the hand ends as a chongtong win, or is played on."""
        month, self.chongtong_month = self.chongtong_month, 0
        if move.chongtong_choice == "win":
            self.table.record(i, move.player, EventType.CHONGTONG, month=month, chosen=True)
            self._finish(Outcome.CHONGTONG, move.player)
            return
        self.table.record(i, move.player, EventType.PLAY_ON, month=month)
        if "chongtong" in self.rules.checked:  # a win after playing on is worth the knob's factor
            self.played_on_chongtong = (move.player,)
        self._mover = 0
        self.expects = PLAY

    def _shodang(self, move: Move, i: int) -> None:
        """A shodang called, then each other player's answer in turn (RULES.md 8.7)."""
        table, seats = self.table, self.table.seats
        if move.shodang == "call":
            threats = self.shodang_threats(move.player) or {}
            self.shodang_caller = move.player
            table.record(i, move.player, EventType.SHODANG, against=threats)
            self._mover = self._mover + 1 if self._mover + 1 < len(seats) else 0
            self.expects = ANSWER
            return
        caller = self.shodang_caller
        assert caller is not None
        self.shodang_answers[move.player] = str(move.shodang)
        j = self._mover + 1 if self._mover + 1 < len(seats) else 0
        if seats[j].id != caller:  # the other player answers next
            table.record(i, move.player, EventType.SHODANG_ANSWER, answer=move.shodang, caller=caller)
            self._mover = j
            return
        answers = self.shodang_answers
        accepted = [pid for pid in self.players if answers.get(pid) == "accept"]
        declined = [pid for pid in self.players if answers.get(pid) == "decline"]
        if len(accepted) == 2:
            table.record(i, move.player, EventType.SHODANG_ANSWER, answer=move.shodang, caller=caller, result="nagari")
            table.record(i, None, EventType.NAGARI, reason="shodang")
            self._finish(Outcome.NAGARI, None)
            return
        if accepted:
            self.shodang_split = (caller, accepted[0], declined[0])
            alone = caller if self.rules.shodang is Shodang.CALLER else declined[0]
            table.record(
                i,
                move.player,
                EventType.SHODANG_ANSWER,
                answer=move.shodang,
                caller=caller,
                result="split",
                accepter=accepted[0],
                decliner=declined[0],
                pays_alone=alone,
            )
        else:
            table.record(i, move.player, EventType.SHODANG_ANSWER, answer=move.shodang, caller=caller, result="play-on")
        self._mover = j  # the caller plays the turn the call came before
        self.expects = PLAY

    def _after_turn(self, seat: Seat, took_any: bool, ppuk: bool, ttadak: bool, last: bool, i: int) -> None:
        """First-turn payments, instant wins, and whether a go/stop decision is due (RULES.md 7, 8)."""
        table, rules = self.table, self.rules
        n = seat.turns
        if ppuk and seat.first_ppuks == n - 1 and n <= 3:  # a ppuk on each of the first n turns
            seat.first_ppuks = n
            pays = rules.ppuk_pays
            if len(pays) >= n and pays[n - 1]:
                table.pay_each(seat, pays[n - 1], "first-ppuk", n, i)
        if ttadak and n == 1 and rules.first_ttadak_payment:
            table.pay_each(seat, rules.first_ttadak_payment, "first-ttadak", 1, i)
        if n == 1 and (rules.first_chok_payment or rules.first_bomb_payment):
            self._first_turn_payments(seat, i)
        if ppuk and seat.ppuk_count == 3 and rules.three_ppuk_points:
            table.record(i, seat.id, EventType.THREE_PPUK)
            self._finish(Outcome.THREE_PPUK, seat.id)
            return
        seat.empty_turns = 0 if took_any else seat.empty_turns + 1
        if seat.empty_turns == HEODANG_TURNS and rules.heodang_points:
            table.record(i, seat.id, EventType.HEODANG, turns=HEODANG_TURNS)
            self._finish(Outcome.HEODANG, seat.id)
            return
        if not seat.captured_mask & ~seat.checked_mask and seat.sep_animal_as == seat.checked_pin:
            # no card gained since the last check: a score only grows with cards, so nothing can be due
            self._advance(i)
            return
        seat.checked_mask, seat.checked_pin = seat.captured_mask, seat.sep_animal_as
        points = total(seat.captured_mask, rules, seat.sep_animal_as)
        if points >= rules.target_score and (seat.go_bar is None or points > seat.go_bar):
            if last:  # RULES.md 7: on a last turn only stop is possible
                table.record(i, seat.id, EventType.STOP, points=points, automatic=True)
                self._finish(Outcome.STOP, seat.id)
                self.auto_stop_at = i
                return
            self.expects = CALL
            return
        self._advance(i)

    def _first_turn_payments(self, seat: Seat, i: int) -> None:
        """A chok or a bomb on the player's first turn, paid at once where the table plays it (RULES.md 8.6)."""
        table, rules = self.table, self.rules
        made = {e.type for e in table.events if e.move_index == i and e.player == seat.id}
        if EventType.CHOK in made and rules.first_chok_payment:
            table.pay_each(seat, rules.first_chok_payment, "first-chok", 1, i)
        if EventType.BOMB in made and rules.first_bomb_payment:
            table.pay_each(seat, rules.first_bomb_payment, "first-bomb", 1, i)

    def _call(self, move: Move, i: int) -> None:
        seat = self.table.seats[self._mover]
        points = total(seat.captured_mask, self.rules, seat.sep_animal_as)
        if move.call == "stop":
            self.table.record(i, seat.id, EventType.STOP, points=points, automatic=False)
            self._finish(Outcome.STOP, seat.id)
            return
        seat.go_count += 1
        seat.go_bar = points
        self.go_calls.append(seat.id)
        self.table.record(i, seat.id, EventType.GO, count=seat.go_count, points=points)
        self._advance(i)

    def _declare(self, move: Move, i: int) -> None:
        seat = self.table.seat(move.player)
        seat.sep_animal_as = move.sep_animal_as
        self.table.record(i, seat.id, EventType.DECLARE, sep_animal_as=move.sep_animal_as)

    def _advance(self, i: int) -> None:
        """Pass the turn to the next player who still holds a hand card or a flip turn, or end in nagari."""
        seats = self.table.seats
        j = self._mover
        for _ in seats:
            j = j + 1 if j + 1 < len(seats) else 0
            seat = seats[j]
            in_hand = seat.hand_mask or seat.hidden
            if in_hand or seat.flip_turns:
                self._mover = j
                flip_due = seat.flip_turns and (not in_hand or self.rules.bomb_flip_timing is FlipTiming.NEXT)
                self.expects = FLIP if flip_due else PLAY
                return
        self.table.record(i, None, EventType.NAGARI)
        self._finish(Outcome.NAGARI, None)

    def _finish(self, outcome: Outcome, winner: str | None) -> None:
        self.outcome = outcome
        self.winner = winner
        self.expects = None
