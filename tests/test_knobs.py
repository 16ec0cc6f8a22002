"""A knob is declared once, in engine/rules.py (RULES.md 10.3); these tests name, in one failure, every place a new
knob still lacks: its label and its choices' words (service/sentences/names.py), their translation in every
catalog, and (tests/test_rulebook.py) its rows in every language's rule book. docs/knobs.md lists the steps."""

from __future__ import annotations

from babel.messages.pofile import read_po

from engine import KNOBS
from service.i18n import LOCALE_DIR
from service.sentences import names

NAMED_ELSEWHERE = {"bonus_cards"}  # its choices are cards, named by the cards' names
NOT_KNOBS = {"rules", "preset"}  # names.KNOBS also names the request's rules and preset fields


def _choice_knobs():
    kinds = ("choice", "set")
    return {name: knob for name, knob in KNOBS.items() if knob.kind in kinds and name not in NAMED_ELSEWHERE}


def test_rules_10_3_every_knob_has_a_label_and_no_label_is_left_over():
    assert [name for name in KNOBS if name not in names.KNOBS] == []
    assert set(names.KNOBS) - set(KNOBS) == NOT_KNOBS


def test_rules_10_3_every_choice_of_every_choice_knob_has_its_words():
    wanted = {(name, value) for name, knob in _choice_knobs().items() for value in knob.choices}
    assert sorted(wanted - set(names.CHOICES)) == []  # missing
    assert sorted(set(names.CHOICES) - wanted) == []  # left over from a choice that went


def test_rules_10_3_every_knob_label_and_choice_is_translated_in_every_catalog():
    words = {names.KNOBS[name] for name in KNOBS} | {names.CHOICES[key] for key in names.CHOICES}
    catalogs = sorted(LOCALE_DIR.glob("*/LC_MESSAGES/messages.po"))
    assert len(catalogs) >= 3  # ko, zh, ja (English is the msgid)
    for path in catalogs:
        with path.open("rb") as f:
            translated = {m.id for m in read_po(f) if m.id and m.string}
        assert sorted(words - translated) == [], path.parent.parent.name
