"""RULES.md 7 (go schemes), 8 (settlement) and 9 (nagari), under the presets where they differ."""

import dataclasses

import pytest

from engine import CardError, GoScheme, HandError, HandResult, PlayerHand, RuleSet, resolve, settle
from tests.conftest import cards
from tests.words import explanation, reason

K2, K3, C2, B2 = (resolve(p) for p in ("korean-2p", "korean-3p", "chips-2p", "basic-2p"))
EIGHT = ("jan-bright", "mar-bright", "aug-bright", "feb-animal", "apr-animal", "aug-animal")  # 3 + 5 = 8 points
JUNK = (
    "jan-junk-1",
    "jan-junk-2",
    "feb-junk-1",
    "feb-junk-2",
    "mar-junk-1",
    "mar-junk-2",
    "apr-junk-1",
    "apr-junk-2",
    "may-junk-1",
    "may-junk-2",
    "jun-junk-1",
    "jun-junk-2",
    "jul-junk-1",
    "jul-junk-2",
)


def hand(*players, winner="A", **kw):
    return HandResult(tuple(PlayerHand(pid, cards(*cs), **extra) for pid, cs, extra in players), winner, **kw)


def p(pid, *cs, **extra):
    return (pid, cs, extra)


def rules_of(pay):
    return {f.rule: f.factor for f in pay.factors}


def only_payment(result):
    (pay,) = result.payments
    return pay


# B holds a bright and enough junk: no gwangbak, no pibak, so only the factor under test moves the number.
SAFE_B = ("nov-bright", *JUNK[6:14])


@pytest.mark.parametrize(
    ("scheme", "gos", "base"),
    [
        ("add-and-double", 0, 8),
        ("add-and-double", 1, 9),
        ("add-and-double", 2, 10),
        ("add-and-double", 3, 22),
        ("add-and-double", 4, 48),
        ("add-and-double", 5, 104),
        ("double-from-three", 1, 9),
        ("double-from-three", 2, 10),
        ("double-from-three", 3, 16),
        ("double-from-three", 4, 32),
        ("double-from-three", 5, 64),
        ("chips", 1, 9),
        ("chips", 3, 11),
        ("chips", 4, 12),
    ],
)
def test_rules_7_go_schemes_base_points(scheme, gos, base):
    # target 3, so that 8 points allow five gos (RULES.md 7: each call after a go needs more than its score)
    rules = dataclasses.replace(K2, go_scheme=GoScheme(scheme), target_score=3)
    result = settle(hand(p("A", *EIGHT, go_count=gos), p("B", *SAFE_B)), rules)
    assert result.base_points == base


@pytest.mark.parametrize(("gos", "points"), [(3, 11), (4, 24), (5, 26)])
def test_rules_7_chips_doubles_once_past_three_gos(gos, points):
    rules = dataclasses.replace(C2, target_score=3)  # 8 points allow five gos
    pay = only_payment(settle(hand(p("A", *EIGHT, go_count=gos), p("B", *SAFE_B)), rules))
    assert pay.points == points
    assert ("go" in rules_of(pay)) == (gos > 3)


def test_rules_8_plain_stop_pays_the_base():
    result = settle(hand(p("A", *EIGHT), p("B", *SAFE_B)), K2)
    pay = only_payment(result)
    assert (pay.payer, pay.payee, pay.points, pay.factors) == ("B", "A", 8, ())
    assert explanation(result)[0] == "A stops with 8 points: 8 base points"


@pytest.mark.parametrize(("rules", "shakes", "factor"), [(K2, 1, 2), (K2, 2, 4), (C2, 1, 2)])
def test_rules_8_shake_x2_per_shake(rules, shakes, factor):
    pay = only_payment(settle(hand(p("A", *EIGHT, shakes=shakes), p("B", *SAFE_B)), rules))
    assert rules_of(pay).get("shake") == factor
    assert pay.points == 8 * (factor or 1)


@pytest.mark.parametrize(("rules", "factor"), [(K2, 2), (C2, None)])
def test_rules_8_bomb_x2_per_bomb(rules, factor):
    pay = only_payment(settle(hand(p("A", *EIGHT, bombs=1), p("B", *SAFE_B)), rules))
    assert rules_of(pay).get("bomb") == factor


@pytest.mark.parametrize(("field", "code"), [("shakes", "shake-not-allowed"), ("bombs", "bomb-not-allowed")])
def test_rules_5_shakes_and_bombs_are_refused_where_the_rules_have_none(field, code):
    """basic-2p has no shakes or bombs (RULES.md 5, 10): a settle that counts one is refused as a replay is, not
    priced as if it had not been said (API.md v1.2)."""
    with pytest.raises(HandError) as err:
        settle(hand(p("A", *EIGHT, **{field: 1}), p("B", *SAFE_B)), B2)
    assert (err.value.code, err.value.why, err.value.params["player"]) == (code, code.split("-")[0] + "-off", "A")


@pytest.mark.parametrize(("rules", "gos", "points", "refused"), [(K2, 1, 8, False), (K2, 2, 8, True), (K3, 1, 3, True)])
def test_rules_7_a_stop_after_a_go_needs_more_than_the_go(rules, gos, points, refused):
    """A go is called at the target or more and the next call needs more than that (RULES.md 7): after n gos
    the stop is at target + n at least. 8 points after one go under korean-2p (target 7) can be; after two it
    cannot; nor 3 points after one go under korean-3p (target 3): API.md v1.2 refuses those."""
    pile = EIGHT if points == 8 else ("jan-bright", "mar-bright", "aug-bright")
    played = hand(p("A", *pile, go_count=gos), p("B", *SAFE_B), *([p("C")] if rules.players == 3 else []))
    if not refused:
        assert settle(played, rules).base_points == points + gos
        return
    with pytest.raises(HandError) as err:
        settle(played, rules)
    facts = err.value.params
    assert (err.value.code, err.value.why) == ("call-not-allowed", "stop-not-above-go")
    assert (facts["go_count"], facts["points"], facts["least"]) == (gos, points, rules.target_score + gos)


@pytest.mark.parametrize(("extra_animals", "meongtta"), [(3, False), (4, True)])
def test_rules_8_meongtta_at_seven_animals(extra_animals, meongtta):
    more = ("may-animal", "jun-animal", "jul-animal", "oct-animal")[:extra_animals]
    pay = only_payment(settle(hand(p("A", *EIGHT, *more), p("B", *SAFE_B)), K2))
    assert ("meongtta" in rules_of(pay)) is meongtta


def test_rules_8_meongtta_counts_the_cup_when_placed_as_animal():
    a = (*EIGHT, "may-animal", "jun-animal", "jul-animal", "sep-animal")
    pay = only_payment(settle(hand(p("A", *a), p("B", *SAFE_B)), K2))
    assert rules_of(pay)["meongtta"] == 2


# Winner with junk points (10 units) and 8 points from brights/godori.
A_JUNK = (*EIGHT, *JUNK[:10])


@pytest.mark.parametrize(
    ("rules", "loser_units", "pibak"),
    [
        (K2, 7, True),
        (K2, 8, False),
        (K2, 0, False),  # korean-2p: at most 7; zero exempt
        (K3, 5, True),
        (K3, 6, False),
        (C2, 5, True),
        (C2, 6, False),
        (C2, 0, True),  # chips: at most 5, no zero exemption
        (B2, 4, True),
        (B2, 5, False),  # basic-2p: "fewer than five units"
    ],
)
def test_rules_8_pibak_threshold_per_preset(rules, loser_units, pibak):
    pool = (
        *JUNK[10:14],
        "aug-junk-1",
        "aug-junk-2",
        "sep-junk-1",
        "sep-junk-2",
        "oct-junk-1",
        "oct-junk-2",
        "nov-junk-1",
        "nov-junk-2",
    )  # 12 single units A does not hold
    players = [p("A", *A_JUNK), p("B", "nov-bright", *pool[:loser_units])]
    if rules.players == 3:
        players.append(p("C", "dec-bright", *pool[loser_units:]))
    result = settle(hand(*players), rules)
    pay = result.payments[0]
    assert ("pibak" in rules_of(pay)) is pibak
    if pibak:
        said = f"B has {loser_units} junk units" if loser_units else "B has no junk at all"
        assert said in reason(pay.factors[0], pay, result)


def test_rules_8_no_pibak_when_the_winner_scores_no_junk():
    pay = only_payment(settle(hand(p("A", *EIGHT, *JUNK[:9]), p("B", "nov-bright", "oct-junk-1")), K2))
    assert "pibak" not in rules_of(pay)


def test_rules_3_cup_protects_a_loser_from_pibak_korean():
    b = ("nov-bright", "sep-animal", *JUNK[10:14], "sep-junk-1", "sep-junk-2")  # 6 units + cup
    pay = only_payment(settle(hand(p("A", *A_JUNK), p("B", *b)), K2))
    assert "pibak" not in rules_of(pay)


def test_rules_3_cup_does_not_protect_when_protects_is_off_chips():
    b = ("nov-bright", "sep-animal", *JUNK[10:14])  # 4 units + cup
    pay = only_payment(settle(hand(p("A", *A_JUNK), p("B", *b)), C2))
    assert rules_of(pay)["pibak"] == 2


def test_rules_3_cup_protection_is_not_enough_when_two_units_do_not_lift_the_loser():
    b = ("nov-bright", "sep-animal", "oct-junk-1")  # 1 unit, or 3 with the cup: pibak either way
    pay = only_payment(settle(hand(p("A", *A_JUNK), p("B", *b)), K2))
    assert rules_of(pay)["pibak"] == 2


@pytest.mark.parametrize(("loser_bright", "gwangbak"), [(False, True), (True, False)])
def test_rules_8_gwangbak(loser_bright, gwangbak):
    b = ("nov-bright",) if loser_bright else ("dec-animal",)
    pay = only_payment(settle(hand(p("A", *EIGHT), p("B", *b, *JUNK[6:14])), K2))
    assert ("gwangbak" in rules_of(pay)) is gwangbak


def test_rules_8_no_gwangbak_when_winner_scores_no_brights():
    a = (
        "jan-bright",
        "mar-bright",
        "feb-animal",
        "apr-animal",
        "aug-animal",
        "may-animal",
        "jun-animal",
        "jul-animal",
    )  # godori 5 + 6 animals 2 = 7; two brights score nothing
    pay = only_payment(settle(hand(p("A", *a), p("B", "dec-animal", *JUNK[6:14])), K2))
    assert "gwangbak" not in rules_of(pay)


def test_rules_8_gwangbak_off_by_knob():
    rules = dataclasses.replace(K2, gwangbak=False)
    pay = only_payment(settle(hand(p("A", *EIGHT), p("B", "dec-animal", *JUNK[6:14])), rules))
    assert "gwangbak" not in rules_of(pay)


@pytest.mark.parametrize(("rules", "factor"), [(K2, 2), (C2, None), (B2, None)])
def test_rules_8_gobak_double_2p(rules, factor):
    pay = only_payment(settle(hand(p("A", *EIGHT), p("B", *SAFE_B, go_count=1)), rules))
    assert rules_of(pay).get("gobak") == factor


def test_rules_8_gobak_pays_all_3p_korean():
    a = ("jan-ribbon", "feb-ribbon", "mar-ribbon")  # hongdan: 3 points, the korean-3p target
    result = settle(
        hand(p("A", *a), p("B", "nov-bright", *JUNK[:6], go_count=1), p("C", "dec-bright", *JUNK[6:12])), K3
    )
    b, c = result.payments
    assert (b.payer, b.points, b.covers) == ("B", 6, (("C", 3),))
    assert (c.payer, c.points) == ("C", 0)
    assert rules_of(c)["gobak"] == 0


def test_rules_8_gobak_pays_all_several_callers_latest_pays():
    a = ("jan-ribbon", "feb-ribbon", "mar-ribbon")
    players = (p("A", *a), p("B", "nov-bright", *JUNK[:6], go_count=1), p("C", "dec-bright", *JUNK[6:12], go_count=2))
    with pytest.raises(HandError) as err:
        settle(hand(*players), K3)
    assert err.value.code == "last-go-required"
    result = settle(hand(*players, last_go="B"), K3)
    assert [x.points for x in result.payments] == [6, 0]


def test_rules_8_gobak_pays_all_covers_each_share_with_its_own_factors():
    a = (*EIGHT, *JUNK[:10])  # scores brights and junk
    b = ("nov-bright", *JUNK[10:14], "sep-junk-1", "sep-junk-2")  # 6 units: not pibak in 3p
    result = settle(hand(p("A", *a), p("B", *b, go_count=1), p("C", "oct-junk-1")), K3)
    b_pay, c_pay = result.payments
    base = result.base_points
    assert c_pay.points == 0
    # C alone would pay gwangbak x2 and pibak x2 (1 unit); B pays its own base plus that share.
    assert b_pay.covers == (("C", base * 4),)
    assert b_pay.points == base + base * 4


@pytest.mark.parametrize(("streak", "cap", "factor"), [(0, 0, 1), (1, 0, 2), (2, 0, 4), (3, 0, 8), (3, 4, 4)])
def test_rules_8_nagari_carry_and_cap(streak, cap, factor):
    rules = dataclasses.replace(K2, nagari_cap=cap)
    pay = only_payment(settle(hand(p("A", *EIGHT), p("B", *SAFE_B), nagari_streak=streak), rules))
    assert pay.points == 8 * factor
    assert rules_of(pay).get("nagari") == (factor if factor > 1 else None)


@pytest.mark.parametrize(("rules", "points"), [(K2, 0), (C2, 16), (B2, 16)])
def test_rules_8_empty_loser_exempt(rules, points):
    result = settle(hand(p("A", *EIGHT), p("B")), rules)
    pay = only_payment(result)  # gwangbak x2 applies when B pays
    assert pay.points == points
    if points == 0:
        assert pay.factors[0].rule == "empty-loser" and "captured no card" in reason(pay.factors[0], pay, result)


def test_rules_8_factors_multiply_and_stake_turns_points_into_money():
    result = settle(hand(p("A", *A_JUNK, go_count=1, shakes=1), p("B", "dec-animal", "oct-junk-1"), stake=100), K2)
    pay = only_payment(result)
    assert result.base_points == 9 + 1  # 8 + 1 junk point, + 1 go
    assert rules_of(pay) == {"shake": 2, "pibak": 2, "gwangbak": 2}
    assert (pay.points, pay.amount) == (80, 8000)
    assert (
        explanation(result)[1] == "B pays A 10 × 2 (shake) × 2 (pibak) × 2 (gwangbak) = 80 points (8,000 at 100 a "
        "point)"
    )


def test_rules_8_three_players_each_loser_has_its_own_factors():
    result = settle(
        hand(
            p("A", "jan-bright", "mar-bright", "aug-bright"), p("B", "nov-bright", "oct-junk-1"), p("C", "oct-junk-2")
        ),
        K3,
    )
    b, c = result.payments
    assert (b.points, c.points) == (3, 6)
    assert "gwangbak" in rules_of(c) and "gwangbak" not in rules_of(b)


def test_rules_9_nagari_nobody_pays_and_carries():
    result = settle(hand(p("A", *EIGHT), p("B"), winner=None, outcome="nagari", nagari_streak=1), K2)
    assert (result.outcome, result.winner, result.payments, result.base_points) == ("nagari", None, (), 0)
    assert "×4" in explanation(result)[-1]


@pytest.mark.parametrize(
    ("outcome", "rules", "points"),
    [("chongtong", K2, 10), ("chongtong", K3, 5), ("three-ppuk", K2, 7), ("heodang", K3, 3)],
)
def test_rules_8_instant_wins_pay_fixed_points_times_carry_only(outcome, rules, points):
    players = [p("A"), p("B"), p("C")][: rules.players]
    result = settle(hand(*players, outcome=outcome, nagari_streak=1), rules)
    assert result.outcome == outcome
    assert all(pay.points == points * 2 and rules_of(pay) == {"nagari": 2} for pay in result.payments)


def test_rules_8_instant_win_switched_off_is_refused():
    with pytest.raises(HandError) as err:
        settle(hand(p("A"), p("B"), outcome="heodang"), K2)
    assert err.value.code == "invalid-outcome"


@pytest.mark.parametrize(
    ("players", "kw", "error", "code", "context"),
    [
        ([p("A", *EIGHT)], {}, HandError, "player-count", {}),
        ([p("A", *EIGHT), p("A")], {}, HandError, "duplicate-player", {"player": "A"}),
        (
            [p("A", *EIGHT), p("B", "jan-bright")],
            {},
            CardError,
            "duplicate-card",
            {"player": "B", "card": "jan-bright"},
        ),
        ([p("A", *EIGHT), p("B", "bonus-2b")], {}, CardError, "bonus-not-in-play", {"player": "B", "card": "bonus-2b"}),
        ([p("A", *EIGHT), p("B")], {"winner": "Z"}, HandError, "unknown-winner", {"player": "Z"}),
        ([p("A", *EIGHT[:5]), p("B")], {}, HandError, "winner-below-target", {"player": "A"}),
        ([p("A", *EIGHT), p("B", go_count=-1)], {}, HandError, "negative-count", {"player": "B"}),
        ([p("A", *EIGHT), p("B", shakes=-1)], {}, HandError, "negative-count", {"player": "B"}),
    ],
)
def test_settle_validation_names_player_and_card(players, kw, error, code, context):
    with pytest.raises(error) as err:
        settle(hand(*players, **kw), K2)
    assert err.value.code == code
    assert err.value.context == context


def test_settle_refuses_a_cup_pinned_as_junk_when_the_rules_say_animal():
    with pytest.raises(HandError) as err:
        settle(hand(p("A", *EIGHT), p("B", "sep-animal", sep_animal_as="junk")), C2)
    assert (err.value.code, err.value.context) == ("sep-animal-pin", {"player": "B", "card": "sep-animal"})


# --- settling from what the table says: declared counts (API.md v1.2) -------------------------------------


def said(player: PlayerHand, rules, *, winner: bool) -> PlayerHand:
    """The same player, with the counts their cards make instead of the cards (the cup where it counted)."""
    from engine import Declared
    from engine.scoring import evaluate

    s = evaluate(player.captured, rules, player.sep_animal_as)
    counts = Declared(
        s.total if winner else None, s.brights, s.rain, s.animals, s.ribbons, s.junk_units, s.sep_animal_as or "none"
    )
    return PlayerHand(player.id, (), player.go_count, player.shakes, player.bombs, declared=counts)


def both_ways(result):
    """What must not depend on cards or counts: every payment and every check but the marks of what was said."""
    rows = []
    for pay in result.payments:
        checks = [
            (
                c.rule,
                c.applied,
                c.factor,
                c.reason,
                {k: v for k, v in c.facts.items() if k not in ("declared", "loser_cards")},
            )
            for c in pay.checks
        ]
        rows.append((pay.payer, pay.payee, pay.points, pay.amount, pay.covers, checks))
    return result.outcome, result.winner, result.base_points, rows


def test_a_hand_settles_alike_from_its_cards_and_from_the_counts_they_make():
    """API.md v1.2: the counts decide every check exactly as the cards would (RULES.md 3, 8), player by player
    and all of them at once, for hands of every preset."""
    from engine.simulate import simulate
    from tests.simulated import replay_body

    seen = 0
    for preset in ("korean-2p", "korean-3p", "chips-2p", "chips-3p", "basic-2p"):
        for seed in range(40):
            state = replay_body(simulate(preset, seed).to_dict()).state
            if state.outcome != "stop":
                continue
            hand_result = state.hand_result(1, 100)
            rules = state.rules
            cards = settle(hand_result, rules)
            for who in [*(p.id for p in hand_result.players), "all"]:
                players = tuple(
                    said(p, rules, winner=p.id == hand_result.winner) if who in (p.id, "all") else p
                    for p in hand_result.players
                )
                counts = settle(hand_result.replace(players=players), rules)
                assert both_ways(counts) == both_ways(cards), (preset, seed, who)
                seen += 1
    assert seen > 300


def test_a_check_resting_on_counts_says_so_and_a_loser_who_says_nothing_is_exempt():
    from engine import Declared

    winner = PlayerHand("A", go_count=1, declared=Declared(9, brights=3, animals=3, junk_units=10))
    empty = PlayerHand("B", declared=Declared())
    result = settle(HandResult((winner, empty), "A"), K2)
    checks = {c.rule: c for c in only_payment(result).checks}
    assert checks["empty-loser"].applied and only_payment(result).points == 0  # RULES.md 8: nothing captured
    assert checks["pibak"].facts["declared"] is True and checks["empty-loser"].facts == {
        "loser_cards": 0,
        "declared": True,
    }
    assert "declared" not in checks["nagari"].facts
    assert result.base_points == 10 and result.score.total == 9


A8 = {"points": 8, "brights": 3, "animals": 3}  # 3 brights (3) and godori (5): a winner's 8 points


@pytest.mark.parametrize(
    ("a", "b", "code", "why"),
    [
        ({**A8, "brights": 6}, {}, "impossible-counts", "more-than-the-deck"),
        (A8, {"brights": 3}, "impossible-counts", "more-than-the-deck-together"),
        ({**A8, "animals": 10}, {}, "impossible-counts", "more-than-the-deck"),
        ({**A8, "junk_units": 34}, {}, "impossible-counts", "more-than-the-deck"),
        (A8, {"rain": True}, "impossible-counts", "rain-without-bright"),
        ({**A8, "animals": 0, "cup": "animal"}, {}, "impossible-counts", "cup-not-counted"),
        ({**A8, "cup": "animal"}, {"animals": 1, "cup": "animal"}, "impossible-counts", "one-of-a-kind-twice"),
        ({**A8, "points": 9}, {}, "impossible-points", "unreachable"),
        ({**A8, "points": None}, {}, "impossible-points", "points-required"),
        (A8, {"points": 1}, "impossible-points", "points-for-a-loser"),
        ({"points": 3, "brights": 3}, {}, "winner-below-target", "winner-below-target"),
        ({**A8, "brights": -1}, {}, "negative-count", "negative-count"),
    ],
)
def test_counts_no_deal_could_give_are_refused(a, b, code, why):
    """API.md v1.2: more than the deck holds (RULES.md 1: 5 brights, 9 animals, 10 ribbons, 33 junk units under
    korean-2p: 22 plain junk, 2 double junk, bonus-2a and bonus-3, and the cup as a double junk), the rain
    bright or the cup where the counts leave no room, points the counts cannot make (RULES.md 2: 3 brights and 3
    animals make 3, or 8 with godori), points for a loser. The points are checked once every count is."""
    from engine import Declared

    with pytest.raises(HandError) as err:
        settle(HandResult((PlayerHand("A", declared=Declared(**a)), PlayerHand("B", declared=Declared(**b))), "A"), K2)
    assert (err.value.code, err.value.why) == (code, why)


def test_points_the_counts_can_make_are_every_score_cards_with_them_can():
    """RULES.md 2: 3 brights (3 points) and 6 ribbons (2 points) make 5; the 3 animals may be the birds (godori,
    5 more), and the 6 ribbons up to two ribbon sets (3 more each): 5, 8, 10, 11, 13 and 16."""
    from engine import Declared

    assert Declared(None, brights=3, animals=3, ribbons=6).reachable_points(RuleSet()) == [5, 8, 10, 11, 13, 16]
    # the cup counted as an animal cannot be a bird: two other animals make no godori
    assert Declared(None, animals=3, cup="animal").reachable_points(RuleSet()) == [0]
