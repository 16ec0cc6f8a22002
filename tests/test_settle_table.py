"""POST /v1/settle with what the table says (API.md v1.2) and with the house rules of issue 19 (RULES.md 4.5, 5.5):
``declared`` counts instead of captured cards, the refusals the rule book implies, two-card bombs, and the fourth
who sat out and sold their brights."""

from __future__ import annotations

from typing import Any

import pytest

from tests.http import assert_problem

# RULES.md 2: 3 brights (3 points), 10 junk units (1) and, the 3 animals being the birds, godori (5): 9 points
WINNER = {"points": 9, "brights": 3, "animals": 3, "junk_units": 10}
SAID = {
    "rules": "korean-2p",
    "winner": "A",
    "stake": 100,
    "players": [
        {"id": "A", "go_count": 1, "declared": WINNER},
        {"id": "B", "declared": {"ribbons": 1, "junk_units": 6}},
    ],
}


def _said(body: dict[str, Any]) -> dict[str, Any]:
    """The same request with every player's counts instead of their cards (the cup where it was counted; the
    winner's combination score as their points)."""
    from engine import resolve
    from engine.cards import parse_cards
    from engine.scoring import evaluate

    rules = resolve(body.get("rules"), players=len(body["players"]))
    players = []
    for p in body["players"]:
        s = evaluate(parse_cards(p["captured"]), rules, p.get("sep_animal_as"))
        counts = {
            "brights": s.brights,
            "rain": s.rain,
            "animals": s.animals,
            "ribbons": s.ribbons,
            "junk_units": s.junk_units,
            "cup": s.sep_animal_as or "none",
        }
        if p["id"] == body.get("winner"):
            counts["points"] = s.total
        rest = {k: v for k, v in p.items() if k not in ("captured", "sep_animal_as")}
        players.append({**rest, "declared": counts})
    return {**body, "players": players}


def _ruling(answer: dict[str, Any]) -> Any:
    """What must not depend on cards or counts: the refusal's code, or every payment and check (their facts but
    the marks of what was said, and not the reasons' words, which say so)."""
    if "code" in answer:
        return answer["code"]
    payments = [
        (
            p["from"],
            p["to"],
            p["points"],
            p["amount"],
            p["covers"],
            [
                (
                    c["rule"],
                    c["applied"],
                    c["factor"],
                    {k: v for k, v in c["facts"].items() if k not in ("declared", "loser_cards")},
                )
                for c in p["checks"]
            ],
        )
        for p in answer["payments"]
    ]
    total = answer["score"]["total"] if answer["score"] else None
    return answer["outcome"], answer["winner"], answer["base_points"], total, payments


CARD_CODES = {"unknown-card", "duplicate-card", "bonus-not-in-play"}


def _settle_cases() -> list[dict[str, Any]]:
    """Every /v1/settle request of the tests: those of tests/test_answers.py (the documented examples, the
    refusals, and the settles of simulated hands of every preset at several stakes, streaks, overrides and
    outcomes), the hands replayed here by the engine."""
    from engine import PRESETS
    from engine.simulate import simulate
    from service import settlement
    from tests.simulated import replay_body
    from tests.test_answers import REFUSALS, settles

    cases = [*settlement.EXAMPLES.values(), *(body for path, body in REFUSALS if path == "/v1/settle")]
    for preset in PRESETS:
        for seed in range(6):
            body = simulate(preset, seed).to_dict()
            result = replay_body(body)
            players = [
                {"id": s.id, "captured": s.captured.ids(), "go_count": s.go_count, "shakes": s.shakes, "bombs": s.bombs}
                for s in result.state.seats
            ]
            cases += settles(body["rules"], players, result.settlement.winner if result.settlement else None)
    return cases


def test_every_settle_case_settles_alike_from_its_cards_and_from_the_counts_they_make(client):
    """API.md v1.2: the same request with cards and with the counts they make settles identically (RULES.md 3, 8:
    pibak, gwangbak, meongtta, the cup's protection, the empty loser)."""
    cases = [
        body
        for body in _settle_cases()
        if isinstance(body.get("players"), list) and all("captured" in p for p in body["players"])
    ]
    assert len(cases) > 300
    compared = 0
    for body in cases:
        cards = client.post("/v1/settle", json=body).get_json()
        if cards.get("code") in CARD_CODES:  # counts name no card: a card twice or unknown is the cards' alone
            continue
        counts = client.post("/v1/settle", json=_said(body)).get_json()
        assert _ruling(counts) == _ruling(cards), body
        compared += 1
    assert compared > 300


def test_a_check_resting_on_counts_says_so_in_both_languages(client):
    for lang, mark in (("en", "counts said at the table"), ("ko", "말한 장수로 셈")):
        answer = client.post("/v1/settle", json=SAID, headers={"Accept-Language": lang}).get_json()
        checks = {c["rule"]: c for c in answer["payments"][0]["checks"]}
        assert answer["payments"][0]["points"] == 40  # (9 + 1) x2 pibak x2 gwangbak (RULES.md 8)
        for rule in ("pibak", "gwangbak", "meongtta", "empty-loser"):
            assert checks[rule]["facts"]["declared"] is True and mark in checks[rule]["reason"], rule
        assert "declared" not in checks["gobak"]["facts"] and mark not in checks["gobak"]["reason"]


def test_captured_and_declared_at_once_is_refused_naming_the_player(client):
    """API.md v1.2: a player gives the cards or the counts; both at once is refused by the rules (the request's
    shape is valid: schema-valid data is never a validation error), in both languages."""
    body = {**SAID, "players": [{**SAID["players"][0], "captured": ["jan-bright"]}, SAID["players"][1]]}
    en = assert_problem(client.post("/v1/settle", json=body, headers={"Accept-Language": "en"}), 422)
    ko = assert_problem(client.post("/v1/settle", json=body, headers={"Accept-Language": "ko"}), 422)
    assert (en["code"], en["player"]) == ("impossible-counts", "A")
    assert en["detail"] == "A gives both the cards captured and the counts of them: give one or the other"
    assert ko["detail"] == "A가 먹은 패와 그 장수를 함께 적었습니다: 둘 중 하나만 적어 주세요"


@pytest.mark.parametrize(
    ("a", "b", "code"),
    [
        ({**WINNER, "brights": 6}, {}, "impossible-counts"),  # RULES.md 1: five brights in the deck
        (WINNER, {"brights": 3}, "impossible-counts"),  # six between them
        (WINNER, {"rain": True}, "impossible-counts"),
        ({**WINNER, "points": 8}, {}, "impossible-points"),  # RULES.md 2: 4 or 9 with these counts
        ({**WINNER, "points": None}, {}, "impossible-points"),
        (WINNER, {"points": 1}, "impossible-points"),
        ({**WINNER, "junk_units": -1}, {}, "negative-count"),
    ],
)
def test_counts_no_deal_could_give_are_refused_with_a_code_and_words(client, a, b, code):
    body = {**SAID, "players": [{"id": "A", "declared": a}, {"id": "B", "declared": b}]}
    details = set()
    for lang in ("en", "ko"):
        problem = assert_problem(client.post("/v1/settle", json=body, headers={"Accept-Language": lang}), 422)
        assert problem["code"] == code
        details.add(problem["detail"])
    assert len(details) == 2 and not any("{" in d or "?" in d for d in details)


@pytest.mark.parametrize(
    ("rules", "player", "code"),
    [
        ("basic-2p", {"shakes": 1}, "shake-not-allowed"),  # RULES.md 5.4: basic-2p has no shakes
        ("basic-2p", {"bombs": 1}, "bomb-not-allowed"),
        ("korean-2p", {"two_card_bombs": 1}, "bomb-not-allowed"),  # RULES.md 5.5: two_card_bomb off
        ("korean-2p", {"go_count": 2}, "call-not-allowed"),  # RULES.md 7: a stop at 8 after 2 gos needs 9
    ],
)
def test_what_the_rule_book_rules_out_is_refused_not_dropped(client, rules, player, code):
    eight = ["jan-bright", "mar-bright", "aug-bright", "feb-animal", "apr-animal", "aug-animal"]  # 3 + godori 5
    body = {"rules": rules, "winner": "A", "players": [{"id": "A", "captured": eight, **player}, {"id": "B"}]}
    for lang in ("en", "ko"):
        problem = assert_problem(client.post("/v1/settle", json=body, headers={"Accept-Language": lang}), 422)
        assert (problem["code"], problem["player"]) == (code, "A")
        assert "A" in problem["detail"]


def test_two_card_bombs_count_for_the_bomb_multiplier_only_where_the_rules_say(client):
    """RULES.md 5.5: a two-card bomb doubles under bomb-multiplier, not under no-multiplier."""
    eight = ["jan-bright", "mar-bright", "aug-bright", "feb-animal", "apr-animal", "aug-animal"]
    factors = {}
    for choice in ("no-multiplier", "bomb-multiplier"):
        body = {
            "rules": {"preset": "korean-2p", "two_card_bomb": choice},
            "winner": "A",
            "players": [{"id": "A", "captured": eight, "two_card_bombs": 1}, {"id": "B", "captured": ["jan-junk-1"]}],
        }
        answer = client.post("/v1/settle", json=body).get_json()
        bomb = next(c for c in answer["payments"][0]["checks"] if c["rule"] == "bomb")
        factors[choice] = (bomb["applied"], bomb["factor"], "two-card" in bomb["reason"])
    assert factors == {"no-multiplier": (False, 1, True), "bomb-multiplier": (True, 2, True)}


SELLER = ["jan-bright", "mar-bright", "aug-bright", "aug-animal", "aug-junk-2", "bonus-2a", "oct-junk-2"]


def test_the_fourths_sale_is_in_the_settlement_and_its_words(client):
    """RULES.md 4.5: 3 brights and a bonus card at 1 each, plus the 3 points of three brights, doubled for three of
    August: 14 from each player other than the dealer, paid whatever comes of the hand (here a nagari)."""
    body = {
        "rules": {"preset": "korean-3p", "gwang_palgi": True},
        "winner": None,
        "stake": 10,
        "players": [{"id": "A"}, {"id": "B"}, {"id": "C"}],
        "sit_out": {"player": "D", "seat": 4, "hand": SELLER},
    }
    for lang in ("en", "ko"):
        answer = client.post("/v1/settle", json=body, headers={"Accept-Language": lang}).get_json()
        sale = answer["sale"]
        assert (sale["seller"], sale["payers"], sale["value"], sale["amount"], sale["month"]) == (
            "D",
            ["B", "C"],
            14,
            140,
            8,
        )
        assert sale["reason"] in answer["explanation"] and "14" in sale["reason"]
    seat_two = {**body, "sit_out": {"player": "D", "seat": 2, "hand": SELLER}}
    assert "sale" not in client.post("/v1/settle", json=seat_two).get_json()  # only the fourth sells


def test_a_sitter_the_rules_cannot_have_is_refused(client):
    body = {
        "rules": "korean-3p",
        "winner": None,
        "players": [{"id": "A"}, {"id": "B"}, {"id": "C"}],
        "sit_out": {"player": "D", "seat": 4, "hand": SELLER},
    }
    problem = assert_problem(client.post("/v1/settle", json=body, headers={"Accept-Language": "ko"}), 422)
    assert (problem["code"], problem["player"]) == ("sit-out-not-allowed", "D") and "넷이서" in problem["detail"]
    playing = {**body, "rules": {"preset": "korean-3p", "gwang_palgi": True}, "sit_out": {"player": "B", "seat": 2}}
    assert assert_problem(client.post("/v1/settle", json=playing), 422)["code"] == "sit-out-not-allowed"


def test_the_rules_catalog_describes_every_knob_in_both_languages(client):
    """GET /v1/rules: each knob with its kind, bounds or choices, and words (RULES.md 10), the house rules of issue
    19 among them."""
    from engine import KNOBS

    labels = {}
    for lang in ("en", "ko"):
        knobs = {k["name"]: k for k in client.get("/v1/rules", headers={"Accept-Language": lang}).get_json()["knobs"]}
        assert list(knobs) == list(KNOBS)
        assert [c["value"] for c in knobs["two_card_bomb"]["choices"]] == ["off", "no-multiplier", "bomb-multiplier"]
        assert (knobs["four_brights_points"]["minimum"], knobs["four_brights_points"]["maximum"]) == (4, 15)
        assert knobs["gwang_palgi"]["kind"] == "bool"
        labels[lang] = knobs
    assert labels["ko"]["two_card_bomb"]["label"] == "두 장 폭탄"
    assert labels["ko"]["steal_dealt_stack"]["label"] == "깔린 석 장을 먹고 뺏는 피"
    assert labels["ko"]["steal_stack"]["label"] == "뻑 먹기로 뺏는 피"
    for name in KNOBS:
        assert labels["en"][name]["label"] != labels["ko"][name]["label"], name
