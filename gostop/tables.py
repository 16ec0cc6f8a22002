"""Answers as tables a person reads at a terminal: who pays whom, every rule checked, the illegal move.

Each function takes an answer's JSON as the API sends it and returns text; the sentences in it are the
service's, in the language asked for, and the words around them come from ``gostop.words``. Moves are counted
from 1 here, as people count them (the JSON's ``move_index`` counts from 0). Columns are measured in terminal
cells (a Hangul syllable takes two), and the last column wraps to the terminal's width.
"""

from __future__ import annotations

import shutil
import unicodedata
from collections.abc import Mapping, Sequence
from typing import Any

from .words import WORDS, named

__all__ = ["cards", "check", "evening", "problem", "replay", "rules", "score", "settlement", "table"]

Row = Sequence[object]


def cells(text: str) -> int:
    """How many terminal cells ``text`` takes: two for wide (East Asian) characters, none for combining marks."""
    return sum(0 if unicodedata.combining(c) else 2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def _pad(text: str, width: int, right: bool) -> str:
    space = " " * max(0, width - cells(text))
    return space + text if right else text + space


def _wrap(text: str, width: int) -> list[str]:
    lines: list[str] = []
    line = ""
    for word in text.split():
        if line and cells(line) + 1 + cells(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    return [*lines, line] if line or not lines else lines


def table(headers: Sequence[str], rows: Sequence[Row], width: int | None = None) -> str:
    """Aligned columns under ``headers``: numbers to the right, the last column wrapped to ``width`` cells."""
    width = width or shutil.get_terminal_size((100, 24)).columns
    texts = [[_text(v) for v in row] for row in rows]
    numeric = [
        all(isinstance(row[i], int) and not isinstance(row[i], bool) for row in rows) for i in range(len(headers))
    ]
    widths = [max([cells(h)] + [cells(r[i]) for r in texts]) for i, h in enumerate(headers)]
    room = max(24, width - sum(widths[:-1]) - 2 * (len(headers) - 1))
    widths[-1] = min(widths[-1], room)
    out = ["  ".join(_pad(h, w, n) for h, w, n in zip(headers, widths, numeric, strict=True)).rstrip()]
    indent = sum(widths[:-1]) + 2 * (len(headers) - 1)
    for row in texts:
        last = _wrap(row[-1], widths[-1]) if not numeric[-1] else [row[-1]]
        first = [_pad(v, w, n) for v, w, n in zip(row[:-1], widths, numeric, strict=False)]
        out.append("  ".join([*first, _pad(last[0], widths[-1], numeric[-1])]).rstrip())
        out.extend(" " * indent + more for more in last[1:])
    return "\n".join(out)


def _text(value: object) -> str:
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, tuple)):
        return ", ".join(_text(v) for v in value) or "-"
    if isinstance(value, dict):
        return ", ".join(f"{k} {_text(v)}" for k, v in value.items())
    return str(value)


def _bullets(sentences: Sequence[str]) -> list[str]:
    return [f"- {s}" for s in sentences]


def _move(index: object) -> object:
    return index + 1 if isinstance(index, int) else "-"


def score(answer: Mapping[str, Any], lang: str) -> str:
    w = WORDS[lang]
    lines = [w["total"].format(total=answer["total"])]
    if answer["items"]:
        rows = [(named(i["combination"], lang), i["points"], " ".join(i["cards"])) for i in answer["items"]]
        lines += ["", table([w["combination"], w["points"], w["cards"]], rows)]
    lines += ["", w["counts"].format(**answer["counts"]), *_bullets(answer.get("explanation", []))]
    return "\n".join(lines)


def settlement(answer: Mapping[str, Any], lang: str) -> str:
    """A settlement (of /v1/settle, or a finished replay's): the ruling, who pays whom, every rule checked."""
    w = WORDS[lang]
    if answer["winner"] is None:
        lines = [w["nagari"]]
    else:
        outcome = named(answer["outcome"], lang)
        lines = [w["wins"].format(winner=answer["winner"], outcome=outcome, base=answer["base_points"])]
    payments = answer["payments"]
    if payments:
        rows = [
            (
                p["from"],
                p["to"],
                p["points"],
                p["amount"],
                [f"{named(f['rule'], lang)} x{f['factor']}" for f in p["factors"]],
            )
            for p in payments
        ]
        lines += ["", table([w["from"], w["to"], w["points"], w["amount"], w["factors"]], rows)]
    elif answer["winner"] is not None:
        lines.append(w["nobody_pays"])
    for p in payments:
        checks = [
            (named(c["rule"], lang), w["yes"] if c["applied"] else w["no"], f"x{c['factor']}", c["reason"])
            for c in p["checks"]
        ]
        if checks:
            lines += ["", w["checks_of"].format(payer=p["from"], payee=p["to"])]
            lines.append(table([w["rule"], w["applied"], w["factor"], w["reason"]], checks))
    explanation = answer.get("explanation", [])
    return "\n".join([*lines, *([""] if explanation else []), *_bullets(explanation)])


def _next(answer: Mapping[str, Any], w: Mapping[str, str]) -> str:
    nxt = answer["next"]
    expects = w.get(f"expects_{nxt['expects']}", nxt["expects"])
    return w["in_progress"].format(player=nxt["player"], expects=expects)


def replay(answer: Mapping[str, Any], lang: str) -> str:
    """A replayed log: where the hand stands, what happened move by move, each player, and the ruling."""
    w = WORDS[lang]
    lines = [w["finished"] if answer["status"] == "finished" else _next(answer, w)]
    rows: list[Row]
    if answer["events"]:
        rows = [
            (_move(e["move_index"]), e["player"], named(e["type"], lang), e.get("detail", "")) for e in answer["events"]
        ]
        lines += ["", w["events"], table([w["move"], w["player"], w["event"], w["detail"]], rows)]
    if answer["instant_payments"]:
        rows = [(p["from"], p["to"], p["points"], p["amount"], p["reason"]) for p in answer["instant_payments"]]
        lines += ["", w["instant_payments"], table([w["from"], w["to"], w["points"], w["amount"], w["reason"]], rows)]
    rows = [
        (p["id"], len(p["captured"]), p["score"]["total"], p["go_count"], p["hand_size"]) for p in answer["players"]
    ]
    lines += ["", table([w["player"], w["captured"], w["score"], w["go"], w["hand"]], rows)]
    if answer["settlement"] is not None:
        lines += ["", settlement(answer["settlement"], lang)]
    elif answer["next"] and answer["next"].get("if_stop"):
        lines += ["", w["if_stop"], settlement(answer["next"]["if_stop"], lang)]
    return "\n".join(lines)


def payments_compared(recorded: Sequence[Mapping[str, Any]], ruled: Sequence[Mapping[str, Any]], lang: str) -> str:
    """Recorded and ruled payments side by side, a row per payer and payee."""
    w = WORDS[lang]
    pairs = dict.fromkeys([(p["from"], p["to"]) for p in [*ruled, *recorded]])
    said = {(p["from"], p["to"]): p["points"] for p in recorded}
    ruling = {(p["from"], p["to"]): p["points"] for p in ruled}
    rows = [(payer, payee, said.get((payer, payee), 0), ruling.get((payer, payee), 0)) for payer, payee in pairs]
    return table([w["from"], w["to"], w["recorded"], w["ruled"]], rows)


def check(answer: Mapping[str, Any], recorded: Sequence[Mapping[str, Any]] | None, agrees: bool, lang: str) -> str:
    """The verdict on a legal log: finished or in progress, and whether its recorded payments agree."""
    w = WORDS[lang]
    state = w["finished"] if answer["status"] == "finished" else _next(answer, w)
    lines = [f"{w['legal']}: {state}"]
    if answer["settlement"] is not None:
        lines += ["", settlement(answer["settlement"], lang)]
    if recorded is not None:
        ruled = answer["settlement"]["payments"] if answer["settlement"] else []
        verdict = "agree" if agrees else "differ" if answer["settlement"] else "unfinished"
        lines += ["", w[verdict], payments_compared(recorded, ruled, lang)]
    return "\n".join(lines)


def problem(body: Mapping[str, Any], status: int, lang: str) -> str:
    """A refusal: the code, the move it breaks at (counted from 1), the sentence, and its facts."""
    w = WORDS[lang]
    code = body.get("code", "")
    index = body.get("move_index")
    if isinstance(index, int):
        head = w["illegal"].format(move=index + 1, player=body.get("player", "-")) + f": {code}"
    else:
        head = w["refused"].format(status=status, code=code or "-")
    lines = [head, body.get("detail", "")]
    errors = body.get("errors")
    if isinstance(errors, dict) and errors:
        rows = [(path, " ".join(said) if isinstance(said, list) else str(said)) for path, said in errors.items()]
        lines += ["", table([w["field"], w["message"]], rows)]
    shown = ("type", "title", "status", "detail", "code", "move_index", "errors")
    facts = {k: v for k, v in body.items() if k not in shown}
    if facts:
        lines.append(_text(facts))
    return "\n".join(lines)


def rules(answer: Mapping[str, Any], lang: str) -> str:
    """The presets (GET /v1/rules), or one preset's every knob (GET /v1/rules/{preset})."""
    w = WORDS[lang]
    if "presets" in answer:
        rows = [(p["name"], p["players"], p["description"]) for p in answer["presets"]]
        return table([w["preset"], w["players"], w["description"]], rows)
    knobs = [(k, v) for k, v in answer.items() if k != "preset"]
    return "\n".join([f"{w['preset']}: {answer['preset']}", table([w["knob"], w["value"]], knobs)])


def evening(answer: Mapping[str, Any], lang: str) -> str:
    """The evening's ledger (POST /v1/evening): its explanation, each person's total and balance, the settle-up."""
    w = WORDS[lang]
    balances = answer.get("balances") or {}
    rows = [(who, total, balances.get(who)) for who, total in answer["totals"].items()]
    lines = [*_bullets(answer["explanation"]), "", table([w["player"], w["total_won"], w["balance"]], rows)]
    transfers = [(t["from"], t["to"], t["amount"]) for t in answer["transfers"]]
    settle_up = table([w["from"], w["to"], w["amount"]], transfers) if transfers else w["nobody_pays"]
    lines += ["", w["settle_up"], settle_up]
    return "\n".join(lines)


def cards(answer: Mapping[str, Any], lang: str) -> str:
    """The deck (GET /v1/cards): each card's id, month (none for a bonus card), kind, junk units and name."""
    w = WORDS[lang]
    rows = [
        (c["id"], c["month"], named(c["kind"], lang), c["junk_units"], c["names"].get(lang, c["id"]))
        for c in answer["cards"]
    ]
    return table([w["card"], w["month"], w["kind"], w["junk_units"], w["name"]], rows)
