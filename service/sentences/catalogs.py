"""The words of the catalogs: what each preset plays (``GET /v1/rules``), keyed by the preset's name. The cards'
names (``GET /v1/cards``) are ``names.CARDS``."""

from __future__ import annotations

from collections.abc import Mapping

from ..i18n import N_, Words
from . import names

__all__ = ["PRESETS", "card_names", "choice_label", "knob_label", "preset_description"]

PRESETS: Mapping[str, str] = {
    "korean-2p": N_(
        "Matgo for two as Korean tables play it: bonus cards, double junk, the cup where it scores more and "
        "counted against pibak, shakes and bombs double, gos add a point and double from the third, pibak at 7 "
        "junk or fewer, gobak x2, first-turn ppuk and ttadak paid at once."
    ),
    "korean-3p": N_(
        "Go-Stop for three with the same table rules: stop from 3 points, three bonus cards, pibak at 5 junk or "
        "fewer, a go-caller who is overtaken pays for everyone, and heodang and three ppuks win at once."
    ),
    "chips-2p": N_(
        "Go-Stop with chips for two: no bonus cards or double junk, the cup always an animal, each go adds a "
        "point and more than three double the payout once, shakes double but bombs do not, pibak at 5 or "
        "fewer, no gobak."
    ),
    "chips-3p": N_("The same chips game for three, stopping from 3 points."),
    "basic-2p": N_(
        "Plain Matgo for two: no bonus cards, shakes or bombs; double junk; gos add a point for the first two "
        "and double from the third; pibak under 5 junk; three ppuks win at once."
    ),
}


def preset_description(w: Words, preset: str) -> str:
    return w.say(PRESETS[preset])


def card_names(languages: Mapping[str, Words], card_id: str) -> dict[str, str]:
    """A card's name in every language of the service (``/v1/cards``)."""
    return {lang: names.card(words, card_id) for lang, words in languages.items()}


def knob_label(w: Words, knob: str) -> str:
    """What a knob decides, as a rules panel shows it (``GET /v1/rules``)."""
    return w.word(names.KNOBS[knob])


def choice_label(w: Words, knob: str, value: str) -> str:
    """One choice of a knob: a bonus card by its name, any other by the table's words for it."""
    if knob == "bonus_cards":
        return names.card(w, value)
    return w.word(names.CHOICES[(knob, value)])
