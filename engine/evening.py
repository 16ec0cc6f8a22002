"""The evening (RULES.md 11): the hands a table plays one after another, kept as a ledger.

A table argues about the evening as much as about a hand: who deals next (선), what the nagari carry is now,
what a push (밀기) is worth, what a loser who cannot pay pays, who owes whom at the end. ``evening`` answers all
of it from its inputs alone, like every other call of the engine: the rules, the people at the table, their
starting balances if they keep any, the first dealer (named, or drawn by 밤일낮장), the stake, and the hands so
far, each a finished hand (``HandResult``, as settlement reads it) or its move log (a ``Log``). What a hand
starts under (its nagari streak, the pushes waiting) is worked out from the hands before it, never taken from
the hand.

The answer is facts, as everywhere in the engine: each hand's settlement priced with its carry, who dealt it,
every payment as owed and as made with the limits that changed it (``Limit``: the push, all-in, limited
liability, each with the amounts it rests on), running totals and balances; what the next hand starts with;
and the settle-up, the fewest transfers that square the evening (``settle_up``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Final

from .cards import Card, by_id
from .errors import EveningError, GoStopError
from .events import InstantPayment
from .log import Log, play
from .moves import Outcome
from .record import Record
from .rules import RuleSet
from .settlement import HandResult, Settlement, nagari_carry, price, push_factor, settle

__all__ = [
    "MAX_PEOPLE",
    "MIN_PEOPLE",
    "Carry",
    "DealerBy",
    "DealerDraw",
    "DrawTime",
    "Evening",
    "EveningHand",
    "FirstDealer",
    "LedgerHand",
    "Limit",
    "NextHand",
    "Paid",
    "Transfer",
    "evening",
    "first_dealer",
    "settle_up",
]

MIN_PEOPLE: Final = 2  # the people at one table (RULES.md 11.1)
MAX_PEOPLE: Final = 5
SETTLEMENT: Final = "settlement"  # the source of a payment the hand's result makes (an instant one names its reason)


class DrawTime(StrEnum):
    """밤일낮장 (RULES.md 11.2): by night (밤) the lowest month drawn deals, by day (낮) the highest."""

    NIGHT = "night"
    DAY = "day"


class DealerBy(StrEnum):
    """How the first dealer was found (RULES.md 11.2)."""

    GIVEN = "given"
    LISTED_FIRST = "listed-first"
    DRAW = "draw"


# The draw is a dataclass (made once, from a request); every record the evening answers with stays a Record:
# mypyc builds a dataclass through its generated Python __init__, far slower than a compiled Record's, and as
# dataclasses the ledger's records cost an evening 2% more instructions (engine/record.py, docs/log.md).

# --- what an evening is given -----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class DealerDraw:
    """The draw for the first dealer (밤일낮장, RULES.md 11.2): ``time`` (night or day) and the ``rounds``, each the
    card every person of the round drew: everyone at the table first, then only those tied at the best month
    of the round before, until one is left."""

    time: DrawTime | str
    rounds: Sequence[Mapping[str, Card | str]]


class EveningHand(Record):
    """One hand of the evening, in the order played: the hand, and whether its winner pushed it (밀기, RULES.md
    11.3: nothing is paid for it, and the next hand pays double).

    The hand is a ``HandResult``, a ``Log``, or a log's JSON (a POST /v1/replay body without its rules), read by
    ``Log.from_dict`` when the ledger reaches it, once its seats are checked. A log is played under the
    evening's rules, whatever rules it names.
    """

    __slots__ = ("hand", "push")
    fields = ("hand", "push")

    def __init__(self, hand: HandResult | Log | Mapping[str, Any], push: bool = False) -> None:
        self.hand: Final = hand
        self.push: Final = push


# --- what it answers ---------------------------------------------------------------------------------------------


class FirstDealer(Record):
    """Who dealt the first hand and how that was found: ``by`` (given, drawn, or the first person listed); for a
    draw, ``time``, the number of ``rounds`` and the ``months`` drawn in the round that decided it."""

    __slots__ = ("by", "dealer", "months", "rounds", "time")
    fields = ("dealer", "by", "time", "months", "rounds")

    def __init__(
        self,
        dealer: str,
        by: DealerBy,
        time: DrawTime | None = None,
        months: Mapping[str, int] | None = None,
        rounds: int = 0,
    ) -> None:
        self.dealer: Final = dealer
        self.by: Final = by
        self.time: Final = time
        self.months: Final[Mapping[str, int]] = months or {}
        self.rounds: Final = rounds


class Carry(Record):
    """What a hand starts under (RULES.md 11.3): the nagari hands in a row just before it and the factor they
    make (RULES.md 8.2), the pushes in a row waiting and the factor they make (x2 each)."""

    __slots__ = ("nagari_factor", "nagari_streak", "push_factor", "pushes")
    fields = ("nagari_streak", "nagari_factor", "pushes", "push_factor")

    def __init__(self, nagari_streak: int, nagari_factor: int, pushes: int, push_factor: int) -> None:
        self.nagari_streak: Final = nagari_streak
        self.nagari_factor: Final = nagari_factor
        self.pushes: Final = pushes
        self.push_factor: Final = push_factor


class Limit(Record):
    """A rule of the evening checked on one payment (RULES.md 11.3, 11.4): ``push`` (the hand was passed),
    ``all-in`` or ``limited-liability``; applied or not, ``reason`` (a stable code saying why) and the
    ``facts`` (the amounts) it rests on."""

    __slots__ = ("applied", "facts", "reason", "rule")
    fields = ("rule", "applied", "reason", "facts")

    def __init__(self, rule: str, applied: bool, reason: str, facts: Mapping[str, Any]) -> None:
        self.rule: Final = rule
        self.applied: Final = applied
        self.reason: Final = reason
        self.facts: Final = facts


class Paid(Record):
    """One payment of a hand as the ledger made it: ``owed`` is what the hand says (a settlement's amount, or an
    instant payment's points x stake), ``amount`` what changed hands after the ``limits``. ``source`` is
    ``settlement`` for the hand's result, or the reason of an instant payment (``first-ppuk``...)."""

    __slots__ = ("amount", "limits", "owed", "payee", "payer", "source")
    fields = ("payer", "payee", "owed", "amount", "source", "limits")

    def __init__(
        self, payer: str, payee: str, owed: int, amount: int, source: str, limits: tuple[Limit, ...] = ()
    ) -> None:
        self.payer: Final = payer
        self.payee: Final = payee
        self.owed: Final = owed
        self.amount: Final = amount
        self.source: Final = source
        self.limits: Final = limits


class LedgerHand(Record):
    """One hand in the ledger: its place (``index``, from 0), who dealt it, the carry it started under, its
    settlement (priced with that carry), the instant payments of a logged hand, whether it was pushed, every
    payment as made, and each person's running total and balance after it (balances None without them)."""

    __slots__ = ("balances", "carry", "dealer", "index", "instant_payments", "paid", "pushed", "settlement", "totals")
    fields = ("index", "dealer", "carry", "settlement", "instant_payments", "pushed", "paid", "totals", "balances")

    def __init__(
        self,
        index: int,
        dealer: str,
        carry: Carry,
        settlement: Settlement,
        instant_payments: tuple[InstantPayment, ...],
        pushed: bool,
        paid: tuple[Paid, ...],
        totals: Mapping[str, int],
        balances: Mapping[str, int] | None,
    ) -> None:
        self.index: Final = index
        self.dealer: Final = dealer
        self.carry: Final = carry
        self.settlement: Final = settlement
        self.instant_payments: Final = instant_payments
        self.pushed: Final = pushed
        self.paid: Final = paid
        self.totals: Final = totals
        self.balances: Final = balances


class NextHand(Record):
    """What the hand to come starts with: its dealer and its carry."""

    __slots__ = ("carry", "dealer")
    fields = ("dealer", "carry")

    def __init__(self, dealer: str, carry: Carry) -> None:
        self.dealer: Final = dealer
        self.carry: Final = carry


class Transfer(Record):
    """One transfer of the settle-up: ``payer`` gives ``payee`` ``amount``."""

    __slots__ = ("amount", "payee", "payer")
    fields = ("payer", "payee", "amount")

    def __init__(self, payer: str, payee: str, amount: int) -> None:
        self.payer: Final = payer
        self.payee: Final = payee
        self.amount: Final = amount


class Evening(Record):
    """The ledger of an evening: the people, the stake, the first dealer, every hand, the next hand, each
    person's total (won minus lost) and balance (None without starting balances), and the settle-up."""

    __slots__ = ("balances", "first_dealer", "hands", "next", "people", "stake", "totals", "transfers")
    fields = ("people", "stake", "first_dealer", "hands", "next", "totals", "balances", "transfers")

    def __init__(
        self,
        people: tuple[str, ...],
        stake: int,
        first_dealer: FirstDealer,
        hands: tuple[LedgerHand, ...],
        next: NextHand,
        totals: Mapping[str, int],
        balances: Mapping[str, int] | None,
        transfers: tuple[Transfer, ...],
    ) -> None:
        self.people: Final = people
        self.stake: Final = stake
        self.first_dealer: Final = first_dealer
        self.hands: Final = hands
        self.next: Final = next
        self.totals: Final = totals
        self.balances: Final = balances
        self.transfers: Final = transfers


# --- the evening --------------------------------------------------------------------------------------------------


def evening(
    rules: RuleSet,
    people: Sequence[str],
    hands: Iterable[EveningHand | HandResult | Log | Mapping[str, Any]] = (),
    *,
    balances: Mapping[str, int] | None = None,
    first_dealer: str | None = None,
    draw: DealerDraw | None = None,
    stake: int = 1,
) -> Evening:
    """The ledger of an evening (RULES.md 11) played under ``rules`` by ``people`` (2 to 5), ``hands`` in the
    order played (a bare HandResult or Log is a hand nobody pushed), ``stake`` money per point.

    ``balances`` (each person's, or none) are the money each brings; without them no cap applies. The first
    dealer is ``first_dealer``, or drawn (``draw``), or else the first person listed. A HandResult leaves its
    ``nagari_streak`` (0) and ``pushes`` (None) to the ledger, and its ``stake`` at 1 or the evening's; so does
    a Log its ``nagari_streak`` and ``stake``.

    Raises EveningError for what no evening can be; a refusal found in a hand (EveningError, HandError,
    CardError, IllegalMoveError) names it with ``hand_index`` (0-based).
    """
    seated = _check_people(people, rules)
    start = _check_balances(balances, seated)
    if stake < 0:
        raise EveningError("negative-count", field="stake", stake=stake)
    first = _find_first_dealer(seated, first_dealer, draw)
    book = _Book(rules, seated, start, stake, first.dealer)
    ledger = []
    for index, item in enumerate(hands):
        try:
            ledger.append(book.enter(index, item if isinstance(item, EveningHand) else EveningHand(item)))
        except GoStopError as err:
            err.in_hand(index)
            raise
    return Evening(
        seated,
        stake,
        first,
        tuple(ledger),
        NextHand(book.dealer, book.carry()),
        dict(book.totals),
        dict(book.balances) if book.balances is not None else None,
        settle_up(book.totals),
    )


def first_dealer(people: Sequence[str], given: str | None = None, draw: DealerDraw | None = None) -> FirstDealer:
    """The first dealer of an evening (RULES.md 11.2): ``given``, or drawn by 밤일낮장, or else the first person
    listed. Raises EveningError (``dealer-not-at-table``, ``first-dealer``, ``bad-draw``) and CardError for a
    card id that is no card."""
    return _find_first_dealer(tuple(people), given, draw)


def settle_up(totals: Mapping[str, int]) -> tuple[Transfer, ...]:
    """The fewest transfers that square ``totals`` (each person's won minus lost, summing to zero; RULES.md
    11.5): every transfer goes from someone who lost to someone who won. Exact: the people split into as many
    groups whose totals cancel out as can be, and a group of n settles in n - 1 transfers. Among settle-ups
    as short, the order of ``totals`` decides. Raises EveningError for totals that do not sum to zero or for
    more people than a table seats."""
    names = [person for person, total in totals.items() if total]
    values = [totals[person] for person in names]
    if sum(values):
        raise EveningError("unbalanced-totals", sum=sum(values))
    if len(totals) > MAX_PEOPLE:
        raise EveningError("people-count", why="too-many", given=len(totals), maximum=MAX_PEOPLE)
    transfers: list[tuple[int, int, int]] = []
    for group in _zero_sum_groups(values):
        debtors = [[i, -values[i]] for i in group if values[i] < 0]
        creditors = [[i, values[i]] for i in group if values[i] > 0]
        d = c = 0
        while d < len(debtors) and c < len(creditors):  # each transfer squares one of the two; the last both
            amount = min(debtors[d][1], creditors[c][1])
            transfers.append((debtors[d][0], creditors[c][0], amount))
            debtors[d][1] -= amount
            creditors[c][1] -= amount
            if debtors[d][1] == 0:
                d += 1
            if creditors[c][1] == 0:
                c += 1
    return tuple(Transfer(names[i], names[j], amount) for i, j, amount in sorted(transfers))


def _zero_sum_groups(values: Sequence[int]) -> list[list[int]]:
    """The indexes of ``values`` (summing to zero, none zero) split into as many zero-sum groups as can be, by
    dynamic programming over the subsets: ``most[m]`` is the most groups the zero-sum subset m splits into,
    each split taking a group that holds m's lowest member. A table has at most five people: 32 subsets."""
    n = len(values)
    sums = [0] * (1 << n)
    for mask in range(1, 1 << n):
        low = mask & -mask
        sums[mask] = sums[mask ^ low] + values[low.bit_length() - 1]
    most = [-1] * (1 << n)
    taken = [0] * (1 << n)
    most[0] = 0
    for mask in range(1, 1 << n):
        if sums[mask]:
            continue
        low = mask & -mask
        rest = mask ^ low
        sub = rest
        while True:  # every subset of rest, from rest itself down to the empty one
            group = sub | low
            if sums[group] == 0 and most[mask ^ group] + 1 > most[mask]:
                most[mask], taken[mask] = most[mask ^ group] + 1, group
            if sub == 0:
                break
            sub = (sub - 1) & rest
    groups = []
    mask = (1 << n) - 1
    while mask:
        group = taken[mask]
        groups.append([i for i in range(n) if group >> i & 1])
        mask ^= group
    return groups


# --- checking what is given ---------------------------------------------------------------------------------------


def _check_people(people: Sequence[str], rules: RuleSet) -> tuple[str, ...]:
    seated = tuple(people)
    if len(seated) < MIN_PEOPLE or len(seated) > MAX_PEOPLE:
        why = "too-few" if len(seated) < MIN_PEOPLE else "too-many"
        raise EveningError("people-count", why=why, given=len(seated), minimum=MIN_PEOPLE, maximum=MAX_PEOPLE)
    for i, person in enumerate(seated):
        if person in seated[:i]:
            raise EveningError("duplicate-person", player=person)
    if len(seated) < rules.players:
        raise EveningError("people-count", why="fewer-than-players", given=len(seated), players=rules.players)
    return seated


def _check_balances(balances: Mapping[str, int] | None, people: tuple[str, ...]) -> dict[str, int] | None:
    if balances is None:
        return None
    for person in balances:
        if person not in people:
            raise EveningError("unknown-person", why="balance", player=person)
    for person in people:
        if person not in balances:
            raise EveningError("balance-missing", player=person)
        if balances[person] < 0:
            raise EveningError("negative-balance", player=person, balance=balances[person])
    return {person: balances[person] for person in people}


def _find_first_dealer(people: tuple[str, ...], given: str | None, draw: DealerDraw | None) -> FirstDealer:
    if given is not None and draw is not None:
        raise EveningError("first-dealer", why="given-and-drawn", player=given)
    if given is not None:
        if given not in people:
            raise EveningError("dealer-not-at-table", player=given)
        return FirstDealer(given, DealerBy.GIVEN)
    if draw is None:
        return FirstDealer(people[0], DealerBy.LISTED_FIRST)
    try:
        time = DrawTime(draw.time)
    except ValueError:
        raise EveningError("bad-draw", why="time", time=str(draw.time)) from None
    if not draw.rounds:
        raise EveningError("bad-draw", why="no-rounds")
    drawing = list(people)
    for number, cards in enumerate(draw.rounds):
        if set(cards) != set(drawing):
            raise EveningError("bad-draw", why="wrong-people", round=number, expected=drawing, given=list(cards))
        months: dict[str, int] = {}
        seen: set[str] = set()
        for person in drawing:
            drawn = cards[person]
            card = drawn if isinstance(drawn, Card) else by_id(drawn)
            if not card.month:
                raise EveningError("bad-draw", why="bonus-card", round=number, player=person, card=card.id)
            if card.id in seen:
                raise EveningError("bad-draw", why="same-card", round=number, player=person, card=card.id)
            seen.add(card.id)
            months[person] = card.month
        best = min(months.values()) if time is DrawTime.NIGHT else max(months.values())
        drawing = [person for person in drawing if months[person] == best]
        if len(drawing) == 1:
            if number + 1 < len(draw.rounds):
                raise EveningError("bad-draw", why="round-after-decided", round=number + 1, player=drawing[0])
            return FirstDealer(drawing[0], DealerBy.DRAW, time, months, number + 1)
    raise EveningError("bad-draw", why="tie", round=len(draw.rounds) - 1, tied=drawing)


# --- the ledger, hand by hand ------------------------------------------------------------------------------------


class _Book:
    """The ledger as it is kept, hand after hand: the dealer, the carry, the totals and the balances."""

    def __init__(
        self, rules: RuleSet, people: tuple[str, ...], start: dict[str, int] | None, stake: int, dealer: str
    ) -> None:
        self.rules = rules
        self.people = people
        self.stake = stake
        self.dealer = dealer
        self.streak = 0  # nagari hands in a row
        self.pushes = 0  # pushes in a row, waiting for a hand that pays
        self.totals: dict[str, int] = {person: 0 for person in people}
        self.balances: dict[str, int] | None = dict(start) if start is not None else None

    def carry(self) -> Carry:
        return Carry(self.streak, nagari_carry(self.streak, self.rules), self.pushes, push_factor(self.pushes))

    def enter(self, index: int, entry: EveningHand) -> LedgerHand:
        """Check one hand against the ledger, price it with its carry, make its payments and move the ledger on."""
        hand = entry.hand
        if isinstance(hand, HandResult):
            players = [p.id for p in hand.players]
        elif isinstance(hand, Log):
            players = list(hand.players)
        else:  # a log's JSON: read once its seats are checked (its refusals come in the order a replay meets them)
            given = hand.get("players")
            players = [str(p) for p in given] if isinstance(given, list) else []
        self._check_seats(players, not isinstance(hand, HandResult))
        carry = self.carry()
        settlement, instant = self._price(hand, players)
        if entry.push:
            self._check_push(settlement)
        before = dict(self.balances) if self.balances is not None else None
        received: dict[str, int] = {}  # what each has taken in this hand, for limited liability
        paid = [self._instant(p, before, received) for p in instant]  # paid on the spot, one after another
        result = self._passed(settlement) if entry.push else self._result(settlement, before, received)
        for payment in result:  # the result is paid at once, when every amount is known
            self._move(payment.payer, payment.payee, payment.amount)
        paid += result
        dealer = self.dealer
        self._next(settlement, entry.push)
        balances = dict(self.balances) if self.balances is not None else None
        return LedgerHand(
            index, dealer, carry, settlement, instant, entry.push, tuple(paid), dict(self.totals), balances
        )

    def _check_seats(self, players: list[str], logged: bool) -> None:
        for player in players:
            if player not in self.people:
                raise EveningError("player-not-at-table", player=player)
        if self.dealer not in players:
            raise EveningError("dealer-not-playing", player=self.dealer)
        if logged and players[0] != self.dealer:
            # RULES.md 4.1: a log lists its dealer first; the ledger says who deals this hand
            raise EveningError("hand-out-of-order", player=players[0], dealer=self.dealer)
        if self.rules.all_in and self.balances is not None:
            for player in players:
                if self.balances[player] <= 0:
                    raise EveningError("out-of-money", player=player, balance=self.balances[player])

    def _price(
        self, hand: HandResult | Log | Mapping[str, Any], players: list[str]
    ) -> tuple[Settlement, tuple[InstantPayment, ...]]:
        pushes = self.pushes if self.rules.push else None  # the push is checked where the rules allow one
        if isinstance(hand, HandResult):
            if hand.nagari_streak:
                raise EveningError("carry-stated", why="nagari-streak", nagari_streak=hand.nagari_streak)
            if hand.pushes is not None:
                raise EveningError("carry-stated", why="pushes", pushes=hand.pushes)
            if hand.stake not in (1, self.stake):
                raise EveningError("stake-stated", stake=hand.stake, evening_stake=self.stake)
            # the evening's own carry, stake and pushes; every other field as the hand says (a sale, a shodang)
            priced = HandResult(
                hand.players,
                hand.winner,
                hand.outcome,
                self.streak,
                self.stake,
                hand.last_go,
                pushes,
                hand.sit_out,
                hand.pays_alone,
            )
            settled = settle(priced, self.rules)
            # RULES.md 4.5, 11.1: the fourth's sale is paid at the deal, whether the hand is given as a log or a result
            return settled, tuple(settled.sale.payments()) if settled.sale is not None else ()
        log = hand if isinstance(hand, Log) else Log.from_dict({**hand, "rules": self.rules})
        if log.nagari_streak:
            raise EveningError("carry-stated", why="nagari-streak", nagari_streak=log.nagari_streak)
        if log.stake not in (1, self.stake):
            raise EveningError("stake-stated", stake=log.stake, evening_stake=self.stake)
        state = play(players, self.rules, log.deal, log.moves)
        if not state.is_over:
            raise EveningError("hand-not-finished", moves=len(state.moves), next_player=state.to_move)
        ended = state.hand_result(self.streak, self.stake)
        priced = HandResult(
            ended.players,
            ended.winner,
            ended.outcome,
            self.streak,
            self.stake,
            ended.last_go,
            pushes,
            ended.sit_out,
            ended.pays_alone,
        )
        captured = {seat.id: seat.captured for seat in state.seats}
        return price(priced, self.rules, captured), tuple(state.instant_payments)

    def _check_push(self, settlement: Settlement) -> None:
        cap = self.rules.push
        if not cap:
            raise EveningError("push-not-allowed", why="off", cap=cap)
        if settlement.winner is None:
            raise EveningError("push-not-allowed", why="no-winner", outcome=str(settlement.outcome))
        if self.pushes + 1 > cap:
            raise EveningError("push-not-allowed", why="over-cap", pushes=self.pushes, cap=cap)

    def _instant(self, p: InstantPayment, before: dict[str, int] | None, received: dict[str, int]) -> Paid:
        """An instant payment (RULES.md 8.6), paid on the spot: all-in and limited liability one by one."""
        owed = p.points * self.stake
        amount, limits = self._all_in(p.payer, owed)
        if self.rules.limited_liability:
            amount, limit = _limited(amount, before, p.payee, received.get(p.payee, 0))
            limits.append(limit)
        received[p.payee] = received.get(p.payee, 0) + amount
        self._move(p.payer, p.payee, amount)  # later payments of the hand see the balances it leaves
        return Paid(p.payer, p.payee, owed, amount, p.reason, tuple(limits))

    def _passed(self, settlement: Settlement) -> list[Paid]:
        """A pushed hand (RULES.md 11.3): its winner takes nothing, and the next hand pays double."""
        pushes = self.pushes + 1
        facts = {"pushes": pushes, "next_factor": push_factor(pushes), "cap": self.rules.push}
        return [
            Paid(
                p.payer, p.payee, p.amount, 0, SETTLEMENT, (Limit("push", True, "passed", {"owed": p.amount, **facts}),)
            )
            for p in settlement.payments
        ]

    def _result(self, settlement: Settlement, before: dict[str, int] | None, received: dict[str, int]) -> list[Paid]:
        """The hand's result, paid at once (RULES.md 11.4): all-in first (what each loser can pay), then limited
        liability (what the winner may take), shared in proportion to what each loser owes."""
        rows = [(p, *self._all_in(p.payer, p.amount)) for p in settlement.payments]
        if not self.rules.limited_liability or settlement.winner is None:
            return [Paid(p.payer, p.payee, p.amount, amount, SETTLEMENT, tuple(limits)) for p, amount, limits in rows]
        winner = settlement.winner
        taken = received.get(winner, 0)
        if before is None:
            return [
                Paid(p.payer, p.payee, p.amount, amount, SETTLEMENT, (*limits, _unlimited(amount)))
                for p, amount, limits in rows
            ]
        allowed = max(before[winner], 0)
        room = max(allowed - taken, 0)
        owed = [amount for _, amount, _ in rows]
        total = sum(owed)
        shares = owed if total <= room else _pro_rata(room, owed)
        out = []
        for (p, amount, limits), share in zip(rows, shares, strict=True):
            facts = {"owed": amount, "limit": allowed, "received": taken, "owed_in_all": total}
            if share < amount:
                limit = Limit(
                    "limited-liability", True, "over-limit", {**facts, "paid": share, "waived": amount - share}
                )
            else:
                limit = Limit("limited-liability", False, "within-limit", facts)
            out.append(Paid(p.payer, p.payee, p.amount, share, SETTLEMENT, (*limits, limit)))
        return out

    def _all_in(self, payer: str, owed: int) -> tuple[int, list[Limit]]:
        """What ``payer`` pays of ``owed`` under all-in (RULES.md 11.4): at most what they hold now."""
        if not self.rules.all_in:
            return owed, []
        if self.balances is None:
            return owed, [Limit("all-in", False, "no-balances", {"owed": owed})]
        balance = self.balances[payer]
        if owed <= balance:
            return owed, [Limit("all-in", False, "within-balance", {"owed": owed, "balance": balance})]
        paid = max(balance, 0)
        facts = {"owed": owed, "balance": balance, "paid": paid, "forgiven": owed - paid}
        return paid, [Limit("all-in", True, "balance-short", facts)]

    def _move(self, payer: str, payee: str, amount: int) -> None:
        self.totals[payer] -= amount
        self.totals[payee] += amount
        if self.balances is not None:
            self.balances[payer] -= amount
            self.balances[payee] += amount

    def _next(self, settlement: Settlement, pushed: bool) -> None:
        """The dealer and the carry of the hand to come (RULES.md 11.2, 11.3)."""
        if settlement.outcome is Outcome.REDEAL:
            return  # dealt again: nothing changes
        if settlement.outcome is Outcome.NAGARI:
            self.streak += 1  # the dealer deals again, and a push waiting waits on
            return
        assert settlement.winner is not None
        self.dealer = settlement.winner
        self.streak = 0
        self.pushes = self.pushes + 1 if pushed else 0


def _limited(owed: int, before: dict[str, int] | None, payee: str, taken: int) -> tuple[int, Limit]:
    """What ``payee`` may still take of ``owed`` in this hand under limited liability (RULES.md 11.4)."""
    if before is None:
        return owed, _unlimited(owed)
    allowed = max(before[payee], 0)
    room = max(allowed - taken, 0)
    facts = {"owed": owed, "limit": allowed, "received": taken}
    if owed <= room:
        return owed, Limit("limited-liability", False, "within-limit", facts)
    return room, Limit("limited-liability", True, "over-limit", {**facts, "paid": room, "waived": owed - room})


def _unlimited(owed: int) -> Limit:
    return Limit("limited-liability", False, "no-balances", {"owed": owed})


def _pro_rata(room: int, owed: Sequence[int]) -> list[int]:
    """``room`` (less than the sum of ``owed``) shared in proportion to ``owed``: each share rounded down, the
    units left over to the largest remainders (the earlier payment first among equal ones)."""
    total = sum(owed)
    shares = [room * o // total for o in owed]
    left = room - sum(shares)
    by_remainder = sorted(range(len(owed)), key=lambda i: (-(room * owed[i] % total), i))
    for i in by_remainder[:left]:
        shares[i] += 1
    return shares
