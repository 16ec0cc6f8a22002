"""The `gostop` command: every command offline and against a live gunicorn, its exit status, its --json (byte for
byte what the HTTP service answers), its tables, and the files it cannot read (a message, never a traceback)."""

from __future__ import annotations

import io
import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import requests

from engine import format_log
from engine.simulate import simulate
from gostop import cli
from gostop.server import Server, free_port
from gostop.words import WORDS, language_from_environment, named
from tests.conftest import ROOT

pytestmark = pytest.mark.xdist_group("programs")

GOSTOP = Path(sys.executable).with_name("gostop")
SETTLE = {  # README's settle example: B pays A 20 points (gwangbak)
    "rules": "korean-2p",
    "stake": 100,
    "winner": "A",
    "players": [
        {
            "id": "A",
            "go_count": 1,
            "captured": [
                *("jan-bright", "mar-bright", "aug-bright", "feb-animal", "apr-animal", "aug-animal", "jan-junk-1"),
                *("jan-junk-2", "feb-junk-1", "feb-junk-2", "mar-junk-1", "mar-junk-2", "apr-junk-1", "apr-junk-2"),
                "nov-double",
            ],
        },
        {
            "id": "B",
            "captured": [
                *("sep-animal", "may-junk-1", "may-junk-2", "jun-junk-1", "jun-junk-2", "oct-junk-1", "oct-junk-2"),
                "oct-ribbon",
            ],
        },
    ],
}
SCORE = {
    "rules": "korean-2p",
    "cards": ["jan-bright", "mar-bright", "aug-bright", "feb-animal", "apr-animal", "aug-animal"],
}
LOG = simulate("korean-2p", 5).to_dict()  # a finished hand: B stops, A pays 20 for gobak
EVENING = {"people": ["A", "B"], "stake": 100, "hands": [{"settle": {k: v for k, v in SETTLE.items() if k != "rules"}}]}
ILLEGAL = {**LOG, "moves": [*LOG["moves"][:3], {**LOG["moves"][3], "play": "jan-bright"}]}


@pytest.fixture(scope="module")
def service():
    with Server({"WORKERS": "1", "ACCESS_LOG_LEVEL": "WARNING"}) as running:
        yield running.url


@pytest.fixture()
def wide(monkeypatch):
    """A terminal wide enough that no sentence is wrapped."""
    monkeypatch.setenv("COLUMNS", "400")


def write(tmp_path: Path, body: object, name: str = "body.json") -> str:
    path = tmp_path / name
    path.write_bytes(body if isinstance(body, bytes) else json.dumps(body).encode())
    return str(path)


def run(capsysbinary, *argv: str) -> tuple[int, bytes, str]:
    """The command in this process: exit status, stdout bytes, stderr text."""
    status = cli.main(list(argv))
    out, err = capsysbinary.readouterr()
    return status, out, err.decode()


# --- --json: exactly what the API answers ----------------------------------------------------------------


CASES = [
    ("score", "/v1/score", SCORE, 0),
    ("settle", "/v1/settle", SETTLE, 0),
    ("replay", "/v1/replay", LOG, 0),
    ("replay", "/v1/replay", ILLEGAL, 1),
    ("settle", "/v1/settle", {**SETTLE, "winner": "C"}, 1),
    ("score", "/v1/score", {"cards": ["jan-bright"], "stake": 1}, 1),
    ("evening", "/v1/evening", EVENING, 0),
    ("evening", "/v1/evening", {**EVENING, "people": ["A"]}, 1),
]


@pytest.mark.parametrize(
    ("command", "path", "body", "status"), CASES, ids=[f"{c[0]}-{c[3]}-{i}" for i, c in enumerate(CASES)]
)
@pytest.mark.parametrize("lang", ["en", "ko"])
def test_json_is_byte_for_byte_the_http_answer_offline_and_online(
    service, capsysbinary, tmp_path, command, path, body, status, lang
):
    http = requests.post(service + path, json=body, headers={"Accept-Language": lang}, timeout=10)
    assert (http.status_code < 400) == (status == 0)
    file = write(tmp_path, body)
    assert run(capsysbinary, command, "--json", "--lang", lang, file) == (status, http.content, "")
    assert run(capsysbinary, command, "--json", "--lang", lang, "--url", service, file) == (status, http.content, "")


def test_rules_json_is_the_http_answer(service, capsysbinary):
    for argv, path, status in (
        ([], "/v1/rules", 0),
        (["chips-3p"], "/v1/rules/chips-3p", 0),
        (["nope"], "/v1/rules/nope", 2),  # an unknown preset is bad usage
    ):
        http = requests.get(service + path, headers={"Accept-Language": "ko"}, timeout=10)
        assert run(capsysbinary, "rules", "--json", "--lang", "ko", *argv) == (status, http.content, "")
        assert run(capsysbinary, "rules", "--json", "--lang", "ko", "--url", service, *argv)[:2] == (
            status,
            http.content,
        )


def test_check_json_prints_the_replay_answer_and_the_exit_status_says_whether_payments_agree(capsysbinary, tmp_path):
    recorded = {"payments": [{"from": "A", "to": "B", "points": 20}]}
    status, agreed, _ = run(capsysbinary, "check", "--json", write(tmp_path, {**LOG, "id": 7, "recorded": recorded}))
    assert status == 0 and json.loads(agreed)["settlement"]["payments"][0]["points"] == 20
    wrong = {"payments": [{"from": "A", "to": "B", "points": 10}]}
    status, differed, _ = run(capsysbinary, "check", "--json", write(tmp_path, {**LOG, "recorded": wrong}))
    assert status == 1 and differed == agreed


# --- tables ------------------------------------------------------------------------------------------------


def test_settle_table_shows_who_pays_whom_and_every_rule_checked_with_its_reason(capsysbinary, tmp_path, wide, client):
    answer = client.post("/v1/settle", json=SETTLE).get_json()
    status, out, _ = run(capsysbinary, "settle", "--lang", "en", write(tmp_path, SETTLE))
    text = out.decode()
    assert status == 0
    (payment,) = answer["payments"]
    assert re.search(rf"^B\s+A\s+{payment['points']}\s+{payment['amount']}\s+gwangbak x2$", text, re.M), text
    for check in payment["checks"]:
        applied = "yes" if check["applied"] else "-"
        said = re.escape(named(check["rule"], "en"))
        assert re.search(
            rf"^{said}\s+{re.escape(applied)}\s+x{check['factor']}\s+{re.escape(check['reason'])}$",
            text,
            re.M,
        )
    assert all(f"- {sentence}" in text for sentence in answer["explanation"])


def test_korean_tables_use_the_tables_words(capsysbinary, tmp_path, wide, client):
    answer = client.post("/v1/settle", json=SETTLE, headers={"Accept-Language": "ko"}).get_json()
    status, out, _ = run(capsysbinary, "settle", "--lang", "ko", write(tmp_path, SETTLE))
    text = out.decode()
    assert status == 0 and "광박 x2" in text and "A 승리 (스톱)" in text
    assert all(check["reason"] in text for check in answer["payments"][0]["checks"])


def test_score_table_lists_the_combinations_and_counts(capsysbinary, tmp_path, wide):
    status, out, _ = run(capsysbinary, "score", "--lang", "en", write(tmp_path, SCORE))
    text = out.decode()
    assert status == 0 and text.startswith("8 points\n")
    assert re.search(r"^brights\s+3\s+jan-bright mar-bright aug-bright$", text, re.M)
    assert re.search(r"^godori\s+5\s+feb-animal apr-animal aug-animal$", text, re.M)
    assert "brights 3 · animals 3 · ribbons 0 · junk units 0" in text


def test_replay_table_counts_moves_from_one_and_ends_with_the_ruling(capsysbinary, tmp_path, wide, client):
    answer = client.post("/v1/replay", json=LOG).get_json()
    status, out, _ = run(capsysbinary, "replay", "--lang", "en", write(tmp_path, LOG))
    text = out.decode()
    assert status == 0 and text.startswith("finished\n")
    for event in answer["events"]:
        said = re.escape(named(event["type"], "en"))
        assert re.search(
            rf"^\s*{event['move_index'] + 1}\s+{event['player']}\s+{said}\s+{re.escape(event['detail'])}$",
            text,
            re.M,
        )
    assert "B wins (stop), 10 base points" in text and re.search(r"^A\s+B\s+20\s+20\s+gobak x2$", text, re.M)


def test_an_illegal_move_is_shown_with_its_move_counted_from_one_and_exit_status_1(capsysbinary, tmp_path, wide):
    for command in ("replay", "check"):
        status, out, err = run(capsysbinary, command, "--lang", "en", write(tmp_path, ILLEGAL))
        lines = out.decode().splitlines()
        assert status == 1 and err == ""
        assert lines[0] == "illegal at move 4 (B): card-not-in-hand"
        assert lines[1] == "Pine bright (crane and sun) is not in B's hand"


def test_check_table_compares_recorded_payments_with_the_ruling(capsysbinary, tmp_path, wide):
    wrong = {"payments": [{"from": "A", "to": "B", "points": 10}]}
    status, out, _ = run(capsysbinary, "check", "--lang", "en", write(tmp_path, {**LOG, "recorded": wrong}))
    text = out.decode()
    assert status == 1 and text.startswith("legal: finished\n")
    assert "the recorded payments differ from the ruling" in text
    assert re.search(r"^A\s+B\s+10\s+20$", text, re.M)  # recorded 10, ruled 20
    unfinished = {**LOG, "moves": LOG["moves"][:4], "recorded": wrong}
    status, out, _ = run(capsysbinary, "check", "--lang", "en", write(tmp_path, unfinished))
    assert status == 1 and out.decode().startswith("legal: in progress: A to play\n")
    assert "the log is not finished, but payments were recorded" in out.decode()
    status, out, _ = run(capsysbinary, "check", "--lang", "en", write(tmp_path, {**LOG, "id": "h1"}))
    assert status == 0 and "differ" not in out.decode()


def test_a_validation_error_lists_each_field(capsysbinary, tmp_path, wide):
    status, out, _ = run(capsysbinary, "settle", "--lang", "en", write(tmp_path, {**SETTLE, "stake": -1, "winner": 3}))
    text = out.decode()
    assert status == 1 and text.startswith("refused (422 validation-error)\n")
    assert re.search(r"^stake\s+Must be from 0 to 1,000,000,000\.", text, re.M)
    assert re.search(r"^winner\s+Not a valid string\.$", text, re.M)


def test_rules_tables(capsysbinary, wide):
    status, out, _ = run(capsysbinary, "rules", "--lang", "en")
    assert status == 0 and re.search(r"^korean-3p\s+3\s+Go-Stop for three", out.decode(), re.M)
    status, out, _ = run(capsysbinary, "rules", "--lang", "en", "basic-2p")
    assert status == 0 and out.decode().startswith("preset: basic-2p\n")
    assert re.search(r"^double_junk\s+true$", out.decode(), re.M)
    status, out, err = run(capsysbinary, "rules", "--lang", "en", "korean-9p")
    assert (status, out) == (2, b"") and err.startswith("gostop: there is no preset korean-9p")


def test_long_sentences_wrap_under_their_column(capsysbinary, tmp_path, monkeypatch):
    monkeypatch.setenv("COLUMNS", "70")
    status, out, _ = run(capsysbinary, "settle", "--lang", "ko", write(tmp_path, SETTLE))
    from gostop.tables import cells

    lines = out.decode().splitlines()
    assert status == 0 and max(cells(line) for line in lines if not line.startswith("- ")) <= 70
    continued = [line for line in lines if line.startswith(" " * 20) and line.strip()]
    assert continued  # a reason went on to a second line, under its column


# --- input, language, usage --------------------------------------------------------------------------------


def test_the_body_may_come_on_stdin(capsysbinary, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(json.dumps(SCORE).encode())))
    status, out, _ = run(capsysbinary, "score", "--json")
    assert status == 0 and json.loads(out)["total"] == 8


@pytest.mark.parametrize(
    ("content", "says"),
    [
        (b"", "is empty"),
        (b"   \n", "is empty"),
        (b'{"rules": "korean-2p", "cards": [', "is not valid JSON: "),
        (b"[1, 2]", "holds a JSON list, not an object"),
        (
            b'{"a": 1}\n{"b": 2}\n',
            "holds more than one JSON value: for an archive of hands (JSON Lines) use `gostop audit`",
        ),
        (b"\xff\xfe\x00garbage", "is not JSON"),
        (b"x" * (1 << 21), "is larger than 1024 KiB"),
    ],
    ids=["empty", "blank", "truncated", "list", "jsonl", "binary", "huge"],
)
def test_a_bad_file_gets_a_message_and_exit_status_2(capsysbinary, tmp_path, content, says):
    path = write(tmp_path, content)
    status, out, err = run(capsysbinary, "settle", path)
    assert (status, out) == (2, b"") and err.startswith(f"gostop: {path}") and says in err, err


TEXT_LOG = format_log(LOG, spelling="korean")


@pytest.mark.parametrize("command", ["replay", "check"])
@pytest.mark.parametrize("lang", ["en", "ko"])
def test_a_log_in_the_text_notation_is_read_offline_and_online(service, capsysbinary, tmp_path, command, lang):
    """Issue 17: `gostop replay hand.txt` and `gostop check hand.txt` read the text notation (the content
    decides: JSON or text) and send it as text/plain, offline and with --url: --json prints byte for byte the
    HTTP answer to the text, which is the answer to its JSON body."""
    http = requests.post(
        service + "/v1/replay",
        data=TEXT_LOG.encode(),
        headers={"Content-Type": "text/plain; charset=utf-8", "Accept-Language": lang},
        timeout=10,
    )
    assert http.status_code == 200
    assert http.content == requests.post(service + "/v1/replay", json=LOG, headers={"Accept-Language": lang}).content
    path = write(tmp_path, TEXT_LOG.encode(), "hand.txt")
    assert run(capsysbinary, command, "--json", "--lang", lang, path) == (0, http.content, "")
    assert run(capsysbinary, command, "--json", "--lang", lang, "--url", service, path) == (0, http.content, "")


def test_a_text_log_may_come_on_stdin(capsysbinary, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(("\ufeff" + TEXT_LOG).encode())))
    status, out, _ = run(capsysbinary, "replay", "--json")
    assert status == 0 and json.loads(out)["settlement"]["payments"][0]["points"] == 20


def test_a_text_that_is_no_log_is_shown_at_its_line_and_column(service, capsysbinary, tmp_path, wide):
    """A refusal of a text log shows the line it names, with a mark under the column; exit status 1."""
    lines = TEXT_LOG.split("\n")
    at = lines.index("") + 1  # the first move, 0-based
    lines[at] = lines[at].split(" ")[0] + " 13Q"
    path = write(tmp_path, "\n".join(lines).encode(), "hand.txt")
    for url in ([], ["--url", service]):
        status, out, err = run(capsysbinary, "replay", *url, path)
        shown = out.decode()
        assert (status, err) == (1, "") and "bad-notation" in shown
        assert f"Line {at + 1}, column 3: 13Q is not a card" in shown
        assert shown.endswith(f"{at + 1:>5} | {lines[at]}\n      |   ^\n")
    # an illegal move of a text log: its move counted from 1, and its line
    illegal = write(tmp_path, format_log(ILLEGAL).encode(), "illegal.txt")
    status, out, _ = run(capsysbinary, "check", illegal)
    assert status == 1 and "card-not-in-hand" in out.decode() and "\n      | ^\n" in out.decode()


def test_a_text_log_is_only_a_log_and_only_in_utf8(capsysbinary, tmp_path):
    path = write(tmp_path, TEXT_LOG.encode(), "log.txt")
    status, _, err = run(capsysbinary, "score", path)
    assert status == 2 and "is not valid JSON" in err  # a score is never a log
    path = write(tmp_path, "[Players A B]\n[Layout 1광 ".encode() + b"\xff]\n", "latin.txt")
    status, out, err = run(capsysbinary, "replay", path)
    assert (status, out) == (2, b"")
    assert err == f"gostop: {path} is neither JSON nor a text log in UTF-8 (line 2, column 12 is not UTF-8)\n"
    status, _, err = run(capsysbinary, "check", write(tmp_path, b"", "empty.txt"))
    assert status == 2 and "is empty: give a move log (JSON, or the text notation)" in err
    # a JSON list is still JSON (and not a body), a broken one is read as text
    status, _, err = run(capsysbinary, "replay", write(tmp_path, b"[1, 2]", "list.json"))
    assert status == 2 and "holds a JSON list, not an object" in err


def test_files_that_are_not_there_or_not_files(capsysbinary, tmp_path):
    assert run(capsysbinary, "score", str(tmp_path / "nope.json")) == (
        2,
        b"",
        f"gostop: {tmp_path / 'nope.json'}: no such file\n",
    )
    status, _, err = run(capsysbinary, "score", str(tmp_path))
    assert status == 2 and "is a folder, not a file" in err


def test_bad_recorded_payments_are_a_bad_file(capsysbinary, tmp_path):
    status, _, err = run(capsysbinary, "check", write(tmp_path, {**LOG, "recorded": {"payments": [{"from": "A"}]}}))
    assert status == 2 and "recorded.payments.0 must be an object with from, to" in err


def test_bad_usage_is_exit_status_2(capsysbinary):
    for argv in (["dance"], ["score", "--lang", "fr", "x"], [], ["audit"], ["rules", "--jobs", "2"]):
        with pytest.raises(SystemExit) as stopped:
            cli.main(argv)
        assert stopped.value.code == 2


def test_version_is_the_packages(capsysbinary):
    from importlib.metadata import version

    import engine

    with pytest.raises(SystemExit) as stopped:
        cli.main(["--version"])
    out, _ = capsysbinary.readouterr()
    assert (
        stopped.value.code == 0
        and out.decode().strip() == f"gostop {version('gostop')}" == f"gostop {engine.__version__}"
    )


@pytest.mark.parametrize("command", ["score", "settle", "replay", "check", "evening", "rules", "cards", "audit"])
def test_a_bad_option_shows_the_subcommands_usage_not_the_top_levels(capsysbinary, command):
    with pytest.raises(SystemExit) as stopped:
        cli.main([command, "--no-such-option", "x"])
    _, err = capsysbinary.readouterr()
    assert stopped.value.code == 2
    assert err.decode().startswith(f"usage: gostop {command} ") and "--no-such-option" in err.decode()
    assert "COMMAND" not in err.decode()


@pytest.mark.parametrize(("lang", "says"), [("en", "there is no preset nope"), ("ko", "없는 규칙 묶음입니다: nope")])
def test_rules_of_an_unknown_preset_is_bad_usage_with_the_presets_named(service, capsysbinary, lang, says):
    for url in ([], ["--url", service]):
        status, out, err = run(capsysbinary, "rules", "--lang", lang, *url, "nope")
        assert (status, out) == (2, b"") and err.startswith(f"gostop: {says}") and "korean-2p" in err


def test_evening_table_offline_and_online(service, capsysbinary, tmp_path, wide):
    file = write(tmp_path, EVENING)
    for url in ([], ["--url", service]):
        status, out, _ = run(capsysbinary, "evening", "--lang", "en", *url, file)
        text = out.decode()
        assert status == 0 and "- To settle up, B pays A 2,000" in text
        assert re.search(r"^from\s+to\s+amount\nB\s+A\s+2000$", text, re.M), text
        status, out, _ = run(capsysbinary, "evening", "--lang", "ko", *url, file)
        assert status == 0 and "최종 정산: B가 A에게 2,000원을 줍니다" in out.decode()


def test_cards_table_and_json(service, capsysbinary, wide):
    status, out, _ = run(capsysbinary, "cards", "--lang", "ko")
    lines = out.decode().splitlines()
    assert status == 0 and len(lines) == 52 and re.match(r"jan-bright\s+1\s+광\s+0\s+송학 광$", lines[1])
    http = requests.get(service + "/v1/cards", timeout=10)
    assert run(capsysbinary, "cards", "--json", "--lang", "en", "--url", service) == (0, http.content, "")


def test_a_service_that_does_not_answer_in_time_is_a_message(capsysbinary, tmp_path):
    import socket

    with socket.socket() as listening:  # accepts (the kernel's backlog) but never answers
        listening.bind(("127.0.0.1", 0))
        listening.listen(8)
        url = f"http://127.0.0.1:{listening.getsockname()[1]}"
        status, out, err = run(capsysbinary, "score", "--url", url, "--timeout", "0.3", write(tmp_path, SCORE))
    assert (status, out) == (2, b"") and err == f"gostop: {url} did not answer within 0.3 s\n"


def test_a_service_that_cannot_be_reached_is_a_message(capsysbinary, tmp_path):
    url = f"http://127.0.0.1:{free_port()}"
    status, out, err = run(capsysbinary, "score", "--url", url, "--timeout", "1", write(tmp_path, SCORE))
    assert (status, out) == (2, b"") and err.startswith(f"gostop: cannot reach {url}: ") and "refused" in err.lower()


@pytest.mark.parametrize(
    ("environ", "lang"),
    [
        ({"LANG": "ko_KR.UTF-8"}, "ko"),
        ({"LANG": "en_US.UTF-8"}, "en"),
        ({"LC_ALL": "ko_KR.UTF-8", "LANG": "en_US.UTF-8"}, "ko"),
        ({"LC_ALL": "C", "LANG": "ko_KR.UTF-8"}, "en"),
        ({"LC_MESSAGES": "ko_KR", "LANG": "C"}, "ko"),
        ({}, "en"),
    ],
)
def test_the_default_language_comes_from_the_locale(environ, lang):
    assert language_from_environment(environ) == lang


def test_both_catalogs_have_every_word():
    assert set(WORDS["en"]) == set(WORDS["ko"])
    for key, english in WORDS["en"].items():
        assert sorted(re.findall(r"{\w+}", english)) == sorted(re.findall(r"{\w+}", WORDS["ko"][key])), key


# --- the installed command ---------------------------------------------------------------------------------


def test_the_console_script_answers_in_the_locales_language_and_says_no_traceback(tmp_path):
    env = {**os.environ, "LANG": "ko_KR.UTF-8", "LC_ALL": "", "COLUMNS": "300"}
    env.pop("GOSTOP_URL", None)
    done = subprocess.run([str(GOSTOP), "settle", write(tmp_path, SETTLE)], capture_output=True, env=env, timeout=60)
    assert done.returncode == 0 and "A 승리 (스톱)" in done.stdout.decode()
    bad = write(tmp_path, b'{"players": [', "bad.json")
    done = subprocess.run([str(GOSTOP), "replay", bad], capture_output=True, env=env, timeout=60)
    assert done.returncode == 2 and done.stdout == b"" and b"Traceback" not in done.stderr
    assert done.stderr.decode().startswith(f"gostop: {bad} is not valid JSON")
    done = subprocess.run(
        [sys.executable, "-m", "gostop", "check", "-"],
        input=json.dumps(ILLEGAL).encode(),
        capture_output=True,
        env=env,
        timeout=60,
    )
    assert done.returncode == 1 and "4번째 차례(B)가 규칙에 어긋납니다: card-not-in-hand" in done.stdout.decode()


def test_serve_runs_the_service_as_make_run_does_until_sigterm(tmp_path):
    port = free_port()
    with open(tmp_path / "serve.log", "wb") as log:
        proc = subprocess.Popen(
            [str(GOSTOP), "serve", "--port", str(port), "--workers", "1"],
            stdout=subprocess.DEVNULL,
            stderr=log,
            cwd=tmp_path,
        )
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                answer = requests.get(f"http://127.0.0.1:{port}/healthz", timeout=2)
                break
            except requests.RequestException:  # not listening yet, or not answering yet
                assert proc.poll() is None and time.monotonic() < deadline, (tmp_path / "serve.log").read_text()
                time.sleep(0.1)
        assert answer.json()["status"] == "ok"
        rules = requests.get(f"http://127.0.0.1:{port}/rules", timeout=5)
        assert rules.status_code == 200  # the rule book is found, whatever the caller's working directory
        assert "gunicorn" in (tmp_path / "serve.log").read_text()
    finally:
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=30) == 0


def test_the_makefile_and_the_command_serve_the_same_way():
    """`gostop serve` and the test harness start the command line `make run` does."""
    from gostop.server import gunicorn_command

    serve = re.search(r"^SERVE := (.+)$", (ROOT / "Makefile").read_text(encoding="utf-8"), re.M).group(1).split()
    command = gunicorn_command()
    assert Path(command[0]).name == serve[0] and command[1] == serve[1] and command[3] == serve[3]
    assert Path(command[2]) == ROOT / serve[2]
