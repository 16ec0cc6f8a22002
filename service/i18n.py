"""The languages of the answers: gettext catalogs, one per language, chosen per request.

English is the source language: the English sentences are the message ids, written once, in
``service/sentences/``. A language is one folder, ``service/locale/<lang>/``: its catalog
(``LC_MESSAGES/messages.po``: the answers, the problem pages, the knob labels, the page's words and the
command's words, one entry per concept) and its rule book (``RULES.md``). The languages are the folders found
when the service starts (English, the default, is the only one named in code), so adding a language is adding
its folder (docs/LANGUAGES.md). ``make messages`` re-extracts the template ``service/locale/messages.pot``
from the code and merges it into every catalog.

Babel reads a catalog and compiles it (``compile_catalog``; the compiled bytes are kept in the catalog's
``__pycache__``, keyed by its content); the sentences are then said with the standard library's gettext
alone. The page's engine (docs/page-engine.md) runs this module under Pyodide, where Babel is not: it is
given each catalog compiled (``messages.mo`` in place of ``messages.po``), made by the same
``compile_catalog``, and says the same sentences.

Korean sentences need the particle that fits the word before it (은/는, 이/가, 을/를, 과/와, 으로/로),
which depends on how that word ends. A catalog writes the particle as the format spec of the placeholder,
``{player:는}``, and ``fit`` picks the right form when the sentence is made; ``{amount:,}`` writes a number
with thousands separators, ``{n:한}`` a small count as the table says it before a counter (한 번, 두 장), and
``{n:째}``, ``{n:번째}``, ``{n:th}`` an ordinal (첫째 판, 첫 번째 뽑기, the first draw), ``{n:times}`` how often
(once, twice), and ``{said:cont}`` a sentence going on after a colon (in lower case).
Each sentence is read once into a ``Template``; saying it only fills it in.
"""

from __future__ import annotations

import hashlib
import io
import os
import string
from collections.abc import Callable, Mapping
from functools import lru_cache
from gettext import GNUTranslations, NullTranslations
from html import escape
from pathlib import Path
from typing import Any

__all__ = [
    "DEFAULT_LANGUAGE",
    "LANGUAGES",
    "LOCALE_DIR",
    "N_",
    "PARTICLES",
    "P_",
    "Template",
    "Words",
    "compile_catalog",
    "discover",
    "fit",
    "language_file",
    "language_links",
    "native_name",
    "negotiate",
    "request_words",
    "words_for",
]

# the languages' folders; GOSTOP_LOCALE points elsewhere (a test adds a language in a copy)
LOCALE_DIR = Path(os.environ.get("GOSTOP_LOCALE") or Path(__file__).resolve().parent / "locale")
DEFAULT_LANGUAGE = "en"
UNKNOWN = "?"  # a fact a sentence asks for and was not given shows as this rather than failing the answer


def N_(message: str) -> str:
    """Mark an English message for the catalogs (``make messages`` extracts it); it is translated when said."""
    return message


def P_(context: str, message: str) -> tuple[str, str]:
    """Mark an English word that means two things (the tab "Check" and the button "Check") with the context
    that tells them apart (a gettext ``msgctxt``); ``Words.text`` translates the pair."""
    return (context, message)


# A particle, by either of its forms: (after a final consonant, after a vowel).
PARTICLES: dict[str, tuple[str, str]] = {  # a particle's form -> (after a final consonant, after a vowel)
    form: pair
    for pair in (
        ("은", "는"),
        ("이", "가"),
        ("을", "를"),
        ("과", "와"),
        ("으로", "로"),
        ("이에요", "예요"),
        ("이라", "라"),
    )
    for form in pair
}
# How Latin letters and digits end when read aloud in Korean: with a final consonant (and which), or not.
_FINAL_OF = {
    **dict.fromkeys("LR178", "ㄹ"),
    **dict.fromkeys("MN036", "ㅁ"),  # 엠, 엔, 영, 삼, 육: a final consonant other than ㄹ
}
_VOWELS = frozenset("aeiouy")
# A small count before a counter (번, 장, 판), as the table says it: 한 번, 두 장; larger ones stay in digits.
_NATIVE = ("", "한", "두", "세", "네", "다섯", "여섯", "일곱", "여덟", "아홉", "열")
# Ordinals as the table says them: ``{n:째}`` 첫째 판, 둘째 판; ``{n:번째}`` 첫 번째 뽑기; ``{n:th}`` the first
# draw. From eleven on, digits (11번째, 11th).
_ORDINALS = {
    "째": ("", "첫째", "둘째", "셋째", "넷째", "다섯째", "여섯째", "일곱째", "여덟째", "아홉째", "열째"),
    "번째": ("", *(f"{n} 번째" for n in ("첫", "두", "세", "네", "다섯", "여섯", "일곱", "여덟", "아홉", "열"))),
    "th": ("", "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth"),
}


# The words an English sentence of the catalog opens with that are not names, so go on in lower case after a colon.
_SENTENCE_OPENERS = frozenset(
    [
        "The",
        "There",
        "These",
        "This",
        "That",
        "An",
        "No",
        "Nothing",
        "Nobody",
        "Not",
        "In",
        "It",
        "Its",
        "Send",
        "Say",
        "Give",
        "Only",
        "Every",
        "Each",
        "Under",
        "After",
        "When",
        "Where",
        "Which",
        "Who",
        "What",
        "Two",
        "Several",
        "More",
        "Do",
        "Some",
    ]
)


def _ordinal(n: int, spec: str) -> str:
    words = _ORDINALS[spec]
    if 0 < n < len(words):
        return words[n]
    if spec == "th":
        last = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
        return f"{n}{last}"
    return f"{n}번째"


@lru_cache(maxsize=4096)  # the words a sentence names repeat: players, cards, months
def fit(word: str, spec: str) -> str:
    """A word as a placeholder's format spec asks for it: followed by the Korean particle whose form fits how
    the word ends (``fit("A", "는")`` is "A는", ``fit("송학 광", "을")`` "송학 광을"), or, for ``","``, a
    number with thousands separators (4,400)."""
    if spec == "," and word.removeprefix("-").isdigit():  # a balance may fall below zero (RULES.md 11.4)
        return f"{int(word):,}"
    if spec == "한" and word.isdigit():
        return _NATIVE[int(word)] if 0 < int(word) < len(_NATIVE) else word
    if spec in _ORDINALS and word.isdigit():
        return _ordinal(int(word), spec)
    if spec == "times" and word.isdigit():  # how often, in English: once, twice, 3 times
        return {"1": "once", "2": "twice"}.get(word, f"{word} times")
    if spec == "cont":  # a sentence said after a colon goes on in lower case; a name (Pine junk, A) keeps its own
        first = word.split(" ", 1)[0]
        return word[:1].lower() + word[1:] if first in _SENTENCE_OPENERS else word
    return word + _particle(word, spec)


def _closed_latin(word: str) -> bool:
    """Whether a Latin name is read in Korean with a final consonant although its last letter is not one that
    ``_FINAL_OF`` knows: -ng (Kang, 강), and b, k, p, t after a single short vowel (Bob 밥, Jack 잭, Pat 팻,
    Matt 맷), which Korean closes; Kate, Bert and Mike end in a vowel (케이트, 버트, 마이크)."""
    w = word.lower()
    if not w.isascii() or not w.isalpha():
        return False
    if w.endswith("ng"):
        return True
    last, body = w[-1], w[:-1]
    if last not in "bkpt":
        return False
    if (last == "k" and body.endswith("c")) or body.endswith(last):  # Jack, Nick; Matt, Robb
        body = body[:-1]
    return len(body) >= 2 and body[-1] in _VOWELS and body[-2] not in _VOWELS


def _spoken_end(word: str) -> str:
    """The word whose ending a Korean particle agrees with: a trailing "(…)" is an aside, so the particle fits
    the word before it (투피(둘째 장)를, 멍따(7장)를), as Korean writes it."""
    word = word.rstrip()
    if word.endswith(")") and "(" in word:
        before = word[: word.rindex("(")].rstrip()
        if before:
            return before
    return word.rstrip(" )")


def _particle(word: str, spec: str) -> str:
    pair = PARTICLES.get(spec)
    if pair is None:  # a catalog's mistake must not fail an answer (a test checks every spec is a particle)
        return ""
    word = _spoken_end(word)
    last = word[-1:] or " "
    if "가" <= last <= "힣":
        final = (ord(last) - ord("가")) % 28
        rieul = final == 8
        has_final = final != 0
    else:
        kind = _FINAL_OF.get(last.upper())
        has_final, rieul = kind is not None or _closed_latin(word), kind == "ㄹ"
    if pair[0] == "으로":  # a final ㄹ takes 로, like a vowel
        return pair[0] if has_final and not rieul else pair[1]
    return pair[0] if has_final else pair[1]


class Template:
    """One sentence of one language, read once: the placeholders it names, in order, and the text around them.
    ``fill`` says it of a mapping of facts, ``fill_values`` of the values of its placeholders in order.

    It becomes one ``str.format`` with positional fields (done in C); a placeholder with a spec (a particle,
    or ``,``) is fitted by ``fit`` before, since ``str.format`` knows neither."""

    __slots__ = ("_format", "_specs", "fill_values", "head", "names")

    def __init__(self, text: str) -> None:
        pieces = list(string.Formatter().parse(text))
        names: list[str] = []
        specs: list[tuple[int, str]] = []
        parts: list[str] = []
        for literal, name, spec, conversion in pieces:
            parts.append(literal.replace("{", "{{").replace("}", "}}"))
            if name is None:
                continue
            if conversion or not name.isidentifier():
                raise ValueError(f"a sentence names its facts plainly, not {name!r} in {text!r}")
            if spec:
                specs.append((len(names), spec))
            parts.append(f"{{{len(names)}}}")
            names.append(name)
        self.head = text if not names else ""  # the whole sentence, when it names no fact
        self.names = tuple(names)
        self._specs = tuple(specs)
        self._format = "".join(parts).format
        # the sentence, its placeholders filled in order with the values given: str.format itself when no
        # placeholder has a spec
        self.fill_values: Callable[..., str] = self._fitted if specs else self._format

    def fill(self, facts: Mapping[str, Any]) -> str:
        """The sentence, each placeholder filled with its fact (a missing one as "?")."""
        if not self.names:
            return self.head
        return self.fill_values(*[facts.get(name, UNKNOWN) for name in self.names])

    def _fitted(self, *values: Any) -> str:
        said = list(values)
        for i, spec in self._specs:
            value = said[i]
            if isinstance(value, (str, int)) and not isinstance(value, bool):
                said[i] = fit(value if type(value) is str else str(value), spec)
            else:
                said[i] = format(value, spec)
        return self._format(*said)


class Words:
    """The sentences of one language: ``say`` a message, or its ``plural`` form for a count. Each message is
    read into a Template once, the first time it is said."""

    def __init__(self, lang: str, translations: NullTranslations) -> None:
        self.lang = lang
        self._translations = translations
        self._said: dict[str, Template] = {}  # message id -> its Template: bounded by the code's sentences
        self._read: dict[str, Template] = {}  # translated text -> its Template (the plural forms)
        self._words: dict[str, str] = {}  # message id -> its words, for a message that names no fact

    def template(self, message: str, /) -> Template:
        said = self._said.get(message)
        if said is None:
            said = self._said[message] = Template(self._translations.gettext(message))
        return said

    def plural_template(self, singular: str, plural: str, n: int, /) -> Template:
        text = self._translations.ngettext(singular, plural, n)
        read = self._read.get(text)
        if read is None:
            read = self._read[text] = Template(text)
        return read

    def say(self, message: str, /, **facts: Any) -> str:
        return self.template(message).fill(facts)

    def word(self, message: str, /) -> str:
        """A message that names no fact (the name of a card, of a month, of a rule), translated once."""
        said = self._words.get(message)
        if said is None:
            said = self._words[message] = self.template(message).fill({})
        return said

    def text(self, message: str | tuple[str, str], /) -> str:
        """A message's translation as written, its placeholders left in (the page fills them itself); a
        ``P_`` pair is translated in its context."""
        if isinstance(message, tuple):
            return self._translations.pgettext(*message)
        return self._translations.gettext(message)

    def plural(self, singular: str, plural: str, n: int, /, **facts: Any) -> str:
        return self.plural_template(singular, plural, n).fill({**facts, "n": n})

    def __repr__(self) -> str:
        return f"Words({self.lang!r})"


def compile_catalog(lang: str, path: Path) -> bytes:
    """A language's catalog (its ``.po``) compiled, as gettext reads it (a ``.mo``), with Babel."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    with path.open("rb") as po:
        catalog = read_po(po, locale=lang)
    compiled = io.BytesIO()
    write_mo(compiled, catalog)  # fuzzy entries are left out: an unsure translation falls back to English
    return compiled.getvalue()


def _compiled(lang: str, po: Path) -> bytes:
    """``compile_catalog``, kept beside the catalog as Python keeps its bytecode: ``__pycache__/messages.<hash
    of the .po>.mo``, so that a process that starts (a gunicorn worker, the command, an audit's processes) reads
    the compiled bytes rather than having Babel parse the .po again (about 0.04 s of CPU for the three
    catalogs). Keyed by the catalog's content, a cached copy is never stale; a folder that cannot be written
    only means compiling every time."""
    digest = hashlib.sha256(po.read_bytes()).hexdigest()[:24]
    cache = po.parent / "__pycache__" / f"{po.stem}.{digest}.mo"
    try:
        return cache.read_bytes()
    except OSError:
        pass
    compiled = compile_catalog(lang, po)
    try:
        cache.parent.mkdir(exist_ok=True)
        for stale in cache.parent.glob(f"{po.stem}.*.mo"):  # an earlier version of the catalog
            stale.unlink(missing_ok=True)
        written = cache.with_name(f"{cache.name}.{os.getpid()}")
        written.write_bytes(compiled)
        os.replace(written, cache)  # whole or not at all, whichever process writes it
    except OSError:
        pass
    return compiled


def discover(locale: Path = LOCALE_DIR) -> dict[str, Words]:
    """Every language of ``locale``: English (the message ids themselves), then each folder holding a catalog,
    in the order of their tags."""
    found = {DEFAULT_LANGUAGE: Words(DEFAULT_LANGUAGE, NullTranslations())}
    for folder in sorted(locale.glob("*/LC_MESSAGES")):
        lang = folder.parent.name
        po, mo = folder / "messages.po", folder / "messages.mo"
        if po.is_file():
            found[lang] = Words(lang, GNUTranslations(io.BytesIO(_compiled(lang, po))))
        elif mo.is_file():  # the page's engine: compiled where Babel is (service.page_engine)
            found[lang] = Words(lang, GNUTranslations(io.BytesIO(mo.read_bytes())))
    return found


LANGUAGES: dict[str, Words] = discover()


def native_name(lang: str) -> str:
    """A language's own name ("한국어"), as a chooser of languages shows it: its catalog's word for "English"."""
    return LANGUAGES[lang].text("English")


def language_links(lang: str, href: str) -> str:
    """The HTML links from a page in ``lang`` to the same page in every other language (``href?lang=xx``)."""
    return " ".join(
        f'<a href="{href}?lang={other}" hreflang="{other}" lang="{other}">{escape(native_name(other))}</a>'
        for other in LANGUAGES
        if other != lang
    )


def language_file(lang: str, name: str, locale: Path = LOCALE_DIR) -> Path:
    """One of a language's files beside its catalog: ``locale/<lang>/<name>`` (its rule book, RULES.md)."""
    return locale / lang / name


# What of an Accept-Language header is read: a browser sends a few tags in well under 100 characters; the rest
# of a longer header (a hostile one may be many 8 KB lines, which gunicorn joins) is not read, so that neither
# parsing it nor caching its answer costs more than a short one (docs/hardening.md).
MAX_ACCEPT_LANGUAGE = 256
MAX_LANGUAGE_TAGS = 16


def cut_accept_language(accept_language: str | None) -> str | None:
    """The part of an Accept-Language header that is read: its first MAX_LANGUAGE_TAGS tags, within
    MAX_ACCEPT_LANGUAGE characters (a tag cut in two is left out)."""
    if not accept_language:
        return accept_language
    cut = accept_language[: MAX_ACCEPT_LANGUAGE + 1]
    if len(cut) <= MAX_ACCEPT_LANGUAGE and cut.count(",") < MAX_LANGUAGE_TAGS:
        return accept_language  # what a browser sends, as it is
    tags = cut.split(",", MAX_LANGUAGE_TAGS)
    if len(cut) > MAX_ACCEPT_LANGUAGE:
        tags.pop()  # cut in two, or past the tags read anyway
    return ",".join(tags[:MAX_LANGUAGE_TAGS])


def negotiate(accept_language: str | None) -> str:
    """The language to answer in for an Accept-Language header (RFC 9110 12.5.4): the client's q-values
    decide, tags compared by their primary subtag (``ko-KR`` asks for ``ko``); English when none fits. Only
    the header's first tags are read (``cut_accept_language``)."""
    accept_language = cut_accept_language(accept_language)
    from werkzeug.datastructures import LanguageAccept
    from werkzeug.http import parse_accept_header

    if not accept_language:
        return DEFAULT_LANGUAGE
    accepted = parse_accept_header(accept_language, LanguageAccept)
    primary = LanguageAccept([(tag.split("-")[0].lower(), q) for tag, q in accepted])
    return str(primary.best_match(list(LANGUAGES), default=DEFAULT_LANGUAGE))


def words_for(accept_language: str | None) -> Words:
    """The Words for a request's Accept-Language header (the same header gives the same language)."""
    return _words_for(cut_accept_language(accept_language))


@lru_cache(maxsize=256)  # keyed by the part read: a cached header is short
def _words_for(accept_language: str | None) -> Words:
    return LANGUAGES[negotiate(accept_language)]


def request_words() -> Words:
    """The Words of the request being answered."""
    from flask import request  # the language layer itself does not need Flask; only this helper does

    return words_for(request.environ.get("HTTP_ACCEPT_LANGUAGE"))  # the header, without building request.headers
