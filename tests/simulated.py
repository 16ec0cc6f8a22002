"""Simulated hands for tests (``engine.simulate``), and what every hand must hold."""

from __future__ import annotations

import os

from engine import CardSet, GameState, by_id, replay, resolve
from engine.simulate import simulate

HANDS = int(os.environ.get("GOSTOP_SIM_HANDS", "2000"))


def deck_of(rules):
    return sorted(c.id for c in rules.deck)


def assert_conserved(state: GameState, deck: list[str]) -> None:
    """Every card is in exactly one place: a hand, the layout, the stock, some captures, or unseen."""
    places = [c.id for s in state.seats for c in (*s.hand, *s.captured)]
    places += [c.id for c in state.layout_cards()]
    table = state.table
    if table.stock is not None:
        places += [c.id for c in table.stock[table.stock_pos :]]
        assert state.stock_left == len(table.stock) - table.stock_pos
    places += [c.id for c in CardSet.from_mask(table.unseen | table.in_stock)]
    assert sorted(places) == deck
    hidden = sum(s.hidden for s in state.seats) + (state.stock_left if table.stock is None else 0)
    assert hidden == table.unseen.bit_count() + table.in_stock.bit_count()


def hidden_form(body: dict) -> dict:
    """The same hand as a physical game would log it: only the layout is known, and a player dealt four
    cards of one month shows them (RULES.md 4: chongtong)."""
    deal = {"layout": body["deal"]["layout"]}
    shown = {}
    for pid, hand in (body["deal"].get("hands") or {}).items():
        for month in range(1, 13):
            four = [card_id for card_id in hand if by_id(card_id).month == month]
            if len(four) == 4:
                shown[pid] = four
                break
    if shown:
        deal["shown"] = shown
    sit_out = body["deal"].get("sit_out")
    if sit_out is not None:  # RULES.md 4.5: the seller shows the hand sold; whoever chose to sit out, nothing
        deal["sit_out"] = {**sit_out, "hand": sit_out["hand"] if sit_out["seat"] == 4 else []}
    return {**body, "deal": deal}


def replay_body(body: dict):
    rules = resolve(body["rules"], players=len(body["players"]))
    return replay(
        body["players"],
        rules,
        body["deal"],
        body["moves"],
        nagari_streak=body.get("nagari_streak", 0),
        stake=body.get("stake", 1),
    )


def settle_body(result) -> dict:
    """A /v1/settle request for the final captures and calls of a replayed hand."""
    state = result.state
    return {
        "rules": state.rules.asdict(),
        "players": [
            {
                "id": s.id,
                "captured": [c.id for c in s.captured],
                "go_count": s.go_count,
                "shakes": s.shakes,
                "bombs": s.bombs,
            }
            for s in state.seats
        ],
        "winner": state.winner,
        "outcome": state.outcome,
        "last_go": result.state.hand_result().last_go,
    }


def find_hand(preset, predicate, limit=3000):
    for seed in range(limit):
        body = simulate(preset, seed).to_dict()
        result = replay_body(body)
        if predicate(body, result):
            return body, result
    raise AssertionError("no simulated hand shows this")
