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
from functools import lru_cache
from itertools import combinations
from typing import Any, NamedTuple

from .cards import CARD_BY_ID, CARDS, CUP, Card, by_id, mask_of, unused_bonus_mask
from .errors import CardError, IllegalMoveError
from .moves import Move
from .rules import RuleSet
from .scoring import total
from .settlement import HandResult, PlayerHand, Settlement, settle
from .table import Event, InstantPayment, Seat, card_list
from .turn import Turn

__all__ = ["Event", "GameState", "InstantPayment", "Replay", "replay"]

HAND_SIZE = {2: 10, 3: 7}
LAYOUT_SIZE = {2: 8, 3: 6}
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
        shown: Mapping[str, Sequence[Card]] | None = None,
    ) -> None:
        """Deal. Raises IllegalMoveError(code="bad-deal", move_index=None) for a deal that cannot be.

        ``shown`` is what players showed at the deal when their hands are hidden: a chongtong, four cards
        of one month (RULES.md 4). Those cards are known to be in the hand, so the deal can end in chongtong.
        """
        self.rules = rules
        self.order = list(players)
        self.moves: list[Move] = []
        self.events: list[Event] = []
        self.instant_payments: list[InstantPayment] = []
        self.layout: dict[int, list[Card]] = {m: [] for m in range(1, 13)}
        self.stack_maker: dict[int, str | None] = {}  # month -> who made the ppuk (None: dealt stack)
        self.outcome: str | None = None
        self.winner: str | None = None
        self.go_calls: list[str] = []  # who called go, in order (gobak pays-all needs the latest loser)
        self.expects: str | None = "play"
        self.turn = 0
        self.auto_stop_at: int | None = None  # the move whose last turn stopped automatically
        shown = shown or {}
        self._check_deal(players, layout, hands, stock, shown)
        deck = _deck(rules.bonus_cards)
        size = HAND_SIZE[rules.players]
        self.seats = [
            Seat(pid, set(hands[pid]), 0)
            if hands is not None
            else Seat(pid, set(shown.get(pid, ())), size - len(shown.get(pid, ())))
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
        self.unseen: set[Card] = set(deck) - seen
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
        self.layout_empty = not any(self.layout.values())  # for sseul: was the layout empty before a turn
        self._deal_outcome()
        if not self.is_over:  # _deal_outcome may have ended the hand
            self._set_next(0)

    # --- the deal --------------------------------------------------------------------------------------

    def _check_deal(
        self,
        players: Sequence[str],
        layout: Sequence[Card],
        hands: Mapping[str, Sequence[Card]] | None,
        stock: Sequence[Card] | None,
        shown: Mapping[str, Sequence[Card]],
    ) -> None:
        rules = self.rules

        def bad(why: str, **ctx: Any) -> IllegalMoveError:
            return IllegalMoveError(f"bad deal: {why}", code="bad-deal", move_index=None, **ctx)

        if len(players) != rules.players:
            raise bad(f"{rules.preset} is played by {rules.players} players, not {len(players)}")
        if len(set(players)) != len(players):
            raise bad("a player id is used twice")
        unused_bonus = unused_bonus_mask(rules.bonus_cards)
        placed: list[tuple[Sequence[Card], str]] = []
        seen = 0  # mask of the cards placed so far

        def place(cards: Sequence[Card], name: str) -> None:
            nonlocal seen
            mask = mask_of(cards)
            if mask & (seen | unused_bonus) or mask.bit_count() != len(cards):
                raise misdealt([*placed, (cards, name)])
            seen |= mask
            placed.append((cards, name))

        def misdealt(groups: list[tuple[Sequence[Card], str]]) -> IllegalMoveError:
            """Name the first card of the deal that is an unused bonus card or dealt twice."""
            where: dict[Card, str] = {}
            for cards, name in groups:
                for card in cards:
                    if card.kind == "bonus" and card.id not in rules.bonus_cards:
                        return bad(f"{card.id} is a bonus card {rules.preset} does not use", card=card.id)
                    if card in where:
                        return bad(f"{card.id} is dealt twice ({where[card]} and {name})", card=card.id)
                    where[card] = name
            raise AssertionError("place() found no culprit")  # pragma: no cover

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
        for pid, cards in shown.items():
            if pid not in players:
                raise bad(f"{pid!r}, who shows cards at the deal, is not a player", player=pid)
            if len(cards) != 4 or len({c.month for c in cards}) != 1:  # (bonus cards: three, month 0)
                raise bad(f"{pid} shows {card_list(cards)}: only a chongtong, four cards of one month, is shown")
            if hands is None:
                place(cards, f"{pid}'s shown cards")
            elif not set(cards) <= set(hands[pid]):
                raise bad(f"{pid} shows {card_list(cards)}, which {pid} was not dealt", player=pid)
        if stock is not None:
            place(stock, "the stock")
            expected = 48 + len(rules.bonus_cards) - len(layout) - rules.players * HAND_SIZE[rules.players]
            if len(stock) != expected:
                raise bad(f"the stock has {len(stock)} cards, not {expected}")
            if hands is not None:
                deck_size = 48 + len(rules.bonus_cards)
                if seen.bit_count() != deck_size:
                    raise bad(f"hands, layout and stock hold {seen.bit_count()} cards, not the {deck_size} of the deck")

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
            # RULES.md 8: with several go-callers among the losers, the latest to call go pays for all
            next((pid for pid in reversed(self.go_calls) if pid != self.winner), None),
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
        if move.call is not None:
            self._call(move, i)
        elif move.sep_animal_as is not None and move.kind == "declare":
            self._declare(move, i)
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
            turn = Turn(self, move, i)
            turn.plan()
            turn.commit()
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
        self.go_calls.append(seat.id)
        self._event(i, seat.id, "go", f"{seat.id} calls go #{seat.go_count} at {points} points")
        self._advance(i)

    def _advance(self, i: int | None) -> None:
        """Hand the turn to the next player who still has something to play, or end in nagari."""
        seats = self.seats
        j = self.turn
        for _ in seats:
            j = j + 1 if j + 1 < len(seats) else 0
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
                f"{taker.id} takes {card_list(taken)} from {victim.id} for the {cause.replace('_', '-')}",
                **{"from": victim.id, "cards": [c.id for c in taken], "cause": cause},
            )


class Replay(NamedTuple):
    """A replayed log: the final state, and its settlement when the hand is over."""

    state: GameState
    settlement: Settlement | None


def parse_deal(deal: Mapping[str, Any]) -> dict[str, Any]:
    """Card ids of a deal -> Card values; raises IllegalMoveError(code="bad-deal") for unknown ids."""

    def resolve(ids: Any, where: str) -> list[Card]:
        try:
            return [CARD_BY_ID[x] for x in ids]
        except (KeyError, TypeError):
            pass
        try:  # the slow way, to name the culprit
            [by_id(x) for x in ids]
        except CardError as err:
            raise IllegalMoveError(
                f"bad deal: {err.detail} ({where})", code="bad-deal", move_index=None, card=err.context.get("card")
            ) from None
        raise AssertionError("unreachable: the fast path failed on a valid id list")  # pragma: no cover

    out: dict[str, Any] = {"layout": resolve(deal["layout"], "layout")}
    if deal.get("hands") is not None:
        out["hands"] = {pid: resolve(cards, f"{pid}'s hand") for pid, cards in deal["hands"].items()}
    if deal.get("stock") is not None:
        out["stock"] = resolve(deal["stock"], "stock")
    if deal.get("shown") is not None:
        out["shown"] = {pid: resolve(cards, f"{pid}'s shown cards") for pid, cards in deal["shown"].items()}
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

    ``deal`` holds card ids (``layout``, and optionally ``hands``, ``stock`` top first, and ``shown``: a
    chongtong shown at the deal of a hidden-hand game); moves may be
    Move values or their dict form. A finished hand is settled by the same ``settle`` as /v1/settle.
    """
    state = GameState(players, rules, **parse_deal(deal))
    for i, raw in enumerate(moves):
        state.apply(raw if isinstance(raw, Move) else Move.from_dict(raw, index=i))
    result = None
    if state.is_over:
        result = settle(state.hand_result(nagari_streak, stake), rules)
    return Replay(state, result)
