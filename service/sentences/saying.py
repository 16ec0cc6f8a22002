"""How a fact becomes a sentence: the one way every module of this package says something.

A sentence is a ``Say``: an English message (the catalogs' message id), or a singular and plural pair
counted by one fact. It is said of a mapping of facts, each placeholder filled with the fact of its name (or
the fact ``reads`` names), said as ``SPOKEN`` says that kind of fact: a card by its name, a month by its
name, a list of players joined, a move index as the move's number. Where one key of the engine (an event
type, a check's rule and reason, a refusal's code and reason) has several sentences, the first ``Say``
whose ``when`` holds for the facts is the one said.

``N_`` and ``plural`` mark the messages for the catalogs' template (``make messages`` extracts them).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, NamedTuple

from engine import Card, Place

from ..i18n import N_, UNKNOWN, Template, Words
from . import names

__all__ = ["SPOKEN", "Facts", "Say", "plural", "reading", "say"]

Facts = Mapping[str, Any]
_READS: Mapping[str, str] = MappingProxyType({"number": "move_index"})  # what every sentence reads by default


@dataclass(frozen=True, slots=True, eq=False)  # one object per sentence: hashed by identity
class Say:
    """One sentence: its message, the plural form for a counted one, the facts its placeholders read under
    another name (``{"n": "shakes"}``: a counted sentence's ``{n}`` and its form come from the fact
    ``shakes``), and, for one of several sentences of one key, when it is the one said."""

    message: str
    plural: str = ""
    reads: Mapping[str, str] = field(default_factory=lambda: _READS)
    when: Callable[[Facts], bool] | None = None
    # per language (per form, for a counted sentence): its template, and for each placeholder the fact it
    # reads and how that is said; worked out the first time it is said
    ready: dict[object, Ready] = field(default_factory=dict, repr=False)


def plural(singular: str, plural: str, count: str, *, when: Callable[[Facts], bool] | None = None, **reads: str) -> Say:
    """A counted sentence: ``{n}`` is the fact ``count``, and picks the singular or plural form."""
    return Say(singular, plural, MappingProxyType({**_READS, "n": count, **reads}), when, {})


def reading(message: str, *, when: Callable[[Facts], bool] | None = None, **reads: str) -> Say:
    """A sentence whose placeholders read facts of other names (``units`` reads ``loser_junk_units``)."""
    return Say(message, "", MappingProxyType({**_READS, **reads}), when, {})


def say(w: Words, sentence: Say | Sequence[Say], facts: Facts) -> str:
    """The sentence said of the facts, in the language of ``w``."""
    if not isinstance(sentence, Say):  # several sentences of one key: the first whose condition holds
        for one in sentence:
            if one.when is None or one.when(facts):
                sentence = one
                break
        else:
            raise LookupError(f"no sentence fits {dict(facts)!r}")
    if sentence.plural:
        key: object = w.plural_template(sentence.message, sentence.plural, facts[sentence.reads["n"]])
    else:
        key = w
    ready = sentence.ready.get(key) or _ready(sentence, key, w)
    values = list(map(facts.get, ready.facts, ready.unknown))  # each placeholder's fact, or "?"
    for i, how in ready.said:
        if values[i] is not UNKNOWN:
            values[i] = how(w, values[i])
    return ready.template.fill_values(*values)


class Ready(NamedTuple):
    """A sentence in one language (one form, for a counted one), worked out once: its template, the fact each
    placeholder reads, and how the facts that are not said as they are (a card, a month) are said."""

    template: Template
    facts: tuple[str, ...]
    unknown: tuple[str, ...]
    said: tuple[tuple[int, Callable[[Words, Any], Any]], ...]


def _ready(sentence: Say, key: object, w: Words) -> Ready:
    template = key if isinstance(key, Template) else w.template(sentence.message)
    facts = tuple(sentence.reads.get(name, name) for name in template.names)
    said = tuple((i, SPOKEN[name]) for i, name in enumerate(template.names) if name in SPOKEN)
    ready = sentence.ready[key] = Ready(template, facts, (UNKNOWN,) * len(facts), said)
    return ready


# --- how each kind of fact is said ------------------------------------------------------------------------


def _card(w: Words, value: Any) -> Any:
    """A card by its name; a list (a bomb's three cards) by their names; a culprit that is no card as given."""
    if type(value) is Card:
        return w.word(names.CARDS[value.id])
    if isinstance(value, (list, tuple)):
        return names.cards(w, value)
    return names.card(w, value) if names.is_card(value) else str(value)


def _cards(w: Words, value: Any) -> str:
    return names.cards(w, value) if value else w.say(N_("none"))


def _joined(w: Words, value: Any) -> Any:
    return names.joined(w, value) if isinstance(value, (list, tuple)) else value


def _choices(w: Words, value: Any) -> Any:
    return names.joined(w, value, names.CHOICE_JOINER) if isinstance(value, (list, tuple)) else value


def _named(table: Mapping[Any, str]) -> Callable[[Words, Any], Any]:
    def said(w: Words, value: Any) -> Any:
        return w.word(table[value]) if value in table else str(value)

    return said


def _place(w: Words, value: Any) -> Any:
    return names.place(w, value) if isinstance(value, Place) else value


def _seen(w: Words, value: Any) -> Any:
    if not isinstance(value, Place):
        return value
    where = names.place(w, value)
    if value.kind in ("hand", "shown", "stock"):
        return where
    if value.move_index is None:
        return w.say(N_("{where} (seen since the deal)"), where=where)
    return w.say(N_("{where} (seen since move {number})"), where=where, number=value.move_index + 1)


def _number(w: Words, value: Any) -> Any:
    return value + 1 if isinstance(value, int) else value


def _factors(w: Words, value: Any) -> Any:
    """What a hand multiplies (amount-too-large): each factor by its rule's name, or its own (base, stake)."""
    if not isinstance(value, Mapping):
        return value
    said = _named({**names.RULES, **_FACTORS})
    return " × ".join(f"{said(w, name)} {factor}" for name, factor in value.items())


_FACTORS = {"base": N_("base points"), "stake": N_("stake"), "covers": N_("shares covered"), "sale": N_("sale")}


SPOKEN: Mapping[str, Callable[[Words, Any], Any]] = {
    "factors": _factors,
    **dict.fromkeys(("card", "top", "drawn", "played", "paired", "bonus"), _card),
    **dict.fromkeys(("cards", "layout", "flipped", "listed"), _cards),
    **dict.fromkeys(("players", "covered", "payers", "reachable"), _joined),
    "choices": _choices,
    "kind": _named(names.COUNTS),
    "month": lambda w, m: w.word(names.MONTHS[m]),
    "rule": _named(names.RULES),
    "knob": _named(names.KNOBS),
    "wanted": _named(names.EXPECTED),  # what a text log was expected to hold (a NotationError's ``expected``)
    "field": _named(names.FIELDS),
    "outcome": _named(names.OUTCOMES),
    "cause": _named(names.STEAL_CAUSES),
    **dict.fromkeys(("one_lacks", "other_lacks"), _named(names.STANDOFF_COMBINATIONS)),  # a shodang's standoff
    "place": _place,
    "first": _place,
    "seen": _seen,
    "number": _number,  # a move's number, counted from 1, read from its 0-based index
}
