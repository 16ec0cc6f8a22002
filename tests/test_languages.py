"""A language is one folder (issue 28): a pseudo-language made mechanically from English, added as a folder to a
copy of service/locale, is served everywhere the languages are (the answers, the problem pages, /v1/cards, the
page's words, the rule book, the command) and passes the suite's language checks, with no code changed."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from babel.messages.pofile import read_po, write_po

from tests.conftest import ROOT

PSEUDO = "xx"
_FIELD = re.compile(r"(\{[^{}]*\}|\{\{|\}\})")


def _pseudo(text: str) -> str:
    """English with every letter outside a placeholder marked (so a sentence left in English shows), and its
    placeholders and braces kept as they are."""
    pieces = _FIELD.split(text)
    return "".join(p if i % 2 else "".join(c + "\u0307" if c.isalpha() else c for c in p) for i, p in enumerate(pieces))


def make_pseudo_language(locale: Path) -> None:
    """``locale/xx``: the template translated by ``_pseudo``, and the English rule book."""
    with (locale / "messages.pot").open("rb") as f:
        catalog = read_po(f, locale="en")
    catalog.locale = None
    for message in catalog:
        if not message.id:
            continue
        if isinstance(message.id, str):
            message.string = _pseudo(message.id)
        else:
            message.string = (_pseudo(message.id[0]), _pseudo(message.id[1]))
    folder = locale / PSEUDO / "LC_MESSAGES"
    folder.mkdir(parents=True)
    with (folder / "messages.po").open("wb") as f:
        write_po(f, catalog)
    english = locale / "en" / "RULES.md"
    book = english if english.is_file() else ROOT / "docs" / "RULES.md"
    shutil.copyfile(book, locale / PSEUDO / "RULES.md")


def test_a_language_added_as_a_folder_is_served_and_passes_the_language_checks(tmp_path):
    locale = tmp_path / "locale"
    shutil.copytree(ROOT / "service" / "locale", locale)
    make_pseudo_language(locale)
    env = {**os.environ, "GOSTOP_LOCALE": str(locale)}
    probe = """
import json
from service.app import create_app
from service.i18n import LANGUAGES
from gostop.words import WORDS, NAMES
from gostop.cli import parser
app = create_app(); c = app.test_client()
three = {"cards": ["jan-bright", "mar-bright", "aug-bright"]}
said = c.post("/v1/score", json=three, headers={"Accept-Language": "xx-YY"})
print(json.dumps({
    "languages": list(LANGUAGES),
    "content_language": said.headers["Content-Language"],
    "explanation": said.get_json()["explanation"],
    "card": c.get("/v1/cards").get_json()["cards"][0]["names"].get("xx"),
    "page": c.get("/v1/words").get_json()["languages"].get("xx"),
    "rules": c.get("/rules?lang=xx").headers["Content-Language"],
    "problem": c.get("/problems/bad-json", headers={"Accept-Language": "xx"}).headers["Content-Language"],
    "command": WORDS["xx"]["points"],
    "lang": parser().parse_args(["score", "--lang", "xx", "hand.json"]).lang,
}))
"""
    done = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    import json

    seen = json.loads(done.stdout.strip().splitlines()[-1])
    assert seen["languages"][0] == "en" and PSEUDO in seen["languages"]
    assert seen["content_language"] == PSEUDO and all("\u0307" in s for s in seen["explanation"])
    assert seen["card"] and "\u0307" in seen["card"]
    assert seen["page"] == _pseudo("English")
    assert seen["rules"] == PSEUDO and seen["problem"] == PSEUDO
    assert seen["command"] == _pseudo("points")
    assert seen["lang"] == PSEUDO
    # the suite's language checks, run against the copy with the new folder in it
    checks = [
        "tests/test_i18n.py",
        "tests/test_api.py::test_cards",
        "tests/test_openapi.py::test_a_problem_type_is_a_page_of_every_code",
    ]
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-x", "-p", "no:randomly", "-p", "no:cacheprovider", "-n", "0", *checks],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stdout[-3000:]


# --- 简体中文 and 日本語: their answers in their own words (issue 28) ---------------------------------------------

# The only Latin a zh or ja answer may carry besides card ids, player names and codes: the calls the seeds write
# in Latin (Go, Stop), the names of the request's fields a refusal points to, and the names of formats.
LATIN_ALLOWED = {
    "Go",
    "Stop",
    "JSON",
    "HTTP",
    "UTF-8",
    "RFC",
    "ID",
    "null",
    "true",
    "false",
    "text/plain",
    "application/json",
    "charset",
    "utf-8",
    "Content-Length",
    "Allow",
    "Expect",
    "Players",
    "Layout",
    "Rules",
    # the online services' own names (issue 29's presets), brands written as they write them
    "Hangame",
    "Pmang",
    "Netmarble",
}
_LATIN = re.compile(r"[A-Za-z][A-Za-z0-9_./+-]*[A-Za-z0-9]|[A-Za-z]")
_HANGUL = re.compile(r"[\uac00-\ud7a3\u1100-\u11ff\u3130-\u318f]")
# The Korean word given on purpose, in brackets after a coined word that no table of that language says: zh 僵局（쇼당）
# (words-r4 Z3). Only these glosses are allowed; any other Korean in a zh or ja answer is a leak.
_GLOSSES = re.compile(r"（쇼당）")
NEW_LANGUAGES = [lang for lang in ("zh", "ja") if (ROOT / "service" / "locale" / lang).is_dir()]  # no Latin script


def _allowed() -> set[str]:
    from engine import CARDS, KNOBS, PRESETS
    from service.codes import CODES
    from service.sentences.problems import HTTP_REFUSALS, REFUSALS
    from tests.test_i18n import SENTENCE_FIELDS

    names = {c.id for c in CARDS} | set(KNOBS) | set(PRESETS) | set(CODES) | set(SENTENCE_FIELDS)
    names |= {key for refusal in (*REFUSALS, *HTTP_REFUSALS) for key in refusal}
    names |= {value for knob in KNOBS.values() for value in knob.choices}
    names |= {"hand_index", "last_go", "presets", "choices", "errors", "line", "column", "why", "hand"}
    return names | LATIN_ALLOWED | {part for n in names for part in re.split(r"[-_]", n)}


def assert_in_own_words(answer: Any, players: set[str], where: str) -> None:
    from tests.test_i18n import _sentences

    allowed = _allowed() | players
    for sentence in _sentences(answer):
        assert not _HANGUL.search(_GLOSSES.sub("", sentence)), f"{where}: Korean in {sentence!r}"
        foreign = [t for t in _LATIN.findall(sentence) if t not in allowed]
        assert not foreign, f"{where}: {foreign} in {sentence!r}"


def _strings(node: Any) -> Any:
    if isinstance(node, str):
        yield node
    elif isinstance(node, dict):
        for key, value in node.items():
            yield key
            yield from _strings(value)
    elif isinstance(node, list):
        for value in node:
            yield from _strings(value)


@pytest.mark.parametrize("lang", NEW_LANGUAGES)
def test_a_new_language_answers_in_its_own_words(client, lang):
    """Every example, refusal and simulated hand in zh and ja: no Korean, and no English outside card ids,
    player names, codes and the Latin the game's own texts keep (Go, Stop)."""
    from engine.simulate import simulate
    from service import replay, score, settlement
    from service.evening import EXAMPLES as EVENINGS

    headers = {"Accept-Language": lang}
    players = {"A", "B", "C", "D", "E"}

    def check(path: str, body: Any, where: str) -> dict[str, Any]:
        answer = client.post(path, json=body, headers=headers)
        assert answer.headers["Content-Language"] == lang
        said = answer.get_json()
        assert_in_own_words(said, players | set(_strings(body)), where)  # what was sent may be echoed as a fact
        return said

    check("/v1/score", score.EXAMPLE, "score")
    for name, body in settlement.EXAMPLES.items():
        check("/v1/settle", body, name)
    for name, body in replay.examples().items():
        check("/v1/replay", body, name)
    for name, body in EVENINGS.items():
        check("/v1/evening", body, name)
    for preset in ("korean-2p", "korean-3p", "chips-3p"):
        for seed in range(8):
            body = simulate(preset, seed).to_dict()
            check("/v1/replay", body, f"{preset} {seed}")
            calls = [i for i, m in enumerate(body["moves"]) if "call" in m]
            if calls:
                check("/v1/replay", {**body, "moves": body["moves"][: calls[0]]}, f"{preset} {seed} at the call")
            if body["moves"]:
                wrong = {**body["moves"][0], "player": body["players"][-1]}
                check("/v1/replay", {**body, "moves": [wrong]}, f"{preset} {seed} refused")
    for body in (
        {"cards": ["jan-brite"], "rules": "korean-2p"},
        {"rules": "korean-9p", "cards": []},
        {"cards": 7, "extra": 1},
    ):
        check("/v1/score", body, f"refused {body}")
    rules = client.get("/v1/rules", headers=headers).get_json()
    assert_in_own_words(
        {"explanation": [k["label"] for k in rules["knobs"]] + [p["description"] for p in rules["presets"]]},
        set(),
        "knob labels",
    )
    page = client.get(f"/v1/words?lang={lang}").get_json()["words"][lang]

    def leaves(node: Any) -> Any:
        if isinstance(node, dict):
            for value in node.values():
                yield from leaves(value)
        elif isinstance(node, list):
            for value in node:
                yield from leaves(value)
        else:
            yield node

    words = [re.sub(r"\{\w+\}", "", word) for word in leaves(page)]  # the page fills its placeholders
    assert_in_own_words({"explanation": words}, {"A", "B", "C"}, "the page's words")


@pytest.mark.parametrize(
    ("header", "lang"), [("zh-CN", "zh"), ("zh-Hans", "zh"), ("zh-Hans-CN,zh;q=0.9", "zh"), ("ja-JP", "ja")]
)
def test_chinese_and_japanese_are_negotiated(header, lang):
    from service.i18n import negotiate

    if lang not in NEW_LANGUAGES:
        pytest.skip(f"no {lang} folder yet")
    assert negotiate(header) == lang


def test_every_languages_rule_book_keeps_the_english_sections():
    """A citation "RULES.md 8.3" opens the same section in every language's book (/rules?lang=..#8.3)."""
    from service.api.rulebook import find_books

    books = find_books()
    assert {"en", "ko", *NEW_LANGUAGES} <= set(books)

    def sections(lang: str) -> list[str]:
        text = books[lang].read_text(encoding="utf-8")
        return re.findall(r"^#{2,3} (\d+(?:\.\d+)?)\.?\s", text, re.M)

    for lang in books:
        assert sections(lang) == sections("en"), lang
