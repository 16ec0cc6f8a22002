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
