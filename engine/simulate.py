"""Seeded random hands, played with ``GameState.legal_moves``: example logs for tests, docs and bugs.

python -m engine.simulate --preset korean-2p --seed 1     # prints a POST /v1/replay body (Log.to_dict)
python -m engine.simulate --count 1000 --jsonl > hands.jsonl  # an archive for `gostop audit`, a hand a line
"""

from __future__ import annotations

import argparse
import json
import random
from typing import Any

from .cards import Kind
from .deal import read_deal
from .game import GameState
from .log import Log
from .moves import Expect, Move
from .rules import RuleSet, resolve

__all__ = ["deal", "simulate"]

PLAYER_IDS = ("A", "B", "C")
PEOPLE = ("A", "B", "C", "D")  # four at a table of three (RULES.md 4.5), in seat order from the dealer


def deal(rules: RuleSet, rng: random.Random) -> dict[str, Any]:
    """A shuffled deal as card ids: hands, the layout (bonus cards and their replacements) and the stock. At a
    table of four (``gwang_palgi``) all four are dealt, one seat (2 to 4) sits out and its hand is ``sit_out``."""
    deck = list(rules.deck)
    rng.shuffle(deck)
    people = PEOPLE if rules.gwang_palgi else PLAYER_IDS[: rules.players]
    size = rules.hand_size
    dealt = {pid: [c.id for c in deck[i * size : (i + 1) * size]] for i, pid in enumerate(people)}
    rest = deck[size * len(people) :]
    layout: list[str] = []
    regular = 0
    while regular < rules.layout_size:  # RULES.md 4: a bonus card on the layout is replaced
        card = rest.pop(0)
        layout.append(card.id)
        regular += card.kind is not Kind.BONUS
    out: dict[str, Any] = {"hands": dealt, "layout": layout, "stock": [c.id for c in rest]}
    if rules.gwang_palgi:
        seat = rng.choice((2, 3, 4))
        sitter = people[seat - 1]
        out["sit_out"] = {"player": sitter, "seat": seat, "hand": dealt.pop(sitter)}
    return out


def simulate(rules: RuleSet | str, seed: int, *, go_chance: float = 0.4) -> Log:
    """A whole hand played at random from ``seed``: its Log (``log.to_dict()`` is a POST /v1/replay body)."""
    rules = resolve(rules)
    rng = random.Random(seed)
    the_deal = read_deal(deal(rules, rng))
    assert the_deal.hands is not None
    players = tuple(the_deal.hands)
    state = GameState(players, rules, the_deal)
    moves: list[Move] = []
    while not state.is_over:
        options = state.legal_moves()
        if state.expects is Expect.CALL:
            move = options[0] if rng.random() < go_chance else options[1]
        else:
            move = rng.choice(options)
        state.apply(move)
        moves.append(move)
    return Log(rules, players, the_deal, tuple(moves))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Print a random hand as a POST /v1/replay request body.")
    parser.add_argument("--preset", default="korean-2p")
    parser.add_argument("--seed", type=int, default=1, help="the seed of the (first) hand")
    parser.add_argument("--count", type=int, default=1, help="how many hands, seeds counting up from --seed")
    parser.add_argument(
        "--jsonl", action="store_true", help="one hand a line, with an id and its recorded payments (an archive)"
    )
    args = parser.parse_args(argv)
    for seed in range(args.seed, args.seed + args.count):
        log = simulate(args.preset, seed)
        body = log.to_dict()
        if not args.jsonl:
            print(json.dumps(body, indent=1))
            continue
        # a line of an audit archive (gostop audit): an id, the body, and the payments its ruling makes
        settled = log.replay().settlement
        paid = [{"from": p.payer, "to": p.payee, "points": p.points} for p in settled.payments] if settled else []
        line = {"id": f"{args.preset}-{seed}", **body, "recorded": {"payments": paid}}
        print(json.dumps(line, separators=(",", ":")))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
