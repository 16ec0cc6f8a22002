"""The words of a settlement (RULES.md 7-9): why each rule did or did not apply, and the settlement told line
by line.

``CHECKS`` is keyed by a check's ``rule`` and ``reason`` as the engine gives them (``REASONS`` by the reason
alone, for the two that are the same for every rule), and each sentence reads the check's ``facts`` plus
``winner``, ``loser`` and ``rule``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine import Check, Combination, CupPlacement, Outcome, Payment, RuleSet, Sale, Settlement

from ..i18n import N_, Words
from . import names
from .saying import Facts, Say, plural, reading, say

__all__ = [
    "CHECKS",
    "DECLARED",
    "REASONS",
    "SALE",
    "base_sum",
    "check_reason",
    "explanation",
    "payment_line",
    "sale_reason",
]

Sentence = Say | Sequence[Say]

_NO_GO = Say(N_("{winner} did not call go"), when=lambda f: not f["go_count"])


def _capped(facts: Facts) -> bool:
    """Whether the nagari cap cut the carry (RULES.md 8: ``nagari_multiplier`` per nagari, up to ``nagari_cap``)."""
    cap = facts.get("cap") or 0
    return bool(cap) and facts["multiplier"] ** facts["streak"] > cap


CHECKS: Mapping[tuple[str, str], Sentence] = {
    ("go", "more-than-three"): (
        _NO_GO,
        plural(
            "{winner} called go once, more than three times: the payout doubles",
            "{winner} called go {n:times}, more than three times: the payout doubles",
            "go_count",
        ),
    ),
    ("go", "three-or-fewer"): (
        _NO_GO,
        plural(
            "{winner} called go once, not more than three times",
            "{winner} called go {n:times}, not more than three times",
            "go_count",
        ),
    ),
    ("shake", "shook"): plural(
        "{winner} shook once: ×{multiplier} per shake", "{winner} shook {n:times}: ×{multiplier} per shake", "shakes"
    ),
    ("shake", "no-shake"): Say(N_("{winner} did not shake")),
    # RULES.md 8.7, a split shodang: the cause is that one accepted and the other declined, and the knob says
    # who pays alone because of it (the decliner, or the caller)
    ("shodang", "pays-alone"): Say(
        N_("{winner} accepted the shodang but {loser} declined it, so {loser} pays {covered}'s share too")
    ),
    ("shodang", "caller-pays-alone"): Say(
        N_(
            "{winner} accepted the shodang but {covered} declined it, so {loser}, who called it, pays {covered}'s "
            "share too"
        )
    ),
    ("shodang", "covered"): (
        Say(
            N_(
                "{winner} accepted the shodang but {loser} declined it, so {payer}, who called it, pays {loser}'s share"
            ),
            when=lambda f: f.get("paid_by") == "caller",
        ),
        Say(N_("{winner} accepted the shodang but {payer} declined it, so {payer} pays {loser}'s share too")),
    ),
    ("bomb", "bombed"): (
        plural(
            "{winner} made a two-card bomb, which counts as a bomb under these rules: ×{multiplier}",
            "{winner} made {n} two-card bombs, which count as bombs under these rules: ×{multiplier} each",
            "two_card_bombs",
            when=lambda f: bool(f.get("two_card_bombs") and f["counted"] and not f["bombs"]),
        ),
        plural(
            "{winner} bombed once, and the two-card bombs ({two_card_bombs}) count too: ×{multiplier} per bomb",
            "{winner} bombed {n} times, and the two-card bombs ({two_card_bombs}) count too: ×{multiplier} per bomb",
            "bombs",
            when=lambda f: bool(f.get("two_card_bombs") and f["counted"]),
        ),
        plural(
            "{winner} bombed once: ×{multiplier}; two-card bombs do not count under these rules",
            "{winner} bombed {n} times: ×{multiplier} per bomb; two-card bombs do not count under these rules",
            "bombs",
            when=lambda f: bool(f.get("two_card_bombs")),
        ),
        plural(
            "{winner} bombed once: ×{multiplier} per bomb", "{winner} bombed {n} times: ×{multiplier} per bomb", "bombs"
        ),
    ),
    ("bomb", "no-bomb"): Say(N_("{winner} did not bomb")),
    ("bomb", "two-card-no-multiplier"): plural(
        "{winner} made a two-card bomb, which does not double the payment under these rules",
        "{winner} made {n} two-card bombs, which do not double the payment under these rules",
        "two_card_bombs",
    ),
    ("meongtta", "enough-animals"): (
        reading(
            N_("{winner} has {n} animals, the cup counted as one: meongtta ({threshold} or more)"),
            n="winner_animals",
            when=lambda f: f["cup_as"] == "animal",
        ),
        reading(N_("{winner} has {n} animals: meongtta ({threshold} or more)"), n="winner_animals"),
    ),
    ("meongtta", "too-few-animals"): (
        Say(N_("{winner} has no animal, so no meongtta"), when=lambda f: not f["winner_animals"]),
        plural(
            "{winner} has only {n} animal; meongtta needs {threshold}",
            "{winner} has only {n} animals; meongtta needs {threshold}",
            "winner_animals",
        ),
    ),
    ("pibak", "few-junk"): (  # the verdict first, as the table says it (words-r5 S1)
        # the loser holds the cup: say what it was counted as, since that is the loser's first question
        reading(
            N_(
                "{loser} is pibak: {winner} scores junk and {loser} has {units} junk units even with the cup "
                "counted as double junk ({threshold} or fewer)"
            ),
            units="units_with_cup",
            when=lambda f: f.get("cup") == "tried-as-junk",
        ),
        reading(
            N_(
                "{loser} is pibak: {winner} scores junk and {loser} has {units} junk units, the cup always an "
                "animal under these rules ({threshold} or fewer)"
            ),
            units="loser_junk_units",
            when=lambda f: f.get("cup") == "always-animal",
        ),
        Say(
            N_("{loser} is pibak: {winner} scores junk and {loser} has no junk at all ({threshold} or fewer)"),
            when=lambda f: not f["loser_junk_units"],
        ),
        Say(
            N_("{loser} is pibak: {winner} scores junk and {loser} has 1 junk unit ({threshold} or fewer)"),
            when=lambda f: f["loser_junk_units"] == 1,
        ),
        reading(
            N_("{loser} is pibak: {winner} scores junk and {loser} has {units} junk units ({threshold} or fewer)"),
            units="loser_junk_units",
        ),
    ),
    ("pibak", "enough-junk"): (
        reading(
            N_("{loser} is not pibak: {units} junk units (the cup counted as double junk) is more than {threshold}"),
            units="loser_junk_units",
            when=lambda f: f["cup_as"] == "junk",
        ),
        reading(N_("{loser} is not pibak: {units} junk units is more than {threshold}"), units="loser_junk_units"),
    ),
    ("pibak", "cup-protects"): reading(
        N_(
            "{loser} is not pibak: with the cup counted as double junk, {loser} has {units} junk units, "
            "more than {threshold}"
        ),
        units="loser_junk_units",
    ),
    ("pibak", "zero-exempt"): Say(
        N_("{loser} is not pibak: {loser} has no junk at all, and these rules spare a loser with none")
    ),
    ("pibak", "winner-no-junk-points"): Say(N_("{winner} scores no junk points, so nobody is pibak")),
    ("gwangbak", "no-bright"): Say(N_("{winner} scores brights and {loser} has no bright (gwangbak)")),
    ("gwangbak", "has-bright"): (
        Say(
            N_("{loser} is not gwangbak: {loser} has the rain bright, and any bright counts"),
            when=lambda f: f["rain"] and f["loser_brights"] == 1,
        ),
        plural(
            "{loser} is not gwangbak: {loser} has {n} bright",
            "{loser} is not gwangbak: {loser} has {n} brights",
            "loser_brights",
        ),
    ),
    ("gwangbak", "winner-no-bright-points"): Say(N_("{winner} scores no brights, so nobody is gwangbak")),
    ("meongbak", "no-animal"): Say(N_("{winner} scores animals and {loser} has no animal (meongbak)")),
    ("meongbak", "has-animal"): plural(
        "{loser} is not meongbak: {loser} has {n} animal",
        "{loser} is not meongbak: {loser} has {n} animals",
        "loser_animals",
    ),
    ("meongbak", "winner-no-animal-points"): Say(N_("{winner} scores no animals, so nobody is meongbak")),
    ("chongtong", "played-on"): Say(N_("{winner} played on a chongtong dealt to them and won: ×{multiplier}")),
    ("chongtong", "no-chongtong"): Say(N_("{winner} played on no chongtong, so no chongtong factor")),
    ("gobak", "pays-all-own-double"): (
        Say(
            N_("{loser} called go and was overtaken, and pays their own share doubled (gobak)"),
            when=lambda f: not f["covered"],
        ),
        Say(
            N_(
                "{loser} called go and was overtaken, so {loser} pays their own share doubled and {covered}'s "
                "share (gobak)"
            )
        ),
    ),
    ("gobak", "called-go"): Say(N_("{loser} called go and was overtaken (gobak)")),
    ("gobak", "no-go"): Say(N_("{loser} did not call go, so no gobak")),
    ("gobak", "pays-all"): (
        Say(
            N_("{loser} called go and was overtaken, and as the only loser pays their own share doubled (gobak)"),
            when=lambda f: not f["covered"] and f["doubled"] and f["losers"] == 1,
        ),
        Say(
            N_("{loser} called go and was overtaken; as the only loser, {loser} pays their own share (gobak)"),
            when=lambda f: not f["covered"] and f["losers"] == 1,
        ),
        Say(
            N_(
                "{loser} called go and was overtaken; no other loser owes anything, so {loser} pays only their own "
                "share, doubled (gobak)"
            ),
            when=lambda f: not f["covered"] and f["doubled"],
        ),
        Say(
            N_(
                "{loser} called go and was overtaken; no other loser owes anything, so {loser} pays only their own "
                "share (gobak)"
            ),
            when=lambda f: not f["covered"],
        ),
        Say(
            N_(
                "{loser} called go and was overtaken, so {loser} pays every loser's share, doubled: "
                "their own and {covered}'s (gobak)"
            ),
            when=lambda f: f["doubled"],
        ),
        Say(N_("{loser} called go and was overtaken, so {loser} also pays {covered}'s share (gobak)")),
    ),
    ("gobak", "covered"): (
        Say(
            N_("{loser} called go too, but {payer} called go last and pays {loser}'s share (gobak)"),
            when=lambda f: f["called_go"],
        ),
        Say(N_("{payer} called go and pays {loser}'s share (gobak)")),
    ),
    ("nagari", "carry"): (
        plural(
            "The hand just before this one was nagari; the carry is capped at ×{cap}",
            "{n} nagari hands just before this one; the carry is capped at ×{cap}",
            "streak",
            when=_capped,
        ),
        Say(N_("The hand just before this one was nagari: ×{factor}"), when=lambda f: f["streak"] == 1),
        Say(N_("{streak} nagari hands just before this one: ×{multiplier} each, ×{factor} in all")),
    ),
    ("nagari", "no-carry"): Say(N_("No nagari just before this hand")),
    ("push", "pushed"): plural(
        "One push carries into this hand: ×2", "{n} pushes in a row carry into this hand: ×2 each", "pushes"
    ),
    ("push", "no-push"): Say(N_("No push carries into this hand")),
    ("empty-loser", "captured-nothing"): Say(N_("{loser} captured no card and pays nothing")),
    ("empty-loser", "captured-cards"): Say(N_("{loser} captured cards, so {loser} is not exempt")),
}

# The reasons that read the same whatever the rule, each naming the rule it skips (one line per rule: words-r5 Kn4).
REASONS: Mapping[str, Sentence] = {
    "exempt": Say(N_("{loser} captured no card and pays nothing, so {rule} is not checked")),
    "instant-win": Say(N_("An instant win pays fixed points, so {rule} does not apply")),
}


# A check resting on counts a player said instead of showing the cards (API.md v1.2, ``facts.declared``).
DECLARED = Say(N_("{reason}, from the counts said at the table, not the cards"))


def check_reason(w: Words, c: Check, p: Payment, s: Settlement, rules: RuleSet | None = None) -> str:
    """Why a rule did or did not apply to one payment, citing its facts (and, given the rules, what they did
    with the loser's cup); said to rest on declared counts where it does."""
    sentence = REASONS.get(c.reason) or CHECKS.get((c.rule, c.reason))
    if sentence is None:
        raise KeyError(f"no sentence for the check {c.rule}/{c.reason}")
    facts: dict[str, Any] = {**c.facts, "winner": s.winner or "", "loser": p.payer, "rule": c.rule, "factor": c.factor}
    facts["losers"] = len(s.payments)
    if c.rule == "pibak" and rules is not None and c.facts.get("cup_as") == "animal":
        # RULES.md 3: the cup is tried as double junk against pibak, or these rules always keep it an animal
        if rules.sep_animal is CupPlacement.ANIMAL:
            facts["cup"] = "always-animal"
        elif rules.sep_animal_protects:
            facts["cup"] = "tried-as-junk"
            facts["units_with_cup"] = c.facts["loser_junk_units"] + 2
    if c.rule == "bomb" and c.applied:  # whether two-card bombs made part of the factor (RULES.md 5.5)
        facts["counted"] = c.factor > facts["multiplier"] ** facts["bombs"]
    reason = say(w, sentence, facts)
    return say(w, DECLARED, {"reason": reason}) if c.facts.get("declared") else reason


# The sale of the brights by the fourth at a table of three (RULES.md 4.5), paid at the deal: what the cards
# are worth, only the parts that count (no "0 for bonus cards"), joined as the language joins a list.
SALE: Sentence = (
    Say(
        N_("{seller} sat out and sold their brights, but the hand holds nothing that pays: nobody pays for it"),
        when=lambda f: not f["value"],
    ),
    # several parts: say their sum before it doubles, so the brights' point each and the combination they make
    # (삼광) do not read as one thing counted twice (words-r5 #4)
    Say(
        N_(
            "{seller} sat out and sold their brights: {worth} make {sum}, doubled for three cards of {month}; "
            "{each} from each of {payers}{money}"
        ),
        when=lambda f: f["month"] is not None and f["parts"] > 1,
    ),
    Say(
        N_(
            "{seller} sat out and sold their brights: {worth}, doubled for three cards of {month}; {each} from each "
            "of {payers}{money}"
        ),
        when=lambda f: f["month"] is not None,
    ),
    Say(N_("{seller} sat out and sold their brights: {worth}, so {each} from each of {payers}{money}")),
)
# a point for each bright and each bonus card (RULES.md 4.5), said with how many there are
SALE_PARTS = {
    "brights": plural("{n} for the bright", "{n} for the brights at a point each", "n"),
    "bonus_cards": plural("{n} for the bonus card", "{n} for the bonus cards at a point each", "n"),
    "combinations": Say(N_("{n} for combinations")),
}
SALE_EACH = plural("{n} point", "{n} points", "value")
SALE_MONEY = Say(N_(" ({amount:,} each)"))
# The combinations of the seller's hand by name, as the table prices them: "삼광 3점", not "족보 3점" (words-r4 K14)
SALE_COMBINATION = Say(N_("{n} for {combination}"))
SALE_BRIGHTS = {
    3: names.STANDOFF_COMBINATIONS["brights"],
    4: N_("four brights"),
    5: N_("five brights"),
}
SALE_RAIN_BRIGHTS = N_("three brights with the rain bright")
SALE_NAMES = {
    Combination.ANIMALS: N_("animals"),
    Combination.RIBBONS: N_("ribbons"),
    Combination.JUNK: N_("junk"),
    **{Combination(c): said for c, said in names.STANDOFF_COMBINATIONS.items() if c != "brights"},
}


def _sale_combinations(w: Words, sale: Sale) -> list[str] | None:
    """The combinations the seller's hand holds (RULES.md 4.5: scored as if captured), each named with its
    points; None where the sale does not say them (a price per bright) or one has no name here."""
    if sale.scored is None:
        return None
    said = []
    for item in sale.scored.items:
        if item.combination is Combination.BRIGHTS:
            brights, rain = sale.scored.brights, sale.scored.rain
            name = SALE_RAIN_BRIGHTS if brights == 3 and rain else SALE_BRIGHTS.get(brights)
        else:
            name = SALE_NAMES.get(item.combination)
        if name is None:
            return None
        said.append(say(w, SALE_COMBINATION, {"n": item.points, "combination": w.text(name)}))
    return said


def sale_reason(w: Words, sale: Sale, stake: int = 1) -> str:
    """What the fourth's brights sold for, and who pays (RULES.md 4.5); the money each pays at a stake. The
    combinations are named one by one."""
    named = _sale_combinations(w, sale) if sale.combinations else []
    parts = {part: said for part, said in SALE_PARTS.items() if named is None or part != "combinations"}
    worth = [say(w, said, {"n": getattr(sale, part)}) for part, said in parts.items() if getattr(sale, part)]
    worth += named or []
    facts = {
        "seller": sale.seller,
        "payers": list(sale.payers),
        "worth": names.joined(w, worth),
        "parts": len(worth),
        "sum": sale.brights + sale.bonus_cards + sale.combinations,
        "month": sale.month,
        "value": sale.value,
        "each": say(w, SALE_EACH, {"value": sale.value}),
        "money": say(w, SALE_MONEY, {"amount": sale.value * stake}) if stake != 1 else "",
    }
    return say(w, SALE, facts)


# --- the settlement told line by line ------------------------------------------------------------------------

REDEAL = Say(N_("Redeal: the deal does not count; nobody pays and nothing carries over"))
NAGARI = (
    Say(
        N_("Nagari: the hand has no winner, so nobody pays the stake (the brights sold are paid apart)"),
        when=lambda f: bool(f.get("sold")),
    ),
    Say(
        N_("Nagari: the hand has no winner, so nobody pays (the {count:th} nagari in a row)"),
        when=lambda f: f["streak"],
    ),
    Say(N_("Nagari: the hand has no winner, so nobody pays")),
)
CARRY = (
    Say(
        N_("Because of the nagari, the next hand's winner is paid ×{carry}, the cap on the carry"),
        when=lambda f: f["capped"],
    ),
    Say(N_("Because of the nagari, the next hand's winner is paid ×{carry}")),
)
INSTANT_WIN = (  # at a table of two there is one opponent, named (words-r5 Kn8, En9)
    Say(N_("{winner} wins at once by {outcome}: {points} points from {loser}"), when=lambda f: bool(f["loser"])),
    Say(N_("{winner} wins at once by {outcome}: {points} points from each opponent")),
)
STOP_AFTER_GOS = plural(
    "{winner} stops with {points} points and {n} go: {sum} = {base} base points",
    "{winner} stops with {points} points and {n} gos: {sum} = {base} base points",
    "go_count",
)
STOP = Say(N_("{winner} stops with {points} points: {base} base points"))

PAYS_NOTHING = Say(N_("{payer} pays nothing: {why}"))
NOTHING_OWED = Say(N_("nothing is owed"))
FACTOR = Say(N_("× {factor} ({rule})"))
SHARE = Say(N_("+ {points} for {player}"))
PAYS = (
    Say(
        N_("{payer} pays {payee} {points:,} points ({amount:,} at {stake:,} a point)"),
        when=lambda f: f["stake"] != 1,
    ),
    Say(N_("{payer} pays {payee} {points:,} points")),
)
PAYS_SUM = (
    Say(
        N_("{payer} pays {payee} {sum} = {points:,} points ({amount:,} at {stake:,} a point)"),
        when=lambda f: f["stake"] != 1,
    ),
    Say(N_("{payer} pays {payee} {sum} = {points:,} points")),
)


def base_sum(s: Settlement) -> str:
    """The base points as a sum: "8 + 1", "(8 + 3) × 2", "8 × 4"."""
    total = s.score.total if s.score is not None else 0
    added = f"{total} + {s.gos_added}" if s.gos_added else f"{total}"
    if s.doubling == 1:
        return added
    return f"({added}) × {s.doubling}" if s.gos_added else f"{added} × {s.doubling}"


def explanation(w: Words, s: Settlement, rules: RuleSet | None = None, stake: int | None = None) -> list[str]:
    """The settlement told line by line: how the base is reached, then what each loser pays and why. ``stake``:
    the hand's, where the settlement does not carry it (a nagari's), for the money of a sale."""
    # the sale is paid at the deal, whatever comes of the hand
    sold = [sale_reason(w, s.sale, s.stake if stake is None else stake)] if s.sale is not None else []
    if s.outcome == Outcome.REDEAL:
        return [say(w, REDEAL, {})]
    if s.outcome == Outcome.NAGARI:
        facts: dict[str, Any] = {
            "streak": s.nagari_streak,
            "count": s.nagari_streak + 1,
            "carry": s.next_carry,
            "sold": bool(sold),
        }
        # RULES.md 8: the carry is the multiplier per nagari, up to the cap; a capped carry says so
        facts["capped"] = rules is not None and rules.nagari_multiplier ** (s.nagari_streak + 1) > s.next_carry
        return [say(w, NAGARI, facts), say(w, CARRY, facts), *sold]
    assert s.winner is not None and s.score is not None
    if s.outcome != Outcome.STOP:
        loser = s.payments[0].payer if len(s.payments) == 1 else ""
        first = say(w, INSTANT_WIN, {"winner": s.winner, "outcome": s.outcome, "points": s.base_points, "loser": loser})
    elif s.go_count:
        facts = {"winner": s.winner, "points": s.score.total, "go_count": s.go_count, "base": s.base_points}
        first = say(w, STOP_AFTER_GOS, {**facts, "sum": base_sum(s)})
    else:
        first = say(w, STOP, {"winner": s.winner, "points": s.score.total, "base": s.base_points})
    return [first, *(payment_line(w, p, s, rules) for p in s.payments), *sold]


def payment_line(w: Words, p: Payment, s: Settlement, rules: RuleSet | None = None) -> str:
    """What one loser pays: the base times each factor, the shares they cover, and the money at the stake."""
    if p.points == 0:
        zero = next((c for c in p.checks if c.applied and c.factor == 0), None)
        if zero is not None and zero.rule == "empty-loser":
            return check_reason(w, zero, p, s, rules)  # "C captured no card and pays nothing" says it all
        why = check_reason(w, zero, p, s, rules) if zero else say(w, NOTHING_OWED, {})
        return say(w, PAYS_NOTHING, {"payer": p.payer, "why": why})
    facts: dict[str, Any] = {"payer": p.payer, "payee": p.payee, "points": p.points, "amount": p.amount}
    facts["stake"] = s.stake
    times = [say(w, FACTOR, {"factor": c.factor, "rule": c.rule}) for c in p.factors if c.factor > 1]
    if not times and not p.covers:  # nothing multiplies the base: no sum to show
        return say(w, PAYS, facts)
    own = s.base_points
    for c in p.factors:
        own *= c.factor
    text = " ".join([str(s.base_points), *times])
    if p.covers:
        shares = " ".join(say(w, SHARE, {"points": points, "player": player}) for player, points in p.covers)
        text = f"{text} = {own} {shares}" if times else f"{text} {shares}"
    return say(w, PAYS_SUM, {**facts, "sum": text})
