"""Archives for the audit's tests: simulated hands as archive lines, and the same with lines spoiled on purpose."""

from __future__ import annotations

import os
import subprocess
import sys

import orjson

from tests.conftest import ROOT


def simulated(preset: str, count: int, seed: int = 1) -> list[bytes]:
    """Archive lines from `python -m engine.simulate --count N --jsonl`."""
    command = [sys.executable, "-m", "engine.simulate", "--preset", preset, "--seed", str(seed), "--count", str(count)]
    done = subprocess.run([*command, "--jsonl"], capture_output=True, check=True, cwd=ROOT, timeout=120)
    return done.stdout.splitlines()


def spoil(hands: list[bytes]) -> tuple[bytes, list[tuple[int, str, str]]]:
    """An archive of the hands with lines spoiled on purpose, and the (line, kind, code) each spoiled line must
    give, in order. Lines that only look different (payments listed in another order, a zero payment left
    out, a blank line, a CRLF ending) must give nothing."""
    lines: list[bytes] = []
    expected: list[tuple[int, str, str]] = []

    def add(line: bytes, kind: str | None = None, code: str | None = None) -> None:
        lines.append(line)
        if kind is not None and code is not None:
            expected.append((len(lines), kind, code))

    for i, raw in enumerate(hands):
        body = orjson.loads(raw)
        moves, payments = body["moves"], body["recorded"]["payments"]
        if i == 3:
            moves[3] = {**moves[3], "play": "jan-bright"} if moves[3]["play"] != "jan-bright" else moves[3]
            add(orjson.dumps(body), "illegal", "card-not-in-hand")
        elif i == 5:
            moves[1] = {**moves[1], "player": moves[0]["player"]}
            add(orjson.dumps(body), "illegal", "not-your-turn")
        elif i == 7:
            assert payments, "the hand spoiled here must have a payment"
            payments[0]["points"] += 1
            add(orjson.dumps(body), "payments", "payments-differ")
        elif i == 9:
            body["recorded"]["payments"] = [*reversed(payments), {"from": "A", "to": "B", "points": 0}]
            add(orjson.dumps(body))  # the same payments: no finding
        elif i == 11:
            body["moves"] = moves[:5]
            add(orjson.dumps(body), "payments", "unfinished")
        elif i == 13:
            add(raw[: len(raw) // 2], "invalid", "not-json")
        elif i == 15:
            add(os.urandom(35_000).hex().encode(), "invalid", "body-too-large")  # 70 KB of garbage
        elif i == 17:
            add(b"[1, 2, 3]", "invalid", "not-an-object")
        elif i == 19:
            del body["id"]
            add(orjson.dumps(body), "invalid", "missing-id")
        elif i == 21:
            body["recorded"] = {"payments": [{"from": "A", "to": "B"}]}
            add(orjson.dumps(body), "invalid", "bad-recorded")
        elif i == 23:
            body["stake"] = -1
            add(orjson.dumps(body), "invalid", "validation-error")
        elif i == 25:
            body["rules"] = "korean-9p"
            add(orjson.dumps(body), "illegal", "unknown-preset")
        elif i == 27:
            add(b"   ")  # a blank line is skipped
            add(raw + b"\r")  # a CRLF line ending
        elif i == 29:
            body["deal"]["layout"][0] = "jan-brite"
            add(orjson.dumps(body), "illegal", "bad-deal")
        elif i == 31:
            add(
                b'{"id": 31, "players": ["A", "B"], "deal": {"layout": []}, "moves": [], "sep": 1}',
                "invalid",
                "validation-error",
            )
        else:
            add(raw)
    return b"\n".join(lines) + b"\n", expected
