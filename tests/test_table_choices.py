"""The two decisions a player makes at the table, as moves of the log (issue 29): the holder's chongtong choice
at the deal (RULES.md 4.3, `chongtong_at_deal: choice`; its factor, 8.2) and shodang in three-player Go-Stop
(RULES.md 8.7, knob `shodang`). The engine's rulings, the notation of the moves, and the API's prompt and
refusals; the whole hands are the logs of tests/data (chongtong-choice-*, shodang-*)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine import Expect, GameState, IllegalMoveError, Log, Move, Outcome, evening, format_log, parse_log, resolve

DATA = Path(__file__).resolve().parent / "data"
TEXT_LOGS = sorted(DATA.glob("*.txt"))


def request(name: str) -> dict:
    return json.loads((DATA / f"{name}.json").read_text(encoding="utf-8"))["request"]


def state_of(body: dict, moves: int | None = None, **knobs) -> GameState:
    rules = body["rules"]
    rules = {**({"preset": rules} if isinstance(rules, str) else rules), **knobs}
    state = GameState(body["players"], resolve(rules), body["deal"])
    for move in body["moves"][:moves]:
        state.apply(Move.from_dict(move))
    return state


def refused(state: GameState, move: Move) -> IllegalMoveError:
    before = (state.expects, state.to_move, len(state.events))
    with pytest.raises(IllegalMoveError) as err:
        state.apply(move)
    assert (state.expects, state.to_move, len(state.events)) == before  # nothing changed
    return err.value


CHOICE = "chongtong-choice-win-2p-known"  # A is dealt four Decembers under pmang-matgo (choice)
PLAYED_ON = "chongtong-choice-play-on-2p-known"  # the same under netmarble-matgo, played on and won
SHODANG = "shodang-declined-3p-known"  # after 8 moves, C may call shodang (A lacks a bright, B a chodan)


# --- RULES.md 4.3: the holder's choice ------------------------------------------------------------------------


def test_rules_4_3_under_choice_the_holder_is_asked_before_the_first_play():
    state = state_of(request(CHOICE), 0)
    assert (state.expects, state.to_move, state.chongtong_month) == (Expect.CHONGTONG, "A", 12)
    assert state.legal_moves() == [Move.choose_chongtong("A", "win"), Move.choose_chongtong("A", "play-on")]
    assert state.turn_options() is None


def test_rules_4_3_choosing_to_win_ends_the_hand_as_a_chongtong_of_chongtong_points():
    state = state_of(request(CHOICE))
    assert (state.outcome, state.winner) == (Outcome.CHONGTONG, "A")
    assert [p.points for p in state.settle().payments] == [7]  # pmang-matgo's chongtong_points


def test_rules_4_3_choosing_to_play_on_starts_the_hand_with_the_dealer():
    body = request(CHOICE)
    state = state_of({**body, "moves": []})
    state.apply(Move.choose_chongtong("A", "play-on"))
    assert (state.expects, state.to_move, state.outcome) == (Expect.PLAY, "A", None)
    assert [e.type for e in state.events][-1] == "play-on"
    assert state.played_on_chongtong == ()  # pmang-matgo has no factor of its own: nothing to look for


def test_rules_8_2_a_win_after_choosing_to_play_on_pays_the_factor():
    state = state_of(request(PLAYED_ON))
    assert state.played_on_chongtong == ("A",)
    (payment,) = state.settle().payments
    assert {c.rule: c.factor for c in payment.factors}["chongtong"] == 2  # netmarble-matgo


def test_rules_4_3_the_holder_may_shake_the_four_after_choosing_to_play_on():
    state = state_of(request(PLAYED_ON), 1)
    four = tuple(c for c in state.seat("A").hand if c.month == state.events[-1].data["month"])
    assert any(m.shake == four for m in state.legal_moves())


def test_rules_4_3_any_other_move_before_the_choice_is_refused():
    state = state_of(request(CHOICE), 0)
    play = Move.turn("A", next(iter(state.seat("A").hand)))
    err = refused(state, play)
    assert (err.code, err.why) == ("call-required", "chongtong-choice")
    assert refused(state, Move.choose_chongtong("B", "win")).code == "not-your-turn"
    assert refused(state, Move.call_shodang("A")).why == "shodang-off"


def test_rules_4_3_a_choice_where_none_is_due_is_refused():
    state = state_of(request(PLAYED_ON), 1)
    err = refused(state, Move.choose_chongtong("A", "win"))
    assert (err.code, err.why) == ("chongtong-not-allowed", "no-choice-due")


def test_rules_4_3_win_and_play_on_keep_their_behaviour_without_a_move():
    body = request(CHOICE)
    assert state_of({**body, "moves": []}, chongtong_at_deal="win").outcome is Outcome.CHONGTONG
    assert state_of({**body, "moves": []}, chongtong_at_deal="play-on").expects is Expect.PLAY


def test_rules_4_3_two_holders_are_ruled_by_multiple_chongtong_before_any_choice():
    deal = request(CHOICE)["deal"]
    cards = [*deal["hands"]["A"], *deal["hands"]["B"], *deal["layout"], *deal["stock"]]
    decembers = [c for c in cards if c.startswith("dec-")]
    marches = [c for c in cards if c.startswith("mar-")]
    # the other cards, bonus cards last (so that they stay in the stock)
    rest = sorted((c for c in cards if c[:4] not in ("dec-", "mar-")), key=lambda c: c.startswith("bonus"))
    hands = {"A": decembers + rest[:6], "B": marches + rest[6:12]}
    state = GameState(["A", "B"], resolve("pmang-matgo"), {"hands": hands, "layout": rest[12:20], "stock": rest[20:]})
    assert (state.outcome, state.expects) == (Outcome.NAGARI, None)  # pmang-matgo: multiple_chongtong nagari


# --- RULES.md 8.7: shodang ------------------------------------------------------------------------------------


def test_rules_8_7_the_caller_may_call_when_each_other_player_lacks_one_card_the_caller_holds():
    state = state_of(request(SHODANG), 8)
    assert (state.to_move, state.expects) == ("C", Expect.PLAY)
    assert state.shodang_threats("C") == {"A": "brights", "B": "chodan"}
    assert state.can_call_shodang() and Move.call_shodang("C") in state.legal_moves()


def test_rules_8_7_the_call_asks_each_other_player_in_turn():
    state = state_of(request(SHODANG), 8)
    state.apply(Move.call_shodang("C"))
    assert (state.expects, state.to_move) == (Expect.SHODANG, "A")
    assert state.legal_moves() == [Move.answer_shodang("A", "accept"), Move.answer_shodang("A", "decline")]
    state.apply(Move.answer_shodang("A", "decline"))
    assert (state.expects, state.to_move) == (Expect.SHODANG, "B")


@pytest.mark.parametrize(
    ("answers", "outcome", "to_move"),
    [
        (("accept", "accept"), Outcome.NAGARI, None),
        (("decline", "decline"), None, "C"),
        (("accept", "decline"), None, "C"),
    ],
)
def test_rules_8_7_both_accept_is_a_nagari_otherwise_the_caller_plays_on(answers, outcome, to_move):
    state = state_of(request(SHODANG), 8)
    state.apply(Move.call_shodang("C"))
    for player, answer in zip(("A", "B"), answers, strict=True):
        state.apply(Move.answer_shodang(player, answer))
    assert (state.outcome, state.to_move) == (outcome, to_move)
    assert state.shodang_split == (("C", "A", "B") if answers == ("accept", "decline") else None)


@pytest.mark.parametrize(("who", "alone", "spared"), [("decliner", "B", "C"), ("caller", "C", "B")])
def test_rules_8_7_when_the_accepter_wins_one_loser_pays_both_shares(who, alone, spared):
    body = request("shodang-split-decliner-pays-3p-known")
    state = state_of(body, shodang=who)
    assert state.winner == "A"
    pays = {p.payer: p for p in state.settle(stake=100).payments}
    # each loser's own share is 6 (3 points, gwangbak): the one who pays alone pays 12
    assert (pays[alone].points, pays[alone].amount, pays[alone].covers) == (12, 1200, ((spared, 6),))
    assert (pays[spared].points, pays[spared].amount) == (0, 0)
    assert {c.rule: c.reason for c in pays[spared].factors}["shodang"] == "covered"
    # and says who pays the spared one's share, so its sentence can say what the spared one did (words-r4 K1)
    assert {c.rule: c.facts for c in pays[spared].factors}["shodang"] == {"payer": alone, "paid_by": who}
    # the reason names who pays alone: the one who declined, or the one who called (their words differ)
    said = {"decliner": "pays-alone", "caller": "caller-pays-alone"}[who]
    assert {c.rule: c.reason for c in pays[alone].factors}["shodang"] == said


@pytest.mark.parametrize("who", ["decliner", "caller"])
def test_rules_8_7_and_11_an_evening_pays_a_split_shodang_as_its_replay_does(who):
    """A hand given to the evening as its log keeps the shodang's payment (it was priced as if none was called)."""
    body = request("shodang-split-decliner-pays-3p-known")
    rules = resolve({"preset": "korean-3p", "shodang": who})
    log = Log.from_dict({**body, "rules": rules})
    replayed = {p.payer: p.points for p in state_of(body, shodang=who).settle().payments}
    assert sorted(replayed.values()) == [0, 12]  # one loser pays both shares
    night = evening(rules, body["players"], [log], first_dealer=body["players"][0], stake=log.stake)
    assert {p.payer: p.points for p in night.hands[0].settlement.payments} == replayed


def test_rules_8_7_a_split_shodang_changes_nothing_when_another_player_wins():
    state = state_of(request(SHODANG), 8)
    state.apply(Move.call_shodang("C"))
    state.apply(Move.answer_shodang("A", "decline"))
    state.apply(Move.answer_shodang("B", "accept"))
    assert state.shodang_split == ("C", "B", "A")
    # the caller, to play now, would win a stop as usual: nobody pays alone
    assert state.to_move == "C" and state.hand_result(stop_now=True).pays_alone is None


@pytest.mark.parametrize(
    ("knobs", "moves", "move", "code", "why"),
    [
        ({"shodang": "off"}, 8, Move.call_shodang("C"), "shodang-not-allowed", "shodang-off"),
        ({}, 0, Move.call_shodang("A"), "shodang-not-allowed", "no-standoff"),
        ({}, 8, Move.call_shodang("A"), "not-your-turn", "not-your-turn"),
        ({}, 9, Move.call_shodang("C"), "shodang-not-allowed", "already-called"),
        ({}, 8, Move.answer_shodang("A", "accept"), "shodang-not-allowed", "no-answer-due"),
        ({}, 9, Move.answer_shodang("B", "accept"), "not-your-turn", "shodang-answer-due"),
        ({}, 11, Move.call_shodang("C"), "shodang-not-allowed", "already-called"),
    ],
)
def test_rules_8_7_an_illegal_shodang_is_refused_naming_why(knobs, moves, move, code, why):
    state = state_of(request(SHODANG), moves, **knobs)
    err = refused(state, move)
    assert (err.code, err.why) == (code, why)


def test_rules_8_7_a_turn_while_an_answer_is_due_is_refused():
    state = state_of(request(SHODANG), 9)
    err = refused(state, Move.from_dict(request(SHODANG)["moves"][11]))
    assert (err.code, err.why) == ("call-required", "shodang-answer")


def test_rules_8_7_shodang_needs_a_table_of_three():
    body = request(CHOICE)
    state = state_of({**body, "moves": [{"player": "A", "chongtong_choice": "play-on"}]}, shodang="decliner")
    err = refused(state, Move.call_shodang("A"))
    assert (err.code, err.why) == ("shodang-not-allowed", "not-three-players")


def test_rules_8_7_no_shodang_is_offered_where_the_knob_is_off():
    state = state_of(request(SHODANG), 8, shodang="off")
    assert not any(m.shodang for m in state.legal_moves())


# --- the moves in the log: JSON and the text notation ----------------------------------------------------------


@pytest.mark.parametrize(
    ("move", "ascii", "korean"),
    [
        (Move.choose_chongtong("A", "win"), "A chongtong win", "A 총통 승"),
        (Move.choose_chongtong("A", "play-on"), "A chongtong play-on", "A 총통 계속"),
        (Move.call_shodang("C"), "C shodang", "C 쇼당"),
        (Move.answer_shodang("A", "accept"), "A shodang accept", "A 쇼당 수락"),
        (Move.answer_shodang("B", "decline"), "B shodang decline", "B 쇼당 거절"),
    ],
)
def test_the_choices_are_written_and_read_in_both_spellings_and_as_json(move, ascii, korean):
    assert (move.text(), move.text("korean")) == (ascii, korean)
    assert Move.parse(ascii) == Move.parse(korean) == Move.from_dict(move.to_dict()) == move


@pytest.mark.parametrize(
    "fields",
    [
        {"player": "A", "chongtong_choice": "win", "play": "jan-bright"},
        {"player": "A", "shodang": "call", "call": "go"},
        {"player": "A", "shodang": "call", "chongtong_choice": "win"},
    ],
)
def test_a_choice_carries_nothing_else(fields):
    with pytest.raises(IllegalMoveError) as err:
        Move.from_dict(fields)
    assert (err.value.code, err.value.why) == ("bad-move", "choice-with-more")


@pytest.mark.parametrize("fields", [{"player": "A", "chongtong_choice": "stop"}, {"player": "A", "shodang": "yes"}])
def test_a_choice_of_no_known_value_is_refused(fields):
    with pytest.raises(IllegalMoveError) as err:
        Move.from_dict(fields)
    assert (err.value.code, err.value.why) == ("bad-move", "not-a-choice")


@pytest.mark.parametrize("path", TEXT_LOGS, ids=lambda p: p.stem)
def test_each_text_log_of_tests_data_is_its_json_log(path):
    text = path.read_text(encoding="utf-8")
    body = request(path.stem)
    assert parse_log(text) == body
    assert format_log(body) == text


# --- the API: the prompt in `next`, and a refusal for each illegal call -----------------------------------------


def test_next_asks_the_holder_to_choose_with_what_each_choice_pays(client):
    body = request(PLAYED_ON)
    nxt = client.post("/v1/replay", json={**body, "moves": []}).get_json()["next"]
    assert (nxt["player"], nxt["expects"], nxt["choices"]) == ("A", "chongtong", ["win", "play-on"])
    assert nxt["chongtong"] == {"month": 12, "points": 10, "multiplier": 2}
    assert nxt["legal"] == [
        {"player": "A", "chongtong_choice": "win"},
        {"player": "A", "chongtong_choice": "play-on"},
    ]
    lean = client.post("/v1/replay?view=lean", json={**body, "moves": []}).get_json()["next"]
    assert (lean["expects"], lean["choices"]) == ("chongtong", ["win", "play-on"])


def test_next_offers_the_shodang_beside_the_plays_then_asks_each_answer(client):
    body = request(SHODANG)
    nxt = client.post("/v1/replay", json={**body, "moves": body["moves"][:8]}).get_json()["next"]
    assert (nxt["expects"], nxt["shodang"]) == (
        "play",
        {"caller": "C", "against": {"A": "brights", "B": "chodan"}, "pays_alone": "decliner"},
    )
    assert {"player": "C", "shodang": "call"} in nxt["legal"]
    nxt = client.post("/v1/replay", json={**body, "moves": body["moves"][:9]}).get_json()["next"]
    assert (nxt["player"], nxt["expects"], nxt["choices"]) == ("A", "shodang", ["accept", "decline"])


def shodang_details(client, body: dict, lang: str) -> list[str]:
    answer = client.post("/v1/replay", json=body, headers={"Accept-Language": lang}).get_json()
    return [e["detail"] for e in answer["events"] if e["type"] in ("shodang", "shodang-answer")]


@pytest.mark.parametrize(
    ("lang", "call"),
    [
        ("en", "C calls shodang: A is one card from three brights and B from chodan, and C holds a card"),
        ("ko", "C가 쇼당을 불렀습니다: A는 삼광, B는 초단까지 한 장씩 남았고"),
        ("zh", "C叫了僵局（쇼당）：A差一张凑成三光，B差一张凑成白条"),
        ("ja", "Cがショウダン（商談）を宣言しました：Aは三光まで、Bは草短まで"),
    ],
)
def test_rules_8_7_the_call_says_who_is_one_card_from_which_combination(client, lang, call):
    assert shodang_details(client, request(SHODANG), lang)[0].startswith(call)


@pytest.mark.parametrize(
    ("lang", "declined_second", "accepted_second"),
    [
        (
            "en",
            "B declines the shodang, though A accepted it: play goes on, and if A wins, B pays alone",
            "B accepts the shodang, though A declined it: play goes on, and if B wins, A pays alone",
        ),
        (
            "ko",
            "A는 쇼당을 받았지만 B는 거절했습니다: 그대로 치고, A가 나면 B가 독박을 씁니다",
            "A는 쇼당을 거절했지만 B는 받았습니다: 그대로 치고, B가 나면 A가 독박을 씁니다",
        ),
        (
            "zh",
            "A接受了僵局，B却拒绝了：照常打下去，如果A赢了，由B独自付款",
            "A拒绝了僵局，B却接受了：照常打下去，如果B赢了，由A独自付款",
        ),
        (
            "ja",
            "Aはショウダンを受けましたが、Bは断りました。このまま続け、Aが上がればBがひとりで払います",
            "Aはショウダンを断りましたが、Bは受けました。このまま続け、Bが上がればAがひとりで払います",
        ),
    ],
)
def test_rules_8_7_a_split_answer_says_who_accepted_and_who_declined(client, lang, declined_second, accepted_second):
    body = request("shodang-split-decliner-pays-3p-known")
    assert shodang_details(client, body, lang)[-1] == declined_second
    swapped = [{"player": "A", "shodang": "decline"}, {"player": "B", "shodang": "accept"}]
    body = {**body, "moves": [*body["moves"][:9], *swapped]}
    assert shodang_details(client, body, lang)[-1] == accepted_second


def test_no_existing_answer_gains_a_shodang_prompt(client):
    body = request(SHODANG)
    nxt = client.post("/v1/replay", json={**body, "rules": "korean-3p", "moves": body["moves"][:8]}).get_json()["next"]
    assert "shodang" not in nxt and "choices" not in nxt


@pytest.mark.parametrize(
    ("rules", "moves", "extra", "code", "why"),
    [
        ("korean-3p", 8, {"player": "C", "shodang": "call"}, "shodang-not-allowed", "shodang-off"),
        (None, 0, {"player": "A", "shodang": "call"}, "shodang-not-allowed", "no-standoff"),
        (None, 8, {"player": "B", "shodang": "call"}, "not-your-turn", "not-your-turn"),
        (None, 9, {"player": "C", "shodang": "call"}, "shodang-not-allowed", "already-called"),
        (None, 8, {"player": "A", "shodang": "decline"}, "shodang-not-allowed", "no-answer-due"),
        (None, 9, {"player": "B", "shodang": "accept"}, "not-your-turn", "shodang-answer-due"),
    ],
)
def test_the_api_refuses_each_illegal_shodang_with_its_code(client, rules, moves, extra, code, why):
    body = request(SHODANG)
    body = {**body, "moves": [*body["moves"][:moves], extra], **({"rules": rules} if rules else {})}
    answer = client.post("/v1/replay", json=body)
    problem = answer.get_json()
    assert (answer.status_code, problem["code"], problem["move_index"]) == (422, code, moves)
    assert problem.get("why", code) == why  # which way, where the code is broken in more than one
    assert problem["detail"]  # said in words


def test_the_api_refuses_a_shodang_at_a_table_of_two(client):
    body = request(PLAYED_ON)
    body = {
        **body,
        "rules": {"preset": "netmarble-matgo", "shodang": "decliner"},
        "moves": [body["moves"][0], {"player": "A", "shodang": "call"}],
    }
    problem = client.post("/v1/replay", json=body).get_json()
    assert (problem["code"], problem["why"], problem["move_index"]) == ("shodang-not-allowed", "not-three-players", 1)


@pytest.mark.parametrize(
    ("moves", "code"),
    [
        ([{"player": "A", "chongtong_choice": "win"}, {"player": "A", "chongtong_choice": "win"}], "game-over"),
        ([{"player": "B", "chongtong_choice": "win"}], "not-your-turn"),
        ([{"player": "A", "call": "stop"}], "call-required"),
        ([{"player": "A", "chongtong_choice": "play-on"}, {"player": "A", "chongtong_choice": "win"}], None),
    ],
)
def test_the_api_refuses_a_chongtong_choice_out_of_place(client, moves, code):
    body = {**request(PLAYED_ON), "moves": moves}
    answer = client.post("/v1/replay", json=body)
    problem = answer.get_json()
    assert answer.status_code == 422
    assert problem["code"] == (code or "chongtong-not-allowed")


@pytest.mark.parametrize(
    ("who", "lang", "spared_line"),
    [
        ("decliner", "en", "C pays nothing: A accepted the shodang but B declined it, so B pays C's share too"),
        (
            "caller",
            "en",
            "B pays nothing: A accepted the shodang but B declined it, so C, who called it, pays B's share",
        ),
        ("decliner", "ko", "C는 내지 않습니다: A는 쇼당을 받고 B는 거절해서, 거절한 B가 C의 몫까지 냅니다 (독박)"),
        ("caller", "ko", "B는 내지 않습니다: A는 쇼당을 받고 B는 거절해서, 쇼당을 부른 C가 B의 몫까지 냅니다 (독박)"),
    ],
)
def test_rules_8_7_the_spared_loser_is_told_who_declined_and_who_pays_for_it(client, who, lang, spared_line):
    """words-r4 K1/E1: the cause is that one accepted and the other declined, and the knob says who pays."""
    body = request("shodang-split-decliner-pays-3p-known")
    body = {**body, "rules": {**body["rules"], "shodang": who}}
    answer = client.post("/v1/replay", json=body, headers={"Accept-Language": lang}).get_json()
    assert spared_line in answer["settlement"]["explanation"]
