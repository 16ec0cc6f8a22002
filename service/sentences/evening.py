"""The words of an evening's ledger (RULES.md 11): who deals first and why, each hand's payments as they were
made (a push, all-in, limited liability), what the next hand starts with, where everyone stands, and the
settle-up, as a table reads them aloud.

``LIMITS`` is keyed by a limit's ``rule`` and ``reason`` as the engine gives them (``engine.Limit``); each
sentence reads the limit's facts plus ``payer`` and ``payee``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine import DealerBy, Evening, LedgerHand, Limit, Outcome, Paid

from ..i18n import N_, Words
from . import replay as replay_words
from .saying import Say, plural, reading, say

__all__ = ["LIMITS", "explanation", "hand_explanation", "limit_reason"]

Sentence = Say | Sequence[Say]
SETTLEMENT = "settlement"  # the source of a payment the hand's result makes (``engine.Paid``)

LIMITS: Mapping[tuple[str, str], Sentence] = {
    ("push", "passed"): Say(
        N_("{payee} pushes the hand: {payer} pays nothing of the {owed:,} owed, and the next hand pays ×{next_factor}")
    ),
    ("all-in", "no-balances"): Say(N_("No balances are kept, so all-in does not cap what {payer} pays")),
    ("all-in", "within-balance"): Say(N_("{payer} holds {balance:,}, enough for the {owed:,} owed")),
    ("all-in", "balance-short"): Say(
        N_(
            "{payer} owes {owed:,} but holds only {balance:,}: {payer} pays {paid:,} and {forgiven:,} is forgiven "
            "(all-in)"
        )
    ),
    ("limited-liability", "no-balances"): Say(
        N_("No balances are kept, so limited liability does not cap what {payee} takes")
    ),
    ("limited-liability", "within-limit"): Say(
        N_("{payee} began the hand with {limit:,} and takes no more than that in it")
    ),
    ("limited-liability", "over-limit"): (
        # nothing to take: a balance of nothing, or below zero (a debt), is a limit of nothing (RULES.md 11.4)
        Say(
            N_(
                "{payee} began the hand with no money of their own, so takes nothing in it: {payer} pays none of the "
                "{owed:,} owed (limited liability)"
            ),
            when=lambda f: not f["limit"],
        ),
        # what the hand already paid the winner on the spot counts against the limit: say it, or the sum is a riddle
        Say(
            N_(
                "{payee} began the hand with {limit:,} and takes no more than that in it, {received:,} of it already "
                "taken on the spot: {payer} pays {paid:,} of {owed:,}, and {waived:,} is not paid (limited liability)"
            ),
            when=lambda f: bool(f.get("received")),
        ),
        Say(
            N_(
                "{payee} began the hand with {limit:,} and takes no more than that in it: {payer} pays {paid:,} of "
                "{owed:,}, and {waived:,} is not paid (limited liability)"
            )
        ),
    ),
}


def limit_reason(w: Words, limit: Limit, paid: Paid) -> str:
    """Why a rule of the evening did or did not change one payment, citing its facts."""
    return say(w, LIMITS[(limit.rule, limit.reason)], {**limit.facts, "payer": paid.payer, "payee": paid.payee})


# --- one hand ------------------------------------------------------------------------------------------------

HAND = reading(N_("Hand {number}, dealt by {dealer}"), number="hand_index")  # counted from 1
# what a hand carries from the hands before it: the table says "the hand before was nagari", not a count of one
CARRIES_NAGARI = (
    Say(N_("The hand before was nagari: ×{factor}"), when=lambda f: f["streak"] == 1),
    Say(N_("The {streak} hands before were all nagari: ×{factor}")),
)
# a push waits until a hand is won, through any nagari between: not always "the hand before"
CARRIES_PUSH = (
    Say(N_("An earlier push carries into this hand: ×{factor}"), when=lambda f: f["pushes"] == 1),
    Say(N_("{pushes} pushes in a row carry into this hand: ×{factor}")),
)
# both at once: each line says its own factor, and the hand pays their product (words-r7: never said before)
CARRIES_BOTH = Say(N_("Both together: ×{factor} for this hand"))
PAYS = Say(N_("{payer} pays {payee} {amount:,}"))
PAYS_AT_ONCE = Say(
    N_("{payer} pays {payee} {amount:,} on the spot ({reason})")
)  # the reason names itself: no "for the"
WINNER_DEALS = Say(N_("{winner} won and deals the next hand"))
NAGARI_DEALS = Say(N_("Nagari: {dealer} deals again"))
REDEAL_DEALS = Say(N_("Redeal: {dealer} deals the same hand again, and the carry stays as it was"))


def _carry_lines(w: Words, streak: int, nagari_factor: int, pushes: int, push_factor: int) -> list[str]:
    lines = []
    if streak:
        lines.append(say(w, CARRIES_NAGARI, {"streak": streak, "factor": nagari_factor}))
    if pushes:
        lines.append(say(w, CARRIES_PUSH, {"pushes": pushes, "factor": push_factor}))
    if streak and pushes:
        lines.append(say(w, CARRIES_BOTH, {"factor": nagari_factor * push_factor}))
    return lines


def hand_explanation(w: Words, hand: LedgerHand) -> list[str]:
    """One hand of the ledger told line by line: who dealt it and what it carried, every payment as it was made
    (the rules of the evening that changed it said in full), and who deals next."""
    c = hand.carry
    lines = [say(w, HAND, {"hand_index": hand.index, "dealer": hand.dealer})]
    lines += _carry_lines(w, c.nagari_streak, c.nagari_factor, c.pushes, c.push_factor)
    instant = iter(hand.instant_payments)  # the ledger pays them first, in this order (RULES.md 11.4)
    for paid in hand.paid:
        at_once = next(instant) if paid.source != SETTLEMENT else None
        changed = [limit for limit in paid.limits if limit.applied]
        facts = {"payer": paid.payer, "payee": paid.payee, "amount": paid.amount}
        if changed:
            lines += [limit_reason(w, limit, paid) for limit in changed]
        elif at_once is not None:
            lines.append(say(w, PAYS_AT_ONCE, {**facts, "reason": replay_words.instant_reason(w, at_once)}))
        elif paid.amount:
            lines.append(say(w, PAYS, facts))
    s = hand.settlement
    if s.outcome == Outcome.REDEAL:
        lines.append(say(w, REDEAL_DEALS, {"dealer": hand.dealer}))
    elif s.outcome == Outcome.NAGARI:
        lines.append(say(w, NAGARI_DEALS, {"dealer": hand.dealer}))
    else:
        lines.append(say(w, WINNER_DEALS, {"winner": s.winner}))
    return lines


# --- the evening ---------------------------------------------------------------------------------------------

FIRST_GIVEN = Say(N_("{dealer} deals first, as the table named"))
FIRST_LISTED = Say(N_("{dealer} deals first, listed first"))
FIRST_DRAWN: Mapping[str, Sentence] = {
    "night": (
        Say(
            N_("{dealer} deals first: at night the lowest month deals, and {dealer} drew {month}"),
            when=lambda f: f["rounds"] == 1,
        ),
        Say(
            N_(
                "{dealer} deals first: at night the lowest month deals, and after {rounds} draws (a tie draws again) "
                "{dealer} drew {month}"
            )
        ),
    ),
    "day": (
        Say(
            N_("{dealer} deals first: by day the highest month deals, and {dealer} drew {month}"),
            when=lambda f: f["rounds"] == 1,
        ),
        Say(
            N_(
                "{dealer} deals first: by day the highest month deals, and after {rounds} draws (a tie draws again) "
                "{dealer} drew {month}"
            )
        ),
    ),
}
HANDS_PLAYED = plural("After {n} hand:", "After {n} hands:", "hands")
UP = (
    Say(N_("{person} is up {amount:,} and holds {balance:,}"), when=lambda f: f["balance"] is not None),
    Say(N_("{person} is up {amount:,}")),
)
DOWN = (
    Say(N_("{person} is down {amount:,} and holds {balance:,}"), when=lambda f: f["balance"] is not None),
    Say(N_("{person} is down {amount:,}")),
)
EVEN = (
    Say(N_("{person} is even and holds {balance:,}"), when=lambda f: f["balance"] is not None),
    Say(N_("{person} is even")),
)
NEXT = Say(N_("Next hand: {dealer} deals"))
PUSH_LOST = plural(
    "If the evening ends now, the push waiting is lost",
    "If the evening ends now, the {n} pushes waiting are lost",
    "pushes",
)
SETTLE_UP = Say(N_("To settle up, {payer} pays {payee} {amount:,}"))
ALL_SQUARE = Say(N_("Nobody owes anybody anything"))


def _first(w: Words, ev: Evening) -> str:
    first = ev.first_dealer
    if first.by == DealerBy.GIVEN:
        return say(w, FIRST_GIVEN, {"dealer": first.dealer})
    if first.by == DealerBy.LISTED_FIRST:
        return say(w, FIRST_LISTED, {"dealer": first.dealer})
    facts: dict[str, Any] = {"dealer": first.dealer, "month": first.months[first.dealer], "rounds": first.rounds}
    return say(w, FIRST_DRAWN[str(first.time)], facts)


def explanation(w: Words, ev: Evening) -> list[str]:
    """The evening told as a table reads it aloud: who dealt first, where everyone stands, what the next hand
    starts with, and the settle-up."""
    lines = [_first(w, ev)]
    if ev.hands:
        lines.append(say(w, HANDS_PLAYED, {"hands": len(ev.hands)}))
    for person in ev.people:
        total = ev.totals[person]
        balance = ev.balances[person] if ev.balances is not None else None
        sentence = UP if total > 0 else DOWN if total < 0 else EVEN
        lines.append(say(w, sentence, {"person": person, "amount": abs(total), "balance": balance}))
    c = ev.next.carry
    lines.append(say(w, NEXT, {"dealer": ev.next.dealer}))
    lines += _carry_lines(w, c.nagari_streak, c.nagari_factor, c.pushes, c.push_factor)
    if c.pushes:
        lines.append(say(w, PUSH_LOST, {"pushes": c.pushes}))
    for t in ev.transfers:
        lines.append(say(w, SETTLE_UP, {"payer": t.payer, "payee": t.payee, "amount": t.amount}))
    if not ev.transfers:
        lines.append(say(w, ALL_SQUARE, {}))
    return lines
