"""Who pays whom when a hand ends (RULES.md 7 go schemes, 8 settlement, 9 nagari).

The winner's combination score and go count give the *base points* (``go_scheme``). Each loser pays
base x their multiplier, the product of the factors of RULES.md 8:

- shake (heundeum 흔들기) and bomb (poktan 폭탄): x2 per one the winner made;
- meongtta (멍따): the winner holds many animals;
- pibak (피박): the winner scores junk and the loser holds almost none;
- gwangbak (광박): the winner scores brights and the loser holds no bright;
- gobak (고박): the loser had called go and was overtaken (pays x2, or pays for everyone: dokbak 독박);
- nagari carry: consecutive drawn hands (nagari 나가리) just before this one raise the stakes;
- push (milgi 밀기): in an evening (RULES.md 11), earlier winners passed their hands to double this one.

Every rule of these that the rule set switches on is *checked* for every loser, applied or not, and the
``Check`` says why with the facts it rests on. Instant wins (chongtong, three-ppuk, heodang) pay fixed
points times the nagari carry and nothing else.

``settle`` checks a hand a client describes, then prices it; a replayed hand, which the engine played
itself, is priced directly with ``price``.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from typing import Any, Final

from .cards import ANIMALS, BRIGHTS, CUP, RAIN_BRIGHT, RIBBONS, Card, CardSet, Place, disjoint, parse_cards, popcount
from .errors import HandError
from .moves import Outcome
from .record import Record
from .rules import CupPlacement, Gobak, GoScheme, RuleSet, Shodang, TwoCardBomb
from .scoring import CUP_JUNK_UNITS, Combination, Declared, Score, evaluate
from .sitout import Sale, SitOut, check_sit_out, sale_of

__all__ = [
    "MAX_AMOUNT",
    "MAX_NAGARI_STREAK",
    "Check",
    "HandResult",
    "Payment",
    "PlayerHand",
    "Settlement",
    "base_points",
    "check_hand",
    "checked_rules",
    "nagari_carry",
    "price",
    "push_factor",
    "settle",
]

PUSH_MULTIPLIER: Final = 2  # what each push in a row multiplies the next hand by (RULES.md 11)
# Every amount and point total a settlement holds fits a JavaScript number exactly (API.md v1.3): a hand whose
# rules multiply past it is refused (amount-too-large), as is a nagari streak longer than a table ever sees.
MAX_AMOUNT: Final = 2**53 - 1
MAX_NAGARI_STREAK: Final = 20
_INSTANT_POINTS = {
    Outcome.CHONGTONG: "chongtong_points",
    Outcome.THREE_PPUK: "three_ppuk_points",
    Outcome.HEODANG: "heodang_points",
}


class PlayerHand(Record):
    """What one player ended the hand with: captured cards (or, ``declared``, the counts of them the player
    says) and calls (``bombs`` of three cards, and ``two_card_bombs``, RULES.md 5.5); ``chongtong``: the player
    was dealt a chongtong and played on (RULES.md 4.3, 8.2)."""

    __slots__ = (
        "bombs",
        "captured",
        "chongtong",
        "declared",
        "go_count",
        "id",
        "sep_animal_as",
        "shakes",
        "two_card_bombs",
    )
    fields = (
        "id",
        "captured",
        "go_count",
        "shakes",
        "bombs",
        "sep_animal_as",
        "declared",
        "two_card_bombs",
        "chongtong",
    )

    def __init__(
        self,
        id: str,
        captured: Collection[Card | str] = (),
        go_count: int = 0,
        shakes: int = 0,
        bombs: int = 0,
        sep_animal_as: str | None = None,
        declared: Declared | None = None,
        two_card_bombs: int = 0,
        chongtong: bool = False,
    ) -> None:
        self.id: Final = id
        self.captured: Final = captured
        self.go_count: Final = go_count
        self.shakes: Final = shakes
        self.bombs: Final = bombs
        self.sep_animal_as: Final = sep_animal_as
        self.declared: Final = declared
        self.two_card_bombs: Final = two_card_bombs
        self.chongtong: Final = chongtong


class HandResult(Record):
    """A finished hand as settlement sees it. ``winner`` is None for a nagari or a redeal.

    ``last_go`` names the loser who called go most recently; gobak ``pays-all`` needs it only when
    several losers called go. ``pushes`` is for a hand of an evening (RULES.md 11): the pushes in a row it
    starts under, each doubling what it pays; None outside an evening, where no push is checked. ``sit_out`` is
    the fourth person at a table of three (RULES.md 4.5), who did not play: ``players`` are the three who did.
    ``pays_alone`` is a split shodang won by the one who accepted it (RULES.md 8.7): the loser who pays alone,
    and the loser whose share they pay.
    """

    __slots__ = (
        "last_go",
        "nagari_streak",
        "outcome",
        "pays_alone",
        "players",
        "pushes",
        "sit_out",
        "stake",
        "winner",
    )
    fields = ("players", "winner", "outcome", "nagari_streak", "stake", "last_go", "pushes", "sit_out", "pays_alone")

    def __init__(
        self,
        players: tuple[PlayerHand, ...],
        winner: str | None,
        outcome: Outcome | str = Outcome.STOP,
        nagari_streak: int = 0,
        stake: int = 1,
        last_go: str | None = None,
        pushes: int | None = None,
        sit_out: SitOut | None = None,
        pays_alone: tuple[str, str] | None = None,
    ) -> None:
        self.players: Final = players
        self.winner: Final = winner
        self.outcome: Final = outcome
        self.nagari_streak: Final = nagari_streak
        self.stake: Final = stake
        self.last_go: Final = last_go
        self.pushes: Final = pushes
        self.sit_out: Final = sit_out
        self.pays_alone: Final = pays_alone


class Check(Record):
    """One rule of RULES.md 8 checked for one loser: applied or not, the factor it puts on the payment
    (1 when it changes nothing, 0 when the loser pays nothing), ``reason`` (a stable code saying why) and
    the ``facts`` the reason rests on."""

    __slots__ = ("applied", "factor", "facts", "reason", "rule")
    fields = ("rule", "applied", "factor", "reason", "facts")

    def __init__(self, rule: str, applied: bool, factor: int, reason: str, facts: Mapping[str, Any]) -> None:
        self.rule: Final = rule
        self.applied: Final = applied
        self.factor: Final = factor
        self.reason: Final = reason
        self.facts: Final = facts


class Payment(Record):
    """What one loser pays the winner. ``covers`` lists shares paid for other losers (gobak pays-all)."""

    __slots__ = ("amount", "checks", "covers", "payee", "payer", "points")
    fields = ("payer", "payee", "points", "amount", "checks", "covers")

    def __init__(
        self,
        payer: str,
        payee: str,
        points: int,
        amount: int,
        checks: tuple[Check, ...],
        covers: tuple[tuple[str, int], ...] = (),
    ) -> None:
        self.payer: Final = payer
        self.payee: Final = payee
        self.points: Final = points
        self.amount: Final = amount
        self.checks: Final = checks
        self.covers: Final = covers

    @property
    def factors(self) -> tuple[Check, ...]:
        """The checks that applied."""
        return tuple(c for c in self.checks if c.applied)


class Settlement(Record):
    """The priced hand. The base is ``(total + gos_added) x doubling`` (RULES.md 7); ``next_carry`` is the
    factor a nagari hands on to the next hand's winner; ``pushes`` the pushes in a row a hand of an evening
    started under (RULES.md 11; None outside an evening); ``sale`` the brights sold by the fourth person at a
    table of three (RULES.md 4.5), paid at the deal apart from ``payments`` (None: nobody sold)."""

    __slots__ = (
        "base_points",
        "doubling",
        "go_count",
        "gos_added",
        "nagari_streak",
        "next_carry",
        "outcome",
        "payments",
        "pushes",
        "sale",
        "score",
        "stake",
        "winner",
    )
    fields = (
        "outcome",
        "winner",
        "score",
        "base_points",
        "payments",
        "go_count",
        "gos_added",
        "doubling",
        "nagari_streak",
        "next_carry",
        "stake",
        "pushes",
        "sale",
    )

    def __init__(
        self,
        outcome: Outcome,
        winner: str | None,
        score: Score | None,
        base_points: int,
        payments: tuple[Payment, ...],
        go_count: int = 0,
        gos_added: int = 0,
        doubling: int = 1,
        nagari_streak: int = 0,
        next_carry: int = 1,
        stake: int = 1,
        pushes: int | None = None,
        sale: Sale | None = None,
    ) -> None:
        self.outcome: Final = outcome
        self.winner: Final = winner
        self.score: Final = score
        self.base_points: Final = base_points
        self.payments: Final = payments
        self.go_count: Final = go_count
        self.gos_added: Final = gos_added
        self.doubling: Final = doubling
        self.nagari_streak: Final = nagari_streak
        self.next_carry: Final = next_carry
        self.stake: Final = stake
        self.pushes: Final = pushes
        self.sale: Final = sale


def base_points(total: int, go_count: int, rules: RuleSet) -> tuple[int, int, int]:
    """Base points of a stop at combination score ``total`` after ``go_count`` gos (RULES.md 7), with the
    parts of the sum: ``(base, gos_added, doubling)``, base = (total + gos_added) x doubling."""
    n = go_count
    if n >= 3 and rules.go_scheme is GoScheme.DOUBLE_FROM_THREE:
        added, doubling = 0, 2 ** (n - 2)
    elif n >= 3 and rules.go_scheme is GoScheme.ADD_AND_DOUBLE:
        added, doubling = n, 2 ** (n - 2)
    else:
        added, doubling = n, 1
    return (total + added) * doubling, added, doubling


def nagari_carry(streak: int, rules: RuleSet) -> int:
    """The nagari carry: ``nagari_multiplier`` per drawn hand just before, capped by ``nagari_cap``."""
    factor: int = rules.nagari_multiplier**streak
    return min(factor, rules.nagari_cap) if rules.nagari_cap else factor


def push_factor(pushes: int) -> int:
    """What ``pushes`` pushes in a row multiply the next hand by: x2 each (RULES.md 11)."""
    factor: int = PUSH_MULTIPLIER**pushes
    return factor


_COUNTS: Final = ("go_count", "shakes", "bombs", "two_card_bombs")  # a player's counts, none below zero


def check_hand(hand: HandResult, rules: RuleSet) -> dict[str, CardSet]:
    """Refuse a hand no legal play could produce, naming the player and the card; returns each player's
    captured cards as a CardSet."""
    ids = [p.id for p in hand.players]
    rules.check_players(ids)
    check_sit_out(hand.sit_out, ids, rules, whole_hand=False)
    for p in hand.players:
        if min(p.go_count, p.shakes, p.bombs, p.two_card_bombs) < 0:
            field = next(name for name in _COUNTS if getattr(p, name) < 0)
            raise HandError("negative-count", player=p.id, field=field)
        if p.two_card_bombs and rules.two_card_bomb is TwoCardBomb.OFF:
            raise HandError("bomb-not-allowed", why="two-card-off", player=p.id)
        rules.check_cup_pin(p.sep_animal_as, player=p.id)
        if p.declared is not None and p.captured:  # API.md v1.2: the cards, or the counts said of them
            raise HandError("impossible-counts", why="captured-and-declared", player=p.id)
        # RULES.md 5: a rule set without shakes or bombs has none to count (as a replay refuses them)
        if p.shakes and not rules.allow_shake:
            raise HandError("shake-not-allowed", why="shake-off", player=p.id, shakes=p.shakes)
        if p.bombs and not rules.allow_bomb:
            raise HandError("bomb-not-allowed", why="bomb-off", player=p.id, bombs=p.bombs)
    if hand.nagari_streak < 0 or hand.stake < 0:
        raise HandError("negative-count", field="nagari_streak" if hand.nagari_streak < 0 else "stake")
    if hand.pushes is not None and hand.pushes < 0:
        raise HandError("negative-count", field="pushes")
    if hand.pushes and hand.pushes > rules.push:
        raise HandError("push-not-allowed", why="over-cap", pushes=hand.pushes, cap=rules.push)
    # each pile read as card ids or cards (an unknown id, a card twice in a pile refused), then across piles
    places = [Place("captured", p.id) for p in hand.players]  # made once: a Place is a tuple built in Python
    piles = [parse_cards(p.captured, owner=place) for p, place in zip(hand.players, places, strict=True)]
    held = disjoint(list(zip(places, piles, strict=True)))
    for place, cards in zip(places, held, strict=True):
        rules.check_in_play(cards, owner=place)
    try:
        outcome = hand.outcome if isinstance(hand.outcome, Outcome) else Outcome(hand.outcome)
    except ValueError:
        raise HandError("invalid-outcome", why="unknown-outcome", outcome=str(hand.outcome)) from None
    if outcome in (Outcome.NAGARI, Outcome.REDEAL):
        if hand.winner is not None:
            raise HandError("invalid-outcome", why="winner-without-result", outcome=outcome, player=hand.winner)
    elif hand.winner is None:
        raise HandError("unknown-winner", why="winner-required", outcome=outcome)
    elif hand.winner not in ids:
        raise HandError("unknown-winner", player=hand.winner)
    if hand.last_go is not None and hand.last_go not in ids:
        raise HandError("unknown-player", player=hand.last_go)
    if outcome in _INSTANT_POINTS and getattr(rules, _INSTANT_POINTS[outcome]) == 0:
        raise HandError("invalid-outcome", why="instant-win-off", outcome=outcome, knob=_INSTANT_POINTS[outcome])
    if any(p.declared is not None for p in hand.players):  # cards alone were checked above, card by card
        _check_declared(hand, rules, held)
    return {p.id: cards for p, cards in zip(hand.players, held, strict=True)}


def _deck_counts(rules: RuleSet) -> dict[str, int]:
    """The most of each count the deck of ``rules`` holds: what no table's counts can exceed."""
    deck = rules.deck.mask
    ones, twos, threes = (deck & group for group in rules.junk_masks)
    cup_units = CUP_JUNK_UNITS if rules.sep_animal is not CupPlacement.ANIMAL else 0
    units = popcount(ones) + 2 * popcount(twos) + 3 * popcount(threes) + cup_units
    return {"brights": len(BRIGHTS), "animals": len(ANIMALS), "ribbons": len(RIBBONS), "junk_units": units}


def _check_declared(hand: HandResult, rules: RuleSet, held: Sequence[CardSet]) -> None:
    """Refuse counts no deal could give (API.md v1.2, ``declared``): more than the deck holds, alone or with the
    other players' counts and cards; the rain bright or the cup where the counts leave no room for them; a
    winner's points the counts cannot make; points said by a loser."""
    most = _deck_counts(rules)
    together = dict.fromkeys(most, 0)
    cups = rains = 0
    for p, cards in zip(hand.players, held, strict=True):
        d = p.declared
        if d is None:
            score = evaluate(cards, rules, p.sep_animal_as, shortfalls=False)
            counts = {"brights": score.brights, "animals": score.animals, "ribbons": score.ribbons}
            counts["junk_units"] = score.junk_units
            cups += CUP in cards
            rains += RAIN_BRIGHT in cards
        else:
            counts = {"brights": d.brights, "animals": d.animals, "ribbons": d.ribbons, "junk_units": d.junk_units}
            for kind, n in counts.items():
                if n < 0:
                    raise HandError("negative-count", player=p.id, field=f"declared.{kind}")
                if n > most[kind]:
                    raise HandError(
                        "impossible-counts", why="more-than-the-deck", player=p.id, kind=kind, count=n, most=most[kind]
                    )
            if d.cup not in ("none", "animal", "junk"):
                raise HandError("impossible-counts", why="unknown-cup", player=p.id, cup=str(d.cup))
            rules.check_cup_pin("junk" if d.cup == "junk" else None, player=p.id)
            if d.rain and not d.brights:
                raise HandError("impossible-counts", why="rain-without-bright", player=p.id)
            if (d.cup == "animal" and not d.animals) or (d.cup == "junk" and d.junk_units < CUP_JUNK_UNITS):
                raise HandError("impossible-counts", why="cup-not-counted", player=p.id, cup=d.cup)
            cups += d.cup != "none"
            rains += d.rain
        for kind, n in counts.items():
            together[kind] += n
    for kind, n in together.items():
        if n > most[kind]:
            raise HandError("impossible-counts", why="more-than-the-deck-together", kind=kind, count=n, most=most[kind])
    if cups > 1 or rains > 1:
        raise HandError("impossible-counts", why="one-of-a-kind-twice", kind="cup" if cups > 1 else "rain")
    for p in hand.players:
        if p.declared is not None:
            _check_points(p, p.declared, hand, rules)


def _check_points(p: PlayerHand, d: Declared, hand: HandResult, rules: RuleSet) -> None:
    """The winner's points must be what cards with the counts can make (RULES.md 2); a loser says none."""
    if p.id != hand.winner:
        if d.points is not None:
            raise HandError("impossible-points", why="points-for-a-loser", player=p.id, points=d.points)
        return
    if d.points is None:
        raise HandError("impossible-points", why="points-required", player=p.id)
    reachable = d.reachable_points(rules)
    if d.points not in reachable:
        raise HandError("impossible-points", why="unreachable", player=p.id, points=d.points, reachable=reachable)


def _score_of(p: PlayerHand, cards: CardSet, rules: RuleSet, *, shortfalls: bool = True) -> Score:
    """A player's score: from the cards, or from the counts the player declared."""
    if p.declared is not None:
        return p.declared.score(rules)
    return evaluate(cards, rules, p.sep_animal_as, shortfalls=shortfalls)


def settle(hand: HandResult, rules: RuleSet) -> Settlement:
    """Check and price a finished hand. Raises HandError, CardError or RulesError for a hand no legal play
    could produce (see ``check_hand``), and HandError for a stop below the target (``winner-below-target``) or
    not above the last go (``call-not-allowed``), which pricing finds."""
    captured = check_hand(hand, rules)
    return price(hand, rules, captured)


def price(hand: HandResult, rules: RuleSet, captured: Mapping[str, CardSet]) -> Settlement:
    """Price a hand already known to be sound, from each player's captured cards."""
    outcome = Outcome(hand.outcome)
    if hand.nagari_streak > MAX_NAGARI_STREAK:  # an evening works its streak out; a settle body is bounded so
        raise HandError(
            "amount-too-large", why="nagari-streak", nagari_streak=hand.nagari_streak, limit=MAX_NAGARI_STREAK
        )
    carry = _carry(hand.nagari_streak, rules)
    # RULES.md 4.5: the fourth's brights are sold at the deal, whatever comes of the hand (a deal redealt aside)
    sale = sale_of(hand.sit_out, [p.id for p in hand.players], rules) if outcome is not Outcome.REDEAL else None
    if sale is not None:
        _bounded(sale.value, hand.stake, sale.seller, sale=sale.value)
    if outcome in (Outcome.NAGARI, Outcome.REDEAL):
        next_carry = _carry(hand.nagari_streak + 1, rules) if outcome is Outcome.NAGARI else 1
        return Settlement(
            outcome,
            None,
            None,
            0,
            (),
            nagari_streak=hand.nagari_streak,
            next_carry=next_carry,
            pushes=hand.pushes,
            sale=sale,
        )
    winner = next(p for p in hand.players if p.id == hand.winner)
    scores = {p.id: _score_of(p, captured[p.id], rules, shortfalls=p is winner) for p in hand.players}
    wscore = scores[winner.id]
    losers = [p for p in hand.players if p is not winner]
    if outcome in _INSTANT_POINTS:
        base = int(getattr(rules, _INSTANT_POINTS[outcome]))
        baks = outcome is Outcome.THREE_PPUK and rules.three_ppuk_baks
        payments = []
        for loser in losers:
            sides = _Sides(winner, wscore, loser, scores[loser.id], captured, rules, hand, carry)
            instant = _instant_checks(sides, baks=baks)
            points = _product(base, instant)
            factors = {c.rule: c.factor for c in instant if c.applied and c.factor != 1}
            _bounded(points, hand.stake, loser.id, base=base, **factors)
            payments.append(Payment(loser.id, winner.id, points, points * hand.stake, instant))
        return Settlement(
            outcome,
            winner.id,
            wscore,
            base,
            tuple(payments),
            nagari_streak=hand.nagari_streak,
            stake=hand.stake,
            pushes=hand.pushes,
            sale=sale,
        )
    if wscore.total < rules.target_score:
        raise HandError("winner-below-target", player=winner.id, points=wscore.total, target=rules.target_score)
    if outcome is Outcome.STOP and wscore.total < rules.target_score + winner.go_count:
        # RULES.md 7: a go is called at the target or more, and each later call needs more than the last go's
        # score, so a stop after n gos is at target_score + n points at least (replay refuses such a stop too)
        raise HandError(
            "call-not-allowed",
            why="stop-not-above-go",
            player=winner.id,
            go_count=winner.go_count,
            points=wscore.total,
            least=rules.target_score + winner.go_count,
        )
    base, added, doubling = base_points(wscore.total, winner.go_count, rules)
    payer_for_all = _gobak_payer(hand, losers, rules)
    # pays-all-double doubles every share the payer covers; pays-all-own-double only the payer's own
    cover_factor = 2 if rules.gobak_played is Gobak.PAYS_ALL_DOUBLE else 1
    shares: dict[str, tuple[int, list[Check]]] = {}  # each loser's own share and its checks
    for loser in losers:
        sides = _Sides(winner, wscore, loser, scores[loser.id], captured, rules, hand, carry)
        checks = _checks(sides)
        shares[loser.id] = (_product(base, checks), checks)
    payments = []
    for loser in losers:
        own, checks = shares[loser.id]
        covers: tuple[tuple[str, int], ...] = ()
        exempt = rules.empty_loser_exempt and not _captured_any(loser, captured)
        if payer_for_all is not None and (loser.id == payer_for_all or not exempt):
            gobak = _gobak_pays_all(loser, losers, payer_for_all, shares, rules, hand)
            checks = [gobak if c.rule == "gobak" else c for c in checks]
            own = _product(base, checks)
            if loser.id == payer_for_all:
                covers = tuple(
                    (o.id, shares[o.id][0] * cover_factor) for o in losers if o is not loser and shares[o.id][0]
                )
        points = own + sum(pts for _, pts in covers)
        if points * max(hand.stake, 1) > MAX_AMOUNT:  # the factors of its own share, and the shares it covers
            factors = {c.rule: c.factor for c in checks if c.applied and c.factor != 1}
            raise HandError(
                "amount-too-large",
                player=loser.id,
                factors={"base": base, **factors, **({"covers": len(covers)} if covers else {}), "stake": hand.stake},
                limit=MAX_AMOUNT,
            )
        payments.append(Payment(loser.id, winner.id, points, points * hand.stake, tuple(checks), covers))
    if hand.pays_alone is not None:
        payments = _shodang_alone(payments, hand.pays_alone, hand.stake, rules.shodang)
    return Settlement(
        outcome,
        winner.id,
        wscore,
        base,
        tuple(payments),
        go_count=winner.go_count,
        gos_added=added,
        doubling=doubling,
        nagari_streak=hand.nagari_streak,
        stake=hand.stake,
        pushes=hand.pushes,
        sale=sale,
    )


def _shodang_alone(payments: list[Payment], alone: tuple[str, str], stake: int, who: Shodang) -> list[Payment]:
    """RULES.md 8.7: after a split shodang won by the one who accepted, one loser pays the other's share too:
    the one who declined it, or (``who`` caller) the one who called it."""
    payer, covered = alone
    rows = {p.payer: p for p in payments}
    if payer not in rows or covered not in rows:
        return payments
    paid, other = rows[payer], rows[covered]
    points = paid.points + other.points
    _bounded(points, stake, payer, shodang=points)
    out = []
    for p in payments:
        if p is paid:
            said = "pays-alone" if who is Shodang.DECLINER else "caller-pays-alone"
            check = Check("shodang", True, 1, said, {"covered": [covered]})
            covers = (*p.covers, (covered, other.points)) if other.points else p.covers
            p = Payment(p.payer, p.payee, points, points * stake, (*p.checks, check), covers)
        elif p is other:
            # who pays the share, and so what the covered loser did: declined (caller pays) or called
            check = Check("shodang", True, 0, "covered", {"payer": payer, "paid_by": who.value})
            p = Payment(p.payer, p.payee, 0, 0, (*p.checks, check))
        out.append(p)
    return out


def _carry(streak: int, rules: RuleSet) -> int:
    """The nagari carry of a streak, refused (``amount-too-large``) when it is itself past MAX_AMOUNT."""
    carry = nagari_carry(streak, rules)
    if carry > MAX_AMOUNT:
        raise HandError(
            "amount-too-large",
            why="nagari-carry",
            nagari_multiplier=rules.nagari_multiplier,
            nagari_streak=streak,
            limit=MAX_AMOUNT,
        )
    return carry


def _bounded(points: int, stake: int, player: str, **factors: int) -> None:
    """Refuse ``points`` (the product of ``factors``) that are, or whose amount at ``stake`` is, past MAX_AMOUNT
    (``amount-too-large``), naming the factors."""
    if points * max(stake, 1) > MAX_AMOUNT:
        raise HandError("amount-too-large", player=player, factors={**factors, "stake": stake}, limit=MAX_AMOUNT)


def _captured_any(p: PlayerHand, captured: Mapping[str, CardSet]) -> bool:
    """Whether a player captured any card: shown, or said in their counts."""
    return p.declared.anything if p.declared is not None else bool(captured[p.id])


def _product(base: int, checks: Sequence[Check]) -> int:
    points = base
    for check in checks:
        if check.applied:
            points *= check.factor
    return points


class _Sides:
    """What the checks of one loser look at: the winner and the loser with their scores, how many cards the
    loser captured (None: the loser declared counts, not cards) and whether any, the nagari carry, and in an
    evening the pushes (None elsewhere)."""

    __slots__ = (
        "carry",
        "loser",
        "loser_any",
        "loser_cards",
        "lscore",
        "pushes",
        "rules",
        "streak",
        "winner",
        "wscore",
    )

    def __init__(
        self,
        winner: PlayerHand,
        wscore: Score,
        loser: PlayerHand,
        lscore: Score,
        captured: Mapping[str, CardSet],
        rules: RuleSet,
        hand: HandResult,
        carry: int,
    ) -> None:
        self.winner = winner
        self.wscore = wscore
        self.loser = loser
        self.lscore = lscore
        self.loser_any = _captured_any(loser, captured)
        said = loser.declared
        self.loser_cards = len(captured[loser.id]) if said is None else None if said.anything else 0
        self.rules = rules
        self.streak = hand.nagari_streak
        self.pushes = hand.pushes
        self.carry = carry

    def said(self, facts: dict[str, Any], *, winner: bool = False, loser: bool = False) -> dict[str, Any]:
        """The facts, marked ``declared`` when the winner's or the loser's counts they rest on were said, not
        shown (API.md v1.2)."""
        if (winner and self.winner.declared is not None) or (loser and self.loser.declared is not None):
            facts["declared"] = True
        return facts


def _go(s: _Sides) -> Check:  # RULES.md 7, chips: the whole payout doubles once past three gos
    n = s.winner.go_count
    return Check("go", n > 3, 2 if n > 3 else 1, "more-than-three" if n > 3 else "three-or-fewer", {"go_count": n})


def _shake(s: _Sides) -> Check:
    n, m = s.winner.shakes, s.rules.shake_multiplier
    return Check("shake", n > 0, m**n, "shook" if n else "no-shake", {"shakes": n, "multiplier": m})


def _bomb(s: _Sides) -> Check:
    n, m = s.winner.bombs, s.rules.bomb_multiplier
    if s.rules.two_card_bomb is TwoCardBomb.OFF:
        return Check("bomb", n > 0, m**n, "bombed" if n else "no-bomb", {"bombs": n, "multiplier": m})
    # RULES.md 5.5: a two-card bomb counts for the factor only where the table plays it with the multiplier
    k = s.winner.two_card_bombs
    counted = n + k if s.rules.two_card_bomb is TwoCardBomb.BOMB_MULTIPLIER else n
    facts = {"bombs": n, "two_card_bombs": k, "multiplier": m}
    if counted:
        return Check("bomb", True, m**counted, "bombed", facts)
    return Check("bomb", False, 1, "two-card-no-multiplier" if k else "no-bomb", facts)


def _meongtta(s: _Sides) -> Check:
    n, least = s.wscore.animals, s.rules.meongtta_min_animals
    facts = s.said({"winner_animals": n, "threshold": least, "cup_as": s.wscore.sep_animal_as}, winner=True)
    if n >= least:
        return Check("meongtta", True, 2, "enough-animals", facts)
    return Check("meongtta", False, 1, "too-few-animals", facts)


def _pibak(s: _Sides) -> Check:
    limit, units = s.rules.pibak_max_loser_junk, s.lscore.junk_units
    facts = {"loser_junk_units": units, "threshold": limit, "cup_as": s.lscore.sep_animal_as}
    facts = s.said(facts, winner=True, loser=True)
    if not s.wscore.points(Combination.JUNK):
        return Check("pibak", False, 1, "winner-no-junk-points", {**facts, "winner_junk_units": s.wscore.junk_units})
    if units == 0 and s.rules.pibak_zero_exempt:
        # the house rule that spared him, named for a page that says why there is no x2 (trial r7 D1)
        return Check("pibak", False, 1, "zero-exempt", {**facts, "spared_by": "pibak_zero_exempt"})
    if units > limit:
        return Check("pibak", False, 1, "enough-junk", facts)
    if s.rules.sep_animal_protects and s.lscore.sep_animal_as == "animal" and units + 2 > limit:
        # RULES.md 3: the loser's cup counts as a double junk when that avoids pibak
        return Check("pibak", False, 1, "cup-protects", {**facts, "loser_junk_units": units + 2, "cup_as": "junk"})
    return Check("pibak", True, 2, "few-junk", facts)


def _gwangbak(s: _Sides) -> Check:
    facts = s.said({"loser_brights": s.lscore.brights, "rain": s.lscore.rain}, winner=True, loser=True)
    if not s.wscore.points(Combination.BRIGHTS):
        return Check("gwangbak", False, 1, "winner-no-bright-points", facts)
    if not s.lscore.brights:
        return Check("gwangbak", True, 2, "no-bright", facts)
    return Check("gwangbak", False, 1, "has-bright", facts)


def _meongbak(s: _Sides) -> Check:  # RULES.md 8.2: as gwangbak, for animals
    facts = s.said({"loser_animals": s.lscore.animals}, winner=True, loser=True)
    if not s.wscore.points(Combination.ANIMALS):
        return Check("meongbak", False, 1, "winner-no-animal-points", facts)
    if not s.lscore.animals:
        return Check("meongbak", True, 2, "no-animal", facts)
    return Check("meongbak", False, 1, "has-animal", facts)


def _gobak(s: _Sides) -> Check:  # pays-all is settled across the losers: see _gobak_pays_all
    n = s.loser.go_count
    if n and s.rules.gobak_played is Gobak.DOUBLE:
        return Check("gobak", True, 2, "called-go", {"go_count": n})
    return Check("gobak", False, 1, "called-go" if n else "no-go", {"go_count": n})


def _chongtong(s: _Sides) -> Check:  # RULES.md 8.2: the winner played on a chongtong dealt to them
    m = s.rules.chongtong_play_on_multiplier
    if s.winner.chongtong:
        return Check("chongtong", True, m, "played-on", {"multiplier": m})
    return Check("chongtong", False, 1, "no-chongtong", {"multiplier": m})


def _nagari(s: _Sides) -> Check:  # RULES.md 8: the factor the streak makes, capped by nagari_cap (0: no cap)
    facts = {"streak": s.streak, "multiplier": s.rules.nagari_multiplier, "cap": s.rules.nagari_cap}
    return Check("nagari", s.carry > 1, s.carry, "carry" if s.carry > 1 else "no-carry", facts)


def _push(s: _Sides) -> Check:
    n = s.pushes or 0
    facts = {"pushes": n, "cap": s.rules.push}
    return Check("push", n > 0, push_factor(n), "pushed" if n else "no-push", facts)


def _empty_loser(s: _Sides) -> Check:
    nothing = not s.loser_any
    facts = s.said({"loser_cards": s.loser_cards}, loser=True)
    return Check(
        "empty-loser", nothing, 0 if nothing else 1, "captured-nothing" if nothing else "captured-cards", facts
    )


# How each rule of RULES.md 8 is checked; ``RuleSet.checked`` says which of them a rule set switches on.
_CHECKS: Final[dict[str, Callable[[_Sides], Check]]] = {
    "go": _go,
    "shake": _shake,
    "bomb": _bomb,
    "meongtta": _meongtta,
    "pibak": _pibak,
    "gwangbak": _gwangbak,
    "meongbak": _meongbak,
    "gobak": _gobak,
    "chongtong": _chongtong,
    "nagari": _nagari,
    "push": _push,
    "empty-loser": _empty_loser,
}


def checked_rules(rules: RuleSet) -> tuple[str, ...]:
    """The rules of RULES.md 8 that ``rules`` switch on: each payment carries one check of each."""
    return rules.checked


def _checked(s: _Sides) -> tuple[str, ...]:
    return s.rules.checked if s.pushes is None else s.rules.checked_in_evening


def _checks(s: _Sides) -> list[Check]:
    checks = [_CHECKS[rule](s) for rule in _checked(s)]
    if checks and checks[-1].rule == "empty-loser" and checks[-1].applied:
        # RULES.md 8: a loser who captured nothing pays nothing, whatever else holds
        checks[:-1] = [Check(c.rule, False, 1, "exempt", c.facts) for c in checks[:-1]]
    return checks


_INSTANT_FACTORS: Final = {"nagari": _nagari, "push": _push}
_BAKS: Final = {**_INSTANT_FACTORS, "pibak": _pibak, "gwangbak": _gwangbak, "meongbak": _meongbak, "gobak": _gobak}


def _instant_checks(s: _Sides, *, baks: bool = False) -> tuple[Check, ...]:
    """An instant win pays fixed points times the nagari carry (and in an evening the push, RULES.md 11); no
    other factor applies (RULES.md 8), and the empty-loser exemption does not either (chongtong comes before
    anyone captures). ``baks``: a three-ppuk win that keeps the losers' baks (``three_ppuk_baks``): pibak,
    gwangbak, meongbak and a doubling gobak apply too."""
    factors = _BAKS if baks else _INSTANT_FACTORS
    return tuple(
        factors[rule](s) if rule in factors else Check(rule, False, 1, "instant-win", {}) for rule in _checked(s)
    )


_PAYS_ALL: Final = (Gobak.PAYS_ALL, Gobak.PAYS_ALL_DOUBLE, Gobak.PAYS_ALL_OWN_DOUBLE)


def _gobak_payer(hand: HandResult, losers: Sequence[PlayerHand], rules: RuleSet) -> str | None:
    """The loser who pays for everyone under gobak pays-all (RULES.md 8): the latest go-caller."""
    if rules.gobak_played not in _PAYS_ALL:
        return None
    callers = [p.id for p in losers if p.go_count]
    if len(callers) <= 1:
        return callers[0] if callers else None
    if hand.last_go in callers:
        return hand.last_go
    raise HandError("last-go-required", players=callers)


def _gobak_pays_all(
    loser: PlayerHand,
    losers: Sequence[PlayerHand],
    payer: str,
    shares: Mapping[str, tuple[int, list[Check]]],
    rules: RuleSet,
    hand: HandResult,
) -> Check:
    """The gobak check of a pays-all hand: the payer's factor (x2 under pays-all-double), or a loser covered."""
    factor = 1 if rules.gobak_played is Gobak.PAYS_ALL else 2
    if loser.id == payer:
        covered = [o.id for o in losers if o is not loser and shares[o.id][0]]
        if rules.gobak_played is Gobak.PAYS_ALL_OWN_DOUBLE:  # the others' shares as they are (RULES.md 8.3)
            return Check("gobak", True, 2, "pays-all-own-double", {"go_count": loser.go_count, "covered": covered})
        facts = {"go_count": loser.go_count, "covered": covered, "doubled": factor == 2}
        return Check("gobak", True, factor, "pays-all", facts)
    facts = {"go_count": loser.go_count, "payer": payer, "called_go": loser.go_count > 0, "last_go": hand.last_go}
    return Check("gobak", True, 0, "covered", facts)
