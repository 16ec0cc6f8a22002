"""Who pays whom when a hand ends (RULES.md 7 go schemes, 8 settlement, 9 nagari).

The winner's combination score and go count give the *base points* (``go_scheme``). Each loser pays
base x their multiplier, the product of the factors of RULES.md 8:

- shake (heundeum 흔들기) and bomb (poktan 폭탄): x2 per one the winner made;
- meongtta (멍따): the winner holds many animals;
- pibak (피박): the winner scores junk and the loser holds almost none;
- gwangbak (광박): the winner scores brights and the loser holds no bright;
- gobak (고박): the loser had called go and was overtaken;
- nagari carry: consecutive drawn hands (nagari 나가리) just before this one raise the stakes.

Instant wins (chongtong, three-ppuk, heodang) pay fixed points times the nagari carry and nothing else.
``settle`` is the one settlement path: /v1/settle calls it on a hand described by the client, and replay
calls it on the hand it played out.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import NamedTuple

from .cards import CUP, Card, mask_of, unused_bonus_mask
from .errors import CardError, HandError
from .rules import RuleSet
from .scoring import Score, score_mask

__all__ = ["Factor", "HandResult", "Payment", "PlayerHand", "Settlement", "base_points", "settle"]

INSTANT_WINS = ("chongtong", "three-ppuk", "heodang")
OUTCOMES = ("stop", "nagari", "redeal", *INSTANT_WINS)
_INSTANT_KNOB = {"chongtong": "chongtong_points", "three-ppuk": "three_ppuk_points", "heodang": "heodang_points"}


class PlayerHand(NamedTuple):
    """What one player ended the hand with: captured cards and calls."""

    id: str
    captured: tuple[Card, ...] = ()
    go_count: int = 0
    shakes: int = 0
    bombs: int = 0
    sep_animal_as: str | None = None


class HandResult(NamedTuple):
    """A finished hand as settlement sees it. ``winner`` is None for a nagari.

    ``last_go`` names the loser who called go most recently; gobak ``pays-all`` needs it only when
    several losers called go.
    """

    players: tuple[PlayerHand, ...]
    winner: str | None
    outcome: str = "stop"
    nagari_streak: int = 0
    stake: int = 1
    last_go: str | None = None


class Factor(NamedTuple):
    """One multiplier applied to a loser's payment, with the reason in words."""

    rule: str
    factor: int
    reason: str


class Payment(NamedTuple):
    """What one loser pays the winner. ``covers`` lists shares paid for other losers (gobak pays-all)."""

    payer: str
    payee: str
    points: int
    amount: int
    factors: tuple[Factor, ...]
    covers: tuple[tuple[str, int], ...] = ()


class Settlement(NamedTuple):
    outcome: str
    winner: str | None
    score: Score | None
    base_points: int
    payments: tuple[Payment, ...]
    explanation: tuple[str, ...]
    nagari_factor: int = 1
    scores: Mapping[str, Score] = MappingProxyType({})  # every player's score, by id


def base_points(total: int, go_count: int, rules: RuleSet) -> tuple[int, str]:
    """Base points of a stop at combination score ``total`` after ``go_count`` gos, and the sum in words."""
    n, s = go_count, total
    if n == 0:
        return s, f"{s}"
    if rules.go_scheme == "double-from-three" and n >= 3:
        return s * 2 ** (n - 2), f"{s} x {2 ** (n - 2)}"
    if rules.go_scheme == "add-and-double" and n >= 3:
        return (s + n) * 2 ** (n - 2), f"({s} + {n}) x {2 ** (n - 2)}"
    return s + n, f"{s} + {n}"


def nagari_factor(streak: int, rules: RuleSet) -> int:
    """The nagari carry: ``nagari_multiplier`` per drawn hand just before, capped by ``nagari_cap``."""
    factor: int = rules.nagari_multiplier**streak
    return min(factor, rules.nagari_cap) if rules.nagari_cap else factor


def check_hand(hand: HandResult, rules: RuleSet) -> dict[str, int]:
    """Refuse a hand no legal play could produce; each error names the player and the card.

    Returns each player's captured cards as a card mask (checked distinct), for scoring.
    """
    if len(hand.players) != rules.players:
        raise HandError(
            f"{rules.preset} is played by {rules.players} players, not {len(hand.players)}", code="player-count"
        )
    ids = [p.id for p in hand.players]
    for pid in ids:
        if ids.count(pid) > 1:
            raise HandError(f"player id {pid!r} is used twice", code="duplicate-player", player=pid)
    held = 0  # every card held so far, as a mask: a card in two places shows as an overlap
    masks: dict[str, int] = {}
    for p in hand.players:
        for name in ("go_count", "shakes", "bombs"):
            if getattr(p, name) < 0:
                raise HandError(f"{p.id}'s {name} cannot be negative", code="negative-count", player=p.id)
        mask = mask_of(p.captured)
        exact = mask.bit_count() == len(p.captured)  # a repeated card garbles the mask
        if not exact or mask & unused_bonus_mask(rules.bonus_cards):
            rules.check_bonus(p.captured, owner=p.id)  # names the card
        if held & mask or not exact:
            _raise_duplicate(hand, p)
        held |= mask
        masks[p.id] = mask
        if p.sep_animal_as == "junk" and rules.sep_animal == "animal":
            raise HandError(
                f"{p.id} declares the cup as junk, but under sep_animal 'animal' it is always an animal",
                code="sep-animal-pin",
                player=p.id,
                card=CUP.id,
            )
    if hand.nagari_streak < 0 or hand.stake < 0:
        raise HandError("nagari_streak and stake cannot be negative", code="negative-count")
    if hand.outcome not in OUTCOMES:
        raise HandError(f"unknown outcome {hand.outcome!r}", code="invalid-outcome")
    if hand.outcome in ("nagari", "redeal"):
        if hand.winner is not None:
            raise HandError(f"a {hand.outcome} has no winner", code="invalid-outcome", player=hand.winner)
        return masks
    if hand.winner is None:
        raise HandError(f"a {hand.outcome} hand needs a winner", code="unknown-winner")
    if hand.winner not in ids:
        raise HandError(f"winner {hand.winner!r} is not a player", code="unknown-winner", player=hand.winner)
    if hand.last_go is not None and hand.last_go not in ids:
        raise HandError(f"last_go {hand.last_go!r} is not a player", code="unknown-player", player=hand.last_go)
    if hand.outcome in INSTANT_WINS and getattr(rules, _INSTANT_KNOB[hand.outcome]) == 0:
        raise HandError(
            f"{hand.outcome} is off under these rules ({_INSTANT_KNOB[hand.outcome]} = 0)", code="invalid-outcome"
        )
    return masks


def _raise_duplicate(hand: HandResult, player: PlayerHand) -> None:
    """Name the first card ``player`` holds that is held twice or by an earlier player."""
    owner: dict[Card, str] = {}
    for p in hand.players:
        for card in p.captured:
            if card in owner:
                where = "twice" if owner[card] == p.id else f"by both {owner[card]} and {p.id}"
                raise CardError(f"{card.id} is held {where}", code="duplicate-card", player=p.id, card=card.id)
            owner[card] = p.id
        if p is player:
            break


def settle(hand: HandResult, rules: RuleSet) -> Settlement:
    """Price a finished hand. Raises HandError or CardError for a hand no legal play could produce."""
    masks = check_hand(hand, rules)
    scores = {p.id: score_mask(masks[p.id], rules, sep_animal_as=p.sep_animal_as) for p in hand.players}
    carry = nagari_factor(hand.nagari_streak, rules)
    if hand.outcome == "redeal":
        why = "Redeal: the deal does not count; nobody pays and nothing carries over"
        return Settlement("redeal", None, None, 0, (), (why,), carry, scores)
    if hand.outcome == "nagari":
        line = "Nagari: the cards ran out with no stop, so nobody pays"
        if hand.nagari_streak:
            line += f" (this is nagari number {hand.nagari_streak + 1} in a row)"
        next_carry = nagari_factor(hand.nagari_streak + 1, rules)
        carried = f"The next hand's winner is paid x{next_carry} for the nagari carry"
        return Settlement("nagari", None, None, 0, (), (line, carried), carry, scores)

    winner = next(p for p in hand.players if p.id == hand.winner)
    wscore = scores[winner.id]
    if hand.outcome in INSTANT_WINS:
        return _settle_instant(hand, rules, wscore, carry, scores)
    if wscore.total < rules.target_score:
        raise HandError(
            f"winner {winner.id} has {wscore.total} points, below the target score of {rules.target_score}",
            code="winner-below-target",
            player=winner.id,
        )
    base, how = base_points(wscore.total, winner.go_count, rules)
    gos = f"{winner.go_count} go" if winner.go_count else "no go"
    lines = [
        f"{winner.id} stops with {wscore.total} points and {gos}: {how} = {base} base points"
        if winner.go_count
        else f"{winner.id} stops with {wscore.total} points: {base} base points"
    ]
    losers = [p for p in hand.players if p.id != winner.id]
    shares: dict[str, tuple[int, list[Factor]]] = {}
    for loser in losers:
        factors = _factors(winner, wscore, loser, scores[loser.id], rules, carry, hand)
        points = base
        for f in factors:
            points *= f.factor
        shares[loser.id] = (points, factors)

    payer_for_all = _gobak_payer(hand, losers, rules)
    payments: list[Payment] = []
    for loser in losers:
        points, factors = shares[loser.id]
        covers: tuple[tuple[str, int], ...] = ()
        if payer_for_all is not None:
            if loser.id == payer_for_all:
                covers = tuple((o.id, shares[o.id][0]) for o in losers if o.id != loser.id and shares[o.id][0])
                if covers:
                    extra = " and ".join(f"{who}'s share of {pts}" for who, pts in covers)
                    factors = [
                        *factors,
                        Factor(
                            "gobak",
                            1,
                            f"{loser.id} called go and was overtaken, so {loser.id} also pays {extra} (gobak)",
                        ),
                    ]
                points += sum(pts for _, pts in covers)
            elif points:
                factors = [
                    *factors,
                    Factor("gobak", 0, f"{payer_for_all} called go and pays {loser.id}'s share (gobak)"),
                ]
                points = 0
        payments.append(Payment(loser.id, winner.id, points, points * hand.stake, tuple(factors), covers))
        lines.append(_payment_line(payments[-1], base, hand.stake))
    return Settlement("stop", winner.id, wscore, base, tuple(payments), tuple(lines), carry, scores)


def _factors(
    winner: PlayerHand,
    wscore: Score,
    loser: PlayerHand,
    lscore: Score,
    rules: RuleSet,
    carry: int,
    hand: HandResult,
) -> list[Factor]:
    w, lid = winner.id, loser.id
    if rules.empty_loser_exempt and not loser.captured:
        return [Factor("empty-loser", 0, f"{lid} captured no card and pays nothing (empty_loser_exempt)")]
    out: list[Factor] = []
    if rules.go_scheme == "chips" and winner.go_count > 3:
        out.append(Factor("go", 2, f"{w} called go {winner.go_count} times, more than 3: the payout doubles"))
    if rules.shake_multiplier > 1 and winner.shakes:
        out.append(
            Factor(
                "shake",
                rules.shake_multiplier**winner.shakes,
                f"{w} shook {_times(winner.shakes)}: x{rules.shake_multiplier} each",
            )
        )
    if rules.bomb_multiplier > 1 and winner.bombs:
        out.append(
            Factor(
                "bomb",
                rules.bomb_multiplier**winner.bombs,
                f"{w} bombed {_times(winner.bombs)}: x{rules.bomb_multiplier} each",
            )
        )
    if rules.meongtta_min_animals and wscore.animals >= rules.meongtta_min_animals:
        out.append(
            Factor("meongtta", 2, f"{w} has {wscore.animals} animals, at least {rules.meongtta_min_animals} (meongtta)")
        )
    pibak = _pibak_reason(w, wscore, loser, lscore, rules)
    if pibak:
        out.append(Factor("pibak", 2, pibak))
    if rules.gwangbak and wscore.points("brights") and lscore.brights == 0:
        out.append(Factor("gwangbak", 2, f"{w} scores brights and {lid} has no bright (gwangbak)"))
    if rules.gobak == "double" and loser.go_count:
        out.append(Factor("gobak", 2, f"{lid} called go and was overtaken (gobak)"))
    if carry > 1:
        out.append(Factor("nagari", carry, f"{_times(hand.nagari_streak, 'nagari')} just before this hand"))
    return out


def _pibak_reason(w: str, wscore: Score, loser: PlayerHand, lscore: Score, rules: RuleSet) -> str | None:
    limit = rules.pibak_max_loser_junk
    if limit < 0 or not wscore.points("junk"):
        return None

    def is_pibak(units: int) -> bool:
        return units <= limit and not (units == 0 and rules.pibak_zero_exempt)

    units = lscore.junk_units
    if not is_pibak(units):
        return None
    if rules.sep_animal_protects and lscore.sep_animal_as == "animal" and not is_pibak(units + 2):
        return None  # RULES.md 3: the loser's cup counts as 2 junk units when that avoids pibak
    return f"{w} scores junk and {loser.id} has {units} junk units ({limit} or fewer is pibak)"


def _gobak_payer(hand: HandResult, losers: Sequence[PlayerHand], rules: RuleSet) -> str | None:
    if rules.gobak != "pays-all" or len(losers) < 2:
        return None
    callers = [p.id for p in losers if p.go_count]
    if len(callers) <= 1:
        return callers[0] if callers else None
    if hand.last_go in callers:
        return hand.last_go
    raise HandError(
        f"{' and '.join(callers)} called go: say which called last with last_go (gobak pays-all)",
        code="last-go-required",
    )


def _settle_instant(
    hand: HandResult, rules: RuleSet, wscore: Score, carry: int, scores: dict[str, Score]
) -> Settlement:
    knob = _INSTANT_KNOB[hand.outcome]
    base = int(getattr(rules, knob))
    assert hand.winner is not None
    lines = [f"{hand.winner} wins at once by {hand.outcome}: {base} points from each opponent ({knob})"]
    payments = []
    for p in hand.players:
        if p.id == hand.winner:
            continue
        factors = (
            (Factor("nagari", carry, f"{_times(hand.nagari_streak, 'nagari')} just before this hand"),)
            if carry > 1
            else ()
        )
        payments.append(Payment(p.id, hand.winner, base * carry, base * carry * hand.stake, factors))
        lines.append(_payment_line(payments[-1], base, hand.stake))
    return Settlement(hand.outcome, hand.winner, wscore, base, tuple(payments), tuple(lines), carry, scores)


def _times(n: int, noun: str = "") -> str:
    if noun:
        return f"{n} {noun}" if n == 1 else f"{n} {noun} hands"
    return "once" if n == 1 else "twice" if n == 2 else f"{n} times"


def _payment_line(p: Payment, base: int, stake: int) -> str:
    if p.points == 0:
        why = next((f.reason for f in p.factors if f.factor == 0), "nothing is owed")
        return f"{p.payer} pays nothing: {why}"
    parts = [str(base)] + [f"x{f.factor} ({f.rule})" for f in p.factors if f.factor != 1]
    own = base
    for f in p.factors:
        own *= f.factor
    sum_ = " ".join(parts)
    if p.covers:
        own_share = f"{sum_} = {own}" if len(parts) > 1 else sum_
        sum_ = f"{own_share}, + " + " + ".join(f"{pts} for {who}" for who, pts in p.covers)
    money = f" ({p.amount} at a stake of {stake} a point)" if stake != 1 else ""
    return f"{p.payer} pays {p.payee} {sum_} = {p.points} points{money}"
