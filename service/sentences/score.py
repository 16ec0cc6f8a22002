"""The words of a score (RULES.md 2, 3): a sentence per scoring combination, then what falls just short.

Both tables are keyed by the engine's ``Combination``; a sentence reads the score's facts (``points`` of the
item, the counts, ``rain``, where the cup went as ``cup_as``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine import Combination, Score

from ..i18n import N_, Words
from .saying import Say, plural, reading, say

__all__ = ["ITEMS", "NOTHING", "SHORTFALLS", "explanation"]


def _cup_as(placement: str) -> Any:
    return lambda facts: facts["cup_as"] == placement


def _brights(n: int) -> Any:
    return lambda facts: facts["brights"] == n


def _one_point(facts: Any) -> bool:
    return bool(facts["points"] == 1)


ITEMS: Mapping[Combination, Say | Sequence[Say]] = {
    Combination.BRIGHTS: (
        Say(N_("three brights with the rain bright: 2 points"), when=lambda f: f["brights"] == 3 and f["rain"]),
        # the table names them by count, as one word: 삼광, 사광, 오광
        Say(N_("3 brights: {points} points"), when=_brights(3)),
        Say(N_("4 brights: {points} points"), when=_brights(4)),
        Say(N_("5 brights: {points} points"), when=_brights(5)),
        plural("{n} bright: {points} points", "{n} brights: {points} points", "brights"),
    ),
    Combination.ANIMALS: (
        plural(
            "{n} animal, the cup counted as one: 1 point",
            "{n} animals, the cup counted as one: 1 point",
            "animals",
            when=lambda f: f["cup_as"] == "animal" and f["points"] == 1,
        ),
        plural(
            "{n} animal, the cup counted as one: {points} points",
            "{n} animals, the cup counted as one: {points} points",
            "animals",
            when=_cup_as("animal"),
        ),
        plural("{n} animal: 1 point", "{n} animals: 1 point", "animals", when=_one_point),
        plural("{n} animal: {points} points", "{n} animals: {points} points", "animals"),
    ),
    Combination.GODORI: Say(N_("godori, the three birds: {points} points")),
    Combination.RIBBONS: (
        plural("{n} ribbon: 1 point", "{n} ribbons: 1 point", "ribbons", when=_one_point),
        plural("{n} ribbon: {points} points", "{n} ribbons: {points} points", "ribbons"),
    ),
    Combination.HONGDAN: Say(N_("the three red poem ribbons (hongdan): {points} points")),
    Combination.CHEONGDAN: Say(N_("the three blue ribbons (cheongdan): {points} points")),
    Combination.CHODAN: Say(N_("the three plain red ribbons (chodan): {points} points")),
    Combination.JUNK: (
        reading(
            N_("{units} junk units, the cup counted as double junk: 1 point"),
            units="junk_units",
            when=lambda f: f["cup_as"] == "junk" and f["points"] == 1,
        ),
        reading(
            N_("{units} junk units, the cup counted as double junk: {points} points"),
            units="junk_units",
            when=_cup_as("junk"),
        ),
        reading(N_("{units} junk units: 1 point"), units="junk_units", when=_one_point),
        reading(N_("{units} junk units: {points} points"), units="junk_units"),
    ),
}

SHORTFALLS: Mapping[Combination, Say | Sequence[Say]] = {
    Combination.BRIGHTS: (
        Say(N_("two brights with the rain bright: one more scores 2 points"), when=lambda f: f["rain"]),
        Say(N_("two brights: one more scores 3 points (2 if it is the rain bright)")),
    ),
    Combination.ANIMALS: Say(N_("four animals: one more scores 1 point")),
    Combination.GODORI: Say(N_("two of the three birds: the third scores godori, 5 points")),
    Combination.RIBBONS: Say(N_("four ribbons: one more scores 1 point")),
    Combination.HONGDAN: Say(N_("two hongdan ribbons (red poem): the third scores 3 points")),
    Combination.CHEONGDAN: Say(N_("two cheongdan ribbons (blue): the third scores 3 points")),
    Combination.CHODAN: Say(N_("two chodan ribbons (plain red): the third scores 3 points")),
    Combination.JUNK: (
        # the nine may hold the cup as two: say so, as the scoring line does (the table asks where it went)
        Say(N_("9 junk units, the cup counted as double junk: one more unit scores 1 point"), when=_cup_as("junk")),
        Say(N_("9 junk units: one more unit scores 1 point")),
    ),
}

NOTHING = Say(N_("Nothing scores yet"))


def explanation(w: Words, s: Score) -> list[str]:
    """One sentence per scoring combination, then one for each combination that falls just short."""
    facts: dict[str, Any] = {
        "brights": s.brights,
        "rain": s.rain,
        "animals": s.animals,
        "ribbons": s.ribbons,
        "junk_units": s.junk_units,
        "cup_as": s.sep_animal_as,
    }
    lines = []
    for item in s.items:
        facts["points"] = item.points
        lines.append(say(w, ITEMS[item.combination], facts))
    lines += [say(w, SHORTFALLS[short.combination], facts) for short in s.shortfalls]
    return lines or [say(w, NOTHING, facts)]
