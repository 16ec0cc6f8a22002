"""POST /v1/replay with a log in the text notation (docs/NOTATION.md, issue 15.2), and the answer's ``next`` for a
game whose hands are hidden (issue 15.1): over HTTP, through the service's own app."""

from __future__ import annotations

import json
import re

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from engine import GameState, GoStopError, Move, format_log, resolve
from engine.simulate import simulate
from service.app import MAX_BODY_BYTES
from service.i18n import fit
from service.replay import LIVE_EXAMPLE, TEXT_EXAMPLES
from tests.conftest import GAME_LOGS, guides_text
from tests.http import assert_problem

TEXT = {"Content-Type": "text/plain; charset=utf-8"}


def post_text(client, text: str | bytes, lang: str = "en", content_type: str = TEXT["Content-Type"]):
    data = text.encode() if isinstance(text, str) else text
    return client.post("/v1/replay", data=data, headers={"Content-Type": content_type, "Accept-Language": lang})


# --- a text log is answered as its JSON body is -----------------------------------------------------------


def _writable(path):
    """The request of a game log, with its text in both spellings (None for one the notation cannot write:
    a card id that is no card, a move of no known form)."""
    request = json.loads(path.read_text(encoding="utf-8"))["request"]
    try:
        return request, {s: format_log(request, spelling=s) for s in ("ascii", "korean")}
    except (GoStopError, ValueError, KeyError, TypeError):
        return request, None


@pytest.mark.parametrize("path", GAME_LOGS, ids=lambda p: p.stem)
def test_a_text_log_is_answered_exactly_as_its_json_body(client, path):
    """Every game log of tests/data the notation can write, sent as text in either spelling, gets the answer its
    JSON body gets: the same status and the same body; a refused move is named at its line and column too."""
    request, texts = _writable(path)
    if texts is None:
        pytest.skip("the notation cannot write this log (it is refused before any move)")
    expected = client.post("/v1/replay", json=request)
    for spelling, text in texts.items():
        answer = post_text(client, text)
        assert answer.status_code == expected.status_code, (spelling, answer.get_json())
        got, want = answer.get_json(), expected.get_json()
        if answer.status_code == 200 or want.get("move_index") is None:
            assert got == want, spelling
            continue
        # an illegal move: the same problem, at the line and column where the move is written
        line, column = got.pop("line"), got.pop("column")
        assert text.split("\n")[line - 1][column - 1 :].startswith(_player_word(request, want["move_index"]))
        assert got.pop("detail") == f"Line {line}, column {column}: {fit(want.pop('detail'), 'cont')}"
        assert got == want


def _player_word(request, index):
    player = request["moves"][index]["player"]
    return player if re.fullmatch(r'[^\s"#\[\],\\]+', player) else '"'


def test_the_documented_text_examples_settle_as_the_json_example(client):
    """The text/plain examples of the OpenAPI document (ASCII and Korean spelling) answer as the JSON one."""
    expected = client.post("/v1/replay", json=LIVE_EXAMPLE).get_json()
    assert set(TEXT_EXAMPLES) == {"live-hidden-hands-ascii", "live-hidden-hands-korean"}
    assert re.search("[가-힣]", TEXT_EXAMPLES["live-hidden-hands-korean"])
    for text in TEXT_EXAMPLES.values():
        answer = post_text(client, text)
        assert answer.status_code == 200 and answer.get_json() == expected


def test_text_without_a_charset_and_with_a_byte_order_mark_is_read(client):
    text = TEXT_EXAMPLES["live-hidden-hands-korean"]
    expected = client.post("/v1/replay", json=LIVE_EXAMPLE).get_json()
    assert post_text(client, text, content_type="text/plain").get_json() == expected
    assert post_text(client, "\ufeff" + text).get_json() == expected
    assert post_text(client, text.replace("\n", "\r\n")).get_json() == expected


# --- a text that is not a log: 422 bad-notation at its line and column -----------------------------------

ASCII = TEXT_EXAMPLES["live-hidden-hands-ascii"]  # [Rules], [Players], [Layout], a blank line, then the moves

SPOILED = [
    # (what is done to the text, why, line, column, a fact of the problem)
    (lambda t: t.replace("A 1J 12D", "A 1J 13Q"), "unknown-card", 5, 6, {"card": "13Q"}),
    (lambda t: t.replace("[Players A B]", "[Player A B]"), "unknown-tag", 2, 2, {"tag": "Player"}),
    (lambda t: t.replace("[Players A B]\n", ""), "missing-tag", 1, 1, {"tag": "Players"}),
    (lambda t: t + "[Stake 100]\n", "tag-after-moves", 9, 1, {}),
    (lambda t: t.replace("[Rules korean-2p]", "[Rules korean-2p"), "unclosed-tag", 1, 1, {}),
    (lambda t: t.replace("B 3B 3J", 'B "3B 3J'), "unclosed-quote", 6, 3, {}),
    (lambda t: t.replace("A 2A 10J", "A 2A 10J 11J"), "unexpected", 7, 10, {"token": "11J", "expected": "end-of-move"}),
    (lambda t: t.replace("A 1J 12D", "A cup"), "unexpected", 5, 3, {"expected": "cup-side"}),
    (
        lambda t: t.replace("[Rules korean-2p]", "[Rules korean-2p]\n[Stake many]"),
        "not-a-number",
        2,
        8,
        {"tag": "Stake"},
    ),
    (lambda t: t.replace("[Rules korean-2p]", "[Rules korean-9p]"), "rules", 1, 8, {"error": "unknown-preset"}),
    (lambda t: t.replace("[Rules korean-2p]", "[Rules korean-2p gobak=triple]"), "rules", 1, 18, {"knob": "gobak"}),
    (lambda t: t.replace("A 1J 12D", "A go 12D"), "unexpected", 5, 6, {"token": "12D"}),
]


@pytest.mark.parametrize("spoil, why, line, column, facts", SPOILED, ids=[f"{s[1]}-{i}" for i, s in enumerate(SPOILED)])
def test_a_text_that_is_no_log_is_422_naming_its_line_and_column(client, spoil, why, line, column, facts):
    """docs/NOTATION.md 6: each way a text is not a log is answered 422 ``bad-notation`` with ``why``, ``line``,
    ``column`` and the facts, its detail naming the line and column in the asked language."""
    text = spoil(ASCII)
    said = {}
    for lang in ("en", "ko"):
        body = assert_problem(post_text(client, text, lang), 422, "bad-notation")
        assert (body["why"], body["line"], body["column"]) == (why, line, column), body
        assert facts.items() <= body.items(), body
        said[lang] = body["detail"]
    assert said["en"].startswith(f"Line {line}, column {column}: ")
    assert said["ko"].startswith(f"{line}줄 {column}칸: ") and re.search("[가-힣]{2}", said["ko"][8:])  # r3 U1
    assert said["en"] != said["ko"]


def test_bytes_that_are_not_utf8_are_named_where_they_start(client):
    text = "[Players A B]\n[Layout 1광 ".encode() + b"\xff\xfe 2J]\n"
    body = assert_problem(post_text(client, text), 422, "bad-notation")
    assert (body["why"], body["line"], body["column"]) == ("not-utf-8", 2, 12)  # after "[Layout 1광 "


def test_an_illegal_move_of_a_text_log_names_its_line_and_column(client):
    text = ASCII.replace("B 12B 3J2", "B 12B 1J")  # January junk was flipped by A's first turn
    json_body = assert_problem(
        client.post(
            "/v1/replay",
            json={
                **LIVE_EXAMPLE,
                "moves": [*LIVE_EXAMPLE["moves"][:3], {"player": "B", "play": "dec-bright", "draw": "jan-junk-1"}],
            },
        ),
        422,
    )
    for lang, where in (("en", "Line 8, column 1: "), ("ko", "8줄 1칸: ")):
        body = assert_problem(post_text(client, text, lang), 422, json_body["code"])
        assert (body["move_index"], body["line"], body["column"]) == (3, 8, 1)
        assert body["detail"].startswith(where)
    # the same log as JSON says nothing of lines
    assert "line" not in json_body and not json_body["detail"].startswith("Line")


def test_a_text_body_over_the_limit_is_413_as_json_is(client):
    padding = "# " + "x" * 1000 + "\n"
    text = ASCII + padding * (MAX_BODY_BYTES // len(padding) + 1)
    assert len(text.encode()) > MAX_BODY_BYTES
    assert_problem(post_text(client, text), 413, "body-too-large")
    assert_problem(client.post("/v1/replay", data=b" " * (MAX_BODY_BYTES + 1), content_type="application/json"), 413)
    # just under the limit, the comments are skipped
    under = ASCII + padding * ((MAX_BODY_BYTES - len(ASCII)) // len(padding) - 1)
    assert post_text(client, under).status_code == 200


def test_other_media_types_and_charsets_are_415_saying_what_is_read(client):
    body = assert_problem(post_text(client, ASCII, content_type="application/xml"), 415, "unsupported-media-type")
    assert "text/plain" in body["detail"] and "application/json" in body["detail"]
    body = assert_problem(post_text(client, ASCII, content_type="text/plain; charset=euc-kr"), 415)
    assert "euc-kr" in body["detail"] and "UTF-8" in body["detail"]
    ko = assert_problem(post_text(client, ASCII, "ko", content_type="text/plain; charset=euc-kr"), 415)
    assert re.search("[가-힣]", ko["detail"])
    # the other endpoints read JSON only, and say so as before
    body = assert_problem(client.post("/v1/score", data="x", content_type="text/plain"), 415)
    assert "text/plain" not in body["detail"]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    st.text(max_size=300)
    | st.builds(lambda cut, extra: ASCII[:cut] + extra, st.integers(0, len(ASCII)), st.text(max_size=20))
)
def test_any_text_is_answered_never_with_a_500(client, text):
    """Whatever the text, the answer is a ruling or a 4xx problem+json (never a 500, never a traceback); a
    notation error always points inside the text. (A "?" typed in the text may be echoed as a fact, where
    assert_problem would take it for a fact missing from a sentence: such texts are left out.)"""
    assume("?" not in text)
    answer = post_text(client, text)
    assert answer.status_code in (200, 422), answer.get_json()
    if answer.status_code == 422:
        body = assert_problem(answer, 422)
        if body["code"] == "bad-notation":
            lines = re.split(r"\r\n|\r|\n", text.removeprefix("\ufeff"))
            assert 1 <= body["line"] <= max(len(lines), 1) and body["column"] >= 1


# --- next, where the hands are hidden: what an app must prompt for ------------------------------------------


def _hidden(body):
    """A simulated hand's request with the hands and the stock left out: every turn says its draw."""
    return {**body, "deal": {"layout": body["deal"]["layout"]}}


@pytest.mark.parametrize(
    "rules", ["korean-2p", "korean-3p", {"preset": "korean-2p", "two_card_bomb": "bomb-multiplier"}]
)
def test_next_says_what_to_prompt_for_where_the_hands_are_hidden(client, rules):
    """RULES.md 5: with hidden hands there is no list of legal moves; ``next`` says, month by month, where a
    capture choice is asked and where a shake, a bomb or a two-card bomb can be, and the flip turns, as
    ``GameState.turn_options`` does after the same moves; with the whole deal known it lists ``legal`` instead."""
    seen = {"capture_months": 0, "shake_months": 0, "bomb_months": 0, "two_card_bomb_months": 0, "flip_turns": 0}
    for seed in range(3):
        known = simulate(rules, seed).to_dict()
        hidden = _hidden(known)
        state = GameState(known["players"], resolve(known["rules"], players=len(known["players"])), hidden["deal"])
        for i in range(0, len(known["moves"]) + 1, 3):
            nxt = client.post("/v1/replay", json={**hidden, "moves": known["moves"][:i]}).get_json()["next"]
            while len(state.moves) < i:
                state.apply(Move.from_dict(known["moves"][len(state.moves)], index=len(state.moves)))
            options = state.turn_options()
            if options is None:  # a call is due, or the hand is over
                assert nxt is None or "capture_months" not in nxt
                continue
            assert "legal" not in nxt
            assert nxt["player"] == options.player
            for key in seen:
                assert nxt[key] == (list(getattr(options, key)) if key != "flip_turns" else options.flip_turns)
                seen[key] += bool(nxt[key])
            assert nxt["flip_due"] is (nxt["expects"] == "flip")
            with_deal = client.post("/v1/replay", json={**known, "moves": known["moves"][:i]}).get_json()["next"]
            assert with_deal["legal"] and "capture_months" not in with_deal
    assert seen["shake_months"] and seen["bomb_months"]
    if isinstance(rules, dict):
        assert seen["two_card_bomb_months"]
    else:
        assert not seen["two_card_bomb_months"]


def test_next_of_a_live_game_names_the_months_of_the_layout(client):
    """The documented live game: after four turns A is to play; the layout decides the months (RULES.md 5)."""
    answer = client.post("/v1/replay", json=LIVE_EXAMPLE).get_json()
    months: dict[str, list[str]] = {}
    for card in answer["layout"]:
        months.setdefault(card.split("-")[0], []).append(card)
    order = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
    count = {order.index(m) + 1: len(cards) for m, cards in months.items()}
    nxt = answer["next"]
    assert nxt["player"] == "A" and nxt["expects"] == "play" and nxt["flip_due"] is False
    assert nxt["shake_months"] == [m for m in range(1, 13) if m not in count]
    assert nxt["bomb_months"] == [m for m in range(1, 13) if count.get(m) == 1]
    assert nxt["capture_months"] == [m for m in range(1, 13) if count.get(m) == 2]
    assert nxt["two_card_bomb_months"] == []  # not under korean-2p


def test_the_readme_text_example_and_its_refusals_are_what_the_service_says(client):
    """docs/api.md "A log as text": the hand.txt it sends is the documented live game, and the two refusals it
    shows (13Q on line 5, in English and in Korean) are the service's own answers."""
    readme = guides_text()
    text = re.search(r"cat > hand.txt <<'LOG'\n(.*?\n)LOG\n", readme, re.S).group(1)
    assert post_text(client, text).get_json() == client.post("/v1/replay", json=LIVE_EXAMPLE).get_json()
    shown = [
        json.loads(block)
        for block in re.findall(r"```json\n(\{\"type\": \"/problems/bad-notation\".*?)\n```", readme, re.S)
    ]
    assert len(shown) == 2
    spoiled = text.replace("12쌍피", "13Q")
    for lang, expected in zip(("en", "ko"), shown, strict=True):
        assert post_text(client, spoiled, lang).get_json() == expected
