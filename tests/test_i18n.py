"""The languages of the answers (API.md v1.1 "Language of the words"): the gettext catalogs are complete and
agree with the English, the client's Accept-Language picks the language, and no sentence shows an identifier."""

from __future__ import annotations

import re
import string
import subprocess
import sys
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from service.i18n import LANGUAGES, LOCALE_DIR, fit, negotiate
from tests.conftest import ROOT

TEMPLATE = LOCALE_DIR / "messages.pot"
CATALOGS = sorted(LOCALE_DIR.glob("*/LC_MESSAGES/messages.po"))
PARTICLES = {
    "은",
    "는",
    "이",
    "가",
    "을",
    "를",
    "과",
    "와",
    "으로",
    "로",
    "이에요",
    "예요",
    "이라",
    "라",
    ",",
    "한",
    "째",
    "번째",
    "th",
    "times",
    "cont",
}  # "," = 4,400; "한" = 한 번; "째", "번째", "th": 첫째, 첫 번째, first


def _read(path: Path):
    with path.open("rb") as f:
        return read_po(f)


def _placeholders(text: str) -> dict[str, set[str]]:
    """{name: {format specs}} of a brace-format message."""
    out: dict[str, set[str]] = {}
    for _, name, spec, _ in string.Formatter().parse(text):
        if name is not None:
            out.setdefault(name, set()).add(spec or "")
    return out


def test_the_template_holds_exactly_the_sentences_of_the_code(tmp_path):
    """``make messages`` keeps service/locale/messages.pot in step with the package service/sentences."""
    fresh = tmp_path / "messages.pot"
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    extract = re.search(r"^EXTRACT := (.+)$", makefile, re.M).group(1).split()
    target = r"^\t\$\(BIN\)/\$\(EXTRACT\) -o service/locale/messages.pot service/sentences$"
    assert re.search(target, makefile, re.M), "make messages must run $(EXTRACT)"
    command = [str(Path(sys.executable).parent / extract[0]), *extract[1:], "-o", str(fresh), "service/sentences"]
    subprocess.run(command, cwd=ROOT, check=True, capture_output=True)
    assert {m.id for m in _read(fresh) if m.id} == {m.id for m in _read(TEMPLATE) if m.id}, "run make messages"


def test_there_is_a_korean_catalog_and_every_catalog_is_served():
    assert "ko" in LANGUAGES and "en" in LANGUAGES
    assert {p.parent.parent.name for p in CATALOGS} <= set(LANGUAGES)


@pytest.mark.parametrize("catalog", CATALOGS, ids=[p.parent.parent.name for p in CATALOGS])
def test_every_message_is_translated_with_the_same_placeholders(catalog):
    template = {m.id: m for m in _read(TEMPLATE) if m.id}
    translated = {m.id: m for m in _read(catalog) if m.id}
    problems = []
    for msgid in template:
        got = translated.get(msgid)
        strings = ([got.string] if isinstance(got.string, str) else list(got.string)) if got else []
        if got is None or got.fuzzy or not all(strings):
            problems.append(f"untranslated: {msgid!r}")
            continue
        english = msgid if isinstance(msgid, str) else msgid[0]
        wanted = set(_placeholders(english))
        for text in strings:
            found = _placeholders(text)
            if set(found) - {"n"} != wanted - {"n"}:
                problems.append(f"placeholders differ: {english!r} -> {text!r}")
            for name, specs in found.items():
                if specs - {""} - PARTICLES:
                    problems.append(f"{name} carries {specs - {''} - PARTICLES} in {text!r}: not a particle")
    assert problems == []


@pytest.mark.parametrize(
    ("word", "spec", "said"),
    [
        ("A", "는", "A는"),  # 에이: a vowel
        ("A", "은", "A는"),  # either form of the pair asks for the particle; the word picks the form
        ("L", "이", "L이"),  # 엘
        ("철수", "가", "철수가"),
        ("송학 광", "을", "송학 광을"),
        ("국진", "으로", "국진으로"),
        ("비", "을", "비를"),
        ("똥 피", "과", "똥 피와"),
        ("1", "로", "1로"),  # 일: a final ㄹ takes 로
        ("3", "으로", "3으로"),  # 삼
        # a trailing bracket is an aside: the particle agrees with the word before it (words-r5 Kn1)
        ("보너스 투피(둘째 장)", "을", "보너스 투피(둘째 장)를"),
        ("보너스 투피(첫째 장)", "은", "보너스 투피(첫째 장)는"),
        ("멍따(7장)", "이", "멍따(7장)가"),
        ("송학 광 (학)", "을", "송학 광 (학)을"),
        ("(광)", "을", "(광)을"),  # nothing before the bracket: the bracket's own end decides
    ],
)
def test_korean_particles_fit_the_word_before_them(word, spec, said):
    assert fit(word, spec) == said


@pytest.mark.parametrize(
    ("header", "lang"),
    [
        (None, "en"),
        ("", "en"),
        ("ko", "ko"),
        ("ko-KR,ko;q=0.9,en-US;q=0.8,en;q=0.7", "ko"),
        ("en-US, ko;q=0.5", "en"),
        ("fr, ko;q=0.3, en;q=0.2", "ko"),
        ("fr, de", "en"),
        ("*", "en"),
        ("ko;q=0, en;q=0.1", "en"),
    ],
)
def test_the_clients_q_values_choose_the_language(header, lang):
    assert negotiate(header) == lang


def test_answers_say_their_language_and_vary_by_it(client):
    body = {"cards": ["jan-bright", "mar-bright", "aug-bright"]}
    for header, lang in ((None, "en"), ("ko-KR,ko;q=0.9", "ko")):
        resp = client.post("/v1/score", json=body, headers={"Accept-Language": header} if header else {})
        assert resp.headers["Content-Language"] == lang
        assert "Accept-Language" in resp.headers["Vary"]
    problem = client.post("/v1/score", json={"cards": ["jan-brite"]}, headers={"Accept-Language": "ko"})
    assert problem.status_code == 422 and problem.headers["Content-Language"] == "ko"
    assert re.search("[가-힣]", problem.get_json()["detail"]) and problem.get_json()["code"] == "unknown-card"


def test_machine_fields_never_change_with_the_language(client):
    from engine.simulate import simulate

    body = simulate("korean-3p", 11).to_dict()
    en = client.post("/v1/replay", json=body).get_json()
    ko = client.post("/v1/replay", json=body, headers={"Accept-Language": "ko"}).get_json()

    def machine(value):
        if isinstance(value, dict):
            return {k: machine(v) for k, v in value.items() if k not in SENTENCE_FIELDS}
        if isinstance(value, list):
            return [machine(v) for v in value]
        return value

    assert machine(en) == machine(ko)
    assert en["settlement"]["explanation"] != ko["settlement"]["explanation"]


SENTENCE_FIELDS = {"detail", "reason", "explanation", "title", "description"}


# --- no identifier a player would not say ------------------------------------------------------------------

_TOKEN = re.compile(r"[A-Za-z0-9]+(?:[-_][A-Za-z0-9]+)+")


def _identifiers() -> set[str]:
    from engine import CARDS, KNOBS, EventType
    from service.sentences.problems import HTTP_REFUSALS, REFUSALS

    names = {c.id for c in CARDS} | set(KNOBS) | {t.value for t in EventType}
    names |= {key for refusal in (*REFUSALS, *HTTP_REFUSALS) for key in refusal}
    names |= {value for knob in KNOBS.values() for value in knob.choices}
    names |= {"empty-loser", "first-ppuk", "first-ttadak", "in_progress", "sep_animal_as", "go_count", "last_go"}
    return {n for n in names if "-" in n or "_" in n}


IDENTIFIERS = _identifiers()


def _sentences(answer):
    if isinstance(answer, dict):
        for key, value in answer.items():
            if key in SENTENCE_FIELDS:
                yield from ([value] if isinstance(value, str) else value)
            else:
                yield from _sentences(value)
    elif isinstance(answer, list):
        for value in answer:
            yield from _sentences(value)


def assert_spoken(answer, where):
    for sentence in _sentences(answer):
        tokens = _TOKEN.findall(sentence)
        bad = [t for t in tokens if "_" in t or t.lower() in IDENTIFIERS]
        assert not bad, f"{where}: {bad} in {sentence!r}"


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_no_sentence_of_the_examples_shows_an_identifier(client, lang):
    from service import replay, score, settlement

    headers = {"Accept-Language": lang}
    assert_spoken(client.post("/v1/score", json=score.EXAMPLE, headers=headers).get_json(), "score")
    for name, body in settlement.EXAMPLES.items():
        assert_spoken(client.post("/v1/settle", json=body, headers=headers).get_json(), name)
    for name, body in replay.examples().items():
        assert_spoken(client.post("/v1/replay", json=body, headers=headers).get_json(), name)
    assert_spoken(client.get("/v1/rules", headers=headers).get_json(), "presets")


@pytest.mark.parametrize("lang", list(LANGUAGES))
@pytest.mark.parametrize("preset", ["korean-2p", "korean-3p", "chips-2p", "chips-3p", "basic-2p"])
def test_no_sentence_of_a_simulated_hand_shows_an_identifier(client, lang, preset):
    """Every event, settlement, go/stop decision and refusal of simulated hands, in both languages."""
    from engine.simulate import simulate

    headers = {"Accept-Language": lang}
    for seed in range(40):
        body = simulate(preset, seed).to_dict()
        answer = client.post("/v1/replay", json=body, headers=headers).get_json()
        assert_spoken(answer, f"{preset} seed {seed}")
        calls = [i for i, m in enumerate(body["moves"]) if "call" in m]
        if calls:  # the decision itself: what a stop pays now, what a go risks
            cut = client.post("/v1/replay", json={**body, "moves": body["moves"][: calls[0]]}, headers=headers)
            assert cut.get_json()["next"]["expects"] == "call"
            assert_spoken(cut.get_json(), f"{preset} seed {seed} at the call")
        if body["moves"]:  # and a refusal: the first move played by the wrong player
            wrong = {**body["moves"][0], "player": body["players"][-1]}
            refused = client.post("/v1/replay", json={**body, "moves": [wrong]}, headers=headers)
            assert refused.status_code == 422
            assert_spoken(refused.get_json(), f"{preset} seed {seed} refused")


def test_schema_messages_follow_the_language_and_keep_their_paths(client):
    """API.md v1.1: every sentence of an answer in the asked language, the field messages of a 422 included.
    The paths (machine fields) are the same in both; English keeps marshmallow's own words."""
    body = {
        "players": [{"id": "", "captured": ["jan-bright", "no-such-card"], "go_count": 99, "shakes": "2"}],
        "winner": None,
        "stake": -1,
        "rules": 7,
        "extra": True,
    }
    answers = {
        lang: client.post("/v1/settle", json=body, headers={"Accept-Language": lang}).get_json()
        for lang in ("en", "ko")
    }
    en, ko = answers["en"]["errors"], answers["ko"]["errors"]
    assert set(en) == set(ko) and len(en) >= 6
    assert en["players.0.go_count"] == ["Must be from 0 to 20."]  # words review r3 m13
    assert ko["players.0.go_count"] == ["0 이상 20 이하여야 합니다."]
    assert en["players.0.captured.1"] == ["Not a card id."] and ko["players.0.captured.1"] == ["화투패 ID가 아닙니다."]
    assert en["extra"] == ["Unknown field."] and ko["extra"] == ["알 수 없는 항목입니다."]
    for path, said in ko.items():
        assert all(re.search("[가-힣]", m) for m in said), (path, said, en[path])
