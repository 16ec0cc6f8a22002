"""Hypothesis strategies shared by the property tests."""

from __future__ import annotations

from hypothesis import strategies as st

from engine import CARDS, PRESETS, Card

MONTH_CARDS = [c for c in CARDS if c.kind != "bonus"]
preset_names = st.sampled_from(list(PRESETS))


@st.composite
def deals(draw: st.DrawFn, preset: str | None = None) -> tuple[str, list[list[Card]]]:
    """A preset and disjoint captured piles, one per player, using only cards the preset plays with."""
    name = preset or draw(preset_names)
    rules = PRESETS[name]
    pool = MONTH_CARDS + [c for c in CARDS if c.id in rules.bonus_cards]
    order = draw(st.permutations(pool))
    cuts = sorted(draw(st.lists(st.integers(0, len(order)), min_size=rules.players, max_size=rules.players)))
    piles = [list(order[a:b]) for a, b in zip([0, *cuts[:-1]], cuts, strict=True)]
    return name, piles


@st.composite
def logged_moves(draw: st.DrawFn) -> dict:
    """A logged move of any shape ``Move.from_dict`` reads, legal or not: any cards in any field, lists of any
    length (or empty), a capture of the flip without its card, a bonus card as the draw..."""
    player = draw(st.sampled_from(["A", "B", "갑", "Kim Lee", 'say "hi"', "-", "go"]))
    card = st.sampled_from([c.id for c in CARDS])
    cards = st.lists(card, max_size=4)
    kind = draw(st.sampled_from(["call", "declare", "turn", "shake", "bomb", "flip", "bonus"]))
    if kind == "call":
        return {"player": player, "call": draw(st.sampled_from(["go", "stop"]))}
    if kind == "declare":
        return {"player": player, "sep_animal_as": draw(st.sampled_from(["animal", "junk"]))}
    move: dict = {"player": player}
    if kind == "bonus":
        move["bonus"] = draw(card)
    if kind == "flip":
        move["flip"] = True
    elif kind == "bomb" or (kind == "bonus" and draw(st.booleans())):
        move["bomb"] = draw(cards.filter(bool))
    elif kind in ("turn", "shake") or draw(st.booleans()):
        if kind == "shake":
            move["shake"] = draw(cards.filter(bool))
        if kind != "bonus" or draw(st.booleans()):
            move["play"] = draw(card)
            if draw(st.booleans()):
                move["capture"] = draw(card)
    for field in ("draw", "draw_capture"):
        if draw(st.booleans()):
            move[field] = draw(card)
    if draw(st.booleans()):
        move["bonus_flipped"] = draw(cards)
    return move
