"""What a command is given: one request body, from a file or stdin, read through ``read_body`` only.

A body is JSON (an object, as the API takes it). A move log may also be written in the text notation
(docs/NOTATION.md): the content decides which (JSON starts with ``{`` or ``[``; a log in the notation starts
with a tag, ``[Rules ...]``, that never parses as JSON), and such a text is given as it is (a ``str``), to be
sent as ``text/plain`` and read by the service, which names the line and column of whatever in it is wrong.
``_from_notation`` is the one place it is taken.
"""

from __future__ import annotations

import codecs
import sys
from pathlib import Path
from typing import Any, BinaryIO

import orjson

from engine import NotationError
from engine.notation import decode_log

__all__ = ["MAX_INPUT", "InputError", "read_body"]

MAX_INPUT = 1 << 20  # the service takes bodies up to 64 KiB; a file far past that is no request body


class InputError(Exception):
    """A file or stdin that cannot be read as a request body; the message says which and why (exit status 2)."""


def read_body(path: str | None, *, log: bool = False, stdin: BinaryIO | None = None) -> dict[str, Any] | str:
    """The request body in the file at ``path`` (``-`` or None: stdin). ``log``: the body is a move log,
    which may be given in the text notation (then the text is returned as it is, a ``str``). Raises InputError
    saying what is wrong and where."""
    name, data = _read(path, stdin or sys.stdin.buffer)
    if data.startswith(codecs.BOM_UTF8):
        data = data[len(codecs.BOM_UTF8) :]
    stripped = data.lstrip()
    if not stripped:
        kind = "a move log (JSON, or the text notation)" if log else "a request body (JSON)"
        raise InputError(f"{name} is empty: give {kind}")
    first = stripped[:1]
    # JSON starts with { or [; so does a text log's first tag ([Rules ...]), which never parses as JSON
    if first == b"{" or (first == b"[" and not (log and not _parses(data))):
        return _from_json(name, data)
    if log:
        return _from_notation(name, data)
    raise InputError(f"{name} is not JSON: a request body is a JSON object")


def _read(path: str | None, stdin: BinaryIO) -> tuple[str, bytes]:
    if path in (None, "-"):
        name, source = "stdin", stdin
        data = source.read(MAX_INPUT + 1)
    else:
        name = str(path)
        try:
            with Path(name).open("rb") as source:
                data = source.read(MAX_INPUT + 1)
        except FileNotFoundError:
            raise InputError(f"{name}: no such file") from None
        except IsADirectoryError:
            raise InputError(f"{name} is a folder, not a file") from None
        except OSError as exc:
            raise InputError(f"{name} cannot be read: {exc.strerror or exc}") from None
    if len(data) > MAX_INPUT:
        raise InputError(f"{name} is larger than {MAX_INPUT // 1024} KiB: one request body is at most 64 KiB")
    return name, data


def _from_json(name: str, data: bytes) -> dict[str, Any]:
    try:
        body = orjson.loads(data)
    except orjson.JSONDecodeError as exc:
        first = data.split(b"\n", 1)[0]
        if first != data.rstrip() and _is_object(first):
            raise InputError(
                f"{name} holds more than one JSON value: for an archive of hands (JSON Lines) use `gostop audit`"
            ) from None
        raise InputError(f"{name} is not valid JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})") from None
    if not isinstance(body, dict):
        raise InputError(f"{name} holds a JSON {type(body).__name__}, not an object: a request body is an object")
    return body


def _parses(data: bytes) -> bool:
    try:
        orjson.loads(data)
    except orjson.JSONDecodeError:
        return False
    return True


def _is_object(line: bytes) -> bool:
    try:
        return isinstance(orjson.loads(line), dict)
    except orjson.JSONDecodeError:
        return False


def _from_notation(name: str, data: bytes) -> str:
    """A move log in the text notation, as its text: UTF-8 (a byte-order mark is already gone), sent as it is,
    for the service to read (its refusals name the line and column)."""
    try:
        return decode_log(data)
    except NotationError as err:
        raise InputError(
            f"{name} is neither JSON nor a text log in UTF-8 (line {err.line}, column {err.column} is not UTF-8)"
        ) from None
