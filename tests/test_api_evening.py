"""POST /v1/evening (API.md v1.2, RULES.md 11): the evening's ledger over HTTP.

Every number asserted below is worked out in the comments from RULES.md 2 (combination score), 8 (settlement),
9 (nagari) and 11 (the evening), never read off an answer. Each hand's settlement is the one /v1/settle or
/v1/replay gives for the same hand with the carry written in: the tests ask them and compare.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.simulate import simulate
from service.answers import LANGUAGES, EveningRequest, evening_answer
from service.i18n import fit
from tests.http import assert_problem

# RULES.md 2: three brights without the rain bright (3) and godori (5): 8 points, and only 3 animals (no
# meongtta); no junk points, so nobody is pibak (RULES.md 8.2)
EIGHT = ["jan-bright", "mar-bright", "aug-bright", "feb-animal", "apr-animal", "aug-animal"]
JUNK_8 = [
    "apr-junk-1",
    "apr-junk-2",
    "may-junk-1",
    "may-junk-2",
    "jun-junk-1",
    "jun-junk-2",
    "jul-junk-1",
    "jul-junk-2",
]
WITH_BRIGHT = ["nov-bright", *JUNK_8]  # a loser with a bright is not gwangbak
NO_BRIGHT = JUNK_8  # a loser without one is (x2)
LOSER_BRIGHT = ["nov-bright", "may-junk-1", "may-junk-2", "jun-junk-1", "jun-junk-2", "jul-junk-1", "jul-junk-2"]
LOSER_BARE = ["oct-junk-1", "oct-junk-2", "sep-junk-1"]
LOSER_RAIN = ["dec-bright", "oct-junk-1"]


def stop(winner: str, **piles: list[str]) -> dict:
    return {"players": [{"id": p, "captured": pile} for p, pile in piles.items()], "winner": winner}


def nagari(*players: str) -> dict:
    return {"players": [{"id": p} for p in players], "winner": None}


def ask(client, body, lang="en"):
    return client.post("/v1/evening", json=body, headers={"Accept-Language": lang})


def ledger(client, body, lang="en") -> dict:
    resp = ask(client, body, lang)
    assert resp.status_code == 200, resp.get_json()
    return resp.get_json()


def carries(answer) -> list[tuple[int, int, int, int]]:
    return [
        tuple(h["carry"][k] for k in ("nagari_streak", "nagari_factor", "push", "push_factor")) for h in answer["hands"]
    ]


def limit(row, rule):
    (found,) = [lim for lim in row["limits"] if lim["rule"] == rule]
    return found


def transfers(answer) -> list[tuple[str, str, int]]:
    return [(t["from"], t["to"], t["amount"]) for t in answer["transfers"]]


# --- an evening of two ------------------------------------------------------------------------------------------

TWO = {
    "rules": {"preset": "korean-2p", "push": 2, "all_in": True},
    "people": ["A", "B"],
    "balances": {"A": 3000, "B": 2000},
    # 11.2: both draw March, a tie, and draw again: November against February, and at night the lower deals
    "dealer_draw": {
        "time": "night",
        "rounds": [{"A": "mar-junk-1", "B": "mar-ribbon"}, {"A": "nov-bright", "B": "feb-animal"}],
    },
    "stake": 100,
    "hands": [
        {"settle": stop("A", A=EIGHT, B=WITH_BRIGHT), "push": True},
        {"settle": nagari("A", "B")},
        {"settle": stop("B", B=EIGHT, A=NO_BRIGHT)},
    ],
}


def test_rules_11_two_players_dealers_carry_all_in_and_settle_up(client):
    answer = ledger(client, TWO)
    # 11.2: B drew February, the lowest month at night, in the second round: B deals hand 0; A wins it and
    # deals hand 1, a nagari, so A deals hand 2 too; B wins hand 2 and deals next
    assert answer["first_dealer"] == {
        "dealer": "B",
        "by": "draw",
        "time": "night",
        "months": {"A": 11, "B": 2},
        "rounds": 2,
    }
    assert [h["dealer"] for h in answer["hands"]] == ["B", "A", "A"]
    # 11.3: hand 1 carries A's push (x2); hand 2 the push and one nagari (x2 each, RULES.md 8.2)
    assert carries(answer) == [(0, 1, 0, 1), (0, 1, 1, 2), (1, 2, 1, 2)]
    pushed, drawn, last = answer["hands"]
    # hand 0: 8 points (RULES.md 2), B holds a bright and A scores no junk: 8 x 100 = 800 owed; A pushes, so
    # nothing is paid (11.3)
    (row,) = pushed["paid"]
    assert (row["from"], row["to"], row["owed"], row["amount"]) == ("B", "A", 800, 0)
    assert limit(row, "push")["applied"] and pushed["pushed"] and pushed["totals"] == {"A": 0, "B": 0}
    assert drawn["paid"] == [] and drawn["settlement"]["outcome"] == "nagari"
    # hand 2: B stops at 8 and A holds no bright: gwangbak x2, nagari x2, push x2: 64 points, 6,400; A holds
    # 3,000: all-in, A pays 3,000 and 3,400 is forgiven (11.4)
    (payment,) = last["settlement"]["payments"]
    assert (payment["points"], payment["amount"]) == (64, 6400)
    assert {f["rule"]: f["factor"] for f in payment["factors"]} == {"gwangbak": 2, "nagari": 2, "push": 2}
    (row,) = last["paid"]
    assert (row["owed"], row["amount"]) == (6400, 3000)
    assert limit(row, "all-in")["facts"] == {"owed": 6400, "balance": 3000, "paid": 3000, "forgiven": 3400}
    assert last["balances"] == {"A": 0, "B": 5000}
    # 11.2, 11.3: B won, so B deals next; the push was used up and the streak ended
    assert answer["next"] == {
        "dealer": "B",
        "nagari_streak": 0,
        "nagari_factor": 1,
        "push": 0,
        "push_factor": 1,
        "nagari_capped": False,
    }
    # 11.5: A lost 3,000 to B: one transfer
    assert answer["totals"] == {"A": -3000, "B": 3000} and answer["balances"] == {"A": 0, "B": 5000}
    assert transfers(answer) == [("A", "B", 3000)]
    assert answer["rules"]["push"] == 2 and answer["engine_version"]


def test_rules_8_2_the_next_hand_says_its_nagari_carry_and_whether_the_cap_cut_it(client):
    # three nagari hands in a row: x2 each makes 8, which nagari_cap 4 cuts to 4; without a cap, 8 (RULES.md 8.2)
    hands = [{"settle": nagari("A", "B")}] * 3
    capped = ledger(client, {"rules": {"preset": "korean-2p", "nagari_cap": 4}, "people": ["A", "B"], "hands": hands})
    free = ledger(client, {"rules": "korean-2p", "people": ["A", "B"], "hands": hands})
    carry = ("nagari_streak", "nagari_factor", "nagari_capped")
    assert [capped["next"][k] for k in carry] == [3, 4, True]
    assert [free["next"][k] for k in carry] == [3, 8, False]


def test_rules_11_a_hand_of_the_evening_is_rendered_as_settle_renders_it_with_its_carry(client):
    answer = ledger(client, TWO)
    # hand 2 of the evening is /v1/settle's ruling of the same hand after one nagari, at the evening's stake;
    # only the push (an evening's rule, RULES.md 11.3) is not /v1/settle's to check
    alone = client.post(
        "/v1/settle", json={"rules": TWO["rules"], **TWO["hands"][2]["settle"], "nagari_streak": 1, "stake": 100}
    ).get_json()
    evening_settlement = answer["hands"][2]["settlement"]
    assert alone["winner"] == evening_settlement["winner"] and alone["score"] == evening_settlement["score"]
    without_push = [c for c in evening_settlement["payments"][0]["checks"] if c["rule"] != "push"]
    assert without_push == alone["payments"][0]["checks"]
    # the nagari just before is said in both, with its factor
    assert [c["reason"] for c in without_push if c["rule"] == "nagari"] == [
        "The hand just before this one was nagari: ×2"
    ]


def test_rules_11_a_logged_hand_is_priced_with_its_carry_and_pays_its_instant_payments(client):
    body = simulate("korean-2p", seed=11).to_dict()  # B wins; A paid B a first-turn ppuk on the spot (RULES.md 8.6)
    log = {k: body[k] for k in ("players", "deal", "moves")}
    answer = ledger(
        client,
        {
            "rules": "korean-2p",
            "people": ["A", "B"],
            "stake": 10,
            "hands": [{"settle": nagari("A", "B")}, {"replay": log}],
        },
    )
    alone = client.post("/v1/replay", json={**body, "nagari_streak": 1, "stake": 10}).get_json()
    logged = answer["hands"][1]
    assert logged["settlement"] == alone["settlement"]  # as /v1/replay prices it after one nagari
    assert logged["instant_payments"] == alone["instant_payments"]
    (ppuk,) = alone["instant_payments"]
    (result,) = alone["settlement"]["payments"]
    # 11.4: the instant payment first, then the result
    assert [(r["from"], r["to"], r["amount"], r["source"]) for r in logged["paid"]] == [
        (ppuk["from"], ppuk["to"], ppuk["amount"], "first-ppuk"),
        (result["from"], result["to"], result["amount"], "settlement"),
    ]
    assert answer["totals"]["B"] == ppuk["amount"] + result["amount"] and answer["next"]["dealer"] == "B"


# --- an evening of three ----------------------------------------------------------------------------------------

THREE = {
    "rules": {"preset": "korean-3p", "push": 1, "all_in": True, "limited_liability": True},
    "people": ["A", "B", "C"],
    "balances": {"A": 300, "B": 400, "C": 150},
    "first_dealer": "C",
    "stake": 10,
    "hands": [
        {"settle": stop("B", B=EIGHT, A=LOSER_BRIGHT, C=LOSER_RAIN), "push": True},
        {"settle": nagari("A", "B", "C")},
        {"settle": stop("A", A=EIGHT, B=LOSER_BRIGHT, C=LOSER_BARE)},
        {"settle": stop("C", C=EIGHT, A=LOSER_BRIGHT, B=LOSER_BARE)},
    ],
}


def test_rules_11_three_players_a_push_a_nagari_all_in_and_limited_liability(client):
    answer = ledger(client, THREE)
    # 11.2: C deals first as named; B wins hand 0 (pushed: the winner still deals), hand 1 is a nagari and B
    # deals again, A wins hand 2 and deals hand 3, which C wins: C deals next
    assert answer["first_dealer"]["by"] == "given"
    assert [h["dealer"] for h in answer["hands"]] == ["C", "B", "B", "A"] and answer["next"]["dealer"] == "C"
    # 11.3: the push waits through the nagari and is used up by hand 2
    assert carries(answer) == [(0, 1, 0, 1), (0, 1, 1, 2), (1, 2, 1, 2), (0, 1, 0, 1)]
    _, _, capped, small = answer["hands"]
    # hand 2: A stops at 8, x2 nagari, x2 push: B (a bright) owes 32 points, 320; C (none: gwangbak) 64, 640.
    # All-in first: C holds 150 and pays that (490 forgiven). Then limited liability: A began with 300, and
    # 320 + 150 = 470 is owed: B 300 x 320 / 470 = 204.2, C 300 x 150 / 470 = 95.7, rounded down 299, the
    # unit left to C's larger remainder: B 204, C 96 (11.4)
    b, c = capped["paid"]
    assert (b["owed"], c["owed"]) == (320, 640) and (b["amount"], c["amount"]) == (204, 96)
    assert limit(c, "all-in")["facts"] == {"owed": 640, "balance": 150, "paid": 150, "forgiven": 490}
    assert limit(b, "limited-liability")["facts"]["waived"] == 320 - 204
    assert capped["balances"] == {"A": 600, "B": 196, "C": 54}
    # hand 3: C stops at 8: A (a bright) owes 80, B (gwangbak) 160; C began the hand with 54: A pays
    # 54 x 80 / 240 = 18, B 54 x 160 / 240 = 36
    assert [(r["from"], r["owed"], r["amount"]) for r in small["paid"]] == [("A", 80, 18), ("B", 160, 36)]
    # A: +300 - 18 = 282; B: -204 - 36 = -240; C: -96 + 54 = -42
    assert answer["totals"] == {"A": 282, "B": -240, "C": -42}
    assert answer["balances"] == {"A": 582, "B": 160, "C": 108}
    # 11.5: no two of them cancel out: two transfers, both to A
    assert transfers(answer) == [("B", "A", 240), ("C", "A", 42)]


def test_rules_11_the_explanation_reads_the_evening_aloud_in_both_languages(client):
    en = ledger(client, THREE)
    ko = ledger(client, THREE, "ko")
    assert en["explanation"] == [
        "C deals first, as the table named",
        "After 4 hands:",
        "A is up 282 and holds 582",
        "B is down 240 and holds 160",
        "C is down 42 and holds 108",
        "Next hand: C deals",
        "To settle up, B pays A 240",
        "To settle up, C pays A 42",
    ]
    assert [h["explanation"][0] for h in en["hands"]] == [f"Hand {n}, dealt by {d}" for n, d in enumerate("CBBA", 1)]
    assert ko["hands"][3]["explanation"][0] == "넷째 판, 선은 A"
    assert en["hands"][0]["explanation"][1:3] == [
        "B pushes the hand: A pays nothing of the 80 owed, and the next hand pays ×2",
        "B pushes the hand: C pays nothing of the 80 owed, and the next hand pays ×2",
    ]
    assert "An earlier push carries into this hand: ×2" in en["hands"][1]["explanation"]
    # the words change with the language, nothing else does
    assert ko["explanation"][0] == "C가 첫 판의 선입니다 (자리에서 정한 대로)"
    assert all(any("가" <= ch <= "힣" for ch in line) for line in ko["explanation"])
    strip = lambda a: {k: v for k, v in a.items() if k not in ("explanation", "hands")}  # noqa: E731
    assert strip(en) == strip(ko)
    assert [h["paid"][0]["amount"] if h["paid"] else None for h in en["hands"]] == [
        h["paid"][0]["amount"] if h["paid"] else None for h in ko["hands"]
    ]


def test_rules_11_four_people_at_a_table_of_three_one_sits_each_hand_out(client):
    # RULES.md 11.1: with more people than the rules' players, three of the four play each hand, the dealer
    # among them (11.2). A deals (listed first) and B wins; then B deals a hand that D plays and A sits out.
    body = {
        "rules": "korean-3p",
        "people": ["A", "B", "C", "D"],
        "hands": [
            {"settle": stop("B", B=EIGHT, A=LOSER_BRIGHT, C=LOSER_RAIN)},
            {"settle": stop("D", D=EIGHT, B=LOSER_BRIGHT, C=LOSER_BARE)},
        ],
    }
    answer = ledger(client, body)
    assert [h["dealer"] for h in answer["hands"]] == ["A", "B"] and answer["next"]["dealer"] == "D"
    # hand 0: B takes 8 from A and 8 from C (each holds a bright); hand 1: D takes 8 from B and 16 from C
    # (gwangbak); A, who sat out, neither pays nor is paid
    assert answer["totals"] == {"A": -8, "B": 8, "C": -24, "D": 24}
    assert answer["hands"][1]["totals"]["A"] == -8
    # 11.5: {A, B} and {C, D} cancel out: two transfers
    assert transfers(answer) == [("A", "B", 8), ("C", "D", 24)]
    # with nobody to play a hand beside the four: a fifth is not at the table
    body["hands"].append({"settle": stop("D", D=EIGHT, E=LOSER_BRIGHT, A=LOSER_BARE)})
    problem = assert_problem(ask(client, body), 422, "player-not-at-table")
    assert (problem["hand_index"], problem["player"]) == (2, "E")


def test_rules_11_an_evening_without_hands_names_its_first_dealer(client):
    answer = ledger(
        client,
        {
            "people": ["A", "B", "C"],
            "dealer_draw": {"time": "day", "rounds": [{"A": "jan-bright", "B": "dec-double", "C": "jul-ribbon"}]},
        },
    )
    # 11.2: by day the highest month deals: December; three people and no rules: korean-3p
    assert answer["next"]["dealer"] == "B" and answer["rules"]["preset"] == "korean-3p"
    assert answer["hands"] == [] and answer["transfers"] == [] and answer["balances"] is None
    assert answer["explanation"][0] == "B deals first: by day the highest month deals, and B drew December (rain)"


# --- refusals ---------------------------------------------------------------------------------------------------

PAIR = {"settle": stop("A", A=EIGHT, B=WITH_BRIGHT)}
LOG = {k: v for k, v in simulate("korean-2p", seed=11).to_dict().items() if k in ("players", "deal", "moves")}


def _two(*hands, **more):
    return {
        "rules": {"preset": "korean-2p", "push": 1, "all_in": True},
        "people": ["A", "B"],
        "hands": list(hands),
        **more,
    }


@pytest.mark.parametrize(
    ("body", "code", "hand_index", "facts"),
    [
        (_two(PAIR, {"settle": stop("A", A=EIGHT, Z=WITH_BRIGHT)}), "player-not-at-table", 1, {"player": "Z"}),
        # the log lists A, who dealt, first; but A won hand 0, and then B cannot be the dealer of hand 1 (11.2)
        (_two(PAIR, {"replay": {**LOG, "players": ["B", "A"]}}), "hand-out-of-order", 1, {"player": "B"}),
        (_two(PAIR, {"settle": {**PAIR["settle"], "nagari_streak": 1}}), "carry-stated", 1, {}),
        (_two(PAIR, {"replay": {**LOG, "nagari_streak": 2}}), "carry-stated", 1, {}),
        (_two(PAIR, {"settle": {**PAIR["settle"], "stake": 5}}, stake=100), "stake-stated", 1, {}),
        (_two({"settle": nagari("A", "B"), "push": True}), "push-not-allowed", 0, {}),
        (_two({**PAIR, "push": True}, {**PAIR, "push": True}), "push-not-allowed", 1, {}),
        (_two({"replay": {**LOG, "moves": LOG["moves"][:5]}}), "hand-not-finished", 0, {}),
        (_two(PAIR, {"settle": stop("A", A=EIGHT, B=["jan-brite"])}), "unknown-card", 1, {"card": "jan-brite"}),
        (
            _two({"replay": {**LOG, "moves": [{**LOG["moves"][0], "play": "dec-bright"}, *LOG["moves"][1:]]}}),
            "card-not-in-hand",
            0,
            {"move_index": 0},
        ),
        # B holds 10, loses 8 x 2 (gwangbak) = 16 under all-in: pays 10 and holds nothing (11.4)
        (
            _two({"settle": stop("A", A=EIGHT, B=NO_BRIGHT)}, PAIR, balances={"A": 10, "B": 10}),
            "out-of-money",
            1,
            {"player": "B"},
        ),
    ],
)
def test_rules_11_a_refusal_in_a_hand_names_it(client, body, code, hand_index, facts):
    for lang in ("en", "ko"):
        problem = assert_problem(ask(client, body, lang), 422, code)
        assert problem["hand_index"] == hand_index and facts.items() <= problem.items()
        said = f"Hand {hand_index + 1}: " if lang == "en" else f"{fit(str(hand_index + 1), '째')} 판: "
        assert problem["detail"].startswith(said), problem["detail"]


@pytest.mark.parametrize(
    ("more", "code", "facts"),
    [
        ({"balances": {"A": 100, "B": -1}}, "negative-balance", {"player": "B"}),
        ({"balances": {"A": 100}}, "balance-missing", {"player": "B"}),
        ({"balances": {"A": 1, "B": 1, "Z": 1}}, "unknown-person", {"player": "Z"}),
        ({"first_dealer": "Z"}, "dealer-not-at-table", {"player": "Z"}),
        (
            {"first_dealer": "A", "dealer_draw": {"time": "day", "rounds": [{"A": "jan-bright", "B": "feb-ribbon"}]}},
            "first-dealer",
            {},
        ),
        ({"dealer_draw": {"time": "night", "rounds": [{"A": "jan-junk-1", "B": "jan-junk-2"}]}}, "bad-draw", {}),
        (
            {"dealer_draw": {"time": "night", "rounds": [{"A": "bonus-3", "B": "jan-junk-2"}]}},
            "bad-draw",
            {"player": "A"},
        ),
        ({"people": ["A", "B", "A"]}, "duplicate-person", {"player": "A"}),
        ({"rules": "korean-3p"}, "people-count", {}),
    ],
)
def test_rules_11_what_an_evening_cannot_start_from(client, more, code, facts):
    problem = assert_problem(ask(client, {**_two(PAIR), **more}), 422, code)
    assert "hand_index" not in problem and facts.items() <= problem.items()


def test_a_hand_is_a_result_or_a_log(client):
    problem = assert_problem(ask(client, _two({"push": True})), 422, "validation-error")
    assert problem["errors"] == {"hands.0.settle": ["Missing data for required field."]}
    problem = assert_problem(ask(client, _two({"settle": PAIR["settle"], "replay": LOG})), 422, "validation-error")
    assert problem["errors"] == {"hands.0.replay": ["Unknown field."]}
    problem = assert_problem(
        ask(client, _two({"settle": {**PAIR["settle"], "rules": "korean-2p"}})), 422, "validation-error"
    )
    assert problem["errors"] == {"hands.0.settle.rules": ["Unknown field."]}  # the rules are the evening's
    problem = assert_problem(ask(client, _two(PAIR, people=["A", "B", "C", "D", "E", "F"])), 422, "validation-error")
    assert "people" in problem["errors"]


# --- a property of whole evenings, through the answer function --------------------------------------------------

THREE_PILES = (EIGHT, LOSER_BRIGHT, LOSER_BARE)


@st.composite
def evenings(draw):
    """A request for an evening of two or three players (four or five people at most), with the rules of the
    evening drawn, its hands built one by one from the ledger's own next dealer and balances."""
    players = draw(st.sampled_from([2, 3]))
    people = ["A", "B", "C", "D", "E"][: players + draw(st.integers(0, 2))]
    rules = {
        "preset": f"korean-{players}p",
        "all_in": draw(st.booleans()),
        "limited_liability": draw(st.booleans()),
        "push": draw(st.integers(0, 2)),
    }
    balances = draw(st.none() | st.fixed_dictionaries({p: st.integers(0, 400) for p in people}))
    body = {"rules": rules, "people": people, "balances": balances, "stake": draw(st.integers(1, 20)), "hands": []}
    for _ in range(draw(st.integers(0, 6))):
        answer = evening_answer(EveningRequest().load(body), LANGUAGES["en"])
        dealer, held = answer["next"]["dealer"], answer["balances"]
        can_play = [p for p in people if held is None or not rules["all_in"] or held[p] > 0]
        if dealer not in can_play or len(can_play) < players:
            break
        seated = [dealer, *draw(st.permutations([p for p in can_play if p != dealer]))[: players - 1]]
        if draw(st.integers(0, 4)) == 0:
            body["hands"].append({"settle": nagari(*seated)})
            continue
        winner = draw(st.sampled_from(seated))
        losers = [p for p in seated if p != winner]
        piles = draw(st.permutations(THREE_PILES[1:]))
        hand = stop(winner, **{winner: EIGHT}, **dict(zip(losers, piles, strict=False)))
        push = rules["push"] > answer["next"]["push"] and draw(st.booleans())
        body["hands"].append({"settle": hand, "push": push})
    return body


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(evenings())
def test_rules_11_the_transfers_square_the_totals_from_net_losers_to_net_winners(body):
    answer = evening_answer(EveningRequest().load(body), LANGUAGES["en"])
    totals = answer["totals"]
    assert sum(totals.values()) == 0  # money only changes hands
    moved = dict.fromkeys(body["people"], 0)
    for t in answer["transfers"]:
        assert t["amount"] > 0 and totals[t["from"]] < 0 < totals[t["to"]]  # a net loser pays a net winner
        moved[t["from"]] -= t["amount"]
        moved[t["to"]] += t["amount"]
    assert moved == totals  # the settle-up squares the evening (11.5)
    if body["balances"] is not None:  # and the balances changed by exactly the totals
        assert {p: answer["balances"][p] - body["balances"][p] for p in body["people"]} == totals
    running = dict.fromkeys(body["people"], 0)
    for hand in answer["hands"]:
        for row in hand["paid"]:
            running[row["from"]] -= row["amount"]
            running[row["to"]] += row["amount"]
        assert hand["totals"] == running  # each hand's totals are the payments made so far, nothing else
    for lang in ("en", "ko"):  # every fact a sentence names was there to name ("?" stands for a missing one)
        said = evening_answer(EveningRequest().load(body), LANGUAGES[lang])
        lines = [*said["explanation"], *(line for hand in said["hands"] for line in hand["explanation"])]
        lines += [lim["reason"] for hand in said["hands"] for row in hand["paid"] for lim in row["limits"]]
        assert not [line for line in lines if "?" in line]
