"""What a command is given: one request body, from a file or stdin, read through ``read_body`` only.

A body is JSON (an object, as the API takes it). A move log may one day also be written in the text notation
of issue 15; ``_from_notation`` is the one place where such text will be handed to its parser.
"""

from __future__ import annotations

import codecs
import sys
from pathlib import Path
from typing import Any, BinaryIO

import orjson

__all__ = ["MAX_INPUT", "InputError", "read_body"]

MAX_INPUT = 1 << 20  # the service takes bodies up to 64 KiB; a file far past that is no request body


class InputError(Exception):
    """A file or stdin that cannot be read as a request body; the message says which and why (exit status 2)."""


def read_body(path: str | None, *, log: bool = False, stdin: BinaryIO | None = None) -> dict[str, Any]:
    """The request body in the file at ``path`` (``-`` or None: stdin). ``log``: the body is a move log,
    which may be given in the text notation. Raises InputError saying what is wrong and where."""
    name, data = _read(path, stdin or sys.stdin.buffer)
    if data.startswith(codecs.BOM_UTF8):
        data = data[len(codecs.BOM_UTF8) :]
    stripped = data.lstrip()
    if not stripped:
        raise InputError(f"{name} is empty: give a request body (JSON)")
    if stripped[:1] in (b"{", b"["):
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


def _is_object(line: bytes) -> bool:
    try:
        return isinstance(orjson.loads(line), dict)
    except orjson.JSONDecodeError:
        return False


def _from_notation(name: str, data: bytes) -> dict[str, Any]:
    # THE NOTATION'S ONE DOOR (issue 15): once engine.notation exists, this becomes
    #     return engine.notation.parse_log(data.decode("utf-8"))
    # with its errors (which name the line and column) raised as InputError.
    raise InputError(f"{name}: text logs are not supported yet: give the log as JSON (a POST /v1/replay body)")
