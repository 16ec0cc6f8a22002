"""Count the hand-written records of engine/, service/ and gostop/, and how often their fields are written out.

Usage: ``python tools/records.py [--list] [folders...]`` (from the checkout's root).

A class is a *hand-written record* when nothing changes it after its ``__init__`` (no other method assigns to
``self``) and its body writes its fields out by hand in at least two of these lists:

- ``__slots__``;
- a ``fields`` tuple (the engine's ``Record`` base makes equality, hash and repr from it);
- an ``__init__`` that copies at least two of its parameters onto ``self`` one by one (``self.x = x``);
- a hand-written ``__repr__``, ``__eq__`` or ``__hash__``, or a ``to_dict``/``from_dict`` pair that spells
  the field names as string keys.

Its *fields* are the names it lists in ``__slots__`` or in a ``fields`` tuple, and the parameters its
``__init__`` copies onto ``self``. A *field mention* is one place in the boilerplate where a field's name is
written: an entry of ``__slots__`` or ``fields``; an ``__init__`` parameter; an assignment target ``self.x`` in
``__init__``; and, in ``__repr__``/``__eq__``/``__hash__``/``to_dict``/``from_dict``, an attribute ``.x`` or a
string ``"x"``. A dataclass, a NamedTuple or an enum declares each field once and is not counted; neither is
the value side of ``self.x = x``, nor a use of a field in the class's own logic.
"""

from __future__ import annotations

import argparse
import ast
import sys
from collections.abc import Iterator
from pathlib import Path

FOLDERS = ("engine", "service", "gostop")
SHOWN = {"__repr__", "__eq__", "__hash__", "to_dict", "from_dict"}


def _strings(node: ast.AST) -> list[str]:
    return [n.value for n in ast.walk(node) if isinstance(n, ast.Constant) and isinstance(n.value, str)]


def _assigned(stmt: ast.stmt, name: str) -> ast.expr | None:
    """The value of a class-body assignment to ``name`` (``x = ...`` or ``x: T = ...``)."""
    if isinstance(stmt, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name for t in stmt.targets):
        return stmt.value
    if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name) and stmt.target.id == name:
        return stmt.value
    return None


def _self_targets(func: ast.FunctionDef) -> list[tuple[str, ast.expr | None]]:
    """Each ``self.x = value`` in ``func``: x and the value."""
    out: list[tuple[str, ast.expr | None]] = []
    for node in ast.walk(func):
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign):
            targets, value = node.targets, node.value
        elif isinstance(node, ast.AnnAssign):
            targets, value = [node.target], node.value
        for t in targets:
            if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id == "self":
                out.append((t.attr, value))
    return out


def record(cls: ast.ClassDef) -> tuple[set[str], int] | None:
    """The fields of ``cls`` and their mentions, or None when it is not a hand-written record."""
    if any("dataclass" in ast.unparse(d) for d in cls.decorator_list):
        return None
    if any(ast.unparse(b) in ("NamedTuple", "StrEnum", "Enum", "IntEnum") for b in cls.bases):
        return None
    slots: list[str] = []
    listed: list[str] = []
    methods: dict[str, ast.FunctionDef] = {}
    for stmt in cls.body:
        if (value := _assigned(stmt, "__slots__")) is not None:
            slots = _strings(value)
        if (value := _assigned(stmt, "fields")) is not None:
            listed = _strings(value)
        if isinstance(stmt, ast.FunctionDef):
            methods[stmt.name] = stmt
    init = methods.get("__init__")
    params = {a.arg for a in init.args.args + init.args.kwonlyargs} if init else set()
    copied = {
        attr
        for attr, value in (_self_targets(init) if init else [])
        if isinstance(value, ast.Name) and value.id == attr and attr in params
    }
    shown = SHOWN & set(methods)
    keys = set(_strings(methods["to_dict"])) if "to_dict" in methods and "from_dict" in methods else set()
    fields = set(slots) | set(listed) | copied
    keyed = keys & (fields | params | {a.attr for a in ast.walk(cls) if isinstance(a, ast.Attribute)})
    lists = [bool(slots), bool(listed), len(copied) >= 2, bool(shown - {"to_dict", "from_dict"}) or len(keyed) >= 2]
    if sum(lists) < 2:
        return None  # its fields are written out once: state, not a record written by hand
    if any(_self_targets(f) for name, f in methods.items() if name != "__init__"):
        return None  # a method changes it: working state, not a record
    fields |= keyed
    mentions = sum(name in fields for name in slots) + sum(name in fields for name in listed)
    if init:
        mentions += sum(name in fields for name in params)
        mentions += sum(attr in fields for attr, _ in _self_targets(init))
    for name in shown:
        for node in ast.walk(methods[name]):
            name_of = node.attr if isinstance(node, ast.Attribute) else getattr(node, "value", None)
            mentions += isinstance(node, (ast.Attribute, ast.Constant)) and name_of in fields
    return fields, mentions


def records(folders: list[str]) -> Iterator[tuple[str, str, int, int]]:
    """(file, class, fields, mentions) for every hand-written record under ``folders``."""
    for folder in folders:
        for path in sorted(Path(folder).rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
            for node in ast.walk(tree):
                if isinstance(node, ast.ClassDef) and (found := record(node)) is not None:
                    fields, mentions = found
                    yield str(path), node.name, len(fields), mentions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("folders", nargs="*", default=list(FOLDERS))
    parser.add_argument("--list", action="store_true", help="one line a record")
    args = parser.parse_args()
    rows = list(records(args.folders))
    if args.list:
        for path, name, fields, mentions in rows:
            print(f"{path}:{name:<16} {fields:3} fields {mentions:4} mentions")
    total_fields = sum(r[2] for r in rows)
    total_mentions = sum(r[3] for r in rows)
    print(f"{len(rows)} hand-written records, {total_fields} fields, {total_mentions} field mentions")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
