"""The words of a replay (RULES.md 4-9): what each event means, the reason of an instant payment, and what a go
risks.

``EVENTS`` is keyed by the engine's ``EventType``; an event's sentence reads its ``player`` and its ``data``
(the steal's ``from`` as ``victim``). ``INSTANT_PAYMENTS`` is keyed by an instant payment's code, ``IF_GO``
by the rule set's ``gobak``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine import Event, EventType, InstantPayment

from ..i18n import N_, Words
from .saying import Facts, Say, plural, reading, say

__all__ = [
    "EVENTS",
    "IF_GO",
    "IF_GO_TWO",
    "INSTANT_PAYMENTS",
    "SIT_OUT",
    "SPARED",
    "event_detail",
    "if_go_reason",
    "instant_reason",
    "sit_out_detail",
]

Sentence = Say | Sequence[Say]


def _has(key: str, value: Any) -> Any:
    return lambda facts: facts.get(key) == value


_RAN_OUT = Say(N_("The cards ran out with no stop: nagari"))

EVENTS: Mapping[EventType, Sentence] = {
    EventType.PPUK: (
        Say(
            N_(
                "{player} plays {played} onto {paired}, and the flipped {drawn} is of the same month: a ppuk. The "
                "three stay on the layout ({player}'s {count:th} ppuk this hand), and {bonus}, flipped onto it, stays "
                "with them for whoever takes the stack"
            ),
            when=lambda f: bool(f.get("bonus")),
        ),
        Say(
            N_(
                "{player} plays {played} onto {paired}, and the flipped {drawn} is of the same month: a ppuk. The "
                "three stay on the layout ({player}'s {count:th} ppuk this hand)"
            )
        ),
    ),
    EventType.CHOK: Say(N_("{player}'s flipped {drawn} takes the {played} just played (chok)")),
    EventType.TTADAK: Say(N_("{player} takes all four cards of {month}, a ttadak: {cards}")),
    EventType.SSEUL: (
        Say(
            N_("{player}'s chok leaves the layout empty as it was, and these rules count it as a sseul too"),
            when=lambda f: bool(f.get("after_chok")),
        ),
        Say(N_("{player} sweeps the layout clean (sseul)")),
    ),
    EventType.JA_PPUK: Say(N_("{player} takes back the stack of their own ppuk of {month}")),
    EventType.STACK_CAPTURE: (
        Say(N_("{player} captures the stack of {month} dealt on the layout"), when=_has("maker", None)),
        Say(N_("{player} captures {maker}'s ppuk of {month}")),
    ),
    EventType.BOMB: (
        Say(
            N_(
                "{player} plays {played} together onto the two of their month on the layout and takes all four "
                "(a two-card bomb): {cards}"
            ),
            when=lambda f: len(f.get("played") or ()) == 2,
        ),
        Say(N_("{player} bombs with {played} and takes {cards}")),
    ),
    EventType.SHAKE: Say(N_("{player} shakes, showing {cards}")),
    EventType.BONUS: (
        Say(N_("The {card} was dealt to the layout and goes to {player}"), when=_has("source", "layout")),
        Say(N_("{player} plays the {card} from hand and keeps it"), when=_has("source", "hand")),
        Say(N_("{player} flips the {card} from the stock and keeps it")),
    ),
    EventType.STEAL: (
        # a stack dealt on the layout was nobody's ppuk: its steal is not "for the stack capture" of a ppuk
        reading(
            N_("{player} takes {cards} from {victim} for capturing the stack dealt on the layout"),
            victim="from",
            when=lambda f: f.get("cause") == EventType.STACK_CAPTURE and "maker" in f and f["maker"] is None,
        ),
        reading(N_("{player} takes {cards} from {victim} for {cause}"), victim="from"),
    ),
    EventType.GO: plural(
        "{player} calls go at {points} points ({n} go)", "{player} calls go at {points} points ({n} gos)", "count"
    ),
    EventType.STOP: (
        Say(
            N_("{player} reaches {points} points on their last turn: the hand stops by itself"),
            when=lambda f: bool(f.get("automatic")),
        ),
        Say(N_("{player} stops with {points} points")),
    ),
    EventType.DECLARE: (
        Say(N_("{player} counts the cup as double junk"), when=_has("sep_animal_as", "junk")),
        Say(N_("{player} counts the cup as an animal")),
    ),
    EventType.CHONGTONG: (
        Say(
            N_("All four cards of {month} were dealt to the layout: the dealer, {player}, wins as by chongtong"),
            when=_has("reason", "floor-four"),
        ),
        Say(
            N_("{players} were each dealt a chongtong: {player}, who plays first, wins with the chongtong of {month}"),
            when=_has("reason", "multiple-chongtong"),
        ),
        Say(
            N_("The card {player} took in for a bonus card makes all four cards of {month}: chongtong, an instant win"),
            when=_has("source", "bonus"),
        ),
        Say(
            N_("{player} was dealt all four cards of {month}, a chongtong, and takes the win at once"),
            when=lambda f: bool(f.get("chosen")),
        ),
        Say(N_("{player} was dealt all four cards of {month}: chongtong, an instant win")),
    ),
    EventType.PLAY_ON: Say(
        N_("{player} was dealt all four cards of {month}, a chongtong, and plays on instead of winning at once")
    ),
    # who is one card from which combination: the event's ``against``, read as ``one``/``other`` (STANDOFF)
    EventType.SHODANG: Say(
        N_(
            "{player} calls shodang: {one} is one card from {one_lacks} and {other} from {other_lacks}, and "
            "{player} holds a card that would complete each"
        )
    ),
    EventType.SHODANG_ANSWER: (
        # both accepted: the nagari event that follows says the outcome, so this line does not
        Say(N_("{player} accepts the shodang too"), when=_has("result", "nagari")),
        Say(N_("{player} declines the shodang too: play goes on"), when=_has("result", "play-on")),
        # the answers split: the second answer names both, who accepted and who declined
        Say(
            N_(
                "{player} accepts the shodang, though {decliner} declined it: play goes on, and if {player} wins, "
                "{pays_alone} pays alone"
            ),
            when=lambda f: f.get("result") == "split" and f.get("answer") == "accept",
        ),
        Say(
            N_(
                "{player} declines the shodang, though {accepter} accepted it: play goes on, and if {accepter} "
                "wins, {pays_alone} pays alone"
            ),
            when=_has("result", "split"),
        ),
        Say(N_("{player} accepts the shodang"), when=_has("answer", "accept")),
        Say(N_("{player} declines the shodang")),
    ),
    EventType.THREE_PPUK: Say(N_("{player} makes a third ppuk and wins at once")),
    EventType.HEODANG: Say(N_("{player} captured nothing in {turns} turns in a row and wins at once (heodang)")),
    EventType.REDEAL: (
        Say(
            N_("All four cards of {month} were dealt to the layout: the deal does not count"),
            when=_has("reason", "floor-four"),
        ),
        Say(
            N_("{players} were each dealt a chongtong: the deal does not count"),
            when=_has("reason", "multiple-chongtong"),
        ),
        _RAN_OUT,
    ),
    EventType.NAGARI: (
        Say(N_("All four cards of {month} were dealt to the layout: nagari"), when=_has("reason", "floor-four")),
        Say(N_("{players} were each dealt a chongtong: nagari"), when=_has("reason", "multiple-chongtong")),
        Say(N_("Both accepted the shodang, so the hand is nagari"), when=_has("reason", "shodang")),
        _RAN_OUT,
    ),
}


# A steal that did not happen (the event's ``spared``, by victim or "all"): the table asks "쪽인데 피는?"
SPARED: Mapping[str, Say] = {
    "last-turn": Say(N_("It is the last turn, so {cause} steals no junk")),
    "cup-only": Say(N_("{victim} holds no junk but the cup, which is never taken, so gives none")),
    "no-junk": Say(N_("{victim} has no junk to give")),
}


def event_detail(w: Words, e: Event, *, after_chok: bool = False) -> str:
    """What an event means, in a sentence (and, where it stole nothing from someone, why). ``after_chok``: a sseul
    in the turn of a chok, which can only be a chok on a layout empty when the turn began, counted as a sseul
    (``chok_sseul``, RULES.md 5.3)."""
    facts: Facts = {**e.data, "player": e.player or "", "after_chok": after_chok, **_standoff(e.data)}
    said = say(w, EVENTS[e.type], facts)
    spared = e.data.get("spared")
    if not spared:
        return said
    for victim, reason in spared.items():
        said = w.text(AND_THEN).format(first=said, then=say(w, SPARED[reason], {"victim": victim, "cause": e.type}))
    return said


def _standoff(data: Facts) -> Facts:
    """A shodang's ``against`` (each other player -> the combination they are one card from, in seat order) as the
    facts its sentence reads: ``one`` and ``one_lacks``, ``other`` and ``other_lacks``."""
    against = data.get("against")
    if not isinstance(against, Mapping) or len(against) != 2:
        return {}
    (one, one_lacks), (other, other_lacks) = against.items()
    return {"one": one, "one_lacks": one_lacks, "other": other, "other_lacks": other_lacks}


# Two sentences told one after the other: each language joins them its own way (a full stop, "。").
AND_THEN = N_("{first}. {then}")


INSTANT_PAYMENTS: Mapping[str, Sentence] = {
    "gwang-sale": Say(N_("the brights sold by the fourth, who sat out")),
    "first-ttadak": Say(N_("first-turn ttadak")),
    "first-chok": Say(N_("first-turn chok")),
    "first-bomb": Say(N_("first-turn bomb")),
    "first-ppuk": (
        Say(N_("first-turn ppuk"), when=_has("turns", 1)),
        Say(N_("ppuk on each of the first two turns"), when=_has("turns", 2)),
        Say(N_("ppuk on each of the first three turns")),
    ),
}


def instant_reason(w: Words, p: InstantPayment) -> str:
    return say(w, INSTANT_PAYMENTS[p.reason], {"turns": p.turns})


# What a go risks (API.md v1.1 ``next.if_go``), by the rule set's gobak; any other is "as any loser does". With
# two players the only winner who can overtake is the opponent, and there is nobody else's share to pay.
IF_GO: Mapping[str, Say] = {
    "double": plural(
        "After a first go, if another player wins, {player} pays double (gobak)",
        "After {n} gos, if another player wins, {player} pays double (gobak)",
        "go_count",
    ),
    "pays-all-double": plural(
        "After a first go, if another player wins, {player} pays every loser's share, doubled (gobak)",
        "After {n} gos, if another player wins, {player} pays every loser's share, doubled (gobak)",
        "go_count",
    ),
    "pays-all-own-double": plural(
        "After a first go, if another player wins, {player} pays every loser's share, their own doubled (gobak)",
        "After {n} gos, if another player wins, {player} pays every loser's share, their own doubled (gobak)",
        "go_count",
    ),
    "pays-all": plural(
        "After a first go, if another player wins, {player} pays for every loser (gobak)",
        "After {n} gos, if another player wins, {player} pays for every loser (gobak)",
        "go_count",
    ),
    "none": plural(
        "After a first go, if another player wins, {player} pays as any loser does",
        "After {n} gos, if another player wins, {player} pays as any loser does",
        "go_count",
    ),
}
_DOUBLE_TWO = plural(
    "After a first go, if the opponent wins, {player} pays double (gobak)",
    "After {n} gos, if the opponent wins, {player} pays double (gobak)",
    "go_count",
)
IF_GO_TWO: Mapping[str, Say] = {
    "double": _DOUBLE_TWO,
    "pays-all-double": _DOUBLE_TWO,
    "pays-all-own-double": _DOUBLE_TWO,
    "pays-all": plural(
        "After a first go, if the opponent wins, {player} pays their own share: there is no other loser (gobak)",
        "After {n} gos, if the opponent wins, {player} pays their own share: there is no other loser (gobak)",
        "go_count",
    ),
    "none": plural(
        "After a first go, if the opponent wins, {player} pays as any loser does",
        "After {n} gos, if the opponent wins, {player} pays as any loser does",
        "go_count",
    ),
}


def if_go_reason(w: Words, player: str, go_count: int, gobak: str, players: int = 3) -> str:
    """What a go risks: the go count it makes, and what gobak makes this player pay if another player wins."""
    table = IF_GO_TWO if players == 2 else IF_GO
    return say(w, table.get(gobak, table["none"]), {"player": player, "go_count": go_count})


# Who sat out at a table of four (RULES.md 4.5), by their seat counted from the dealer.
SIT_OUT: Sentence = (
    Say(
        N_("Nobody before {player} sat out, so {player}, the fourth, sits out and sells their brights"),
        when=_has("seat", 4),
    ),
    Say(N_("{player} chose to sit this hand out (seat {seat} from the dealer)")),
)


def sit_out_detail(w: Words, player: str, seat: int) -> str:
    return say(w, SIT_OUT, {"player": player, "seat": seat})
