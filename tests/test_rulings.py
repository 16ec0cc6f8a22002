"""Why each rule of RULES.md 8 did or did not apply (API.md v1.1 ``checks``), read in English and Korean.

Each case is one a table argues about; the check must say what happened, with the facts it rests on, in words
a player accepts in either language.
"""

from __future__ import annotations

import math
import re

from hypothesis import given, settings
from hypothesis import strategies as st

from engine import PRESETS, checked_rules, resolve
from engine.simulate import simulate
from tests.simulated import replay_body

A_WINS = ["jan-bright", "mar-bright", "aug-bright", "feb-animal", "apr-animal", "aug-animal"]  # 3 + 5 = 8 points
TEN_JUNK = [f"{m}-junk-{n}" for m in ("jan", "feb", "mar", "apr", "may") for n in (1, 2)]
HANGUL = re.compile("[가-힣]")


def settle(client, body, lang="en"):
    resp = client.post("/v1/settle", json=body, headers={"Accept-Language": lang})
    assert resp.status_code == 200, resp.get_json()
    return resp.get_json()


def check(answer, rule, payer="B"):
    pay = next(p for p in answer["payments"] if p["from"] == payer)
    (found,) = [c for c in pay["checks"] if c["rule"] == rule]
    return found


def both(client, body, rule, payer="B"):
    """The check in English and in Korean; the machine fields must be the same in both."""
    en, ko = (check(settle(client, body, lang), rule, payer) for lang in ("en", "ko"))
    assert {k: v for k, v in en.items() if k != "reason"} == {k: v for k, v in ko.items() if k != "reason"}
    assert HANGUL.search(ko["reason"]) and not re.search(r"[a-z]{3,}", ko["reason"]), ko["reason"]
    return en, ko


def two(a, b, **kw):
    return {"rules": kw.pop("rules", "korean-2p"), "players": [a, b], "winner": "A", **kw}


def test_rules_3_and_8_pibak_escaped_because_the_cup_counted_as_double_junk(client):
    # A scores junk; B holds 6 junk units and the cup: 8 units with the cup as a double junk, more than 7
    body = two(
        {"id": "A", "captured": [*A_WINS, *TEN_JUNK]},
        {
            "id": "B",
            "captured": [
                "sep-animal",
                "jun-junk-1",
                "jun-junk-2",
                "jul-junk-1",
                "jul-junk-2",
                "oct-junk-1",
                "oct-junk-2",
            ],
        },
    )
    en, ko = both(client, body, "pibak")
    assert (en["applied"], en["factor"]) == (False, 1)
    assert en["facts"] == {"loser_junk_units": 8, "threshold": 7, "cup_as": "junk"}
    assert en["reason"] == "B is not pibak: with the cup counted as double junk, B has 8 junk units, more than 7"
    assert all(word in ko["reason"] for word in ("피박", "국진", "쌍피", "8"))


def test_rules_8_pibak_escaped_with_no_junk_where_the_rules_spare_it(client):
    body = two({"id": "A", "captured": [*A_WINS, *TEN_JUNK]}, {"id": "B", "captured": ["nov-bright"]})
    en, ko = both(client, body, "pibak")
    assert (en["applied"], en["facts"]["loser_junk_units"]) == (False, 0)
    assert en["reason"] == "B is not pibak: B has no junk at all, and these rules spare a loser with none"
    assert "피박" in ko["reason"]
    chips = settle(client, {**body, "rules": "chips-2p"})  # no such exemption: pibak x2
    assert check(chips, "pibak")["applied"] is True


def test_rules_8_gwangbak_escaped_with_the_rain_bright(client):
    body = two({"id": "A", "captured": A_WINS}, {"id": "B", "captured": ["dec-bright"]})
    en, ko = both(client, body, "gwangbak")
    assert (en["applied"], en["facts"]) == (False, {"loser_brights": 1, "rain": True})
    assert en["reason"] == "B is not gwangbak: B has the rain bright, and any bright counts"
    assert "광박" in ko["reason"] and "비광" in ko["reason"]


def test_rules_3_and_8_meongtta_with_the_cup_as_an_animal(client):
    animals = ["feb-animal", "apr-animal", "aug-animal", "may-animal", "jun-animal", "jul-animal", "sep-animal"]
    body = two({"id": "A", "captured": animals}, {"id": "B", "captured": ["nov-bright"]})
    en, ko = both(client, body, "meongtta")
    assert (en["applied"], en["factor"], en["facts"]) == (
        True,
        2,
        {"winner_animals": 7, "threshold": 7, "cup_as": "animal"},
    )
    assert en["reason"] == "A has 7 animals, the cup counted as one: meongtta (7 or more)"
    assert "멍따" in ko["reason"] and "국진" in ko["reason"]


def test_rules_8_gobak_with_two_go_callers_in_three_players(client):
    """korean-3p gobak pays-all: the latest go-caller pays every loser's share; the other caller pays nothing."""
    body = {
        "rules": "korean-3p",
        "players": [
            {"id": "A", "captured": A_WINS},
            {"id": "B", "captured": ["nov-junk-1"], "go_count": 1},
            {"id": "C", "captured": ["oct-junk-1"], "go_count": 2},
        ],
        "winner": "A",
        "last_go": "C",
    }
    answer = settle(client, body)
    by_payer = {p["from"]: p for p in answer["payments"]}
    assert by_payer["B"]["points"] == 0 and by_payer["C"]["covers"] == [{"player": "B", "points": 16}]
    en_c, ko_c = both(client, body, "gobak", payer="C")
    assert (en_c["applied"], en_c["factor"], en_c["facts"]["covered"]) == (True, 1, ["B"])
    assert en_c["reason"] == "C called go and was overtaken, so C also pays B's share (gobak)"
    assert "독박" in ko_c["reason"]
    en_b, ko_b = both(client, body, "gobak", payer="B")
    assert (en_b["applied"], en_b["factor"], en_b["facts"]["payer"]) == (True, 0, "C")
    assert en_b["reason"] == "B called go too, but C called go last and pays B's share (gobak)"
    assert "고" in ko_b["reason"] and "C" in ko_b["reason"]


def test_rules_8_gobak_pays_all_double_doubles_every_share(client):
    body = {
        "rules": {"preset": "korean-3p", "gobak": "pays-all-double"},
        "players": [
            {"id": "A", "captured": A_WINS},
            {"id": "B", "captured": ["nov-junk-1"], "go_count": 1},
            {"id": "C", "captured": ["oct-junk-1"]},
        ],
        "winner": "A",
    }
    answer = settle(client, body)
    by_payer = {p["from"]: p for p in answer["payments"]}
    # base 8, each loser's share x2 gwangbak = 16; B pays both, doubled: 32 + 32
    assert by_payer["C"]["points"] == 0
    assert by_payer["B"]["covers"] == [{"player": "C", "points": 32}] and by_payer["B"]["points"] == 64
    en, _ = both(client, body, "gobak")
    assert (en["factor"], en["facts"]["doubled"]) == (2, True)


def test_rules_8_a_loser_who_captured_nothing_pays_nothing(client):
    body = two({"id": "A", "captured": A_WINS}, {"id": "B", "captured": []})
    answer = settle(client, body)
    (pay,) = answer["payments"]
    assert pay["points"] == 0
    en, _ = both(client, body, "empty-loser")
    assert (en["applied"], en["factor"]) == (True, 0)
    assert en["reason"] == "B captured no card and pays nothing"
    # every other rule is checked too, and said not to count, each by its name (words-r5 Kn4)
    others = [c for c in pay["checks"] if c["rule"] != "empty-loser"]
    assert all(c["reason"].startswith("B captured no card and pays nothing, so ") for c in others)
    assert len({c["reason"] for c in others}) == len(others)
    assert answer["explanation"][-1] == "B captured no card and pays nothing"


def test_rules_8_and_9_the_nagari_carry(client):
    body = two({"id": "A", "captured": A_WINS}, {"id": "B", "captured": ["dec-bright"]}, nagari_streak=2)
    en, ko = both(client, body, "nagari")
    assert (en["applied"], en["factor"], en["facts"]) == (True, 4, {"streak": 2, "multiplier": 2, "cap": 0})
    assert en["reason"] == "2 nagari hands just before this one: ×2 each, ×4 in all"
    assert "나가리" in ko["reason"]


def test_rules_8_a_shake_and_a_bomb_both_multiply(client):
    body = two({"id": "A", "captured": A_WINS, "shakes": 1, "bombs": 1}, {"id": "B", "captured": ["dec-bright"]})
    answer = settle(client, body)
    (pay,) = answer["payments"]
    assert pay["points"] == 8 * 2 * 2
    for rule, word in (("shake", "흔들"), ("bomb", "폭탄")):
        en, ko = both(client, body, rule)
        assert (en["applied"], en["factor"]) == (True, 2) and word in ko["reason"]
    assert answer["explanation"][-1] == "B pays A 8 × 2 (shake) × 2 (bomb) = 32 points"


# --- every switched-on rule, once per loser, and the factors make the payment ------------------------------


@settings(max_examples=120, deadline=None)
@given(st.sampled_from(list(PRESETS)), st.integers(0, 10**6), st.integers(0, 3))
def test_the_applied_checks_make_each_payment_and_every_rule_is_checked_once(preset, seed, streak):
    """RULES.md 8 over simulated finished hands: each loser's own share is base x the applied factors, and the
    checks are exactly the rules the rule set switches on, in their order."""
    body = {**simulate(preset, seed).to_dict(), "nagari_streak": streak}
    result = replay_body(body)
    s = result.settlement
    if not s.payments:
        return
    rules = resolve(body["rules"])
    for pay in s.payments:
        assert [c.rule for c in pay.checks] == list(checked_rules(rules))
        own = pay.points - sum(points for _, points in pay.covers)
        assert own == s.base_points * math.prod(c.factor for c in pay.checks if c.applied)


def test_a_settlement_explains_itself_line_by_line_in_both_languages(client):
    body = two(
        {"id": "A", "captured": [*A_WINS, *TEN_JUNK], "go_count": 1}, {"id": "B", "captured": ["oct-junk-1"]}, stake=100
    )
    assert settle(client, body)["explanation"] == [
        "A stops with 9 points and 1 go: 9 + 1 = 10 base points",
        "B pays A 10 × 2 (pibak) × 2 (gwangbak) = 40 points (4,000 at 100 a point)",
    ]
    korean = settle(client, body, "ko")["explanation"]
    assert "피박" in korean[1] and "광박" in korean[1] and "40" in korean[1] and "4,000" in korean[1]
    assert "1고" in korean[0] and "10" in korean[0]
