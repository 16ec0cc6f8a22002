"""POST /v1/evening: the evening's ledger (RULES.md 11): the request, the answer's shape, how the answer is made
from the engine's ``Evening``, and the endpoint.

An evening is the hands one table plays one after another. The request gives the people at the table, their
starting balances if the table keeps any, the first dealer (named, or drawn by 밤일낮장), the stake, and the
hands so far, each as the body of a /v1/settle request or of a finished /v1/replay log (without the rules,
which are the evening's); the answer is the whole ledger worked out again, with each hand's settlement
rendered as /v1/settle renders it. ``evening_answer(body, words)`` is the endpoint's whole work, from a
validated body (``EveningRequest().load``) to the JSON answer.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from marshmallow import fields, validate

from engine import (
    Carry,
    DealerDraw,
    Evening,
    EveningError,
    EveningHand,
    GoStopError,
    LedgerHand,
    Limit,
    Paid,
    RuleSet,
    evening,
    resolve,
)
from engine.evening import MAX_PEOPLE, MIN_PEOPLE
from engine.settlement import MAX_AMOUNT, MAX_NAGARI_STREAK

from .catalogs import Echo, echo
from .i18n import Words
from .replay import InstantPaymentOut, ReplayRequest, capped, instant_payment_json
from .schemas import MAX_ID_LENGTH, SCHEMA_RULES, Count, Either, Flag, Named, Strict, one_of, rules_field
from .sentences import evening as words
from .settlement import WINNER_SAID, SettlementOut, SettleRequest, hand_result, settlement_json

if TYPE_CHECKING:  # the endpoint needs Flask; the answer (the page's engine, under Pyodide) does not
    from .parsing import GoStopBlueprint

__all__ = [
    "EXAMPLES",
    "HAND_SHAPES",
    "EveningRequest",
    "EveningResponse",
    "blueprint",
    "evening_answer",
    "evening_json",
]

MAX_HANDS = 200  # an evening of a few hours is a few dozen hands; the body's size (64 KiB) bounds it first
MAX_MONEY = 10**15  # a balance: far beyond any table, and every sum of them stays a 64-bit integer

# --- the request ---------------------------------------------------------------------------------------------

_NO_STREAK = (
    "leave out: the evening works out each hand's nagari streak (RULES.md 11.3); a hand that states one is "
    "refused (carry-stated)"
)
_NO_STAKE = "leave out, or give the evening's own: a hand of another stake is refused (stake-stated)"


class EveningSettle(SettleRequest):
    """A hand given as its result: a /v1/settle body, without the rules (the evening's)."""

    class Meta(Strict.Meta):
        exclude = ("rules",)

    nagari_streak = Count(
        load_default=0, validate=validate.Range(0, MAX_NAGARI_STREAK), metadata={"description": _NO_STREAK}
    )
    stake = Count(load_default=1, validate=validate.Range(0, 10**9), metadata={"description": _NO_STAKE})


class EveningReplay(ReplayRequest):
    """A hand given as its log: a finished /v1/replay body, without the rules (the evening's)."""

    class Meta(Strict.Meta):
        exclude = ("rules",)

    nagari_streak = Count(
        load_default=0, validate=validate.Range(0, MAX_NAGARI_STREAK), metadata={"description": _NO_STREAK}
    )
    stake = Count(load_default=1, validate=validate.Range(0, 10**9), metadata={"description": _NO_STAKE})


SCHEMA_RULES["EveningSettle"] = WINNER_SAID

_PUSH = "the winner pushed this hand (밀기, RULES.md 11.3): nothing of its result is paid, and the next hand pays x2"


class SettledHand(Strict):
    settle = fields.Nested(EveningSettle, required=True)
    push = Flag(load_default=False, metadata={"description": _PUSH})


class LoggedHand(Strict):
    replay = fields.Nested(EveningReplay, required=True)
    push = Flag(load_default=False, metadata={"description": _PUSH})


# An evening's hand, by the key it has: its result, or its log (component names of the OpenAPI document).
HAND_SHAPES: dict[str, tuple[str, Strict]] = {
    "settle": ("EveningSettledHand", SettledHand()),
    "replay": ("EveningLoggedHand", LoggedHand()),
}


class DrawSchema(Strict):
    time = one_of("DrawTime", required=True)
    rounds = fields.List(
        fields.Dict(keys=fields.String(), values=Named("CardId")),
        required=True,
        validate=validate.Length(1, 20),
        metadata={
            "description": "each round: person -> the card drawn. Everyone at the table draws in the first round, "
            "then only those tied at the best month of the round before, until one is left"
        },
    )


class EveningRequest(Strict):
    rules = rules_field()
    people = fields.List(
        fields.String(validate=validate.Length(1, MAX_ID_LENGTH)),
        required=True,
        validate=validate.Length(MIN_PEOPLE, MAX_PEOPLE),
        metadata={
            "description": "everyone at the table (2-5); with more people than the rules' players, each hand is "
            "played by some of them"
        },
    )
    balances = fields.Dict(
        keys=fields.String(),
        values=Count(validate=validate.Range(-MAX_MONEY, MAX_MONEY)),
        load_default=None,
        allow_none=True,
        metadata={
            "description": "person -> the money they bring, for every person (none below zero); leave out to keep "
            "totals only, with no all-in or limited liability"
        },
    )
    first_dealer = fields.String(
        load_default=None,
        allow_none=True,
        validate=validate.Length(1, MAX_ID_LENGTH),
        metadata={
            "description": "who deals the first hand; with neither this nor dealer_draw, the first person listed"
        },
    )
    dealer_draw = fields.Nested(
        DrawSchema,
        load_default=None,
        allow_none=True,
        metadata={"description": "the draw for the first dealer, 밤일낮장 (RULES.md 11.2), instead of first_dealer"},
    )
    stake = Count(load_default=1, validate=validate.Range(0, 10**9), metadata={"description": "money per point"})
    hands = fields.List(
        Either({key: shape for key, shape in HAND_SHAPES.items()}),
        load_default=list,
        validate=validate.Length(max=MAX_HANDS),
        metadata={"description": "the hands so far, in the order played"},
    )


# --- the answer ------------------------------------------------------------------------------------------------


class FirstDealerOut(Strict):
    dealer = fields.String(required=True)
    by = Named("DealerBy", open=True, required=True)
    time = Named("DrawTime", required=True, allow_none=True)
    months = fields.Dict(
        keys=fields.String(),
        values=fields.Integer(),
        required=True,
        metadata={"description": "a draw: the month each person drew in the round that decided it"},
    )
    rounds = fields.Integer(required=True, metadata={"description": "a draw: the rounds drawn (0 without a draw)"})


class CarryOut(Strict):
    nagari_streak = fields.Integer(required=True, metadata={"description": "the nagari hands in a row just before"})
    nagari_factor = fields.Integer(required=True, metadata={"description": "what they multiply the hand by"})
    push = fields.Integer(required=True, metadata={"description": "the pushes in a row waiting"})
    push_factor = fields.Integer(required=True, metadata={"description": "what they multiply the hand by: x2 each"})


class NextHandOut(CarryOut):
    dealer = fields.String(required=True)
    nagari_capped = fields.Boolean(
        required=True,
        metadata={"description": "the nagari factor is the rule set's nagari_cap, below what the streak would make"},
    )


class LimitOut(Strict):
    rule = fields.String(required=True, metadata={"description": "push, all-in or limited-liability"})
    applied = fields.Boolean(required=True)
    code = fields.String(required=True, metadata={"description": "why, as a stable code"})
    reason = fields.String(required=True, metadata={"description": "why, in words"})
    facts = fields.Dict(keys=fields.String(), required=True, metadata={"description": "the amounts the reason cites"})


class PaidOut(Strict):
    from_ = fields.String(required=True, data_key="from")
    to = fields.String(required=True)
    owed = fields.Integer(required=True, metadata={"description": "what the hand says is owed"})
    amount = fields.Integer(required=True, metadata={"description": "what changed hands, after the limits"})
    source = fields.String(
        required=True,
        metadata={"description": "settlement (the hand's result), or the code of an instant payment (first-ppuk...)"},
    )
    limits = fields.List(
        fields.Nested(LimitOut),
        required=True,
        metadata={"description": "every rule of the evening checked on this payment, applied or not"},
    )


_MONEY = fields.Dict(keys=fields.String(), values=fields.Integer())


class LedgerHandOut(Strict):
    index = fields.Integer(required=True, metadata={"description": "the hand's place in the list, from 0"})
    dealer = fields.String(required=True)
    carry = fields.Nested(CarryOut, required=True, metadata={"description": "what the hand started under"})
    settlement = fields.Nested(
        SettlementOut, required=True, metadata={"description": "as /v1/settle answers it, priced with the carry"}
    )
    instant_payments = fields.List(
        fields.Nested(InstantPaymentOut),
        required=True,
        metadata={"description": "a logged hand's instant payments (RULES.md 8.6), as /v1/replay gives them"},
    )
    pushed = fields.Boolean(required=True)
    paid = fields.List(
        fields.Nested(PaidOut),
        required=True,
        metadata={"description": "every payment as the ledger made it: the instant ones first, then the result"},
    )
    totals = fields.Dict(
        keys=fields.String(),
        values=fields.Integer(),
        required=True,
        metadata={"description": "each person's won minus lost so far"},
    )
    balances = fields.Dict(
        keys=fields.String(),
        values=fields.Integer(),
        required=True,
        allow_none=True,
        metadata={"description": "each person's money after the hand; null without balances"},
    )
    explanation = fields.List(fields.String(), required=True)


class TransferOut(Strict):
    from_ = fields.String(required=True, data_key="from")
    to = fields.String(required=True)
    amount = fields.Integer(required=True)


class EveningResponse(Echo):
    people = fields.List(fields.String(), required=True)
    stake = fields.Integer(required=True)
    first_dealer = fields.Nested(FirstDealerOut, required=True)
    hands = fields.List(fields.Nested(LedgerHandOut), required=True)
    next = fields.Nested(NextHandOut, required=True, metadata={"description": "what the hand to come starts with"})
    totals = fields.Dict(
        keys=fields.String(), values=fields.Integer(), required=True, metadata={"description": "won minus lost"}
    )
    balances = fields.Dict(keys=fields.String(), values=fields.Integer(), required=True, allow_none=True)
    transfers = fields.List(
        fields.Nested(TransferOut),
        required=True,
        metadata={"description": "the settle-up: the fewest transfers that square the totals (RULES.md 11.5)"},
    )
    explanation = fields.List(
        fields.String(),
        required=True,
        metadata={
            "description": "the evening as a table reads it aloud: first dealer, standings, next hand, settle-up"
        },
    )


def carry_json(c: Carry) -> dict[str, int]:
    return {
        "nagari_streak": c.nagari_streak,
        "nagari_factor": c.nagari_factor,
        "push": c.pushes,
        "push_factor": c.push_factor,
    }


def _limit_json(w: Words, limit: Limit, paid: Paid) -> dict[str, Any]:
    return {
        "rule": limit.rule,
        "applied": limit.applied,
        "code": limit.reason,
        "reason": words.limit_reason(w, limit, paid),
        "facts": dict(limit.facts),
    }


def hand_json(w: Words, hand: LedgerHand, stake: int, rules: RuleSet | None = None) -> dict[str, Any]:
    """One hand of the ledger as JSON: its settlement as /v1/settle renders it, and every payment as made."""
    return {
        "index": hand.index,
        "dealer": hand.dealer,
        "carry": carry_json(hand.carry),
        "settlement": settlement_json(w, hand.settlement, rules, stake=stake),
        "instant_payments": [instant_payment_json(w, p, stake) for p in hand.instant_payments],
        "pushed": hand.pushed,
        "paid": [
            {
                "from": p.payer,
                "to": p.payee,
                "owed": p.owed,
                "amount": p.amount,
                "source": p.source,
                "limits": [_limit_json(w, limit, p) for limit in p.limits],
            }
            for p in hand.paid
        ],
        "totals": dict(hand.totals),
        "balances": dict(hand.balances) if hand.balances is not None else None,
        "explanation": words.hand_explanation(w, hand),
    }


def evening_json(w: Words, ev: Evening, rules: RuleSet | None = None) -> dict[str, Any]:
    """The ledger as JSON: every hand, the next hand, the standings and the settle-up, with the explanation."""
    first = ev.first_dealer
    return {
        "people": list(ev.people),
        "stake": ev.stake,
        "first_dealer": {
            "dealer": first.dealer,
            "by": first.by,
            "time": first.time,
            "months": dict(first.months),
            "rounds": first.rounds,
        },
        "hands": [hand_json(w, hand, ev.stake, rules) for hand in ev.hands],
        "next": {
            "dealer": ev.next.dealer,
            **carry_json(ev.next.carry),
            "nagari_capped": rules is not None
            and capped(ev.next.carry.nagari_factor, ev.next.carry.nagari_streak, rules),
        },
        "totals": dict(ev.totals),
        "balances": dict(ev.balances) if ev.balances is not None else None,
        "transfers": [{"from": t.payer, "to": t.payee, "amount": t.amount} for t in ev.transfers],
        "explanation": words.explanation(w, ev),
    }


def _hands(items: Sequence[Mapping[str, Any]], stake: int) -> Iterator[EveningHand]:
    """The hands of the request, read one by one as the ledger reaches them, so that a refusal found in reading
    one (an unknown card, a carry stated in a log) names it after every refusal of the hands before it."""
    for index, item in enumerate(items):
        try:
            if "settle" in item:
                yield EveningHand(hand_result(item["settle"]), item["push"])
                continue
            log = item["replay"]
            # a log has no place for what the evening works out: refused here as a result's would be (RULES.md 11.1)
            if log["nagari_streak"]:
                raise EveningError("carry-stated", why="nagari-streak", nagari_streak=log["nagari_streak"])
            if log["stake"] not in (1, stake):
                raise EveningError("stake-stated", stake=log["stake"], evening_stake=stake)
            yield EveningHand(log, item["push"])  # read by engine.Log.from_dict when the ledger reaches it
        except GoStopError as err:
            raise err.in_hand(index) from None


def evening_answer(body: Mapping[str, Any], w: Words) -> dict[str, Any]:
    """The answer to a validated POST /v1/evening body, in the language of ``w``."""
    people = body["people"]
    rules = resolve(body["rules"], players=2 if len(people) == 2 else 3)
    stake, draw = body["stake"], body["dealer_draw"]
    ledger = evening(
        rules,
        people,
        _hands(body["hands"], stake),
        balances=body["balances"],
        first_dealer=body["first_dealer"],
        draw=DealerDraw(draw["time"], draw["rounds"]) if draw is not None else None,
        stake=stake,
    )
    _bounded(ledger)
    return {**evening_json(w, ledger, rules), **echo(rules)}


def _bounded(ledger: Evening) -> None:
    """Refuse an evening whose running totals or balances pass what every client holds exactly (API.md v1.3):
    each hand's amounts are bounded by the engine's settlement, their sums over the evening here."""
    for hand in ledger.hands:
        for kept in (hand.totals, hand.balances or {}):
            for player, total in kept.items():
                if abs(total) > MAX_AMOUNT:
                    error = EveningError("amount-too-large", why="total", player=player, total=total, limit=MAX_AMOUNT)
                    raise error.in_hand(hand.index)


# --- the examples and the endpoint --------------------------------------------------------------------------

# RULES.md 2: three brights without the rain bright (3) and godori (5) make 8 points with only 3 animals
_EIGHT = ["jan-bright", "mar-bright", "aug-bright", "feb-animal", "apr-animal", "aug-animal"]
_JUNK = ["apr-junk-1", "apr-junk-2", "may-junk-1", "may-junk-2", "jun-junk-1", "jun-junk-2", "jul-junk-1"]


def _stop(winner: str, **piles: list[str]) -> dict[str, Any]:
    return {"players": [{"id": p, "captured": pile} for p, pile in piles.items()], "winner": winner}


EXAMPLES: dict[str, dict[str, Any]] = {
    "two-players-push-nagari-all-in": {
        "rules": {"preset": "korean-2p", "push": 2, "all_in": True},
        "people": ["A", "B"],
        "balances": {"A": 3000, "B": 2000},
        "dealer_draw": {
            "time": "night",
            "rounds": [{"A": "mar-junk-1", "B": "mar-ribbon"}, {"A": "nov-bright", "B": "feb-animal"}],
        },
        "stake": 100,
        "hands": [
            {"settle": _stop("A", A=_EIGHT, B=["nov-bright", *_JUNK]), "push": True},
            {"settle": {"players": [{"id": "A"}, {"id": "B"}], "winner": None}},
            {"settle": _stop("B", B=_EIGHT, A=_JUNK)},
        ],
    },
    "three-players-limited-liability": {
        "rules": {"preset": "korean-3p", "limited_liability": True},
        "people": ["A", "B", "C"],
        "balances": {"A": 300, "B": 400, "C": 150},
        "first_dealer": "C",
        "stake": 10,
        "hands": [
            {"settle": _stop("A", A=_EIGHT, B=["nov-bright", *_JUNK], C=["oct-junk-1", "oct-junk-2"])},
            {"settle": _stop("C", C=_EIGHT, A=["nov-bright", *_JUNK], B=["oct-junk-1", "oct-junk-2"])},
        ],
    },
}


def blueprint() -> GoStopBlueprint:
    """The endpoint, documented with the answers it gives to its examples (made now, by ``evening_answer``)."""
    from .endpoints import post_endpoint

    return post_endpoint(
        "evening",
        __name__,
        "The evening's ledger",
        path="/evening",
        operation_id="keepEvening",
        doc="""The evening's ledger from the hands so far (RULES.md 11), worked out again on every request.

        Each hand is `{"settle": ...}` (a /v1/settle body) or `{"replay": ...}` (a finished /v1/replay log),
        without the rules, and `"push": true` when its winner pushed it. Each hand's nagari streak and pushes
        are worked out from the hands before it, never given. The answer gives every hand as it was paid
        (all-in, limited liability and the push as `limits`), who deals `next` and with what carry, and the
        settle-up in the fewest `transfers`. A refusal found in a hand names it by `hand_index` (from 0).
        """,
        request_schema=EveningRequest(),
        response_schema=EveningResponse,
        response_description="the ledger: every hand, the next hand, the standings and the settle-up",
        answer=evening_answer,
        examples=EXAMPLES,
    )
