"""The project's rule book (service/locale/<lang>/RULES.md; docs/RULES.md and docs/RULES.ko.md link to them) and
its page, GET /rules.

The book is what every "RULES.md n" of the answers and docs points to, so every such citation must land on a
section of both languages, and its knob reference and preset table must say what the engine does.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
import yaml

from engine import KNOBS, PRESETS
from service.api import rulebook
from service.i18n import LOCALE_DIR
from tests.conftest import ROOT

BOOKS = {"en": ROOT / "service" / "locale" / "en" / "RULES.md", "ko": ROOT / "service" / "locale" / "ko" / "RULES.md"}
# The knob reference and preset table are held in every language's book, found on disk: a new book or a new knob
# needs no list edited here.
KNOB_BOOKS = {path.parent.name: path for path in sorted((ROOT / "service" / "locale").glob("*/RULES.md"))}
DECISION = {"en": "**This project's decision", "ko": "**이 프로젝트의 결정"}
ON_OFF = {"on": True, "off": False, "있음": True, "없음": False, "オン": True, "オフ": False, "开": True, "关": False}
NONE = ("none", "없음", "なし", "无")

_HEADING = re.compile(r"^(#{2,3}) (\d+(?:\.\d+)?)\.? (.+)$", re.M)
# "RULES.md 5", "RULES.md 5.5", "RULES.md 2-3", "RULES.md 7, 8, 9"
_CITATION = re.compile(r"RULES\.md (\d+(?:\.\d+)?)(?:\s*[-–]\s*(\d+)|((?:\s*,\s*\d+(?:\.\d+)?)+))?")
_CITING = (".py", ".md", ".yaml", ".yml", ".po", ".pot", ".html", ".js", ".txt", ".json")


def book(lang: str) -> str:
    return KNOB_BOOKS[lang].read_text(encoding="utf-8")


def sections(text: str) -> list[str]:
    """Section numbers of the headings, in order: "1", "1.1", ..."""
    return [m.group(2) for m in _HEADING.finditer(text)]


def section_text(text: str, number: str) -> str:
    """The text of a section, up to the next heading of the same or a higher level."""
    heads = list(_HEADING.finditer(text))
    for i, m in enumerate(heads):
        if m.group(2) == number:
            level = len(m.group(1))
            end = next((h.start() for h in heads[i + 1 :] if len(h.group(1)) <= level), len(text))
            return text[m.end() : end]
    raise AssertionError(f"no section {number}")


def table_rows(text: str) -> list[list[str]]:
    """The rows of the first Markdown table in ``text`` (header included, separator left out)."""
    rows = []
    for line in text.splitlines():
        if line.startswith("|"):
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if not all(set(c) <= {"-", ":"} for c in cells):
                rows.append(cells)
        elif rows:
            break
    return rows


def knob_rows(lang: str, number: str) -> dict[str, list[str]]:
    """Table rows of a section keyed by the knob in the first column."""
    rows = table_rows(section_text(book(lang), number))
    return {row[0].strip("`"): row[1:] for row in rows[1:]}


def cited_sections(text: str) -> list[tuple[str, str]]:
    """(citation as written, section number) for every section a text cites."""
    out = []
    for m in _CITATION.finditer(text):
        first, last, more = m.group(1), m.group(2), m.group(3)
        numbers = [first]
        if last:
            numbers = [str(n) for n in range(int(first), int(last) + 1)]
        elif more:
            numbers += [n.strip() for n in more.split(",") if n.strip()]
        out += [(m.group(0), n) for n in numbers]
    return out


def citing_files() -> list[Path]:
    files = [ROOT / "README.md", ROOT / "openapi.yaml"]
    for folder in ("docs", "engine", "service", "tests"):
        files += [p for p in sorted((ROOT / folder).rglob("*")) if p.is_file() and p.suffix in _CITING]
    return files


# --- the books themselves ---


TOP = [str(n) for n in range(1, 12)]  # the ten sections of the rule specification, and the evening (11)


@pytest.mark.parametrize("lang", BOOKS)
def test_the_book_has_the_ten_sections_of_the_rule_specification_and_the_evening(lang):
    top = [n for n in sections(book(lang)) if "." not in n]
    assert top == TOP


def test_the_korean_and_english_books_have_the_same_sections_and_decisions():
    en, ko = book("en"), book("ko")
    assert sections(ko) == sections(en)
    for number in sections(en):
        if "." in number or not any(s.startswith(number + ".") for s in sections(en)):
            # a decision is told in the same (sub)section in both books
            assert section_text(ko, number).count(DECISION["ko"]) == section_text(en, number).count(DECISION["en"]), (
                f"section {number}"
            )


def test_rules_1_1_the_japanese_book_gives_months_11_and_12_in_hwatu_order_and_says_it_is_not_hanafudas():
    """Hanafuda has 11 = willow (rain) and 12 = paulownia, Hwatu the other way round: the Japanese book's table
    and the answers' month names follow Hwatu (the card ids do), and the book tells a hanafuda player so."""
    from service.i18n import words_for
    from service.sentences.names import MONTHS

    ja = book("ja")
    rows = ([cell.strip() for cell in line.strip("|").split("|")] for line in ja.splitlines() if line.startswith("|"))
    flower = {cells[0]: cells[1] for cells in rows if len(cells) > 2}
    assert "桐" in flower["11月"] and "雨" in flower["12月"] and "桐" not in flower["12月"]
    w = words_for("ja")
    assert "桐" in w.word(MONTHS[11]) and "雨" in w.word(MONTHS[12])
    assert "日本の花札（11月が柳・雨、12月が桐）とは逆です" in section_text(ja, "1.1")


def test_the_spec_sections_are_ours_too(rules_md):
    """The book keeps the numbering of the shared RULES.md, so a citation means the same in both; the evening
    (11) comes after them."""
    spec = re.findall(r"^## (\d+)\. ", rules_md, re.M)
    ours = [n for n in sections(book("en")) if "." not in n]
    assert spec == ours[: len(spec)] and ours[len(spec) :] == ["11"]


def test_every_citation_in_the_project_lands_on_a_section_of_both_books():
    anchors = {lang: set(sections(book(lang))) for lang in BOOKS}
    found = 0
    missing = []
    for path in citing_files():
        for cited, number in cited_sections(path.read_text(encoding="utf-8")):
            found += 1
            if any(number not in anchors[lang] for lang in BOOKS):
                missing.append(f"{path.relative_to(ROOT)}: {cited!r} -> section {number}")
    assert not missing, "\n".join(missing)
    assert found > 100  # the answers and docs cite the book well over a hundred times


@pytest.mark.parametrize(
    ("text", "numbers"),
    [
        ("see RULES.md 8.", ["8"]),
        ("(RULES.md 2-3)", ["2", "3"]),
        ("RULES.md 4-9 ", ["4", "5", "6", "7", "8", "9"]),
        ("(RULES.md 7, 8, 9).", ["7", "8", "9"]),
        ("RULES.md 3, `sep_animal_protects`", ["3"]),
        ("RULES.md 1, row by row", ["1"]),
        ("RULES.md 5.5: flip turns", ["5.5"]),
        ("RULES.md 10: presets", ["10"]),
    ],
)
def test_citations_are_read_in_every_form_the_project_writes(text, numbers):
    assert [n for _, n in cited_sections(text)] == numbers


# --- knob reference and preset table ---


def _knob_params(section: str):
    """Every knob of the engine and of the book's table."""
    return list(dict.fromkeys([*KNOBS, *knob_rows("en", section)]))


def _knob_book_params(section: str):
    """(knob, language) for every knob and every book."""
    return [(name, lang) for name in _knob_params(section) for lang in KNOB_BOOKS]


@pytest.mark.parametrize("lang", KNOB_BOOKS)
def test_the_knob_reference_lists_exactly_the_engine_knobs_in_the_engine_order(lang):
    rows = table_rows(section_text(book(lang), "10.3"))[1:]
    assert [row[0].strip("`") for row in rows] == list(KNOBS)  # each once, none missing, none extra


@pytest.mark.parametrize(("name", "lang"), _knob_book_params("10.3"))
def test_the_knob_reference_gives_the_values_the_engine_accepts(lang, name):
    section, values, _ = knob_rows(lang, "10.3")[name]
    knob = KNOBS[name]
    anchor = re.fullmatch(r"\[(\d+)\]\(#(\d+(?:\.\d+)?)\)", section)
    assert anchor and anchor.group(2) in sections(book(lang))
    assert anchor.group(2).split(".")[0] == anchor.group(1)
    if knob.kind in ("choice", "set"):
        assert re.findall(r"`([^`]+)`", values) == list(knob.choices)
    elif knob.kind == "int":
        bounds = [int(b) for b in re.findall(r"-?\d+", values)]
        assert (min(bounds), max(bounds)) == (knob.minimum, knob.maximum)


def _cell(text: str, kind: str):
    text = text.replace("`", "").strip()
    if kind == "bool":
        return ON_OFF[text]
    if kind == "int":
        return int(text)
    if kind == "choice":
        return text
    items = () if text in NONE else tuple(i.strip() for i in text.split(","))
    return tuple(int(i) for i in items) if kind == "list" else items


@pytest.mark.parametrize("lang", KNOB_BOOKS)
def test_the_preset_table_has_a_column_per_preset(lang):
    header = table_rows(section_text(book(lang), "10.2"))[0]
    assert header[1:] == list(PRESETS)


@pytest.mark.parametrize(("name", "lang"), _knob_book_params("10.2"))
def test_the_preset_table_gives_each_presets_value(lang, name):
    row = knob_rows(lang, "10.2")[name]
    kind = KNOBS[name].kind
    assert [_cell(c, kind) for c in row] == [getattr(p, name) for p in PRESETS.values()]


# --- the page ---


class _Page(HTMLParser):
    """What the tests look at in the page: ids, links, tags and attributes."""

    def __init__(self) -> None:
        super().__init__()
        self.ids: list[tuple[str, str]] = []
        self.hrefs: list[str] = []
        self.tags: list[str] = []
        self.styles = 0
        self.lang = ""
        self.stack: list[str] = []
        self.tables_in_box = 0

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        self.tags.append(tag)
        if "id" in a:
            self.ids.append((tag, a["id"]))
        if "href" in a:
            self.hrefs.append(a["href"])
        self.styles += "style" in a
        if tag == "html":
            self.lang = a.get("lang", "")
        if tag == "table" and self.stack and self.stack[-1] == "div.table":
            self.tables_in_box += 1
        self.stack.append(f"{tag}.{a['class']}" if "class" in a else tag)

    def handle_endtag(self, tag):
        while self.stack and self.stack.pop().split(".")[0] != tag:
            pass


def _parse(html: bytes) -> _Page:
    page = _Page()
    page.feed(html.decode())
    return page


@pytest.mark.parametrize(
    ("query", "accept", "lang"),
    [
        ("", None, "en"),
        ("", "ko", "ko"),
        ("", "ko-KR,ko;q=0.9,en-US;q=0.8,en;q=0.7", "ko"),
        ("", "en-US,en;q=0.9,ko;q=0.8", "en"),
        ("", "en-US, ko;q=0.5", "en"),  # q-values decide, not which tag is exact
        ("", "ko;q=0.4, en;q=0.6", "en"),
        ("", "en;q=0.2, ko-KR;q=0.8", "ko"),
        ("", "fr-FR, de;q=0.8", "en"),
        ("", "*", "en"),
        ("?lang=ko", "en", "ko"),
        ("?lang=en", "ko-KR", "en"),
        ("?lang=xx", "ko", "ko"),  # a language we do not have: Accept-Language decides
    ],
)
def test_the_page_speaks_the_asked_language(client, query, accept, lang):
    headers = {"Accept-Language": accept} if accept is not None else {}
    r = client.get(f"/rules{query}", headers=headers)
    assert r.status_code == 200 and r.mimetype == "text/html"
    assert r.headers["Content-Language"] == lang
    assert "Accept-Language" in r.headers["Vary"]
    page = _parse(r.data)
    assert page.lang == lang
    title = {"en": '<h2 id="8"><a class="self" href="#8">8. Settlement</a></h2>', "ko": "8. 정산</a></h2>"}
    assert title[lang] in r.data.decode()


@pytest.mark.parametrize("lang", BOOKS)
def test_every_section_and_subsection_is_an_anchor_with_a_link_to_itself(client, lang):
    page = _parse(client.get(f"/rules?lang={lang}").data)
    ids = [i for tag, i in page.ids if tag in ("h2", "h3")]
    assert ids == sections(book(lang))
    assert [i for tag, i in page.ids if tag == "h2"] == TOP
    for anchor in ids:
        assert f"#{anchor}" in page.hrefs
    contents = [h for h in page.hrefs if re.fullmatch(r"#\d+", h)]
    assert contents[: len(TOP)] == [f"#{n}" for n in TOP]  # the table of contents


@pytest.mark.parametrize("lang", BOOKS)
def test_every_link_of_the_page_stays_on_it_or_on_this_service(client, lang):
    page = _parse(client.get(f"/rules?lang={lang}").data)
    anchors = {i for _, i in page.ids}
    for href in page.hrefs:
        if href.startswith("#"):
            assert href[1:] in anchors, href
        else:
            assert href.startswith("/rules"), href


def test_the_page_needs_nothing_but_its_own_style_sheet(client):
    r = client.get("/rules")
    page = _parse(r.data)
    assert "script" not in page.tags and page.styles == 0 and "style" not in page.tags
    assert 'rel="stylesheet" href="/rules/rules.css"' in r.data.decode()
    assert b"http://" not in r.data and b"https://" not in r.data  # no CDN, no external font
    csp = r.headers["Content-Security-Policy"]
    assert "default-src 'none'" in csp and "style-src 'self'" in csp
    assert "unsafe-inline" not in csp and "script-src" not in csp
    css = client.get("/rules/rules.css")
    assert css.status_code == 200 and css.mimetype == "text/css"
    assert b"@import" not in css.data and b"url(" not in css.data
    assert css.headers["Content-Security-Policy"] == csp


def test_the_page_fits_a_phone(client):
    page = _parse(client.get("/rules").data)
    assert 'name="viewport" content="width=device-width, initial-scale=1"' in client.get("/rules").data.decode()
    # wide tables scroll inside their own box instead of widening the page
    assert page.tables_in_box == page.tags.count("table") > 5
    css = client.get("/rules/rules.css").data.decode()
    assert re.search(r"div\.table \{[^}]*overflow-x: auto", css)


def test_the_page_is_rendered_once_and_revalidated_by_etag(client, monkeypatch):
    first = client.get("/rules?lang=ko")
    monkeypatch.setattr(rulebook, "render", None)  # a request that rendered again would fail here
    again = client.get("/rules?lang=ko", headers={"If-None-Match": first.headers["ETag"]})
    assert again.status_code == 304
    assert client.get("/rules?lang=en").headers["ETag"] != first.headers["ETag"]


def test_the_page_is_not_part_of_the_api_document(client):
    paths = yaml.safe_load(client.get("/openapi.yaml").data)["paths"]
    assert "/v1/rules" in paths
    assert not [p for p in paths if p == "/rules" or p.startswith("/rules/")]


def test_a_wrong_method_is_a_problem_like_any_other(client):
    r = client.post("/rules")
    assert r.status_code == 405 and r.mimetype == "application/problem+json"


def test_the_books_are_package_data_and_docs_links_to_them():
    """The wheel carries the books beside the catalogs (an installed service reads no checkout); docs/ keeps
    links under the old names for readers of the repository."""
    books = rulebook.find_books()
    assert {lang: books[lang] for lang in BOOKS} == {lang: path.resolve() for lang, path in BOOKS.items()}
    assert all(path.parent.name == lang and path.parent.parent == LOCALE_DIR for lang, path in books.items())
    for lang, name in (("en", "RULES.md"), ("ko", "RULES.ko.md")):
        link = ROOT / "docs" / name
        assert link.is_symlink() and not Path(link.readlink()).is_absolute()
        assert link.resolve() == BOOKS[lang].resolve()


def test_a_missing_book_is_named(tmp_path):
    (tmp_path / "ko").mkdir()
    (tmp_path / "ko" / "RULES.md").write_bytes(BOOKS["ko"].read_bytes())
    with pytest.raises(rulebook.RuleBookMissing, match=r"en/RULES\.md"):
        rulebook.find_books(tmp_path)
