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
