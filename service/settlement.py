"""POST /v1/settle: who pays whom for a finished hand, and why (RULES.md 7-9): the request, the answer's shape,
how the answer is made from the engine's ``Settlement``, and the endpoint.

``settle_answer(body, words)`` is the endpoint's whole work, from a validated body (``SettleRequest().load``)
to the JSON answer. A finished replay's ``settlement`` and a go/stop decision's ``if_stop`` are made by the
same ``settlement_json``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import marshmallow as ma
from marshmallow import fields, validate

from engine import (
    Check,
    Declared,
    HandResult,
    Outcome,
    Payment,
    PlayerHand,
    RuleSet,
    Sale,
    Settlement,
    read_sit_out,
    resolve,
    settle,
)
from engine.settlement import MAX_NAGARI_STREAK

from .catalogs import Echo, echo
from .i18n import Words
from .schemas import (
    MAX_ID_LENGTH,
    MAX_PLAYERS,
    SCHEMA_RULES,
    Count,
    Flag,
    Named,
    Strict,
    card_list,
    cup_pin,
    one_of,
    rules_field,
    sit_out_field,
)
from .score import ScoreOut, score_json
from .sentences import settlement as words

if TYPE_CHECKING:  # the endpoint needs Flask; the answer (the page's engine, under Pyodide) does not
    from .parsing import GoStopBlueprint

__all__ = [
    "EXAMPLES",
    "SettleRequest",
    "SettleResponse",
    "SettlementOut",
    "blueprint",
    "hand_result",
    "settle_answer",
    "settlement_json",
]


class DeclaredCounts(Strict):
    """What a player says they captured instead of showing the cards (API.md v1.2). The engine refuses counts no
    deal could give (``impossible-counts``, ``impossible-points``, ``negative-count``)."""

    points = Count(
        load_default=None,
        allow_none=True,
        metadata={
            "description": "the winner's combination score (RULES.md 2): required for the winner, not "
            "allowed for a loser"
        },
    )
    brights = Count(load_default=0)
    rain = Flag(load_default=False, metadata={"description": "whether the brights include the rain bright"})
    animals = Count(load_default=0, metadata={"description": "the cup counted here when cup is animal"})
    ribbons = Count(load_default=0)
    junk_units = Count(
        load_default=0,
        metadata={
            "description": "junk units: a double junk counts 2, a bonus card its units, the cup 2 when cup is "
            "junk (RULES.md 1, 3)"
        },
    )
    cup = one_of("CupCounted", load_default="none")


class SettlePlayer(Strict):
    id = fields.String(required=True, validate=validate.Length(1, MAX_ID_LENGTH))
    captured = card_list("cards this player captured (or give declared instead)", load_default=None)
    declared = fields.Nested(
        DeclaredCounts,
        load_default=None,
        metadata={
            "description": "the counts of what this player captured, as the table says them, instead of "
            "captured (API.md v1.2)"
        },
    )
    go_count = Count(load_default=0, validate=validate.Range(0, 20))
    shakes = Count(load_default=0, validate=validate.Range(0, 4))
    bombs = Count(load_default=0, validate=validate.Range(0, 4))
    two_card_bombs = Count(
        load_default=0,
        validate=validate.Range(0, 6),
        metadata={"description": "two-card bombs (RULES.md 5.5), where two_card_bomb allows them"},
    )
    chongtong = fields.Boolean(
        load_default=False,
        metadata={
            "description": "dealt a chongtong and played on: a win is worth chongtong_play_on_multiplier "
            "(RULES.md 4.3, 8.2)"
        },
    )
    sep_animal_as = cup_pin()


class SettleRequest(Strict):
    rules = rules_field()
    players = fields.List(fields.Nested(SettlePlayer), required=True, validate=validate.Length(2, MAX_PLAYERS))
    winner = fields.String(
        allow_none=True,
        validate=validate.Length(1, MAX_ID_LENGTH),
        metadata={
            "description": "the player who stopped; null for a nagari. Required unless outcome is given and is "
            "not stop (API.md v1.3: a missing winner no longer rules a nagari)"
        },
    )
    outcome = one_of(
        "Outcome",
        load_default=None,
        allow_none=True,
        metadata={
            "description": "stop (default with a winner), nagari (default without), "
            "or an instant win: chongtong, three-ppuk, heodang"
        },
    )
    last_go = fields.String(
        load_default=None,
        allow_none=True,
        validate=validate.Length(1, MAX_ID_LENGTH),
        metadata={
            "description": "the loser who called go last; needed only for gobak pays-all when several losers called go"
        },
    )
    nagari_streak = Count(load_default=0, validate=validate.Range(0, MAX_NAGARI_STREAK))
    stake = Count(load_default=1, validate=validate.Range(0, 10**9), metadata={"description": "money per point"})
    sit_out = sit_out_field()

    @ma.validates_schema
    def _winner_said(self, data: Mapping[str, Any], **kwargs: Any) -> None:
        # API.md v1.3: a nagari is said (winner null, or outcome nagari), never read from a missing winner
        if "winner" not in data and data.get("outcome") in (None, Outcome.STOP.value):
            raise ma.ValidationError("Missing data for required field.", field_name="winner")


# The document says what ``_winner_said`` checks (service.openapi): without outcome (or null), or stop, winner is
# required. As if/then, which client generators leave aside (an anyOf of required lists changes their types).
WINNER_SAID = {
    "if": {
        "anyOf": [
            {"not": {"required": ["outcome"]}},
            {"required": ["outcome"], "properties": {"outcome": {"enum": [None, Outcome.STOP.value]}}},
        ]
    },
    "then": {"required": ["winner"]},
}
SCHEMA_RULES["SettleRequest"] = WINNER_SAID


class FactorOut(Strict):
    rule = Named("CheckRule", open=True, required=True)
    factor = fields.Integer(required=True)
    reason = fields.String(required=True)


class CheckOut(Strict):
    rule = Named("CheckRule", open=True, required=True, metadata={"description": "the rule of RULES.md 8 checked"})
    applied = fields.Boolean(required=True)
    factor = fields.Integer(
        required=True, metadata={"description": "what it multiplies the payment by: 1 changes nothing, 0 pays nothing"}
    )
    reason = fields.String(required=True)
    facts = fields.Dict(
        keys=fields.String(),
        required=True,
        metadata={"description": "the numbers the reason cites, for an app that writes its own sentence"},
    )


class CoverOut(Strict):
    player = fields.String(required=True)
    points = fields.Integer(required=True)


class PaymentOut(Strict):
    from_ = fields.String(required=True, data_key="from")
    to = fields.String(required=True)
    points = fields.Integer(required=True)
    amount = fields.Integer(required=True)
    factors = fields.List(fields.Nested(FactorOut), required=True, metadata={"description": "the checks that applied"})
    checks = fields.List(
        fields.Nested(CheckOut),
        required=True,
        metadata={"description": "every multiplier and exemption the rules switch on, applied or not, and why"},
    )
    covers = fields.List(
        fields.Nested(CoverOut),
        required=True,
        metadata={"description": "shares this loser pays for other losers (gobak pays-all)"},
    )


class SaleOut(Strict):
    seller = fields.String(required=True, metadata={"description": "the fourth, who sat out and sold"})
    payers = fields.List(fields.String(), required=True, metadata={"description": "the players other than the dealer"})
    cards = fields.List(Named("CardId"), required=True, metadata={"description": "the seller's hand as it was known"})
    brights = fields.Integer(required=True, metadata={"description": "brights in the hand, 1 point each"})
    bonus_cards = fields.Integer(required=True, metadata={"description": "bonus cards in the hand, 1 point each"})
    combinations = fields.Integer(required=True, metadata={"description": "points of the combinations the hand holds"})
    month = fields.Integer(
        required=True, allow_none=True, metadata={"description": "the month of which the hand holds three: doubled"}
    )
    value = fields.Integer(required=True, metadata={"description": "the points each payer pays the seller"})
    amount = fields.Integer(required=True, metadata={"description": "value x stake, from each payer"})
    reason = fields.String(required=True)


class SettlementOut(Strict):
    outcome = Named("Outcome", open=True, required=True)
    winner = fields.String(required=True, allow_none=True)
    score = fields.Nested(ScoreOut, required=True, allow_none=True)
    base_points = fields.Integer(required=True)
    go_count = fields.Integer(
        required=True, metadata={"description": "the winner's gos, added to the score for the base (RULES.md 7)"}
    )
    payments = fields.List(fields.Nested(PaymentOut), required=True)
    sale = fields.Nested(
        SaleOut,
        metadata={
            "description": "with a fourth at the table (RULES.md 4.5): the brights sold at the deal, paid "
            "apart from payments; absent when nobody sold"
        },
    )
    explanation = fields.List(fields.String(), required=True)


class SettleResponse(SettlementOut, Echo):
    pass


def _check_json(w: Words, c: Check, p: Payment, s: Settlement, rules: RuleSet | None) -> dict[str, Any]:
    return {
        "rule": c.rule,
        "applied": c.applied,
        "factor": c.factor,
        "reason": words.check_reason(w, c, p, s, rules),
        "facts": dict(c.facts),
    }


def sale_json(w: Words, sale: Sale, stake: int) -> dict[str, Any]:
    """The brights sold by the fourth at a table of three (RULES.md 4.5), with what makes up their value."""
    return {
        "seller": sale.seller,
        "payers": list(sale.payers),
        "cards": sale.cards.ids(),
        "brights": sale.brights,
        "bonus_cards": sale.bonus_cards,
        "combinations": sale.combinations,
        "month": sale.month,
        "value": sale.value,
        "amount": sale.value * stake,
        "reason": words.sale_reason(w, sale, stake),
    }


def settlement_json(
    w: Words, s: Settlement, rules: RuleSet | None = None, *, stake: int | None = None
) -> dict[str, Any]:
    """A settlement as JSON: every payment with its checks and their reasons, the sale of a fourth's brights, and
    the explanation (the rules it was priced under let the words say what they did: the nagari cap, the loser's
    cup). ``stake``: the hand's, where the settlement does not carry it (a nagari's)."""
    payments = []
    for p in s.payments:
        checks = [_check_json(w, c, p, s, rules) for c in p.checks]
        payments.append(
            {
                "from": p.payer,
                "to": p.payee,
                "points": p.points,
                "amount": p.amount,
                "factors": [
                    {"rule": c["rule"], "factor": c["factor"], "reason": c["reason"]} for c in checks if c["applied"]
                ],
                "checks": checks,
                "covers": [{"player": who, "points": pts} for who, pts in p.covers],
            }
        )
    out = {
        "outcome": s.outcome,
        "winner": s.winner,
        "score": score_json(w, s.score) if s.score is not None else None,
        "base_points": s.base_points,
        "go_count": s.go_count,
        "payments": payments,
        "explanation": words.explanation(w, s, rules, stake),
    }
    if s.sale is not None:
        out["sale"] = sale_json(w, s.sale, s.stake if stake is None else stake)
    return out


def _declared(counts: Mapping[str, Any] | None) -> Declared | None:
    if counts is None:
        return None
    return Declared(
        counts["points"],
        counts["brights"],
        counts["rain"],
        counts["animals"],
        counts["ribbons"],
        counts["junk_units"],
        counts["cup"],
    )


def hand_result(body: Mapping[str, Any]) -> HandResult:
    """The finished hand a validated settle body tells (the body of /v1/settle, or a hand of /v1/evening)."""
    players = body["players"]
    return HandResult(
        players=tuple(
            PlayerHand(
                p["id"],
                p["captured"] or (),
                p["go_count"],
                p["shakes"],
                p["bombs"],
                p["sep_animal_as"],
                _declared(p["declared"]),
                p["two_card_bombs"],
                p["chongtong"],
            )
            for p in players
        ),
        winner=body.get("winner"),
        outcome=body["outcome"] or (Outcome.STOP if body.get("winner") is not None else Outcome.NAGARI),
        nagari_streak=body["nagari_streak"],
        stake=body["stake"],
        last_go=body["last_go"],
        sit_out=read_sit_out(body["sit_out"]),
    )


def settle_answer(body: Mapping[str, Any], w: Words) -> dict[str, Any]:
    """The answer to a validated POST /v1/settle body, in the language of ``w``."""
    rules = resolve(body["rules"], players=len(body["players"]))
    return {**settlement_json(w, settle(hand_result(body), rules), rules, stake=body["stake"]), **echo(rules)}


EXAMPLES: dict[str, dict[str, Any]] = {
    "stop": {
        "rules": "korean-2p",
        "players": [
            {
                "id": "A",
                "captured": [
                    "jan-bright",
                    "mar-bright",
                    "aug-bright",
                    "feb-animal",
                    "apr-animal",
                    "aug-animal",
                    "jan-junk-1",
                    "feb-junk-1",
                ],
                "go_count": 1,
            },
            {"id": "B", "captured": ["may-junk-1", "may-junk-2", "jun-junk-1", "oct-ribbon"], "go_count": 0},
        ],
        "winner": "A",
        "nagari_streak": 0,
        "stake": 100,
    },
    "three-players-overrides": {
        "rules": {"preset": "korean-3p", "pibak_max_loser_junk": 6},
        "players": [
            {"id": "A", "captured": ["jan-ribbon", "feb-ribbon", "mar-ribbon", "jul-animal"], "shakes": 1},
            {"id": "B", "captured": ["nov-junk-1", "dec-animal"], "go_count": 1},
            {"id": "C", "captured": []},
        ],
        "winner": "A",
    },
    # API.md v1.2: what the table says instead of the cards (RULES.md 2: 3 brights, 10 junk units and godori)
    "declared-counts": {
        "rules": "korean-2p",
        "players": [
            {"id": "A", "go_count": 1, "declared": {"points": 9, "brights": 3, "animals": 3, "junk_units": 10}},
            {"id": "B", "declared": {"brights": 0, "animals": 0, "ribbons": 1, "junk_units": 6, "cup": "none"}},
        ],
        "winner": "A",
        "stake": 100,
    },
    # RULES.md 4.5: four at the table; D, the fourth, sat out and sold their brights
    "four-at-the-table": {
        "rules": {"preset": "korean-3p", "gwang_palgi": True},
        "players": [
            {"id": "A", "captured": ["jan-ribbon", "feb-ribbon", "mar-ribbon", "jul-animal"]},
            {"id": "B", "captured": ["nov-junk-1", "dec-animal"]},
            {"id": "C", "captured": ["may-junk-1"]},
        ],
        "winner": "A",
        "sit_out": {
            "player": "D",
            "seat": 4,
            "hand": ["jan-bright", "mar-bright", "aug-bright", "aug-animal", "aug-junk-2", "bonus-2a", "oct-junk-2"],
        },
    },
}


def blueprint() -> GoStopBlueprint:
    """The endpoint, documented with the answers it gives to its examples (made now, by ``settle_answer``)."""
    from .endpoints import post_endpoint

    return post_endpoint(
        "settlement",
        __name__,
        "Who pays whom, and why",
        path="/settle",
        operation_id="settleHand",
        doc="""Settle a finished hand from every player's captured cards and calls (RULES.md 7, 8, 9).

        `winner` is the player who stopped; `null` settles a nagari. Every factor applied to a loser is
        listed with a reason, and a loser who pays nothing still has a row saying why.
        """,
        request_schema=SettleRequest(),
        response_schema=SettleResponse,
        response_description="who pays whom, and why",
        answer=settle_answer,
        examples=EXAMPLES,
    )
