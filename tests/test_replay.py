"""Replay over simulated hands (RULES.md 4-9): legality, conservation of cards, settlement, determinism,
hidden hands, and mutated logs rejected at exactly the corrupted move. Plus the HTTP contract of /v1/replay."""

from __future__ import annotations

import copy
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import CARDS, PRESETS, GameState, IllegalMoveError, Move, resolve
from engine.simulate import simulate
from service.replay import LIVE_EXAMPLE
from tests.http import assert_problem
from tests.simulated import (
    HANDS,
    assert_conserved,
    deck_of,
    find_hand,
    hidden_form,
    replay_body,
    settle_body,
)
from tests.test_log import SHAPE_FAULTS
from tests.words import detail, name

# Presets, plus rule sets no preset covers: extra-flip with bonus cards, no bomb flip turns with bombs, and the
# house rules of RULES.md 2-6 that no preset plays (a table of four, two-card bombs, chongtong variants...).
RULE_SETS = {
    **PRESETS,
    "chips-2p+bonus": resolve({"preset": "chips-2p", "bonus_cards": ["bonus-2a", "bonus-2b", "bonus-3"]}),
    "korean-3p+no-flips": resolve({"preset": "korean-3p", "bomb_flip_turns": 0, "steal_bonus": 2}),
    "korean-3p+house": resolve(
        {
            "preset": "korean-3p",
            "gwang_palgi": True,
            "two_card_bomb": "bomb-multiplier",
            "bonus_on_ppuk": True,
            "chok_sseul": True,
            "steal_dealt_stack": 2,
            "sep_animal_stealable": True,
            "four_brights_points": 5,
            "ten_ribbons_points": 15,
            "chongtong_by_bonus": "always",
            "multiple_chongtong": "dealer-wins",
        }
    ),
    "korean-2p+house": resolve(
        {
            "preset": "korean-2p",
            "bonus_cards": ["bonus-2a", "bonus-2b", "bonus-3"],
            "two_card_bomb": "no-multiplier",
            "chongtong_at_deal": "play-on",
            "floor_four": "dealer-wins",
            "bonus_on_ppuk": True,
            "sep_animal_stealable": True,
        }
    ),
}


@pytest.mark.parametrize("preset", list(RULE_SETS))
def test_simulated_hands_replay_legally_conserve_cards_and_match_their_hidden_form(preset):
    """RULES.md 4-9 over HANDS simulated hands per rule set: every step legal, every card in one place."""
    rules = RULE_SETS[preset]
    deck = deck_of(rules)
    outcomes = set()
    for seed in range(HANDS):
        body = simulate(rules, seed).to_dict()
        state = GameState(body["players"], rules, body["deal"])
        assert_conserved(state, deck)
        for i, raw in enumerate(body["moves"]):
            state.apply(Move.from_dict(raw, index=i))
            assert_conserved(state, deck)
        assert state.is_over
        outcomes.add(state.outcome)
        full = replay_body(body)
        assert full.settlement == replay_body(body).settlement  # deterministic
        hidden = replay_body(hidden_form(body))
        assert hidden.settlement == full.settlement, seed
        assert [sorted(c.id for c in s.captured) for s in hidden.state.seats] == [
            sorted(c.id for c in s.captured) for s in full.state.seats
        ]
        assert_conserved(hidden.state, deck)
    assert "stop" in outcomes


@pytest.mark.slow
@pytest.mark.parametrize("preset", list(PRESETS))
def test_many_more_simulated_hands(preset, monkeypatch):
    rules = PRESETS[preset]
    for seed in range(HANDS, HANDS + 20000):
        body = simulate(preset, seed).to_dict()
        assert replay_body(body).state.is_over
        if body["moves"] and rules.chongtong_points:
            assert replay_body(hidden_form(body)).state.is_over


@pytest.mark.parametrize("preset", list(PRESETS))
def test_replay_settles_exactly_as_settle_does(client, preset):
    """One settlement path, two doors: /v1/replay's settlement equals /v1/settle's on the final state."""
    applied = set()
    for seed in range(150):
        body = simulate(preset, seed).to_dict()
        replayed = client.post("/v1/replay", json=body)
        assert replayed.status_code == 200, replayed.get_json()
        result = replay_body(body)
        settled = client.post("/v1/settle", json=settle_body(result))
        assert settled.status_code == 200, settled.get_json()
        expected = {k: v for k, v in settled.get_json().items() if k not in ("rules", "engine_version")}
        assert replayed.get_json()["settlement"] == expected
        applied |= {f["rule"] for p in expected["payments"] for f in p["factors"]}
    # the hands compared were settlements with something to agree on, not only nagari
    assert applied & {"pibak", "gwangbak", "gobak", "shake", "meongtta", "go"}


def test_rules_7_automatic_stop_on_a_last_turn():
    body, result = find_hand(
        "korean-2p", lambda b, r: any(e.type == "stop" and e.data["automatic"] for e in r.state.events)
    )
    (stop,) = [e for e in result.state.events if e.type == "stop"]
    winner = next(s for s in result.state.seats if s.id == stop.player)
    assert winner.hand_size == 0 and winner.flip_turns == 0
    assert stop.move_index == len(body["moves"]) - 1 and result.settlement.outcome == "stop"
    stated = replay_body({**body, "moves": [*body["moves"], {"player": stop.player, "call": "stop"}]})
    assert stated.settlement == result.settlement
    with pytest.raises(IllegalMoveError) as err:
        replay_body({**body, "moves": [*body["moves"], {"player": stop.player, "call": "go"}]})
    assert (err.value.code, err.value.move_index) == ("call-not-allowed", len(body["moves"]))


def _last_card_ppuk(body, result):
    """A move where a player's last card pairs with a lone layout card and the draw is of its month."""
    rules = result.state.rules
    state = GameState(body["players"], rules, body["deal"])
    for i, raw in enumerate(body["moves"]):
        move = Move.from_dict(raw, index=i)
        seat = state.table.seat(state.to_move) if not state.is_over else None
        if (
            move.play is not None
            and move.bonus is None
            and not move.shake
            and seat is not None
            and seat.hand_size == 1
            and seat.flip_turns == 0
            and len(state.table.layout[move.play.month]) == 1
            and move.draw is not None
            and move.draw.month == move.play.month
        ):
            return i
        state.apply(move)
    return None


@pytest.mark.parametrize(("preset", "ppuk"), [("korean-2p", False), ("chips-2p", True)])
def test_rules_5_ppuk_with_the_last_card_depends_on_ppuk_on_last_turn(preset, ppuk):
    body, _ = find_hand(preset, lambda b, r: _last_card_ppuk(b, r) is not None, limit=20000)
    i = _last_card_ppuk(body, replay_body(body))
    prefix = replay_body({**body, "moves": body["moves"][: i + 1]})
    types = [e.type for e in prefix.state.events if e.move_index == i]
    assert ("ppuk" in types) is ppuk
    month = Move.from_dict(body["moves"][i]).play.month
    assert (len(prefix.state.table.layout[month]) == 3) is ppuk


def _last_turn_events(body, result):
    """(move index, event type, player) of stealing events made on the player's last turn."""
    state = GameState(body["players"], result.state.rules, body["deal"])
    found = []
    for i, raw in enumerate(body["moves"]):
        move = Move.from_dict(raw, index=i)
        seat = state.table.seat(state.to_move) if state.expects in ("play", "flip") else None
        before = len(state.events)
        state.apply(move)
        if seat is not None and seat.hand_size == 0 and seat.flip_turns == 0:
            found += [
                (i, e.type, e.player)
                for e in state.events[before:]
                if e.type in ("chok", "ttadak", "sseul", "stack-capture", "ja-ppuk")
            ]
    return found


@pytest.mark.parametrize(
    ("preset", "excluded"),
    [
        ("korean-2p", {"chok", "ttadak", "sseul", "stack-capture", "ja-ppuk"}),
        ("basic-2p", {"chok", "ttadak", "sseul"}),
        ("chips-2p", set()),
    ],
)
def test_rules_6_no_steal_on_last_turn(preset, excluded):
    """RULES.md 6: the events listed in no_steal_on_last_turn steal nothing on the player's last turn."""
    seen = set()
    for seed in range(3000):
        body = simulate(preset, seed).to_dict()
        result = replay_body(body)
        for i, type_, player in _last_turn_events(body, result):
            cause = type_  # the steal names the event that stole
            steals = [
                e
                for e in result.state.events
                if e.move_index == i and e.type == "steal" and e.player == player and e.data["cause"] == cause
            ]
            if type_ in excluded:
                assert steals == [], (seed, i, type_)
                seen.add(type_)
            elif steals:
                seen.add(type_)
        if len(seen) >= 3:
            break
    assert "chok" in seen


def test_rules_9_nagari_when_the_cards_run_out():
    _body, result = find_hand("chips-3p", lambda b, r: r.state.outcome == "nagari" and b["moves"])
    assert result.settlement.outcome == "nagari" and result.settlement.payments == ()
    assert result.state.events[-1].type == "nagari"
    assert all(s.hand_size == 0 for s in result.state.seats)


# --- mutations: a corrupted log is refused at exactly the corrupted move -----------------------------------


def _turns(body):
    return [i for i, m in enumerate(body["moves"]) if "call" not in m]


def _mutations(body, rng):
    """(name, mutated body, index, code) for one simulated hand."""
    moves = body["moves"]
    rules = resolve(body["rules"])
    out = []
    state = GameState(body["players"], rules, body["deal"])
    for i, raw in enumerate(moves):
        move = Move.from_dict(raw, index=i)
        seat = state.table.seat(state.to_move) if state.expects else None
        others = [c for s in state.seats if s is not seat for c in s.hand if c.kind != "bonus"]
        if "play" in raw and "bonus" not in raw and "shake" not in raw and others and not out:
            bad = copy.deepcopy(body)
            bad["moves"][i]["play"] = rng.choice(sorted(others, key=lambda c: c.index)).id
            bad["moves"][i].pop("capture", None)
            out.append(("card not in hand", bad, i, "card-not-in-hand"))
        if "play" in raw and "bonus" not in raw and "shake" not in raw and len(out) < 2 and i > 0:
            seen = [
                c for c in (*state.layout_cards(), *(c for s in state.seats for c in s.captured)) if c.kind != "bonus"
            ]
            if seen:
                bad = hidden_form(copy.deepcopy(body))
                bad["moves"][i]["play"] = rng.choice(seen).id
                bad["moves"][i].pop("capture", None)
                out.append(("card already seen", bad, i, "card-already-seen"))
        state.apply(move)
    turn = rng.choice(_turns(body))
    bad = copy.deepcopy(body)
    mover = bad["moves"][turn]["player"]
    bad["moves"][turn]["player"] = next(p for p in body["players"] if p != mover)
    out.append(("wrong player", bad, turn, "not-your-turn"))
    with_choice = [i for i in _turns(body) if "capture" in moves[i]]
    if with_choice:
        i = rng.choice(with_choice)
        bad = copy.deepcopy(body)
        del bad["moves"][i]["capture"]
        out.append(("missing capture", bad, i, "capture-required"))
    needless = [i for i in _turns(body) if "play" in moves[i] and "capture" not in moves[i]]
    if needless:
        i = rng.choice(needless)
        bad = copy.deepcopy(body)
        bad["moves"][i]["capture"] = bad["moves"][i]["play"]
        out.append(("needless capture", bad, i, "capture-not-allowed"))
    draws = [i for i in _turns(body) if "draw" in moves[i]]
    if draws:
        i = rng.choice(draws)
        bad = copy.deepcopy(body)
        later = {m.get("draw") for m in moves[i + 1 :]} - {None}
        if later:
            bad["moves"][i]["draw"] = sorted(later)[0]
            bad["moves"][i].pop("draw_capture", None)
            out.append(("draw not the stock top", bad, i, "draw-mismatch"))
    calls_due = {i for i, m in enumerate(moves) if "call" in m}
    quiet = [i for i in _turns(body) if i > 0 and i - 1 not in calls_due and "call" not in moves[i - 1]]
    if quiet:
        i = rng.choice(quiet)
        bad = copy.deepcopy(body)
        bad["moves"].insert(i, {"player": moves[i - 1]["player"], "call": rng.choice(["go", "stop"])})
        out.append(("call when none is due", bad, i, "call-not-allowed"))
    gos = [i for i, m in enumerate(moves) if m.get("call") == "go"]
    if gos:
        i = rng.choice(gos)
        bad = copy.deepcopy(body)
        del bad["moves"][i]
        out.append(("missing call", bad, i, "call-required"))
    bad = copy.deepcopy(body)
    bad["moves"].append({"player": body["players"][0], "play": "jan-bright"})
    out.append(("move after the end", bad, len(moves), "game-over"))
    return out


@pytest.mark.parametrize("preset", list(PRESETS))
def test_mutated_logs_are_refused_at_the_corrupted_move(preset):
    rng = random.Random(preset)
    seen_codes = set()
    for seed in range(300):
        body = simulate(preset, seed).to_dict()
        if not body["moves"]:
            continue
        for what, bad, index, code in _mutations(body, rng):
            with pytest.raises(IllegalMoveError) as err:
                replay_body(bad)
            assert (err.value.code, err.value.move_index) == (code, index), (what, seed, str(err.value))
            seen_codes.add(code)
    assert seen_codes >= {
        "card-not-in-hand",
        "card-already-seen",
        "not-your-turn",
        "capture-required",
        "capture-not-allowed",
        "draw-mismatch",
        "call-not-allowed",
        "game-over",
    }


def test_mutations_over_http_are_422_problems_never_500(client):
    rng = random.Random(7)
    for seed in range(40):
        body = simulate("korean-2p", seed).to_dict()
        if not body["moves"]:
            continue
        for _name, bad, index, code in _mutations(body, rng):
            resp = client.post("/v1/replay", json=bad)
            problem = assert_problem(resp, 422, code)
            assert problem["move_index"] == index
            assert problem["type"] == f"/problems/{code}" and problem["title"] == "Illegal move"
            assert problem["player"] in body["players"]


# --- the HTTP contract ---------------------------------------------------------------------------------

# The docs' physical-game example, cut to its first two moves.
LIVE = {**LIVE_EXAMPLE, "moves": LIVE_EXAMPLE["moves"][:2]}


NOVEMBER = ["nov-bright", "nov-double", "nov-junk-1", "nov-junk-2"]
JANUARY = ["jan-bright", "jan-ribbon", "jan-junk-1", "jan-junk-2"]
JULY = ["jul-animal", "jul-ribbon", "jul-junk-1", "jul-junk-2"]


def test_replay_in_progress_tells_who_moves_next(client):
    resp = client.post("/v1/replay", json=LIVE)
    assert resp.status_code == 200 and resp.mimetype == "application/json"
    body = resp.get_json()
    # the hands are hidden: what A may be asked (RULES.md 5). The layout holds one card of February, April, May,
    # June, August, October and December (a bomb needs its fourth alone there), the three of March's ppuk, and
    # none of January (taken), July, September, November (a shake needs none there); no month holds two.
    assert (body["status"], body["next"], body["settlement"]) == (
        "in_progress",
        {
            "player": "A",
            "expects": "play",
            # the deck has bonus cards: one played from hand is replaced from the stock, and a hand card played
            # after it may be shaken or in a bomb (RULES.md 5.6)
            "bonus_from_hand": {"way": "replace", "stock_taken": 1, "then": ["play", "shake", "bomb", "nothing"]},
            "capture_months": [],
            "draw_capture_months": {},  # no month holds two: no play changes where a flip asks
            "shake_months": [1, 7, 9, 11],
            "bomb_months": [2, 4, 5, 6, 8, 10, 12],
            "two_card_bomb_months": [],
            "flip_turns": 0,
            "flip_due": False,
        },
        None,
    )
    assert body["stock_left"] == 22 - 2
    a, b = body["players"]
    assert a["captured"] == ["jan-bright", "jan-junk-1"] and a["hand"] == [] and a["hand_size"] == 9
    assert b["ppuk_count"] == 1
    assert [(e["move_index"], e["type"]) for e in body["events"]] == [(1, "ppuk")]
    assert body["instant_payments"] == [
        {
            "from": "A",
            "to": "B",
            "points": 7,
            "amount": 7,
            "code": "first-ppuk",
            "turns": 1,
            "reason": "first-turn ppuk",
            "move_index": 1,
        }
    ]
    assert body["rules"]["preset"] == "korean-2p" and body["engine_version"]


def test_next_says_which_capture_needs_no_asking_and_what_a_bonus_from_hand_takes(client):
    """RULES.md 5.1: the log names which of two layout cards of a month a capture takes; where the two are the
    same to every rule (two plain junk of November) the answer names the first, so an app entering the turn
    need not ask, and it does not where they differ (September's cup and its ribbon). RULES.md 5.6: what a
    bonus card played from hand takes from the stock, by the rules' way."""
    layout = ["nov-junk-1", "nov-junk-2", "sep-animal", "sep-ribbon", "jan-bright", "feb-animal", "mar-ribbon"]
    deal = {"layout": [*layout, "apr-junk-1"]}
    body = {"rules": {"preset": "korean-2p", "bonus_cards": ["bonus-3"]}, "players": ["A", "B"], "deal": deal}
    said = client.post("/v1/replay", json={**body, "moves": []}).get_json()["next"]
    assert said["capture_months"] == [9, 11] and said["alike_captures"] == ["nov-junk-1"]
    assert said["bonus_from_hand"] == {"way": "replace", "stock_taken": 1, "then": ["play", "shake", "bomb", "nothing"]}
    body["rules"]["bonus_from_hand"] = "extra-flip"
    said = client.post("/v1/replay", json={**body, "moves": []}).get_json()["next"]
    # the stock top turned over is the play: no shake, no bomb after it
    assert said["bonus_from_hand"] == {"way": "extra-flip", "stock_taken": 0, "then": ["extra-flip"]}
    body["rules"] = {"preset": "korean-2p", "bonus_cards": []}  # no bonus card in the deck: nothing to say of one
    said = client.post("/v1/replay", json={**body, "moves": []}).get_json()["next"]
    assert "bonus_from_hand" not in said and said["alike_captures"] == ["nov-junk-1"]


def test_rules_5_2_next_says_where_the_flip_asks_after_each_play(client):
    """RULES.md 5.2: a card turned over of the month played meets the card played (a jjok, a ppuk or a ttadak),
    so it asks no choice even where two cards of that month lay on the layout; the answer says so by the month
    played (`draw_capture_months`), and the engine takes the flip of that month without a draw_capture, and
    asks for one in another month of two."""
    layout = ["nov-junk-1", "nov-bright", "sep-animal", "sep-ribbon", "jan-bright", "feb-animal", "mar-ribbon"]
    body = {"rules": "korean-2p", "players": ["A", "B"], "deal": {"layout": [*layout, "apr-junk-1"]}}
    said = client.post("/v1/replay", json={**body, "moves": []}).get_json()["next"]
    assert said["capture_months"] == [9, 11]
    assert said["draw_capture_months"] == {"9": [11], "11": [9]}
    # A plays November onto its two, takes the bright, and turns over the fourth November: no choice asked
    ttadak = {"player": "A", "play": "nov-double", "capture": "nov-bright", "draw": "nov-junk-2"}
    answer = client.post("/v1/replay", json={**body, "moves": [ttadak]})
    assert answer.status_code == 200, answer.get_json()
    asked = client.post("/v1/replay", json={**body, "moves": [{**ttadak, "draw_capture": "nov-junk-1"}]})
    assert asked.status_code == 422 and asked.get_json()["code"] == "capture-not-allowed"
    # a flip of September after a November play asks which of September's two it takes
    other = {"player": "A", "play": "nov-double", "capture": "nov-bright", "draw": "sep-junk-1"}
    refused = client.post("/v1/replay", json={**body, "moves": [other]})
    assert refused.status_code == 422 and refused.get_json()["code"] == "capture-required"
    done = client.post("/v1/replay", json={**body, "moves": [{**other, "draw_capture": "sep-ribbon"}]})
    assert done.status_code == 200


def test_rules_3_next_says_who_may_declare_the_cup(client):
    """RULES.md 3: where the cup is placed where it scores more (sep_animal best), its captor may declare it; the
    answer names them at a play due, and nobody where it is always an animal."""
    layout = ["sep-ribbon", "jan-bright", "feb-animal", "mar-ribbon", "apr-junk-1", "may-junk-1", "jun-junk-1"]
    body = {"rules": "korean-2p", "players": ["A", "B"], "deal": {"layout": [*layout, "jul-junk-1"]}}
    moves = [{"player": "A", "play": "sep-animal", "draw": "oct-junk-1"}]  # A takes the cup with the ribbon
    said = client.post("/v1/replay", json={**body, "moves": []}).get_json()["next"]
    assert "cup_holder" not in said  # nobody holds it yet
    said = client.post("/v1/replay", json={**body, "moves": moves}).get_json()["next"]
    assert said["player"] == "B" and said["cup_holder"] == "A"
    body["rules"] = {"preset": "korean-2p", "sep_animal": "animal"}
    said = client.post("/v1/replay", json={**body, "moves": moves}).get_json()["next"]
    assert "cup_holder" not in said


def test_replay_every_prefix_of_a_log_is_a_legal_request(client):
    body = simulate("korean-3p", 3).to_dict()
    for n in range(len(body["moves"]) + 1):
        resp = client.post("/v1/replay", json={**body, "moves": body["moves"][:n]})
        assert resp.status_code == 200
        data = resp.get_json()
        if n < len(body["moves"]):
            assert data["status"] == "in_progress"
            assert data["next"]["player"] == body["moves"][n]["player"]
    assert data["status"] == "finished" and data["settlement"]["outcome"]


def test_replay_finished_hand_has_the_settlement_and_the_stake(client):
    body = {**simulate("korean-2p", 1).to_dict(), "stake": 50, "nagari_streak": 1}
    data = client.post("/v1/replay", json=body).get_json()
    assert data["status"] == "finished" and data["next"] is None
    pay = data["settlement"]["payments"][0]
    assert pay["amount"] == pay["points"] * 50
    assert {"rule": "nagari", "factor": 2, "reason": "The hand just before this one was nagari: ×2"} in pay["factors"]


@pytest.mark.parametrize(
    ("deal", "detail"),
    [
        ({"layout": LIVE["deal"]["layout"][:7]}, "7 month cards"),
        ({"layout": [*LIVE["deal"]["layout"][:7], "jan-bright"]}, "dealt twice"),
        ({"layout": LIVE["deal"]["layout"], "hands": {"A": ["jan-junk-1"], "B": []}}, "not 10"),
        ({"layout": LIVE["deal"]["layout"], "stock": ["nov-junk-1"]}, "the stock has 1 cards"),
        (
            {"layout": [*LIVE["deal"]["layout"], "bonus-2b"]},
            "these rules play one 2-junk bonus card, and 2-junk bonus card (second) is left out",
        ),
        (
            {"layout": LIVE["deal"]["layout"], "shown": {"C": NOVEMBER}},
            "C, who shows cards at the deal, is not a player",
        ),
        ({"layout": LIVE["deal"]["layout"], "shown": {"B": NOVEMBER[:3]}}, "only a chongtong"),
        ({"layout": LIVE["deal"]["layout"], "shown": {"B": [*NOVEMBER[:3], "jul-animal"]}}, "only a chongtong"),
        ({"layout": LIVE["deal"]["layout"], "shown": {"B": JANUARY}}, f"{name('jan-bright')} is dealt twice"),
        (
            {"layout": LIVE["deal"]["layout"], "shown": {"A": NOVEMBER, "B": NOVEMBER}},
            f"{name('nov-bright')} is dealt twice",
        ),
    ],
)
def test_replay_bad_deal(client, deal, detail):
    problem = assert_problem(client.post("/v1/replay", json={**LIVE, "deal": deal, "moves": []}), 422, "bad-deal")
    assert detail in problem["detail"] and "move_index" not in problem


def test_rules_4_a_chongtong_shown_at_a_hidden_deal_wins_at_once(client):
    """RULES.md 4: in a game whose hands are hidden, the holder shows the four cards and wins at the deal."""
    deal = {"layout": LIVE["deal"]["layout"], "shown": {"B": NOVEMBER}}
    data = client.post("/v1/replay", json={**LIVE, "deal": deal, "moves": [], "stake": 10}).get_json()
    assert (data["status"], data["settlement"]["outcome"], data["settlement"]["winner"]) == (
        "finished",
        "chongtong",
        "B",
    )
    assert [(e["move_index"], e["player"], e["type"]) for e in data["events"]] == [(None, "B", "chongtong")]
    assert data["settlement"]["payments"][0]["amount"] == 10 * 10  # korean-2p chongtong_points x the stake
    later = client.post("/v1/replay", json={**LIVE, "deal": deal})  # nothing may be played after it
    assert assert_problem(later, 422, "game-over")["move_index"] == 0


def test_rules_4_two_chongtongs_shown_follow_multiple_chongtong(client):
    deal = {"layout": LIVE["deal"]["layout"], "shown": {"A": JULY, "B": NOVEMBER}}
    for preset, outcome in (("korean-2p", "nagari"), ("chips-2p", "redeal")):
        body = {**LIVE, "rules": preset, "deal": deal, "moves": []}
        data = client.post("/v1/replay", json=body).get_json()
        assert (data["status"], data["settlement"]["outcome"]) == ("finished", outcome), preset


def test_shown_cards_stay_in_the_hand_when_chongtong_is_off(client):
    """RULES.md 10: chongtong_points 0 turns chongtong off; the shown cards are then simply known to be B's."""
    rules = {"preset": "korean-2p", "chongtong_points": 0}
    deal = {"layout": LIVE["deal"]["layout"], "shown": {"B": NOVEMBER}}
    first = {"player": "A", "play": "jan-junk-1", "draw": "dec-double"}
    data = client.post("/v1/replay", json={**LIVE, "rules": rules, "deal": deal, "moves": [first]}).get_json()
    assert data["status"] == "in_progress" and data["players"][1]["hand_size"] == 10
    b_plays = {"player": "B", "play": "nov-bright", "draw": "mar-junk-1"}
    assert (
        client.post("/v1/replay", json={**LIVE, "rules": rules, "deal": deal, "moves": [first, b_plays]}).status_code
        == 200
    )
    a_takes = {"player": "A", "play": "nov-junk-1", "draw": "mar-junk-1"}
    wrong = client.post("/v1/replay", json={**LIVE, "rules": rules, "deal": deal, "moves": [a_takes]})
    assert assert_problem(wrong, 422, "card-already-seen")["move_index"] == 0


def test_replay_unknown_card_in_a_move_names_the_move(client):
    moves = [*LIVE["moves"], {"player": "A", "play": "jan-brite", "draw": "nov-junk-1"}]
    problem = assert_problem(client.post("/v1/replay", json={**LIVE, "moves": moves}), 422, "unknown-card")
    assert (problem["move_index"], problem["card"]) == (2, "jan-brite")


@pytest.mark.parametrize(
    ("move", "code"),
    [
        ({"player": "A"}, "bad-move"),
        ({"player": "A", "play": "jul-junk-1", "flip": True}, "bad-move"),
        ({"player": "A", "play": "jul-junk-1", "colour": "red"}, "bad-move"),
        ({"player": "A", "call": "maybe"}, "bad-move"),
        ({"player": "A", "call": "go", "play": "jul-junk-1"}, "bad-move"),
        ({"player": "A", "play": "jul-junk-1"}, "draw-required"),
        ({"player": "A", "play": "jul-junk-1", "draw": "jul-junk-1"}, "card-already-seen"),
    ],
)
def test_replay_malformed_moves(client, move, code):
    problem = assert_problem(client.post("/v1/replay", json={**LIVE, "moves": [*LIVE["moves"], move]}), 422, code)
    assert problem["move_index"] == 2


@pytest.mark.parametrize(("body", "path"), SHAPE_FAULTS)
def test_replay_schema_errors(client, body, path):
    problem = assert_problem(client.post("/v1/replay", json=body), 422, "validation-error")
    assert path in problem["errors"]


@st.composite
def corrupted_logs(draw):
    """A simulated log with one random corruption: a move dropped, repeated or swapped, a field rewritten."""
    preset = draw(st.sampled_from(list(PRESETS)))
    body = copy.deepcopy(simulate(preset, draw(st.integers(0, 500))).to_dict())
    moves = body["moves"]
    if not moves:
        return body
    i = draw(st.integers(0, len(moves) - 1))
    kind = draw(st.sampled_from(["drop", "repeat", "swap", "card", "player", "field", "call"]))
    if kind == "drop":
        del moves[i]
    elif kind == "repeat":
        moves.insert(i, copy.deepcopy(moves[i]))
    elif kind == "swap":
        j = draw(st.integers(0, len(moves) - 1))
        moves[i], moves[j] = moves[j], moves[i]
    elif kind == "card":
        fields = [k for k, v in moves[i].items() if isinstance(v, str) and k not in ("player", "call")]
        if fields:
            moves[i][draw(st.sampled_from(fields))] = draw(st.sampled_from([c.id for c in CARDS]))
    elif kind == "player":
        moves[i]["player"] = draw(st.sampled_from([*body["players"], "Z"]))
    elif kind == "field":
        moves[i][draw(st.sampled_from(["capture", "draw_capture", "flip", "bonus", "shake", "bomb"]))] = draw(
            st.one_of(
                st.sampled_from([c.id for c in CARDS]),
                st.booleans(),
                st.lists(st.sampled_from([c.id for c in CARDS]), max_size=4),
            )
        )
    else:
        moves.insert(
            i, {"player": draw(st.sampled_from(body["players"])), "call": draw(st.sampled_from(["go", "stop"]))}
        )
    return body


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(corrupted_logs())
def test_any_corrupted_log_is_answered_200_or_a_422_problem_never_a_crash(app, body):
    resp = app.test_client().post("/v1/replay", json=body)
    assert resp.status_code in (200, 422), resp.get_data(as_text=True)
    if resp.status_code == 422:
        problem = resp.get_json()
        assert problem["code"] and problem["detail"]
        if problem["code"] not in ("validation-error", "bad-deal"):
            assert 0 <= problem["move_index"] < len(body["moves"])


def test_shown_cards_with_known_hands_must_come_from_that_hand():
    """RULES.md 4: with the hands known, a shown chongtong is only a restatement, so it must match the hand."""
    body = next(b for b in (simulate("korean-2p", seed).to_dict() for seed in range(2000)) if not b["moves"])
    full = replay_body(body)
    assert full.state.outcome == "chongtong"
    holder = full.state.winner
    four = hidden_form(body)["deal"]["shown"][holder]
    same = replay_body({**body, "deal": {**body["deal"], "shown": {holder: four}}})
    assert same.settlement == full.settlement
    other = next(pid for pid in body["players"] if pid != holder)
    with pytest.raises(IllegalMoveError) as err:
        replay_body({**body, "deal": {**body["deal"], "shown": {other: four}}})
    assert err.value.code == "bad-deal" and f"which {other} was not dealt" in detail(err.value)
