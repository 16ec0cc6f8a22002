"""The words of the game that sentences name: cards, months, the rules a settlement checks, outcomes, what
stole, house rules (knobs), the fields of a request and of a move, the places a card can be, and what a text
log was expected to hold.

Each table is keyed by the engine's own names (card ids, ``EventType``, ``Outcome``, knob names, a check's
rule, a ``Place``'s kind); its values are the English words, message ids of the catalogs.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Any

from engine import Card, EventType, Outcome, Place

from ..i18n import N_, Words

__all__ = [
    "CARDS",
    "CHOICES",
    "COUNTS",
    "EXPECTED",
    "FIELDS",
    "KNOBS",
    "MONTHS",
    "OUTCOMES",
    "PLACES",
    "RULES",
    "STANDOFF_COMBINATIONS",
    "STEAL_CAUSES",
    "card",
    "cards",
    "is_card",
    "joined",
    "place",
    "rule",
]


CARDS = {
    "jan-bright": N_("Pine bright (crane and sun)"),
    "jan-ribbon": N_("Pine ribbon (red poem)"),
    "jan-junk-1": N_("Pine junk"),
    "jan-junk-2": N_("Pine junk"),
    "feb-animal": N_("Plum animal (bush warbler)"),
    "feb-ribbon": N_("Plum ribbon (red poem)"),
    "feb-junk-1": N_("Plum junk"),
    "feb-junk-2": N_("Plum junk"),
    "mar-bright": N_("Cherry bright (curtain)"),
    "mar-ribbon": N_("Cherry ribbon (red poem)"),
    "mar-junk-1": N_("Cherry junk"),
    "mar-junk-2": N_("Cherry junk"),
    "apr-animal": N_("Black clover animal (cuckoo)"),
    "apr-ribbon": N_("Black clover ribbon"),
    "apr-junk-1": N_("Black clover junk"),
    "apr-junk-2": N_("Black clover junk"),
    "may-animal": N_("Iris animal (bridge)"),
    "may-ribbon": N_("Iris ribbon"),
    "may-junk-1": N_("Iris junk"),
    "may-junk-2": N_("Iris junk"),
    "jun-animal": N_("Peony animal (butterflies)"),
    "jun-ribbon": N_("Peony ribbon (blue)"),
    "jun-junk-1": N_("Peony junk"),
    "jun-junk-2": N_("Peony junk"),
    "jul-animal": N_("Red clover animal (boar)"),
    "jul-ribbon": N_("Red clover ribbon"),
    "jul-junk-1": N_("Red clover junk"),
    "jul-junk-2": N_("Red clover junk"),
    "aug-bright": N_("Pampas bright (full moon)"),
    "aug-animal": N_("Pampas animal (geese)"),
    "aug-junk-1": N_("Pampas junk"),
    "aug-junk-2": N_("Pampas junk"),
    "sep-animal": N_("Chrysanthemum animal (sake cup)"),
    "sep-ribbon": N_("Chrysanthemum ribbon (blue)"),
    "sep-junk-1": N_("Chrysanthemum junk"),
    "sep-junk-2": N_("Chrysanthemum junk"),
    "oct-animal": N_("Maple animal (deer)"),
    "oct-ribbon": N_("Maple ribbon (blue)"),
    "oct-junk-1": N_("Maple junk"),
    "oct-junk-2": N_("Maple junk"),
    "nov-bright": N_("Paulownia bright (phoenix)"),
    "nov-double": N_("Paulownia double junk"),
    "nov-junk-1": N_("Paulownia junk"),
    "nov-junk-2": N_("Paulownia junk"),
    "dec-bright": N_("Rain bright (rain man)"),
    "dec-animal": N_("Rain animal (swallow)"),
    "dec-ribbon": N_("Rain ribbon"),
    "dec-double": N_("Rain double junk"),
    "bonus-2a": N_("2-junk bonus card (first)"),
    "bonus-2b": N_("2-junk bonus card (second)"),
    "bonus-3": N_("3-junk bonus card"),
}

MONTHS = (
    "",
    N_("January (pine)"),
    N_("February (plum)"),
    N_("March (cherry)"),
    N_("April (black clover)"),
    N_("May (iris)"),
    N_("June (peony)"),
    N_("July (red clover)"),
    N_("August (pampas)"),
    N_("September (chrysanthemum)"),
    N_("October (maple)"),
    N_("November (paulownia)"),
    N_("December (rain)"),
)

# The rules of a settlement, as the "x2 (pibak)" of a payment line and the ends of sentences name them.
RULES = {
    "go": N_("more than three gos"),
    "shake": N_("shake"),
    "bomb": N_("bomb"),
    "meongtta": N_("meongtta"),
    "pibak": N_("pibak"),
    "gwangbak": N_("gwangbak"),
    "meongbak": N_("meongbak"),
    "gobak": N_("gobak"),
    "chongtong": N_("playing on a chongtong"),
    "nagari": N_("nagari carry"),
    "push": N_("push"),
    "empty-loser": N_("the exemption of a loser who captured nothing"),
    "shodang": N_("shodang"),
}

# A combination a shodang looks at (RULES.md 8.7), as "one card from ..." names it: two of the brights lack a third.
STANDOFF_COMBINATIONS = {
    "brights": N_("three brights"),
    "godori": N_("godori"),
    "hongdan": N_("hongdan"),
    "cheongdan": N_("cheongdan"),
    "chodan": N_("chodan"),
}

# What stole, as "for the ..." of a steal: the event that stole.
STEAL_CAUSES = {
    EventType.CHOK: N_("the chok"),
    EventType.TTADAK: N_("the ttadak"),
    EventType.SSEUL: N_("the sseul"),
    EventType.STACK_CAPTURE: N_("the stack capture"),
    EventType.JA_PPUK: N_("taking back their own ppuk"),
    EventType.BOMB: N_("the bomb"),
    EventType.BONUS: N_("the bonus card"),
}

OUTCOMES = {
    Outcome.STOP: N_("stop"),
    Outcome.NAGARI: N_("nagari"),
    Outcome.REDEAL: N_("redeal"),
    Outcome.CHONGTONG: N_("chongtong"),
    Outcome.THREE_PPUK: N_("three ppuks"),
    Outcome.HEODANG: N_("heodang"),
}

# The house rules, as a sentence about a bad value names them.
KNOBS = {
    "players": N_("the number of players"),
    "target_score": N_("the score needed to stop"),
    "bonus_cards": N_("the bonus cards in the deck"),
    "bonus_from_hand": N_("what a bonus card played from hand does"),
    "double_junk": N_("whether double junk counts two"),
    "sep_animal": N_("where the cup counts"),
    "sep_animal_protects": N_("whether a loser's cup counts against pibak"),
    "floor_four": N_("what four of a month on the layout does"),
    "chongtong_points": N_("the points of chongtong"),
    "multiple_chongtong": N_("what two chongtongs at one deal do"),
    "allow_shake": N_("whether shakes are allowed"),
    "allow_bomb": N_("whether bombs are allowed"),
    "bomb_flip_turns": N_("the flip turns a bomb gives"),
    "bomb_flip_timing": N_("when a bomb's flip turns are used"),
    "ppuk_on_last_turn": N_("whether the last card can make a ppuk"),
    "steal_chok": N_("the junk a chok takes"),
    "steal_ttadak": N_("the junk a ttadak takes"),
    "steal_sseul": N_("the junk a sseul takes"),
    "steal_stack": N_("the junk capturing another's ppuk takes"),
    "steal_ja_ppuk": N_("the junk a ja-ppuk takes"),
    "steal_bomb": N_("the junk a bomb takes"),
    "steal_bonus": N_("the junk a bonus card takes"),
    "no_steal_on_last_turn": N_("what steals nothing on a last turn"),
    "go_scheme": N_("how gos count"),
    "shake_multiplier": N_("the shake multiplier"),
    "bomb_multiplier": N_("the bomb multiplier"),
    "meongtta_min_animals": N_("the animals for meongtta"),
    "pibak_max_loser_junk": N_("the pibak threshold"),
    "pibak_zero_exempt": N_("whether a loser with no junk escapes pibak"),
    "gwangbak": N_("whether gwangbak is played"),
    "gobak": N_("what gobak does"),
    "nagari_multiplier": N_("the nagari multiplier"),
    "nagari_cap": N_("the cap on the nagari carry"),
    "empty_loser_exempt": N_("whether a loser with no card is exempt"),
    "three_ppuk_points": N_("the points of three ppuks"),
    "heodang_points": N_("the points of heodang"),
    "first_ppuk_payments": N_("the payments for first-turn ppuks"),
    "first_ttadak_payment": N_("the payment for a first-turn ttadak"),
    "four_brights_points": N_("the points of four brights"),
    "ten_ribbons_points": N_("the points of all ten ribbons"),
    "gwang_palgi": N_("four at the table, the fourth selling their brights"),
    "chongtong_at_deal": N_("what a chongtong dealt does"),
    "chongtong_by_bonus": N_("when a chongtong completed by a bonus card's replacement counts"),
    "two_card_bomb": N_("the two-card bomb"),
    "bonus_on_ppuk": N_("whether a bonus card flipped onto a ppuk stays with it"),
    "chok_sseul": N_("whether a chok on an empty layout is also a sseul"),
    "steal_dealt_stack": N_("the junk capturing a stack dealt on the layout takes"),
    "sep_animal_stealable": N_("whether a steal may take the cup counted as double junk"),
    "all_in": N_("whether a loser pays at most their balance"),
    "limited_liability": N_("whether a winner takes at most their own balance"),
    "push": N_("the pushes allowed in a row"),
    "ppuk_price": N_("the price of a ppuk"),
    "meongbak": N_("whether meongbak is played"),
    "three_ppuk_baks": N_("whether three ppuks keep the baks"),
    "bright_sale_price": N_("the price of a bright sold"),
    "chongtong_play_on_multiplier": N_("the factor for winning on a chongtong played on"),
    "shodang": N_("shodang, and who pays alone when its answers split"),
    "first_chok_payment": N_("the payment for a first-turn chok"),
    "first_bomb_payment": N_("the payment for a first-turn bomb"),
    "rules": N_("the rules"),
    "preset": N_("the preset"),
}

# The choices of the knobs that take one of a few values (and of the set knobs), as a rules panel offers them:
# (knob, value) -> words. The bonus cards are named as cards.
CHOICES = {
    ("bonus_from_hand", "replace"): N_("take the stock top into the hand, then play a hand card"),
    ("bonus_from_hand", "extra-flip"): N_("play the stock top as if from hand"),
    ("sep_animal", "best"): N_("where it scores more"),
    ("sep_animal", "animal"): N_("always an animal"),
    ("floor_four", "redeal"): N_("redeal"),
    ("floor_four", "nagari"): N_("nagari"),
    ("floor_four", "dealer-wins"): N_("the dealer wins, as by chongtong"),
    ("multiple_chongtong", "redeal"): N_("redeal"),
    ("multiple_chongtong", "nagari"): N_("nagari"),
    ("multiple_chongtong", "dealer-wins"): N_("the dealer wins, as by chongtong"),
    ("chongtong_at_deal", "win"): N_("wins at once"),
    ("chongtong_at_deal", "play-on"): N_("played on, and the four may be shaken"),
    ("chongtong_at_deal", "choice"): N_("the holder chooses: win at once or play on"),
    ("shodang", "off"): N_("no shodang"),
    ("shodang", "decliner"): N_("the one who declined pays alone"),
    ("shodang", "caller"): N_("the caller pays alone"),
    ("chongtong_by_bonus", "never"): N_("never"),
    ("chongtong_by_bonus", "first"): N_("on the player's first turn"),
    ("chongtong_by_bonus", "always"): N_("at any turn"),
    ("two_card_bomb", "off"): N_("not played"),
    ("two_card_bomb", "no-multiplier"): N_("a bomb that does not double"),
    ("two_card_bomb", "bomb-multiplier"): N_("a bomb that doubles like any bomb"),
    ("bomb_flip_timing", "any"): N_("at any later turn"),
    ("bomb_flip_timing", "next"): N_("the very next turns"),
    ("go_scheme", "add-and-double"): N_("a point a go, doubling from the third"),
    ("go_scheme", "double-from-three"): N_("a point a go for two, doubling from the third"),
    ("go_scheme", "chips"): N_("a point a go, the payout doubled once past three"),
    ("gobak", "none"): N_("no gobak"),
    ("gobak", "double"): N_("the go-caller pays double"),
    ("gobak", "pays-all"): N_("the go-caller pays for everyone"),
    ("gobak", "pays-all-double"): N_("the go-caller pays for everyone, doubled"),
    ("gobak", "pays-all-own-double"): N_("the go-caller pays for everyone, their own share doubled"),
    ("gobak", "by-table"): N_("double with two players, for everyone with three"),
    ("no_steal_on_last_turn", "chok"): N_("chok"),
    ("no_steal_on_last_turn", "ttadak"): N_("ttadak"),
    ("no_steal_on_last_turn", "sseul"): N_("sseul"),
    ("no_steal_on_last_turn", "stack"): N_("a stack capture"),
    ("no_steal_on_last_turn", "ja_ppuk"): N_("ja-ppuk"),
    ("no_steal_on_last_turn", "bomb"): N_("bomb"),
    ("no_steal_on_last_turn", "bonus"): N_("bonus card"),
}

_BODY_FIELDS = {
    "go_count": N_("the go count"),
    "shakes": N_("the number of shakes"),
    "bombs": N_("the number of bombs"),
    "two_card_bombs": N_("the number of two-card bombs"),
    "declared.brights": N_("the brights said"),
    "declared.animals": N_("the animals said"),
    "declared.ribbons": N_("the ribbons said"),
    "declared.junk_units": N_("the junk units said"),
    "nagari_streak": N_("the nagari streak"),
    "stake": N_("the stake"),
}

_MOVE_FIELDS = {
    "play": N_("the card played"),
    "capture": N_("the capture choice"),
    "draw": N_("the flipped card"),
    "draw_capture": N_("the capture choice of the flipped card"),
    "shake": N_("the shaken cards"),
    "chongtong": N_("the chongtong shown"),
    "bomb": N_("the bombed cards"),
    "bonus": N_("the bonus card"),
    "bonus_flipped": N_("the bonus cards flipped"),
    "flip": N_("the flip turn"),
    "call": N_("the call"),
    "sep_animal_as": N_("the cup declaration"),
    "chongtong_choice": N_("the chongtong choice"),
    "shodang": N_("the shodang"),
}
# A field of the body or of a move, as a fact of a refusal.
FIELDS = {**_BODY_FIELDS, **_MOVE_FIELDS}

# What a count of a player's captures counts, as a refusal of declared counts names it (API.md v1.2).
COUNTS = {
    "brights": N_("brights"),
    "animals": N_("animals"),
    "ribbons": N_("ribbons"),
    "junk_units": N_("junk units"),
    "cup": N_("the cup"),
    "rain": N_("the rain bright"),
}

# What a text log was expected to hold where it held something else (``NotationError``'s ``expected``).
EXPECTED = {
    "word": N_("a word"),
    "card": N_("a card"),
    "cards": N_("cards"),
    "draw": N_("the card flipped"),
    "end-of-move": N_("the end of the move"),
    "cup-side": N_("animal or junk (the cup)"),
    "chongtong-choice": N_("win or play-on (the chongtong)"),
    "shodang-choice": N_("accept or decline (the shodang)"),
    "player": N_("a player"),
    "number": N_("a number"),
    "knob": N_("a house rule (knob=value)"),
    "preset": N_("a preset"),
    "tag": N_("a tag name"),
}

# Where a card is, as a refusal names it.
PLACES = {
    "layout": N_("on the layout"),
    "stock": N_("in the stock"),
    "hand": N_("in {player}'s hand"),
    "shown": N_("among the cards {player} showed"),
    "captured": N_("in {player}'s captures"),
    "played": N_("already played"),
}


def card(w: Words, c: Card | str) -> str:
    """A card as players name it."""
    return w.word(CARDS[c if isinstance(c, str) else c.id])


# A list as each language joins it: "B and C", "A, B and C" ("B와 C", "A, B와 C": the particle fits the word before).
_NEXT = N_("{first}, {next}")
_LAST = N_("{first} and {last}")
CHOICE_JOINER = N_("{first} or {last}")  # the choices one of which is asked for


def joined(w: Words, items: Iterable[Any], last: str = _LAST) -> str:
    """People or cards as a list: its joiner before the last one ("or" for choices), commas before the others."""
    said = [str(item) for item in items]
    if len(said) < 2:
        return "".join(said)
    head = said[0]
    for item in said[1:-1]:
        head = w.say(_NEXT, first=head, next=item)
    return w.say(last, first=head, last=said[-1])


# Two cards of one name (a month's two junk) are counted, as the table says them: "송학 피 두 장", "两张松鹤皮".
TWO_CARDS = N_("two {card}")


def cards(w: Words, cs: Iterable[Card | str]) -> str:
    counted = Counter(card(w, c) for c in cs)  # in the order first said
    grouped = [[w.say(TWO_CARDS, card=name)] if n == 2 else [name] * n for name, n in counted.items()]
    return joined(w, [name for group in grouped for name in group])


def is_card(value: Any) -> bool:
    return isinstance(value, Card) or (isinstance(value, str) and value in CARDS)


def rule(w: Words, name: str) -> str:
    """A rule of a settlement as a payment line names it (``pibak``, ``gobak``...)."""
    return w.word(RULES[name])


def place(w: Words, p: Place) -> str:
    return w.say(PLACES[p.kind], player=p.player or "")
