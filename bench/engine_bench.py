"""Engine-only microbenchmarks, microseconds per call: score, settle, and the replay of a full hand.

Usage: python bench/engine_bench.py
"""

from __future__ import annotations

import timeit

from common import REPLAY_BODY, SCORE_BODY, SETTLE_BODY

from engine import HandResult, Move, PlayerHand, parse_cards, replay, resolve, score, settle


def per_call(fn, number: int = 2000) -> float:
    return min(timeit.repeat(fn, number=number, repeat=7)) / number * 1e6


def main() -> None:
    rules = resolve("korean-2p")
    cards = parse_cards(SCORE_BODY["cards"])
    hand = HandResult(
        tuple(
            PlayerHand(p["id"], tuple(parse_cards(p["captured"])), p.get("go_count", 0), p.get("shakes", 0))
            for p in SETTLE_BODY["players"]
        ),
        "A",
        nagari_streak=1,
        stake=100,
    )
    players, deal, moves = REPLAY_BODY["players"], REPLAY_BODY["deal"], REPLAY_BODY["moves"]
    parsed = [Move.from_dict(m, index=i) for i, m in enumerate(moves)]
    turns = sum("call" not in m for m in moves)
    rows = [
        (f"score ({len(cards)} cards)", per_call(lambda: score(cards, rules), 20000)),
        ("settle (2 players)", per_call(lambda: settle(hand, rules), 20000)),
        (
            "parse ids + resolve rules + score",
            per_call(lambda: score(parse_cards(SCORE_BODY["cards"]), resolve("korean-2p")), 20000),
        ),
        (
            f"replay, {turns} turns + {len(moves) - turns} calls, from JSON moves, settled",
            per_call(lambda: replay(players, rules, deal, moves)),
        ),
        ("replay of the same hand from parsed Move values", per_call(lambda: replay(players, rules, deal, parsed))),
    ]
    for name, micros in rows:
        print(f"{name:58} {micros:8.1f} us")


if __name__ == "__main__":
    main()
