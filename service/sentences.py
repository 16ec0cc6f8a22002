"""Sentences for people, made from the engine's facts: the one place where the words are written.

The English sentences here are the message ids of the gettext catalogs (``service/locale``); every other
language translates them there. ``N_`` marks a message kept in a table (it is translated when said);
``w.say`` and ``w.plural`` say one. Placeholders are named (``{player}``), and a catalog must use the same
names (a test checks). No sentence shows an identifier a player would not say: card ids, knob names and
codes stay in the machine fields of an answer.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from engine import (
    Card,
    Check,
    Combination,
    Event,
    EventType,
    GoStopError,
    InstantPayment,
    Payment,
    Place,
    Score,
    Settlement,
    Shortfall,
)

from .i18n import Words


def N_(message: str) -> str:
    """Mark a message for the catalogs; it is translated when it is said."""
    return message


# --- cards and rules by name ----------------------------------------------------------------------------

CARD_NAMES = {
    "jan-bright": N_("Pine bright (crane and sun)"),
    "jan-ribbon": N_("Pine ribbon (red poem)"),
    "jan-junk-1": N_("Pine junk"),
    "jan-junk-2": N_("Pine junk"),
    "feb-animal": N_("Plum animal (bush warbler)"),
    "feb-ribbon": N_("Plum ribbon (red poem)"),
    "feb-junk-1": N_("Plum junk"),
    "feb-junk-2": N_("Plum junk"),
    "mar-bright": N_("Cherry bright (curtain)"),
    "mar-ribbon": N_("Cherry ribbon (red poem)"),
    "mar-junk-1": N_("Cherry junk"),
    "mar-junk-2": N_("Cherry junk"),
    "apr-animal": N_("Black clover animal (cuckoo)"),
    "apr-ribbon": N_("Black clover ribbon"),
    "apr-junk-1": N_("Black clover junk"),
    "apr-junk-2": N_("Black clover junk"),
    "may-animal": N_("Iris animal (bridge)"),
    "may-ribbon": N_("Iris ribbon"),
    "may-junk-1": N_("Iris junk"),
    "may-junk-2": N_("Iris junk"),
    "jun-animal": N_("Peony animal (butterflies)"),
    "jun-ribbon": N_("Peony ribbon (blue)"),
    "jun-junk-1": N_("Peony junk"),
    "jun-junk-2": N_("Peony junk"),
    "jul-animal": N_("Red clover animal (boar)"),
    "jul-ribbon": N_("Red clover ribbon"),
    "jul-junk-1": N_("Red clover junk"),
    "jul-junk-2": N_("Red clover junk"),
    "aug-bright": N_("Pampas bright (full moon)"),
    "aug-animal": N_("Pampas animal (geese)"),
    "aug-junk-1": N_("Pampas junk"),
    "aug-junk-2": N_("Pampas junk"),
    "sep-animal": N_("Chrysanthemum animal (sake cup)"),
    "sep-ribbon": N_("Chrysanthemum ribbon (blue)"),
    "sep-junk-1": N_("Chrysanthemum junk"),
    "sep-junk-2": N_("Chrysanthemum junk"),
    "oct-animal": N_("Maple animal (deer)"),
    "oct-ribbon": N_("Maple ribbon (blue)"),
    "oct-junk-1": N_("Maple junk"),
    "oct-junk-2": N_("Maple junk"),
    "nov-bright": N_("Paulownia bright (phoenix)"),
    "nov-double": N_("Paulownia double junk"),
    "nov-junk-1": N_("Paulownia junk"),
    "nov-junk-2": N_("Paulownia junk"),
    "dec-bright": N_("Rain bright (rain man)"),
    "dec-animal": N_("Rain animal (swallow)"),
    "dec-ribbon": N_("Rain ribbon"),
    "dec-double": N_("Rain double junk"),
    "bonus-2a": N_("Bonus card (2 junk)"),
    "bonus-2b": N_("Bonus card (2 junk)"),
    "bonus-3": N_("Bonus card (3 junk)"),
}

MONTH_NAMES = (
    "",
    N_("January (pine)"),
    N_("February (plum)"),
    N_("March (cherry)"),
    N_("April (black clover)"),
    N_("May (iris)"),
    N_("June (peony)"),
    N_("July (red clover)"),
    N_("August (pampas)"),
    N_("September (chrysanthemum)"),
    N_("October (maple)"),
    N_("November (paulownia)"),
    N_("December (rain)"),
)

# The rules of a settlement, as the "x2 (pibak)" of a payment line and the ends of sentences name them.
RULE_NAMES = {
    "go": N_("more than three gos"),
    "shake": N_("shake"),
    "bomb": N_("bomb"),
    "meongtta": N_("meongtta"),
    "pibak": N_("pibak"),
    "gwangbak": N_("gwangbak"),
    "gobak": N_("gobak"),
    "nagari": N_("nagari carry"),
    "empty-loser": N_("the exemption of a loser who captured nothing"),
}

# What stole, as "for the ..." of a steal.
STEAL_CAUSES = {
    "chok": N_("the chok"),
    "ttadak": N_("the ttadak"),
    "sseul": N_("the sseul"),
    "stack-capture": N_("the stack capture"),
    "ja-ppuk": N_("taking back their own ppuk"),
    "bomb": N_("the bomb"),
    "bonus": N_("the bonus card"),
}

OUTCOME_NAMES = {
    "stop": N_("stop"),
    "nagari": N_("nagari"),
    "redeal": N_("redeal"),
    "chongtong": N_("chongtong"),
    "three-ppuk": N_("three ppuks"),
    "heodang": N_("heodang"),
}

PRESET_DESCRIPTIONS = {
    "korean-2p": N_(
        "Matgo for two as Korean tables play it: bonus cards, double junk, the cup where it scores more and "
        "counted against pibak, shakes and bombs double, gos add a point and double from the third, pibak at 7 "
        "junk or fewer, gobak x2, first-turn ppuk and ttadak paid at once."
    ),
    "korean-3p": N_(
        "Go-Stop for three with the same table rules: stop from 3 points, three bonus cards, pibak at 5 junk or "
        "fewer, a go-caller who is overtaken pays for everyone, and heodang and three ppuks win at once."
    ),
    "chips-2p": N_(
        "Go-Stop with chips for two: no bonus cards or double junk, the cup always an animal, each go adds a "
        "point and more than three double the payout once, shakes double but bombs do not, pibak at 5 or "
        "fewer, no gobak."
    ),
    "chips-3p": N_("The same chips game for three, stopping from 3 points."),
    "basic-2p": N_(
        "Plain Matgo for two: no bonus cards, shakes or bombs; double junk; gos add a point for the first two "
        "and double from the third; pibak under 5 junk; three ppuks win at once."
    ),
}

# The house rules, as a sentence about a bad value names them.
KNOB_NAMES = {
    "players": N_("the number of players"),
    "target_score": N_("the score needed to stop"),
    "bonus_cards": N_("the bonus cards in the deck"),
    "bonus_from_hand": N_("what a bonus card played from hand does"),
    "double_junk": N_("whether double junk counts two"),
    "sep_animal": N_("where the cup counts"),
    "sep_animal_protects": N_("whether a loser's cup counts against pibak"),
    "floor_four": N_("what four of a month on the layout does"),
    "chongtong_points": N_("the points of chongtong"),
    "multiple_chongtong": N_("what two chongtongs at one deal do"),
    "allow_shake": N_("whether shakes are allowed"),
    "allow_bomb": N_("whether bombs are allowed"),
    "bomb_flip_turns": N_("the flip turns a bomb gives"),
    "bomb_flip_timing": N_("when a bomb's flip turns are used"),
    "ppuk_on_last_turn": N_("whether the last card can make a ppuk"),
    "steal_chok": N_("the junk a chok takes"),
    "steal_ttadak": N_("the junk a ttadak takes"),
    "steal_sseul": N_("the junk a sseul takes"),
    "steal_stack": N_("the junk a stack capture takes"),
    "steal_ja_ppuk": N_("the junk taking back one's own ppuk takes"),
    "steal_bomb": N_("the junk a bomb takes"),
    "steal_bonus": N_("the junk a bonus card takes"),
    "no_steal_on_last_turn": N_("what steals nothing on a last turn"),
    "go_scheme": N_("how gos count"),
    "shake_multiplier": N_("the shake multiplier"),
    "bomb_multiplier": N_("the bomb multiplier"),
    "meongtta_min_animals": N_("the animals for meongtta"),
    "pibak_max_loser_junk": N_("the pibak threshold"),
    "pibak_zero_exempt": N_("whether a loser with no junk escapes pibak"),
    "gwangbak": N_("whether gwangbak is played"),
    "gobak": N_("what gobak does"),
    "nagari_multiplier": N_("the nagari multiplier"),
    "nagari_cap": N_("the cap on the nagari carry"),
    "empty_loser_exempt": N_("whether a loser with no card pays"),
    "three_ppuk_points": N_("the points of three ppuks"),
    "heodang_points": N_("the points of heodang"),
    "first_ppuk_payments": N_("the payments for first-turn ppuks"),
    "first_ttadak_payment": N_("the payment for a first-turn ttadak"),
    "rules": N_("the rules"),
    "preset": N_("the preset"),
}

_FIELDS = {
    "go_count": N_("the go count"),
    "shakes": N_("the number of shakes"),
    "bombs": N_("the number of bombs"),
    "nagari_streak": N_("the nagari streak"),
    "stake": N_("the stake"),
}


def card(w: Words, c: Card | str) -> str:
    """A card as players name it."""
    return w.say(CARD_NAMES[c if isinstance(c, str) else c.id])


def cards(w: Words, cs: Iterable[Card | str]) -> str:
    return ", ".join(card(w, c) for c in cs)


def month(w: Words, m: int) -> str:
    return w.say(MONTH_NAMES[m])


def rule(w: Words, name: str) -> str:
    return w.say(RULE_NAMES[name])


def preset_description(w: Words, preset: str) -> str:
    return w.say(PRESET_DESCRIPTIONS[preset])


# --- events -----------------------------------------------------------------------------------------------


def event_detail(w: Words, e: Event) -> str:
    """What an event means, in a sentence."""
    d: Mapping[str, Any] = e.data
    p = e.player or ""
    t = e.type
    if t is EventType.PPUK:
        return w.say(
            N_(
                "{player} plays {played} onto {paired}, and the flipped {drawn} is of the same month: a ppuk. The "
                "three stay on the layout (ppuk number {count} for {player})"
            ),
            player=p,
            played=card(w, d["played"]),
            paired=card(w, d["paired"]),
            drawn=card(w, d["drawn"]),
            count=d["count"],
        )
    if t is EventType.CHOK:
        return w.say(
            N_("{player}'s flipped {drawn} takes the {played} just played (chok)"),
            player=p,
            drawn=card(w, d["drawn"]),
            played=card(w, d["played"]),
        )
    if t is EventType.TTADAK:
        return w.say(
            N_("{player} takes all four cards of {month} (ttadak): {cards}"),
            player=p,
            month=month(w, d["month"]),
            cards=cards(w, d["cards"]),
        )
    if t is EventType.SSEUL:
        return w.say(N_("{player} sweeps the layout clean (sseul)"), player=p)
    if t is EventType.JA_PPUK:
        return w.say(
            N_("{player} takes back the stack of their own ppuk of {month}"), player=p, month=month(w, d["month"])
        )
    if t is EventType.STACK_CAPTURE:
        if d.get("maker") is None:
            return w.say(
                N_("{player} captures the stack of {month} dealt on the layout"), player=p, month=month(w, d["month"])
            )
        return w.say(
            N_("{player} captures {maker}'s ppuk of {month}"), player=p, maker=d["maker"], month=month(w, d["month"])
        )
    if t is EventType.BOMB:
        return w.say(
            N_("{player} bombs with {played} and takes {cards}"),
            player=p,
            played=cards(w, d["played"]),
            cards=cards(w, d["cards"]),
        )
    if t is EventType.SHAKE:
        return w.say(N_("{player} shakes, showing {cards}"), player=p, cards=cards(w, d["cards"]))
    if t is EventType.BONUS:
        source = d.get("source")
        if source == "layout":
            return w.say(N_("{card} was dealt to the layout and goes to {player}"), player=p, card=card(w, d["card"]))
        if source == "hand":
            return w.say(N_("{player} plays {card} from hand and keeps it"), player=p, card=card(w, d["card"]))
        return w.say(N_("{player} flips {card} from the stock and keeps it"), player=p, card=card(w, d["card"]))
    if t is EventType.STEAL:
        return w.say(
            N_("{player} takes {cards} from {victim} for {cause}"),
            player=p,
            cards=cards(w, d["cards"]),
            victim=d["from"],
            cause=w.say(STEAL_CAUSES[d["cause"]]),
        )
    if t is EventType.GO:
        return w.plural(
            "{player} calls go at {points} points ({n} go)",
            "{player} calls go at {points} points ({n} gos)",
            d["count"],
            player=p,
            points=d["points"],
        )
    if t is EventType.STOP:
        if d.get("automatic"):
            return w.say(
                N_("{player} reaches {points} points on their last turn: the hand stops by itself"),
                player=p,
                points=d["points"],
            )
        return w.say(N_("{player} stops with {points} points"), player=p, points=d["points"])
    if t is EventType.DECLARE:
        if d["sep_animal_as"] == "junk":
            return w.say(N_("{player} counts the cup as double junk"), player=p)
        return w.say(N_("{player} counts the cup as an animal"), player=p)
    if t is EventType.CHONGTONG:
        return w.say(
            N_("{player} was dealt all four cards of {month}: chongtong, an instant win"),
            player=p,
            month=month(w, d["month"]),
        )
    if t is EventType.THREE_PPUK:
        return w.say(N_("{player} makes a third ppuk and wins at once"), player=p)
    if t is EventType.HEODANG:
        return w.say(
            N_("{player} captured nothing in {turns} turns in a row and wins at once (heodang)"),
            player=p,
            turns=d["turns"],
        )
    if d.get("reason") == "floor-four":
        if t is EventType.REDEAL:
            return w.say(
                N_("All four cards of {month} were dealt to the layout: the deal does not count"),
                month=month(w, d["month"]),
            )
        return w.say(N_("All four cards of {month} were dealt to the layout: nagari"), month=month(w, d["month"]))
    if d.get("reason") == "multiple-chongtong":
        players = ", ".join(d["players"])
        if t is EventType.REDEAL:
            return w.say(N_("{players} were each dealt chongtong: the deal does not count"), players=players)
        return w.say(N_("{players} were each dealt chongtong: nagari"), players=players)
    return w.say(N_("The cards ran out with no stop: nagari"))


def instant_reason(w: Words, p: InstantPayment) -> str:
    if p.reason == "first-ttadak":
        return w.say(N_("first-turn ttadak"))
    if p.turns == 1:
        return w.say(N_("first-turn ppuk"))
    if p.turns == 2:
        return w.say(N_("ppuk on each of the first two turns"))
    return w.say(N_("ppuk on each of the first three turns"))


# --- settlement -------------------------------------------------------------------------------------------


def base_sum(s: Settlement) -> str:
    """The base points as a sum: "8 + 1", "(8 + 3) x 2", "8 x 4"."""
    total = s.score.total if s.score is not None else 0
    added = f"{total} + {s.gos_added}" if s.gos_added else f"{total}"
    if s.doubling == 1:
        return added
    return f"({added}) x {s.doubling}" if s.gos_added else f"{added} x {s.doubling}"


def explanation(w: Words, s: Settlement) -> list[str]:
    """The settlement told line by line: how the base is reached, then what each loser pays and why."""
    if s.outcome == "redeal":
        return [w.say(N_("Redeal: the deal does not count; nobody pays and nothing carries over"))]
    if s.outcome == "nagari":
        first = (
            w.say(
                N_("Nagari: the hand has no winner, so nobody pays (nagari number {count} in a row)"),
                count=s.nagari_streak + 1,
            )
            if s.nagari_streak
            else w.say(N_("Nagari: the hand has no winner, so nobody pays"))
        )
        return [first, w.say(N_("The next hand's winner is paid x{carry} for the nagari carry"), carry=s.next_carry)]
    assert s.winner is not None and s.score is not None
    if s.outcome != "stop":
        lines = [
            w.say(
                N_("{winner} wins at once by {outcome}: {points} points from each opponent"),
                winner=s.winner,
                outcome=w.say(OUTCOME_NAMES[s.outcome]),
                points=s.base_points,
            )
        ]
    elif s.go_count:
        lines = [
            w.plural(
                "{winner} stops with {points} points and {n} go: {sum} = {base} base points",
                "{winner} stops with {points} points and {n} gos: {sum} = {base} base points",
                s.go_count,
                winner=s.winner,
                points=s.score.total,
                sum=base_sum(s),
                base=s.base_points,
            )
        ]
    else:
        lines = [
            w.say(
                N_("{winner} stops with {points} points: {base} base points"),
                winner=s.winner,
                points=s.score.total,
                base=s.base_points,
            )
        ]
    for p in s.payments:
        lines.append(payment_line(w, p, s))
    return lines


def payment_line(w: Words, p: Payment, s: Settlement) -> str:
    if p.points == 0:
        zero = next((c for c in p.checks if c.applied and c.factor == 0), None)
        if zero is not None and zero.rule == "empty-loser":
            return check_reason(w, zero, p, s)  # "C captured no card and pays nothing" says it all
        why = check_reason(w, zero, p, s) if zero else w.say(N_("nothing is owed"))
        return w.say(N_("{payer} pays nothing: {why}"), payer=p.payer, why=why)
    times = [w.say(N_("x{factor} ({rule})"), factor=c.factor, rule=rule(w, c.rule)) for c in p.factors if c.factor > 1]
    parts = [str(s.base_points), *times]
    if len(parts) == 1 and not p.covers:  # nothing multiplies the base: no sum to show
        if s.stake != 1:
            return w.say(
                N_("{payer} pays {payee} {points} points ({amount} at a stake of {stake} a point)"),
                payer=p.payer,
                payee=p.payee,
                points=p.points,
                amount=p.amount,
                stake=s.stake,
            )
        return w.say(N_("{payer} pays {payee} {points} points"), payer=p.payer, payee=p.payee, points=p.points)
    own = s.base_points
    for c in p.factors:
        own *= c.factor
    text = " ".join(parts)
    if p.covers:
        shares = ", ".join(
            w.say(N_("+ {points} for {player}"), points=points, player=player) for player, points in p.covers
        )
        text = f"{text} = {own}, {shares}" if len(parts) > 1 else f"{text}, {shares}"
    if s.stake != 1:
        return w.say(
            N_("{payer} pays {payee} {sum} = {points} points ({amount} at a stake of {stake} a point)"),
            payer=p.payer,
            payee=p.payee,
            sum=text,
            points=p.points,
            amount=p.amount,
            stake=s.stake,
        )
    return w.say(
        N_("{payer} pays {payee} {sum} = {points} points"), payer=p.payer, payee=p.payee, sum=text, points=p.points
    )


def check_reason(w: Words, c: Check, p: Payment, s: Settlement) -> str:
    """Why a rule did or did not apply to one payment, citing its facts."""
    f: Mapping[str, Any] = c.facts
    winner, loser = s.winner or "", p.payer
    if c.reason == "exempt":
        return w.say(N_("Does not count: {loser} captured no card and pays nothing"), loser=loser, rule=rule(w, c.rule))
    if c.reason == "instant-win":
        return w.say(N_("An instant win pays fixed points, so {rule} does not apply"), rule=rule(w, c.rule))
    say = _CHECK_SENTENCES.get((c.rule, c.reason))
    if say is None:
        raise KeyError(f"no sentence for the check {c.rule}/{c.reason}")
    return say(w, f, winner, loser)


def _go(w: Words, f: Mapping[str, Any], winner: str, loser: str, applied: bool) -> str:
    if not f["go_count"]:
        return w.say(N_("{winner} did not call go"), winner=winner)
    if applied:
        return w.plural(
            "{winner} called go {n} time, more than three: the payout doubles",
            "{winner} called go {n} times, more than three: the payout doubles",
            f["go_count"],
            winner=winner,
        )
    return w.plural(
        "{winner} called go {n} time, not more than three",
        "{winner} called go {n} times, not more than three",
        f["go_count"],
        winner=winner,
    )


def _pibak_enough(w: Words, f: Mapping[str, Any], winner: str, loser: str) -> str:
    if f["cup_as"] == "junk":
        return w.say(
            N_("{loser} is not pibak: {units} junk units (the cup counted as double junk) is more than {threshold}"),
            loser=loser,
            units=f["loser_junk_units"],
            threshold=f["threshold"],
        )
    return w.say(
        N_("{loser} is not pibak: {units} junk units is more than {threshold}"),
        loser=loser,
        units=f["loser_junk_units"],
        threshold=f["threshold"],
    )


def _gobak_pays_all(w: Words, f: Mapping[str, Any], winner: str, loser: str) -> str:
    covered = f["covered"]
    if not covered:
        if f["doubled"]:
            return w.say(
                N_("{loser} called go and was overtaken, and as the only loser pays their own share doubled (gobak)"),
                loser=loser,
            )
        return w.say(
            N_("{loser} called go and was overtaken; as the only loser, {loser} pays their own share (gobak)"),
            loser=loser,
        )
    if f["doubled"]:
        return w.say(
            N_(
                "{loser} called go and was overtaken, so {loser} pays every loser's share, doubled: "
                "their own and {covered}'s (gobak)"
            ),
            loser=loser,
            covered=", ".join(covered),
        )
    return w.say(
        N_("{loser} called go and was overtaken, so {loser} also pays {covered}'s share (gobak)"),
        loser=loser,
        covered=", ".join(covered),
    )


def _gobak_covered(w: Words, f: Mapping[str, Any], winner: str, loser: str) -> str:
    if f["called_go"]:
        return w.say(
            N_("{loser} called go too, but {payer} called go last and pays {loser}'s share (gobak)"),
            loser=loser,
            payer=f["payer"],
        )
    return w.say(N_("{payer} called go and pays {loser}'s share (gobak)"), loser=loser, payer=f["payer"])


def _meongtta(w: Words, f: Mapping[str, Any], winner: str, loser: str, applied: bool) -> str:
    n, threshold = f["winner_animals"], f["threshold"]
    if applied and f["cup_as"] == "animal":
        return w.say(
            N_("{winner} has {n} animals, the cup counted as one: at least {threshold} (meongtta)"),
            winner=winner,
            n=n,
            threshold=threshold,
        )
    if applied:
        return w.say(
            N_("{winner} has {n} animals, at least {threshold} (meongtta)"), winner=winner, n=n, threshold=threshold
        )
    return w.plural(
        "{winner} has {n} animal, fewer than the {threshold} of meongtta",
        "{winner} has {n} animals, fewer than the {threshold} of meongtta",
        n,
        winner=winner,
        threshold=threshold,
    )


def _gwangbak_has(w: Words, f: Mapping[str, Any], winner: str, loser: str) -> str:
    if f["rain"] and f["loser_brights"] == 1:
        return w.say(N_("{loser} is not gwangbak: {loser} has the rain bright, and any bright counts"), loser=loser)
    return w.plural(
        "{loser} is not gwangbak: {loser} has {n} bright",
        "{loser} is not gwangbak: {loser} has {n} brights",
        f["loser_brights"],
        loser=loser,
    )


_Say = Callable[[Words, Mapping[str, Any], str, str], str]  # (words, facts, winner, loser) -> the sentence
_CHECK_SENTENCES: dict[tuple[str, str], _Say] = {
    ("go", "more-than-three"): lambda w, f, a, b: _go(w, f, a, b, True),
    ("go", "three-or-fewer"): lambda w, f, a, b: _go(w, f, a, b, False),
    ("shake", "shook"): lambda w, f, a, b: w.plural(
        "{winner} shook {n} time: x{multiplier} each",
        "{winner} shook {n} times: x{multiplier} each",
        f["shakes"],
        winner=a,
        multiplier=f["multiplier"],
    ),
    ("shake", "no-shake"): lambda w, f, a, b: w.say(N_("{winner} did not shake"), winner=a),
    ("bomb", "bombed"): lambda w, f, a, b: w.plural(
        "{winner} bombed {n} time: x{multiplier} each",
        "{winner} bombed {n} times: x{multiplier} each",
        f["bombs"],
        winner=a,
        multiplier=f["multiplier"],
    ),
    ("bomb", "no-bomb"): lambda w, f, a, b: w.say(N_("{winner} did not bomb"), winner=a),
    ("meongtta", "enough-animals"): lambda w, f, a, b: _meongtta(w, f, a, b, True),
    ("meongtta", "too-few-animals"): lambda w, f, a, b: _meongtta(w, f, a, b, False),
    ("pibak", "few-junk"): lambda w, f, a, b: w.say(
        N_("{winner} scores junk and {loser} has {units} junk units ({threshold} or fewer is pibak)"),
        winner=a,
        loser=b,
        units=f["loser_junk_units"],
        threshold=f["threshold"],
    ),
    ("pibak", "enough-junk"): _pibak_enough,
    ("pibak", "cup-protects"): lambda w, f, a, b: w.say(
        N_(
            "{loser} is not pibak: with the cup counted as double junk, {loser} has {units} junk units, "
            "more than {threshold}"
        ),
        loser=b,
        units=f["loser_junk_units"],
        threshold=f["threshold"],
    ),
    ("pibak", "zero-exempt"): lambda w, f, a, b: w.say(
        N_("{loser} is not pibak: {loser} has no junk at all, and these rules spare a loser with none"), loser=b
    ),
    ("pibak", "winner-no-junk-points"): lambda w, f, a, b: w.say(
        N_("{winner} scores no junk points, so nobody is pibak"), winner=a
    ),
    ("gwangbak", "no-bright"): lambda w, f, a, b: w.say(
        N_("{winner} scores brights and {loser} has no bright (gwangbak)"), winner=a, loser=b
    ),
    ("gwangbak", "has-bright"): _gwangbak_has,
    ("gwangbak", "winner-no-bright-points"): lambda w, f, a, b: w.say(
        N_("{winner} scores no brights, so nobody is gwangbak"), winner=a
    ),
    ("gobak", "called-go"): lambda w, f, a, b: w.say(N_("{loser} called go and was overtaken (gobak)"), loser=b),
    ("gobak", "no-go"): lambda w, f, a, b: w.say(N_("{loser} did not call go, so no gobak"), loser=b),
    ("gobak", "pays-all"): _gobak_pays_all,
    ("gobak", "covered"): _gobak_covered,
    ("nagari", "carry"): lambda w, f, a, b: w.plural(
        "{n} nagari just before this hand", "{n} nagari hands just before this hand", f["streak"]
    ),
    ("nagari", "no-carry"): lambda w, f, a, b: w.say(N_("No nagari just before this hand")),
    ("empty-loser", "captured-nothing"): lambda w, f, a, b: w.say(
        N_("{loser} captured no card and pays nothing"), loser=b
    ),
    ("empty-loser", "captured-cards"): lambda w, f, a, b: w.say(
        N_("{loser} captured cards, so a loser's exemption for capturing nothing does not apply"), loser=b
    ),
}


def if_go_reason(w: Words, player: str, go_count: int, gobak: str) -> str:
    """What a go risks (API.md v1.1 ``next.if_go``)."""
    if gobak == "double":
        return w.plural(
            "After go number {n}, if another player wins, {player} pays double (gobak)",
            "After go number {n}, if another player wins, {player} pays double (gobak)",
            go_count,
            player=player,
        )
    if gobak == "pays-all-double":
        return w.plural(
            "After go number {n}, if another player wins, {player} pays every loser's share, doubled (gobak)",
            "After go number {n}, if another player wins, {player} pays every loser's share, doubled (gobak)",
            go_count,
            player=player,
        )
    if gobak == "pays-all":
        return w.plural(
            "After go number {n}, if another player wins, {player} pays for every loser (gobak)",
            "After go number {n}, if another player wins, {player} pays for every loser (gobak)",
            go_count,
            player=player,
        )
    return w.plural(
        "After go number {n}, if another player wins, {player} pays as any loser does",
        "After go number {n}, if another player wins, {player} pays as any loser does",
        go_count,
        player=player,
    )


# --- scores -----------------------------------------------------------------------------------------------


def score_explanation(w: Words, s: Score, short: Iterable[Shortfall]) -> list[str]:
    """One sentence per scoring combination, then what falls just short."""
    lines = []
    for item in s.items:
        c, pts = item.combination, item.points
        if c is Combination.BRIGHTS:
            n = s.brights
            if n == 3 and s.rain:
                lines.append(w.say(N_("three brights with the rain bright: 2 points")))
            else:
                lines.append(w.plural("{n} bright: {points} points", "{n} brights: {points} points", n, points=pts))
        elif c is Combination.ANIMALS:
            if s.sep_animal_as == "animal":
                lines.append(
                    w.plural(
                        "{n} animal, the cup counted as one: {points} points",
                        "{n} animals, the cup counted as one: {points} points",
                        s.animals,
                        points=pts,
                    )
                )
            else:
                lines.append(
                    w.plural("{n} animal: {points} points", "{n} animals: {points} points", s.animals, points=pts)
                )
        elif c is Combination.GODORI:
            lines.append(w.say(N_("godori, the three birds: {points} points"), points=pts))
        elif c is Combination.RIBBONS:
            lines.append(w.plural("{n} ribbon: {points} points", "{n} ribbons: {points} points", s.ribbons, points=pts))
        elif c is Combination.HONGDAN:
            lines.append(w.say(N_("the three red poem ribbons (hongdan): {points} points"), points=pts))
        elif c is Combination.CHEONGDAN:
            lines.append(w.say(N_("the three blue ribbons (cheongdan): {points} points"), points=pts))
        elif c is Combination.CHODAN:
            lines.append(w.say(N_("the three plain red ribbons (chodan): {points} points"), points=pts))
        elif s.sep_animal_as == "junk":
            lines.append(
                w.say(
                    N_("{units} junk units, the cup counted as double junk: {points} points"),
                    units=s.junk_units,
                    points=pts,
                )
            )
        else:
            lines.append(w.say(N_("{units} junk units: {points} points"), units=s.junk_units, points=pts))
    for sf in short:
        lines.append(_shortfall(w, sf, s))
    if not lines:
        lines.append(w.say(N_("Nothing scores yet")))
    return lines


def _shortfall(w: Words, sf: Shortfall, s: Score) -> str:
    c = sf.combination
    if c is Combination.BRIGHTS:
        if s.rain:
            return w.say(N_("two brights with the rain bright: one more scores 2 points"))
        return w.say(N_("two brights: one more scores 3 points (2 if it is the rain bright)"))
    if c is Combination.ANIMALS:
        return w.say(N_("four animals: one more scores 1 point"))
    if c is Combination.GODORI:
        return w.say(N_("two of the three birds: the third scores godori, 5 points"))
    if c is Combination.RIBBONS:
        return w.say(N_("four ribbons: one more scores 1 point"))
    if c is Combination.HONGDAN:
        return w.say(N_("two of the red poem ribbons: the third scores 3 points"))
    if c is Combination.CHEONGDAN:
        return w.say(N_("two of the blue ribbons: the third scores 3 points"))
    if c is Combination.CHODAN:
        return w.say(N_("two of the plain red ribbons: the third scores 3 points"))
    return w.say(N_("9 junk units: one more unit scores 1 point"))


# --- problems -----------------------------------------------------------------------------------------------

TITLES = {
    "RulesError": N_("Invalid rules"),
    "CardError": N_("Invalid cards"),
    "HandError": N_("Invalid hand"),
    "IllegalMoveError": N_("Illegal move"),
    "validation-error": N_("Invalid request body"),
    "malformed-json": N_("Malformed JSON"),
    "not-found": N_("Not found"),
    "method-not-allowed": N_("Method not allowed"),
    "length-required": N_("Length required"),
    "body-too-large": N_("Request body too large"),
    "unsupported-media-type": N_("Unsupported media type"),
    "bad-request": N_("Bad request"),
    "internal-error": N_("Internal server error"),
    "unavailable": N_("Service unavailable"),
}

# What each refusal means: (code, why) -> sentence. ``why`` is the code itself unless a code has several.
DETAILS = {
    # HTTP
    ("validation-error", "validation-error"): N_(
        "The request body does not have the documented shape; the list of errors names each field that is wrong"
    ),
    ("malformed-json", "malformed-json"): N_("The request body is not valid JSON"),
    ("not-found", "not-found"): N_("There is nothing at this address"),
    ("not-found", "no-preset"): N_("There is no preset called {preset}"),
    ("method-not-allowed", "method-not-allowed"): N_("This address does not answer that method"),
    ("length-required", "length-required"): N_(
        "Send the body with a Content-Length header: bodies sent in chunks are not read"
    ),
    ("body-too-large", "body-too-large"): N_("The request body is larger than {limit} bytes"),
    ("unsupported-media-type", "unsupported-media-type"): N_("Send the request body as JSON (application/json)"),
    ("bad-request", "bad-request"): N_("The request cannot be read"),
    ("internal-error", "internal-error"): N_(
        "Something went wrong on our side; the request id identifies it in our logs"
    ),
    ("unavailable", "draining"): N_("This copy of the service is about to stop; ask again, and another will answer"),
    # rules
    ("unknown-preset", "unknown-preset"): N_("There is no preset called {preset}"),
    ("unknown-knob", "unknown-knob"): N_("There is no house rule called {knob}"),
    ("invalid-knob", "rules-not-an-object"): N_(
        "The rules are a preset name, or an object of a preset and house rules"
    ),
    ("invalid-knob", "not-a-bool"): N_("The value of {knob} must be true or false, not {value}"),
    ("invalid-knob", "not-an-int"): N_("The value of {knob} must be a whole number, not {value}"),
    ("invalid-knob", "below-minimum"): N_("The value of {knob} cannot be below {minimum} ({value} was given)"),
    ("invalid-knob", "above-maximum"): N_("The value of {knob} cannot be above {maximum} ({value} was given)"),
    ("invalid-knob", "not-a-choice"): N_("The value of {knob} cannot be {value}"),
    ("invalid-knob", "not-a-list"): N_("The value of {knob} must be a list, not {value}"),
    ("invalid-knob", "too-many"): N_("The value of {knob} holds at most {maximum} values"),
    ("invalid-knob", "listed-twice"): N_("The value of {knob} lists a value twice"),
    ("sep-animal-pin", "sep-animal-pin"): N_(
        "{player} counts the cup as double junk, but under these rules the cup is always an animal"
    ),
    ("sep-animal-pin", "no-player"): N_(
        "The cup is counted as double junk, but under these rules it is always an animal"
    ),
    # cards
    ("unknown-card", "unknown-card"): N_("{card} is not a card"),
    ("unknown-card", "in-place"): N_("{card} ({place}) is not a card"),
    ("unknown-card", "in-move"): N_("{card}, {field} of {player}'s move, is not a card"),
    ("duplicate-card", "listed-twice"): N_("{card} is listed twice ({place})"),
    ("duplicate-card", "listed-twice-here"): N_("{card} is listed twice"),
    ("duplicate-card", "in-two-places"): N_("{card} is in two places: {first} and {place}"),
    ("bonus-not-in-play", "bonus-not-in-play"): N_("{card} is a bonus card these rules leave out of the deck"),
    # hands
    ("player-count", "player-count"): N_("These rules are for {players} players, not {given}"),
    ("duplicate-player", "duplicate-player"): N_("Two players are called {player}"),
    ("negative-count", "negative-count"): N_("{field} cannot be negative"),
    ("invalid-outcome", "unknown-outcome"): N_("{outcome} is not a way a hand can end"),
    ("invalid-outcome", "winner-without-result"): N_("A hand that ends in {outcome} has no winner"),
    ("invalid-outcome", "instant-win-off"): N_("{outcome} is switched off in these rules"),
    ("unknown-winner", "winner-required"): N_("A hand that ends in {outcome} needs a winner"),
    ("unknown-winner", "unknown-winner"): N_("The winner, {player}, is not one of the players"),
    ("unknown-player", "unknown-player"): N_("{player}, named as the last to call go, is not one of the players"),
    ("winner-below-target", "winner-below-target"): N_(
        "{player} has {points} points, fewer than the {target} needed to stop"
    ),
    ("last-go-required", "last-go-required"): N_(
        "{players} all called go: say which of them called go last, since that player pays for everyone (gobak)"
    ),
    # the deal
    ("bad-deal", "unknown-card"): N_("The deal cannot be: {card} ({place}) is not a card"),
    ("bad-deal", "player-count"): N_("The deal cannot be: these rules are for {players} players, not {given}"),
    ("bad-deal", "duplicate-player"): N_("The deal cannot be: two players are called {player}"),
    ("bad-deal", "layout-size"): N_(
        "The deal cannot be: the layout has {count} month cards, not {expected} (list a bonus card dealt there "
        "and the card that replaced it too)"
    ),
    ("bad-deal", "hands-for-players"): N_("The deal cannot be: hands must be given for exactly the players"),
    ("bad-deal", "hand-size"): N_("The deal cannot be: {player} is dealt {count} cards, not {expected}"),
    ("bad-deal", "shown-not-player"): N_("The deal cannot be: {player}, who shows cards at the deal, is not a player"),
    ("bad-deal", "shown-not-chongtong"): N_(
        "The deal cannot be: {player} shows {cards}, but only a chongtong, four cards of one month, is shown"
    ),
    ("bad-deal", "shown-not-dealt"): N_("The deal cannot be: {player} shows {cards}, which {player} was not dealt"),
    ("bad-deal", "listed-twice"): N_("The deal cannot be: {card} is dealt twice ({place})"),
    ("bad-deal", "in-two-places"): N_("The deal cannot be: {card} is dealt twice, {first} and {place}"),
    ("bad-deal", "bonus-not-in-play"): N_(
        "The deal cannot be: {card} is a bonus card these rules leave out of the deck"
    ),
    ("bad-deal", "stock-size"): N_("The deal cannot be: the stock has {count} cards, not {expected}"),
    ("bad-deal", "deck-size"): N_(
        "The deal cannot be: the hands, the layout and the stock hold {count} cards, not the {expected} of the deck"
    ),
    # the form of a move
    ("bad-move", "not-an-object"): N_("Move number {number} is not an object"),
    ("bad-move", "no-player"): N_("Move number {number} does not say whose move it is"),
    ("bad-move", "unknown-field"): N_("Move number {number} has a field no move has: {field}"),
    ("bad-move", "call-with-more"): N_("A call carries nothing but the player and the call"),
    ("bad-move", "declare-with-more"): N_("A cup declaration carries nothing but the player and the declaration"),
    ("bad-move", "declare-in-turn"): N_("Declare the cup in a move of its own"),
    ("bad-move", "turn-form"): N_(
        "A turn is one of: a card played (perhaps shaken), a bomb, a flip turn, or a bonus card followed by a "
        "card played or a bomb"
    ),
    ("bad-move", "shake-without-play"): N_("A shake shows three cards and plays one of them"),
    ("bad-move", "capture-without-play"): N_("A capture choice goes with a card played"),
    ("bad-move", "not-a-list"): N_("{field} is a list of cards"),
    ("bad-move", "not-a-choice"): N_("{field} has a value no move has"),
    ("bad-move", "bonus-with-play"): N_("{card} is a bonus card: it is played as a bonus card, not as a hand card"),
    ("bad-move", "card-twice"): N_("{player} uses {card} twice in one turn"),
    ("bad-move", "not-a-bonus-card"): N_("{card} is not a bonus card"),
    ("bad-move", "bonus-then-nothing"): N_("After the bonus card, {player} plays a hand card in the same turn"),
    ("bad-move", "bonus-flipped-not-bonus"): N_("The bonus cards flipped list {card}, which is not a bonus card"),
    # a move against the table
    ("not-your-turn", "not-your-turn"): N_("It is {expected}'s turn, not {player}'s"),
    ("not-your-turn", "not-a-player"): N_("{player} is not a player of this hand"),
    ("not-your-turn", "call-due"): N_("{expected} must call go or stop now, not {player}"),
    ("card-not-in-hand", "card-not-in-hand"): N_("{card} is not in {player}'s hand"),
    ("card-not-in-hand", "cannot-hold"): N_("{player} cannot hold all of {cards}"),
    ("card-already-seen", "card-already-seen"): N_("{card} has already been seen: {seen}"),
    ("card-already-seen", "this-turn"): N_("{card} was already turned up in this turn"),
    ("capture-required", "capture-required"): N_(
        "{card} meets two cards on the layout, {layout}: say which of them it takes"
    ),
    ("capture-not-allowed", "not-on-layout"): N_("{card} is not one of the two cards it could take: {layout}"),
    ("capture-not-allowed", "no-choice"): N_("{played} has no choice of capture, so naming {card} is not allowed"),
    ("capture-not-allowed", "draw-on-own-month"): N_(
        "The flipped {drawn} falls on the month of the card just played: there is no choice to make"
    ),
    ("capture-not-allowed", "nothing-flipped"): N_("Nothing was flipped, so there is no capture choice for a flip"),
    ("draw-mismatch", "not-the-top"): N_("{player} says {card} was flipped, but the stock top is {top}"),
    ("draw-mismatch", "stock-empty"): N_("{player} says {card} was flipped, but the stock is empty"),
    ("draw-mismatch", "bonus-not-flipped"): N_("The bonus cards flipped list {card}, but no flip turned it up"),
    ("draw-mismatch", "bonus-list"): N_("The stock turned up the bonus cards {flipped}, not {listed}"),
    ("draw-required", "draw-required"): N_("The stock is not known: say which card {player}'s flip turned up"),
    ("draw-required", "after-bonus-draw"): N_(
        "{bonus} is a bonus card, so the flip went on: list {bonus} among the bonus cards flipped, and give the "
        "card that came up after it as the flipped card"
    ),
    ("call-required", "call-required"): N_("{player} must call go or stop before anything else"),
    ("call-not-allowed", "go-on-last-turn"): N_("{player} calls go on their last turn, where only stop is possible"),
    ("call-not-allowed", "no-call-due"): N_("{player} calls, but no go or stop is due"),
    ("shake-not-allowed", "shake-off"): N_("These rules do not allow shaking"),
    ("shake-not-allowed", "not-three-of-a-month"): N_("A shake shows three cards of one month, not {cards}"),
    ("shake-not-allowed", "plays-another"): N_("{player} shakes {cards} but plays {card}"),
    ("shake-not-allowed", "month-on-layout"): N_("{player} cannot shake {month}: the layout holds {layout}"),
    ("shake-not-allowed", "after-extra-flip"): N_(
        "Under these rules the card played after a bonus card is the stock top, which cannot be shaken"
    ),
    ("bomb-not-allowed", "bomb-off"): N_("These rules do not allow bombs"),
    ("bomb-not-allowed", "not-three-of-a-month"): N_("A bomb plays three cards of one month, not {cards}"),
    ("bomb-not-allowed", "fourth-not-alone"): N_("A bomb of {month} needs the fourth card alone on the layout"),
    ("bomb-not-allowed", "after-extra-flip"): N_(
        "Under these rules the card played after a bonus card is the stock top, which cannot make a bomb"
    ),
    ("flip-not-allowed", "flip-not-allowed"): N_("{player} has no flip turn left"),
    ("flip-required", "flip-required-next"): N_(
        "{player} must use a flip turn now: under these rules a bomb's flip turns come right after it"
    ),
    ("flip-required", "flip-required-empty"): N_("{player} has no hand card left and must use a flip turn"),
    ("game-over", "game-over"): N_("{player} moves after the hand is over"),
}

_PLACES = {
    "layout": N_("on the layout"),
    "stock": N_("in the stock"),
    "hand": N_("in {player}'s hand"),
    "shown": N_("among the cards {player} showed"),
    "captured": N_("in {player}'s captures"),
    "played": N_("already played"),
}

_MOVE_FIELDS = {
    "play": N_("the card played"),
    "capture": N_("the capture choice"),
    "draw": N_("the flipped card"),
    "draw_capture": N_("the capture choice of the flipped card"),
    "shake": N_("the shaken cards"),
    "bomb": N_("the bombed cards"),
    "bonus": N_("the bonus card"),
    "bonus_flipped": N_("the bonus cards flipped"),
    "flip": N_("the flip turn"),
    "call": N_("the call"),
    "sep_animal_as": N_("the cup declaration"),
}
_FIELD_NAMES = {**_FIELDS, **_MOVE_FIELDS}  # a field of the body or of a move, as a fact of a refusal


def place(w: Words, p: Place) -> str:
    return w.say(_PLACES[p.kind], player=p.player or "")


def seen(w: Words, p: Place) -> str:
    """Where a card already seen is, and since when (in a replayed log)."""
    where = place(w, p)
    if p.kind in ("hand", "shown", "stock"):
        return where
    if p.move_index is None:
        return w.say(N_("{where} (seen since the deal)"), where=where)
    return w.say(N_("{where} (seen since move number {number})"), where=where, number=p.move_index + 1)


def problem_title(w: Words, key: str) -> str:
    return w.say(TITLES[key])


def problem_detail(w: Words, err: GoStopError) -> str:
    """The sentence of an engine refusal, its facts named as players name them."""
    params = dict(err.params)
    why = err.why
    if err.code == "sep-animal-pin" and "player" not in params:
        why = "no-player"
    if err.code == "unknown-card" and why == "unknown-card":
        why = "in-move" if "field" in params else "in-place" if "place" in params else why
    if err.code == "card-already-seen" and params.get("this_turn"):
        why = "this-turn"
    if err.code == "duplicate-card" and why == "listed-twice" and "place" not in params:
        why = "listed-twice-here"
    message = DETAILS.get((err.code, why)) or DETAILS[(err.code, err.code)]
    return w.say(message, **_words_for_facts(w, params))


def http_detail(w: Words, code: str, why: str | None = None, **params: Any) -> str:
    return w.say(DETAILS[(code, why or code)], **params)


def _words_for_facts(w: Words, params: Mapping[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in params.items():
        if key in ("card", "top", "drawn", "played", "bonus"):
            out[key] = card(w, value) if _is_card(value) else str(value)
        elif key in ("cards", "layout", "flipped", "listed"):
            out[key] = cards(w, value) if value else w.say(N_("none"))
        elif key == "seen" and isinstance(value, Place):
            out[key] = seen(w, value)
        elif key in ("place", "first") and isinstance(value, Place):
            out[key] = place(w, value)
        elif key == "month":
            out[key] = month(w, value)
        elif key == "knob":
            out[key] = w.say(KNOB_NAMES[value]) if value in KNOB_NAMES else str(value)
        elif key == "field":
            out[key] = w.say(_FIELD_NAMES[value]) if value in _FIELD_NAMES else str(value)
        elif key == "outcome":
            out[key] = w.say(OUTCOME_NAMES[value]) if value in OUTCOME_NAMES else str(value)
        elif key == "players" and isinstance(value, list):
            out[key] = ", ".join(value)
        elif key == "move_index" and value is not None:
            out["number"] = value + 1
        else:
            out[key] = value
    return out


def _is_card(value: Any) -> bool:
    return isinstance(value, Card) or (isinstance(value, str) and value in CARD_NAMES)


# --- what the request schemas say of a field ---------------------------------------------------------------

# The messages of marshmallow and of the service's own fields, as they come (their text is the message id);
# those with numbers or choices are read back by a pattern into the message with placeholders.
_FIELD_MESSAGES = frozenset(
    {
        N_("Not a valid string."),
        N_("Not a valid integer."),
        N_("Not a valid number."),
        N_("Not a valid boolean."),
        N_("Not a valid list."),
        N_("Not a valid mapping type."),
        N_("Invalid input type."),
        N_("Invalid value."),
        N_("Field may not be null."),
        N_("Missing data for required field."),
        N_("Unknown field."),
        N_("Not a card id."),
        N_("Not a valid move object."),
        N_("must be a preset name or an object of knob overrides"),
    }
)
_FIELD_PATTERNS = tuple(
    (re.compile(pattern), message)
    for pattern, message in (
        (r"Length must be between (?P<min>\d+) and (?P<max>\d+)\.\Z", N_("Length must be between {min} and {max}.")),
        (r"Longer than maximum length (?P<max>\d+)\.\Z", N_("Longer than maximum length {max}.")),
        (r"Shorter than minimum length (?P<min>\d+)\.\Z", N_("Shorter than minimum length {min}.")),
        (
            r"Must be greater than or equal to (?P<min>-?\d+) and less than or equal to (?P<max>-?\d+)\.\Z",
            N_("Must be greater than or equal to {min} and less than or equal to {max}."),
        ),
        (r"Must be greater than or equal to (?P<min>-?\d+)\.\Z", N_("Must be greater than or equal to {min}.")),
        (r"Must be less than or equal to (?P<max>-?\d+)\.\Z", N_("Must be less than or equal to {max}.")),
        (r"Must be one of: (?P<choices>.*)\.\Z", N_("Must be one of: {choices}.")),
    )
)


def field_message(w: Words, message: str) -> str:
    """A request schema's message about a field, in the asked language (one this table does not know stays as
    it came)."""
    if message in _FIELD_MESSAGES:
        return w.say(message)
    for pattern, said in _FIELD_PATTERNS:
        found = pattern.match(message)
        if found:
            return w.say(said, **found.groupdict())
    return message
