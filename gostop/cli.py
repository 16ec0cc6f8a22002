"""The ``gostop`` command: score, settle, replay, check, evening, rules, cards, serve and audit, at a terminal or in
a script.

    gostop settle hand.json               # a table: who pays whom, every rule checked
    gostop replay --json log.json         # exactly what POST /v1/replay answers
    gostop replay hand.txt                # a log in the text notation (docs/NOTATION.md), sent as text/plain
    gostop check --url http://host:8000 log.json
    gostop evening evening.json           # the evening's ledger: who is up, who deals next, the settle-up
    gostop audit archive.jsonl.gz --out findings.jsonl

Offline by default: the answers come from the service's own app in this process (``gostop.local``), byte for
byte what the HTTP service answers; ``--url`` (or GOSTOP_URL) asks a running service instead. Exit status: 0
fine, 1 a ruling refused (or a log illegal, payments that differ, an audit finding), 2 bad usage (a bad file,
an unknown option, a service that cannot be reached).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any
from urllib.parse import quote

import orjson

from . import tables
from .audit import AuditError, RecordedError, payments_agree, read_recorded
from .client import TEXT, Answer, Client, ConnectionFailed, TimedOut, Transport
from .inputs import InputError, read_body
from .words import LANGUAGES, WORDS, language_from_environment

__all__ = ["main"]

OK, REFUSED, USAGE = 0, 1, 2
Render = Callable[[Mapping[str, Any], str], str]  # an answer's JSON and the language -> a table


class UsageError(Exception):
    """Bad usage the parser cannot see (exit status 2)."""


def _transport(args: argparse.Namespace) -> Transport:
    if args.url:
        return Client(args.url, args.lang, timeout=args.timeout)
    from .local import LocalService

    return LocalService(args.lang)


def _input(args: argparse.Namespace) -> dict[str, Any]:
    body = _log(args, log=False)
    assert isinstance(body, dict)  # only a log may be text
    return body


def _log(args: argparse.Namespace, *, log: bool = True) -> dict[str, Any] | str:
    """A body, or for a move log, JSON or the text notation (a ``str``: sent as text/plain)."""
    if args.file is None and sys.stdin.isatty():
        raise UsageError(f"gostop {args.command}: give a FILE, or the body on stdin")
    return read_body(args.file, log=log)


def _print_json(answer: Answer) -> None:
    out = sys.stdout.buffer
    out.write(answer.body)
    if sys.stdout.isatty():
        out.write(b"\n")
    out.flush()


def _status(answer: Answer) -> int:
    return OK if answer.ok else REFUSED if answer.status < 500 else USAGE


def _show(args: argparse.Namespace, answer: Answer, render: Render | None, text: str | None = None) -> int:
    """Print the answer (its JSON as sent, or a table) and return the exit status it makes. ``text``: the log
    was sent in the text notation, and a refusal naming a line shows that line."""
    if args.json:
        _print_json(answer)
    elif answer.ok and render is not None:
        print(render(answer.json(), args.lang))
    else:
        print(_problem_table(answer, args.lang, text))
    return _status(answer)


def _problem_table(answer: Answer, lang: str, text: str | None = None) -> str:
    try:
        body = answer.json()
    except orjson.JSONDecodeError:
        body = None
    if not isinstance(body, dict):
        body = {"detail": answer.body[:200].decode("utf-8", "replace")}
    table = tables.problem(body, answer.status, lang)
    line, column = body.get("line"), body.get("column")
    if text is not None and isinstance(line, int) and isinstance(column, int):
        lines = text.removeprefix("\ufeff").splitlines()
        if 1 <= line <= len(lines):  # the line at fault, with a mark under its column
            table += f"\n\n{line:>5} | {lines[line - 1]}\n      | {' ' * (column - 1)}^"
    return table


def _post(args: argparse.Namespace, path: str, body: dict[str, Any] | str) -> Answer:
    if isinstance(body, str):  # a log in the text notation, read by the service as it reads JSON
        return _transport(args).request("POST", path, body.encode(), TEXT)
    return _transport(args).request("POST", path, orjson.dumps(body))


# --- the commands ---------------------------------------------------------------------------------------


def cmd_score(args: argparse.Namespace) -> int:
    return _show(args, _post(args, "/v1/score", _input(args)), tables.score)


def cmd_settle(args: argparse.Namespace) -> int:
    return _show(args, _post(args, "/v1/settle", _input(args)), tables.settlement)


def cmd_replay(args: argparse.Namespace) -> int:
    body = _log(args)
    return _show(args, _post(args, "/v1/replay", body), tables.replay, body if isinstance(body, str) else None)


def cmd_check(args: argparse.Namespace) -> int:
    """Replay a log as an audit checks one line: legal or not, and whether its ``recorded`` payments (if any)
    agree with the ruling. ``id`` and ``recorded`` are not sent (they are the archive's, not the API's); a log
    in the text notation has neither."""
    body = _log(args)
    recorded = None
    if isinstance(body, dict):
        body.pop("id", None)
        try:
            recorded = read_recorded(body.pop("recorded", None))
        except RecordedError as exc:
            raise InputError(f"{args.file or 'stdin'}: {exc}") from None
    answer = _post(args, "/v1/replay", body)
    if not answer.ok:
        return _show(args, answer, None, body if isinstance(body, str) else None)
    ruling = answer.json()
    settlement = ruling["settlement"]
    ruled = [(p["from"], p["to"], p["points"]) for p in settlement["payments"]] if settlement else None
    agrees = recorded is None or (ruled is not None and payments_agree(recorded, ruled))
    if args.json:
        _print_json(answer)
    else:
        shown = None if recorded is None else [{"from": f, "to": t, "points": n} for f, t, n in recorded]
        print(tables.check(ruling, shown, agrees, args.lang))
    return OK if agrees else REFUSED


def cmd_evening(args: argparse.Namespace) -> int:
    return _show(args, _post(args, "/v1/evening", _input(args)), tables.evening)


def cmd_rules(args: argparse.Namespace) -> int:
    path = "/v1/rules" if args.preset is None else f"/v1/rules/{quote(args.preset, safe='')}"
    answer = _transport(args).request("GET", path)
    if answer.status == 404 and args.preset is not None:  # a preset that is not there is bad usage, not a ruling
        if args.json:
            _print_json(answer)
            return USAGE
        names = [p["name"] for p in _transport(args).request("GET", "/v1/rules").json()["presets"]]
        raise UsageError(WORDS[args.lang]["no_preset"].format(preset=args.preset, presets=", ".join(names)))
    return _show(args, answer, tables.rules)


def cmd_cards(args: argparse.Namespace) -> int:
    return _show(args, _transport(args).request("GET", "/v1/cards"), tables.cards)


def cmd_serve(args: argparse.Namespace) -> int:
    """Run the service in the foreground, exactly as `make run` does (gunicorn replaces this process)."""
    from .server import gunicorn_command

    env = dict(os.environ)
    for name, value in (("HOST", args.host), ("PORT", args.port), ("WORKERS", args.workers)):
        if value is not None:
            env[name] = str(value)
    command = gunicorn_command()
    if not Path(command[0]).exists():
        raise UsageError(f"gunicorn is not installed beside {sys.executable}")
    sys.stdout.flush()
    os.execve(command[0], command, env)
    return OK  # not reached


def cmd_page(args: argparse.Namespace) -> int:
    """Write the table page, with its engine, as static files (docs/page-engine.md)."""
    from service.bundle import write_page

    folder = Path(args.folder)
    if folder.exists() and not folder.is_dir():
        raise UsageError(f"{folder} is not a folder")
    try:
        written = write_page(folder)
    except RuntimeError as exc:
        raise UsageError(str(exc)) from None
    size = sum(path.stat().st_size for path in written)
    print(f"gostop: the page is in {folder}/ ({len(written)} files, {size / 1e6:.1f} MB), for any static host")
    return OK


def cmd_audit(args: argparse.Namespace) -> int:
    from . import audit

    for archive in args.archives:
        if archive != "-" and not Path(archive).exists():
            raise UsageError(f"{archive}: no such file")
        if Path(archive).is_dir():
            raise UsageError(f"{archive} is a folder, not an archive")
    if args.jobs is not None and args.jobs < 1:
        raise UsageError("--jobs must be at least 1")
    if args.batch is not None and args.batch < 1:
        raise UsageError("--batch must be at least 1")
    if args.worker_timeout < 0 or args.progress_every <= 0:
        raise UsageError("--worker-timeout and --progress-every take a number of seconds above 0")
    summary = audit.run(
        args.archives,
        out=args.out,
        jobs=args.jobs,
        scheduler=args.scheduler,
        batch=args.batch,
        progress=False if args.quiet else "bar" if sys.stderr.isatty() else "lines",
        progress_every=args.progress_every,
        lang=args.lang,
        worker_timeout=args.worker_timeout,
    )
    report = orjson.dumps(summary.as_dict()).decode() if args.json else summary.text()
    print(report, file=sys.stdout if args.out or args.json else sys.stderr)
    if summary.stopped is not None:  # stopped early: not every hand was audited
        return USAGE
    return REFUSED if summary.findings else OK


# --- the parser -----------------------------------------------------------------------------------------


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(
        prog="gostop",
        description="Score, settle, replay and check Go-Stop hands, and audit archives of them.",
        epilog="Exit status: 0 fine, 1 a ruling refused or a finding, 2 bad usage.",
    )
    top.add_argument("--version", action="version", version=f"gostop {_version()}")
    commands = top.add_subparsers(dest="command", required=True, metavar="COMMAND")
    asks = argparse.ArgumentParser(add_help=False)
    asks.add_argument("--url", default=os.environ.get("GOSTOP_URL"), help="a running service (default: offline)")
    asks.add_argument("--lang", choices=LANGUAGES, default=language_from_environment(), help=", ".join(LANGUAGES))
    asks.add_argument("--json", action="store_true", help="print exactly what the API answers")
    asks.add_argument("--timeout", type=float, default=10.0, help="seconds per request to --url (default 10)")
    given = argparse.ArgumentParser(add_help=False)
    given.add_argument("file", nargs="?", metavar="FILE", help="the request body (JSON); - or none: stdin")

    for name, run, summary in (
        ("score", cmd_score, "one player's captured cards -> their score (POST /v1/score)"),
        ("settle", cmd_settle, "a finished hand -> who pays whom, every rule checked (POST /v1/settle)"),
        ("replay", cmd_replay, "a move log -> every move judged, the state and the ruling (POST /v1/replay)"),
        ("check", cmd_check, "a move log -> legal or not; recorded payments compared with the ruling"),
        ("evening", cmd_evening, "an evening's hands -> the ledger, the next dealer, the settle-up (POST /v1/evening)"),
    ):
        sub = commands.add_parser(name, parents=[asks, given], help=summary, description=summary)
        sub.set_defaults(run=run, usage_of=sub)
    sub = commands.add_parser("rules", parents=[asks], help="the presets, or one preset's knobs (GET /v1/rules)")
    sub.add_argument("preset", nargs="?", metavar="PRESET")
    sub.set_defaults(run=cmd_rules, usage_of=sub)
    sub = commands.add_parser("cards", parents=[asks], help="the deck: every card's id, month, kind and names")
    sub.set_defaults(run=cmd_cards, usage_of=sub)

    sub = commands.add_parser("serve", help="run the HTTP service (as `make run`)")
    sub.add_argument("--host", help="address to listen on (default: HOST or 127.0.0.1)")
    sub.add_argument("--port", type=int, help="port (default: PORT or 8000)")
    sub.add_argument("--workers", type=int, help="worker processes (default: WORKERS or 2 per core, at most 4)")
    sub.set_defaults(run=cmd_serve, usage_of=sub)

    sub = commands.add_parser(
        "page",
        help="write the table page, with its engine, as static files for any static host",
        description="Write the table page as static files (HTML, JavaScript, the engine's Python sources and "
        "Pyodide) into FOLDER: served from any static host, or saved on a phone, it rules every hand with no "
        "gostop service at all (docs/page-engine.md).",
    )
    sub.add_argument("folder", metavar="FOLDER", help="where to write it (made if missing)")
    sub.set_defaults(run=cmd_page)

    sub = commands.add_parser(
        "audit",
        help="replay every hand of JSON Lines archives and report what is wrong",
        description="Replay every line of the archives (JSON Lines, or gzip of them: each a POST /v1/replay "
        "body with an id and optionally recorded payments) and write a finding per line that is illegal, "
        "whose recorded payments differ from the ruling, or that is not valid at all.",
    )
    sub.add_argument("archives", nargs="+", metavar="ARCHIVE", help="JSON Lines, gzip or not; - is stdin")
    sub.add_argument("--out", help="write the findings here (JSON Lines; gzip if it ends in .gz); default stdout")
    sub.add_argument("--jobs", type=int, help="processes replaying hands (default: every core; 1 under 1 MiB)")
    sub.add_argument("--scheduler", metavar="tcp://HOST:PORT", help="run on this Dask distributed cluster")
    sub.add_argument("--batch", type=int, help="lines a task (default 1,000; 4,000 with --scheduler)")
    sub.add_argument("--json", action="store_true", help="print the summary as JSON")
    sub.add_argument("--lang", choices=LANGUAGES, default=language_from_environment(), help="the findings' words")
    sub.add_argument("--quiet", action="store_true", help="no progress (bar on a terminal, lines elsewhere)")
    sub.add_argument(
        "--progress-every", type=float, default=10.0, metavar="S", help="off a terminal, a progress line every S s"
    )
    sub.add_argument(
        "--worker-timeout",
        type=float,
        default=60.0,
        metavar="S",
        help="with --scheduler: stop (exit 2) once the cluster has had no worker for S seconds (default 60)",
    )
    sub.set_defaults(run=cmd_audit, usage_of=sub)
    return top


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("gostop")
    except PackageNotFoundError:  # run from a checkout that was never installed
        from engine import __version__

        return __version__


def main(argv: Sequence[str] | None = None) -> int:
    args, extra = parser().parse_known_args(argv)
    if extra:  # an option the subcommand does not know: its own usage, not the top level's
        args.usage_of.error(f"unrecognized arguments: {' '.join(extra)}")
    try:
        status: int = args.run(args)
    except (InputError, UsageError, AuditError) as exc:
        print(f"gostop: {exc}", file=sys.stderr)
        return USAGE
    except TimedOut:
        print(f"gostop: {args.url} did not answer within {args.timeout:g} s", file=sys.stderr)
        return USAGE
    except ConnectionFailed as exc:
        print(f"gostop: cannot reach {args.url}: {exc.reason}", file=sys.stderr)
        return USAGE
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # the reader went away (e.g. `| head`): nothing more to say
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return OK
    return status
