"""Engine-only microbenchmarks: one score and one settle call, in microseconds per call."""

from __future__ import annotations

import timeit

from common import SCORE_BODY, SETTLE_BODY

from engine import HandResult, PlayerHand, parse_cards, resolve, score, settle


def per_call(fn, number: int = 20000) -> float:
    best = min(timeit.repeat(fn, number=number, repeat=5))
    return best / number * 1e6


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
    print(f"score  (19 cards)           {per_call(lambda: score(cards, rules)):7.1f} us/call")
    print(f"settle (2 players, 24 cards) {per_call(lambda: settle(hand, rules)):7.1f} us/call")
    full = per_call(lambda: score(parse_cards(SCORE_BODY["cards"]), resolve("korean-2p")))
    print(f"parse + resolve + score      {full:7.1f} us/call")


if __name__ == "__main__":
    main()
