"""GET /rules: this project's rule book (service/locale/<lang>/RULES.md) as a small page, English or Korean.

Both books are rendered to HTML once, when the app is built (``blueprint``); a request only picks one: ``?lang=en|ko``
first, then ``Accept-Language``, English by default. Every heading is anchored by its section number
(``/rules#5``, ``/rules#5.5``): the number that every "RULES.md n" in the answers and docs cites. Like the
docs assets, this is a plain Flask blueprint, not part of the OpenAPI document.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from dataclasses import dataclass
from html import escape
from pathlib import Path
from typing import Any

from flask import Blueprint, Response, request
from flask.typing import ResponseReturnValue
from markdown_it import MarkdownIt
from markdown_it.token import Token

from ..i18n import LOCALE_DIR, words_for

LANGUAGES = ("en", "ko")  # the first is the default
BOOK = "RULES.md"  # each language's book in that language's folder of the catalogs: locale/<lang>/RULES.md
# the page's own words: the heading of its contents, and the link to the other language
_CONTENTS = {"en": "Contents", "ko": "차례"}
_OTHER = {"en": ("ko", "한국어"), "ko": ("en", "English")}
STATIC_DIR = Path(__file__).resolve().parent.parent / "static"
MAX_AGE = 3600

# "5. A turn" is section 5, "5.5 Bomb and flip turns" is 5.5
_NUMBER = re.compile(r"(\d+(?:\.\d+)*)\.?\s")
_PAGE = """<!doctype html>
<html lang="{lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<link rel="stylesheet" href="/rules/rules.css">
</head>
<body>
<nav class="language"><a href="/rules?lang={other}" hreflang="{other}" lang="{other}">{other_name}</a></nav>
<main>
{title_html}<nav class="contents" aria-label="{contents}"><h2>{contents}</h2>
<ol>
{toc}
</ol></nav>
{body}</main>
</body>
</html>
"""


class RuleBookMissing(RuntimeError):
    """The rule book files are not where the service looks for them (a packaging fault)."""


@dataclass(frozen=True, slots=True)
class Page:
    """One language's rendered book."""

    lang: str
    html: bytes
    etag: str


def find_books(locale: Path = LOCALE_DIR) -> dict[str, Path]:
    """Each language's book, package data beside the catalogs (so an installed wheel carries them); raises
    RuleBookMissing naming every book not found."""
    books = {lang: locale / lang / BOOK for lang in LANGUAGES}
    missing = [str(path) for path in books.values() if not path.is_file()]
    if missing:
        raise RuleBookMissing(f"the rule book is missing: {', '.join(missing)}")
    return books


def _anchor_open(self: Any, tokens: Sequence[Token], idx: int, options: Any, env: Any) -> str:
    token = tokens[idx]
    anchor = token.attrGet("id")
    start = f'<{token.tag} id="{anchor}">' if anchor else f"<{token.tag}>"
    return start + (f'<a class="self" href="#{anchor}">' if anchor else "")


def _anchor_close(self: Any, tokens: Sequence[Token], idx: int, options: Any, env: Any) -> str:
    return ("</a>" if tokens[idx].meta.get("anchored") else "") + f"</{tokens[idx].tag}>\n"


def _markdown() -> MarkdownIt:
    # CommonMark with tables; raw HTML is off, so the books cannot smuggle markup into the page
    md = MarkdownIt("commonmark", {"html": False}).enable("table")
    md.add_render_rule("heading_open", _anchor_open)
    md.add_render_rule("heading_close", _anchor_close)
    # a table scrolls inside its own box on a narrow phone instead of widening the page
    md.add_render_rule("table_open", lambda *_: '<div class="table"><table>\n')
    md.add_render_rule("table_close", lambda *_: "</table></div>\n")
    return md


def render(text: str, lang: str, md: MarkdownIt | None = None) -> Page:
    """The whole page for one book: its headings anchored by section number, a table of contents."""
    md = md or _markdown()
    tokens = md.parse(text)
    if not tokens or tokens[0].tag != "h1":
        raise ValueError("a rule book starts with its title")
    toc: list[str] = []
    for i, token in enumerate(tokens):
        if token.type != "heading_open":
            continue
        inline = tokens[i + 1]
        number = _NUMBER.match(inline.content)
        if number is None:
            continue
        anchor = number.group(1)
        token.attrSet("id", anchor)
        close = next(t for t in tokens[i + 2 :] if t.type == "heading_close")
        close.meta["anchored"] = True
        if token.tag == "h2":
            label = md.renderer.render(inline.children or [], md.options, {})
            toc.append(f'<li><a href="#{anchor}">{label}</a></li>')
    other, other_name = _OTHER[lang]
    html = _PAGE.format(
        lang=lang,
        title=escape(tokens[1].content),
        other=other,
        other_name=other_name,
        title_html=md.renderer.render(tokens[:3], md.options, {}),
        contents=_CONTENTS[lang],
        toc="\n".join(toc),
        body=md.renderer.render(tokens[3:], md.options, {}),
    ).encode()
    return Page(lang, html, hashlib.sha256(html).hexdigest()[:32])


def load_pages(locale: Path = LOCALE_DIR) -> dict[str, Page]:
    """Read and render both books (at start-up)."""
    md = _markdown()
    return {lang: render(path.read_text(encoding="utf-8"), lang, md) for lang, path in find_books(locale).items()}


def blueprint() -> Blueprint:
    """GET /rules and its style sheet, with both books rendered now."""
    pages = load_pages()
    css = (STATIC_DIR / "rules.css").read_bytes()
    css_etag = hashlib.sha256(css).hexdigest()[:32]
    blp = Blueprint("rulebook", __name__)

    @blp.route("/rules", methods=["GET"])
    def rules_page() -> ResponseReturnValue:
        """The rule book; ``?lang=ko`` or ``?lang=en`` overrides Accept-Language."""
        lang = request.args.get("lang", "")
        page = (
            pages.get(lang) or pages.get(words_for(request.headers.get("Accept-Language")).lang) or pages[LANGUAGES[0]]
        )
        response = Response(page.html, mimetype="text/html")
        response.headers["Content-Language"] = page.lang
        response.vary.add("Accept-Language")
        response.set_etag(page.etag)
        response.cache_control.public = True
        response.cache_control.max_age = MAX_AGE
        return response.make_conditional(request)

    @blp.route("/rules/rules.css", methods=["GET"])
    def rules_css() -> ResponseReturnValue:
        """The page's one style sheet (the problem types' pages use it too)."""
        response = Response(css, mimetype="text/css")
        response.set_etag(css_etag)
        response.cache_control.public = True
        response.cache_control.max_age = MAX_AGE
        return response.make_conditional(request)

    return blp
