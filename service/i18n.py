"""The languages of the answers: gettext catalogs read with Babel, one per language, chosen per request.

English is the source language: the English sentences are the message ids, written once, in
``service/sentences.py``. Every other language is one catalog, ``service/locale/<lang>/LC_MESSAGES/
messages.po``; the catalogs are read and compiled in memory when the service starts, so adding a language
is adding its file (README, "Adding a language"). ``make messages`` re-extracts the template
``service/locale/messages.pot`` from the code and merges it into every catalog.

Korean sentences need the particle that fits the word before it (은/는, 이/가, 을/를, 과/와, 으로/로),
which depends on how that word ends. A catalog writes the particle as the format spec of the placeholder,
``{player:는}``, and ``Name`` picks the right form when the sentence is made; ``{amount:,}`` writes a number
with thousands separators.
"""

from __future__ import annotations

import io
import re
from functools import lru_cache
from gettext import NullTranslations
from pathlib import Path
from typing import Any

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import Translations
from werkzeug.datastructures import LanguageAccept
from werkzeug.http import parse_accept_header

__all__ = ["DEFAULT_LANGUAGE", "LANGUAGES", "LOCALE_DIR", "Name", "Words", "negotiate", "request_words", "words_for"]

LOCALE_DIR = Path(__file__).resolve().parent / "locale"
DEFAULT_LANGUAGE = "en"


class Name(str):
    """A word in a sentence (a player, a card) that a Korean particle may follow: ``format(name, "는")``
    gives the name with 은 or 는, as its last sound asks."""

    __slots__ = ()

    def __format__(self, spec: str) -> str:
        if not spec:
            return str(self)
        if spec == "," and self.isdigit():  # a number with thousands separators: 4,400
            return f"{int(self):,}"
        return str(self) + _particle(str(self), spec)


# A particle, by either of its forms: (after a final consonant, after a vowel).
_PARTICLES = {
    form: pair
    for pair in (("은", "는"), ("이", "가"), ("을", "를"), ("과", "와"), ("으로", "로"), ("이에요", "예요"))
    for form in pair
}
# How Latin letters and digits end when read aloud in Korean: with a final consonant (and which), or not.
_FINAL_OF = {
    **dict.fromkeys("LR178", "ㄹ"),
    **dict.fromkeys("MN036", "ㅁ"),  # 엠, 엔, 영, 삼, 육: a final consonant other than ㄹ
}


def _particle(word: str, spec: str) -> str:
    pair = _PARTICLES.get(spec)
    if pair is None:  # a catalog's mistake must not fail an answer (a test checks every spec is a particle)
        return ""
    last = word.rstrip(" )")[-1:] or " "
    if "가" <= last <= "힣":
        final = (ord(last) - ord("가")) % 28
        rieul = final == 8
        has_final = final != 0
    else:
        kind = _FINAL_OF.get(last.upper())
        has_final, rieul = kind is not None, kind == "ㄹ"
    if pair[0] == "으로":  # a final ㄹ takes 로, like a vowel
        return pair[0] if has_final and not rieul else pair[1]
    return pair[0] if has_final else pair[1]


class Words:
    """The sentences of one language: ``say`` a message, or its ``plural`` form for a count."""

    def __init__(self, lang: str, translations: NullTranslations) -> None:
        self.lang = lang
        self._translations = translations

    def say(self, message: str, /, **params: Any) -> str:
        return _fill(self._translations.gettext(message), params)

    def plural(self, singular: str, plural: str, n: int, /, **params: Any) -> str:
        return _fill(self._translations.ngettext(singular, plural, n), {**params, "n": n})

    def __repr__(self) -> str:
        return f"Words({self.lang!r})"


def _fill(text: str, params: dict[str, Any]) -> str:
    return text.format_map(_Facts(params) if _has_spec(text) else _Plain(params))


@lru_cache(maxsize=4096)  # keyed by the catalogs' own sentences: a few hundred
def _has_spec(text: str) -> bool:
    """Whether a sentence formats a fact with a spec (a particle, thousands separators): those need Names."""
    return _SPEC.search(text) is not None


_SPEC = re.compile(r"\{[^{}:]*:[^{}]+\}")


class _Plain(dict[str, Any]):
    """The facts of a sentence that formats none of them with a spec: read as they are."""

    def __missing__(self, key: str) -> Name:
        return _UNKNOWN


class _Facts(dict[str, Any]):
    """The facts of a sentence, each read as a Name a particle may follow. A fact a sentence asks for and was
    not given shows as "?" rather than failing the answer (the catalog tests render every message)."""

    def __getitem__(self, key: str) -> Any:
        # made a Name when the sentence reads it: most facts of an event or a check go unsaid
        value = self.get(key, _UNKNOWN)
        if isinstance(value, (str, int)) and not isinstance(value, bool):
            return Name(value)
        return value


_UNKNOWN = Name("?")


def _load(lang: str, path: Path) -> Words:
    with path.open("rb") as po:
        catalog = read_po(po, locale=lang)
    compiled = io.BytesIO()
    write_mo(compiled, catalog)  # fuzzy entries are left out: an unsure translation falls back to English
    compiled.seek(0)
    return Words(lang, Translations(compiled))


def _load_all() -> dict[str, Words]:
    found = {DEFAULT_LANGUAGE: Words(DEFAULT_LANGUAGE, NullTranslations())}
    for po in sorted(LOCALE_DIR.glob("*/LC_MESSAGES/messages.po")):
        lang = po.parent.parent.name
        found[lang] = _load(lang, po)
    return found


LANGUAGES: dict[str, Words] = _load_all()


def negotiate(accept_language: str | None) -> str:
    """The language to answer in for an Accept-Language header (RFC 9110 12.5.4): the client's q-values
    decide, tags compared by their primary subtag (``ko-KR`` asks for ``ko``); English when none fits."""
    if not accept_language:
        return DEFAULT_LANGUAGE
    accepted = parse_accept_header(accept_language, LanguageAccept)
    primary = LanguageAccept([(tag.split("-")[0].lower(), q) for tag, q in accepted])
    return str(primary.best_match(list(LANGUAGES), default=DEFAULT_LANGUAGE))


@lru_cache(maxsize=256)
def words_for(accept_language: str | None) -> Words:
    """The Words for a request's Accept-Language header (the same header gives the same language)."""
    return LANGUAGES[negotiate(accept_language)]


def request_words() -> Words:
    """The Words of the request being answered."""
    from flask import request  # the language layer itself does not need Flask; only this helper does

    return words_for(request.headers.get("Accept-Language"))
