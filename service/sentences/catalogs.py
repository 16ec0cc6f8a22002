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
        "junk or fewer, gobak ×2, first-turn ppuk and ttadak paid at once."
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
    "hangame-matgo": N_(
        "Hangame's new Matgo, from its help pages: as korean-2p, but four of a month on the layout and two "
        "chongtongs win for the dealer, a bonus card's replacement completes a chongtong, a two-card bomb takes "
        "junk without doubling, no loser is spared pibak or payment for holding nothing; in an evening, all-in, "
        "limited liability and up to two pushes."
    ),
    "pmang-matgo": N_(
        "Pmang's new Matgo, from its game rules: as korean-2p, but chongtong wins 7, a two-card bomb doubles, "
        "taking another's ppuk steals on the last turn too, the nagari carry stops at ×8, only a first ppuk is "
        "paid at once and no first ttadak, a loser with no card pays; in an evening, limited liability."
    ),
    "netmarble-matgo": N_(
        "Netmarble's Matgo 2.0, from its 2008 help pages: as korean-2p, but a bonus card's replacement completes "
        "a chongtong on the first turn, winning after playing on a chongtong pays ×2, three ppuks win 10, a "
        "first-turn chok or bomb pays 7, no loser is spared pibak or payment for holding nothing; in an evening, "
        "all-in."
    ),
    "hangame-gostop": N_(
        "Hangame's Go-Stop for three: as korean-3p, but bonus cards steal nothing, chongtong wins 10 and, like "
        "four of a month on the layout, two chongtongs win for the dealer, no heodang, and the go-caller pays "
        "for everyone; in an evening, all-in and limited liability."
    ),
    "pmang-gostop": N_(
        "Pmang's Go-Stop for three: as korean-3p, but chongtong wins 7, the go-caller pays for everyone, no "
        "heodang, the nagari carry stops at ×8, only a first ppuk is paid at once; in an evening, limited "
        "liability."
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
