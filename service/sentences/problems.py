"""The words of a refusal (problem details, RFC 9457): its title, its detail sentence, what a request schema says
of a field, and what each code means (the page a problem's ``type`` links to).

``REFUSALS`` is keyed by the engine's ``code`` and ``why`` (``why`` is the code itself unless a code has
several); where the facts an error carries change the sentence (a card named in a move, or in a place), the
first sentence whose condition holds is said. ``HTTP_REFUSALS`` is keyed the same way by the service's own
codes, ``TITLES`` by the engine's error family or the HTTP code, ``MEANINGS`` by code.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from engine import CardError, EveningError, GoStopError, HandError, IllegalMoveError, NotationError, Place, RulesError

from ..i18n import N_, Words
from .saying import Facts, Say, plural, reading, say

__all__ = [
    "AT_LINE",
    "CODE_TITLES",
    "FIELD_MESSAGES",
    "FIELD_PATTERNS",
    "HTTP_REFUSALS",
    "INDEX_LEAD",
    "INDEX_TITLE",
    "MEANINGS",
    "PAGE_STATUS",
    "PAGE_TITLE",
    "REFUSALS",
    "TITLES",
    "detail",
    "field_message",
    "http_detail",
    "meaning",
    "title",
]

Sentence = Say | Sequence[Say]


def _given(fact: str) -> Callable[[Facts], bool]:
    return lambda facts: bool(facts.get(fact))


_TWINS = {"bonus-2a": "bonus-2b", "bonus-2b": "bonus-2a"}  # the two 2-junk bonus cards share one name


def _twin_in_play(facts: Facts) -> bool:
    """Whether the card left out is a 2-junk bonus card whose twin these rules play: then its name alone cannot
    say what is wrong."""
    return _TWINS.get(str(facts.get("card"))) in (facts.get("bonus_cards") or ())


def _seen(kind: str, since: bool | None = None) -> Callable[[Facts], bool]:
    """Whether the card was seen in a place of this kind (and, for ``since``, from a known move or the deal)."""
    return lambda facts: (
        facts.get("seen_kind") == kind and (since is None or (facts["seen_since"] is not None) == since)
    )


TITLES: Mapping[type[GoStopError] | str, str] = {
    RulesError: N_("Invalid rules"),
    CardError: N_("Invalid cards"),
    HandError: N_("Invalid hand"),
    IllegalMoveError: N_("Illegal move"),
    EveningError: N_("Cannot add to the ledger"),
    NotationError: N_("Unreadable text log"),
    "validation-error": N_("Invalid request body"),
    "malformed-json": N_("Malformed JSON"),
    "not-found": N_("Not found"),
    "method-not-allowed": N_("Method not allowed"),
    "length-required": N_("Length required"),
    "body-too-large": N_("Request body too large"),
    "unsupported-media-type": N_("Unsupported media type"),
    "bad-request": N_("Bad request"),
    "internal-error": N_("Internal server error"),
    "unavailable": N_("Service unavailable"),
}

# A code whose title is its own, whatever error family raises it: a bad deal is not a move, and a card that
# does not exist has one name in every endpoint.
CODE_TITLES: Mapping[str, str] = {
    "bad-deal": N_("Invalid deal"),
    "unknown-card": N_("Invalid cards"),
    "duplicate-card": N_("Invalid cards"),
    "bonus-not-in-play": N_("Invalid cards"),
}

# The service's own refusals: (code, why) -> sentence.
HTTP_REFUSALS: Mapping[tuple[str, str], Sentence] = {
    ("validation-error", "validation-error"): Say(
        N_("The request body does not have the documented shape; the list of errors names each field that is wrong")
    ),
    ("malformed-json", "malformed-json"): Say(N_("The request body is not valid JSON")),
    ("not-found", "not-found"): Say(N_("There is nothing at this address")),
    ("not-found", "no-preset"): Say(N_("There is no preset called {preset}")),
    ("method-not-allowed", "method-not-allowed"): Say(N_("This address does not answer that method")),
    ("length-required", "length-required"): Say(
        N_("Send the body with a Content-Length header: bodies sent in chunks are not read")
    ),
    ("body-too-large", "body-too-large"): Say(N_("The request body is larger than {limit} bytes")),
    ("unsupported-media-type", "unsupported-media-type"): Say(N_("Send the request body as JSON (application/json)")),
    ("unsupported-media-type", "json-or-text"): Say(
        N_("Send the log as JSON (application/json) or in the text notation (text/plain; charset=utf-8)")
    ),
    ("unsupported-media-type", "charset"): Say(
        N_("Send the text in UTF-8 (text/plain; charset=utf-8), not in {charset}")
    ),
    ("bad-request", "bad-request"): Say(N_("The request cannot be read")),
    ("internal-error", "internal-error"): Say(
        N_("Something went wrong on our side; the request id identifies it in our logs")
    ),
    ("unavailable", "draining"): Say(
        N_("This copy of the service is about to stop; ask again, and another will answer")
    ),
}

# What the engine refuses: (code, why) -> sentence.
REFUSALS: Mapping[tuple[str, str], Sentence] = {
    # rules
    ("unknown-preset", "unknown-preset"): Say(N_("There is no preset called {preset}")),
    ("unknown-knob", "unknown-knob"): Say(N_("There is no house rule called {knob}")),
    ("invalid-knob", "rules-not-an-object"): Say(
        N_("The rules are a preset name, or an object of a preset and house rules")
    ),
    ("invalid-knob", "not-a-bool"): Say(N_("The value of {knob} must be true or false, not {value}")),
    ("invalid-knob", "not-an-int"): Say(N_("The value of {knob} must be a whole number, not {value}")),
    ("invalid-knob", "below-minimum"): Say(N_("The value of {knob} cannot be below {minimum} ({value} was given)")),
    ("invalid-knob", "above-maximum"): Say(N_("The value of {knob} cannot be above {maximum} ({value} was given)")),
    ("invalid-knob", "not-a-choice"): (
        Say(N_("{value} is not a choice for {knob} (the choices: {choices})"), when=_given("choices")),
        Say(N_("The value of {knob} cannot be {value}")),
    ),
    ("invalid-knob", "not-a-list"): Say(N_("The value of {knob} must be a list, not {value}")),
    ("invalid-knob", "too-many"): Say(N_("The value of {knob} holds at most {maximum} values")),
    ("invalid-knob", "listed-twice"): Say(N_("The value of {knob} lists a value twice")),
    ("sep-animal-pin", "sep-animal-pin"): (
        Say(
            N_("{player} counts the cup as double junk, but under these rules the cup is always an animal"),
            when=_given("player"),
        ),
        Say(N_("The cup is counted as double junk, but under these rules it is always an animal")),
    ),
    # cards
    ("unknown-card", "unknown-card"): (
        Say(N_("{player} gives {card} as {field}, but hwatu has no such card"), when=_given("field")),
        Say(N_("{card} ({place}) is not a card"), when=_given("place")),
        Say(N_("{card} is not a card")),
    ),
    ("duplicate-card", "listed-twice"): (
        Say(N_("{card} is listed twice ({place})"), when=_given("place")),
        Say(N_("{card} is listed twice")),
    ),
    ("duplicate-card", "in-two-places"): Say(N_("{card} is in two places: {first} and {place}")),
    ("bonus-not-in-play", "bonus-not-in-play"): (
        Say(N_("These rules play one 2-junk bonus card: {card} is left out of the deck"), when=_twin_in_play),
        Say(N_("{card} is a bonus card these rules leave out of the deck")),
    ),
    # hands
    ("player-count", "player-count"): Say(N_("These rules are for {players} players, not {given}")),
    ("duplicate-player", "duplicate-player"): Say(N_("Two players are called {player}")),
    ("negative-count", "negative-count"): (
        Say(N_("{player} gives a negative number for {field}"), when=_given("player")),
        Say(N_("A negative number is given for {field}")),
    ),
    ("invalid-outcome", "unknown-outcome"): Say(N_("{outcome} is not a way a hand can end")),
    ("invalid-outcome", "winner-without-result"): Say(N_("A hand that ends in {outcome} has no winner")),
    ("invalid-outcome", "instant-win-off"): Say(N_("These rules switch {outcome} off")),
    ("unknown-winner", "winner-required"): Say(N_("A hand that ends in {outcome} needs a winner")),
    ("unknown-winner", "unknown-winner"): Say(N_("The winner, {player}, is not one of the players")),
    ("unknown-player", "unknown-player"): Say(N_("{player}, named as the last to call go, is not one of the players")),
    ("winner-below-target", "winner-below-target"): Say(
        N_("{player} has {points} points, fewer than the {target} needed to stop")
    ),
    ("last-go-required", "last-go-required"): Say(
        N_("{players} called go: say which of them called go last, since that player pays for everyone (gobak)")
    ),
    # counts said instead of cards (API.md v1.2)
    ("impossible-counts", "more-than-the-deck"): Say(
        N_("{player} says {count} {kind}, but the deck holds only {most} under these rules")
    ),
    ("impossible-counts", "more-than-the-deck-together"): Say(
        N_("The players have {count} {kind} between them, but the deck holds only {most} under these rules")
    ),
    ("impossible-counts", "captured-and-declared"): Say(
        N_("{player} gives both the cards captured and the counts of them: give one or the other")
    ),
    ("impossible-counts", "one-of-a-kind-twice"): Say(N_("Two players say they hold {kind}, but there is only one")),
    ("impossible-counts", "rain-without-bright"): Say(
        N_("{player} says the rain bright is among their brights, but counts no bright")
    ),
    ("impossible-counts", "cup-not-counted"): (
        Say(N_("{player} counts the cup as an animal, but counts no animal"), when=lambda f: f.get("cup") == "animal"),
        Say(N_("{player} counts the cup as double junk, but counts fewer than 2 junk units")),
    ),
    ("impossible-counts", "unknown-cup"): Say(N_("{player} counts the cup as {cup}, which is no place for it")),
    ("impossible-points", "unreachable"): Say(
        N_("{player} says {points} points, but cards with these counts make only {reachable}")
    ),
    ("impossible-points", "points-required"): Say(N_("{player} won: say the points {player} stopped with")),
    ("impossible-points", "points-for-a-loser"): Say(
        N_("{player} did not win, so {player} gives no points: only the winner's points are given")
    ),
    # four at a table of three (RULES.md 4.5)
    ("sit-out-not-allowed", "off"): Say(N_("{player} sits out, but these rules seat no fourth person")),
    ("sit-out-not-allowed", "is-playing"): Say(N_("{player} sits out, but is also one of the players")),
    ("sit-out-not-allowed", "seat"): Say(
        N_("{player} sits out at seat {seat}, but only seats 2, 3 and 4 can sit out (the dealer always plays)")
    ),
    ("sit-out-not-allowed", "hand-size"): Say(
        N_("{player}, who sits out, is given {count} cards, but a hand holds {expected}")
    ),
    ("sit-out-not-allowed", "not-an-object"): Say(N_("Who sits out is an object of a player, a seat and a hand")),
    ("sit-out-not-allowed", "no-player"): Say(N_("Say who sits out")),
    ("sit-out-not-allowed", "hand-not-a-list"): Say(N_("The hand of {player}, who sits out, is a list of cards")),
    # the deal
    ("bad-deal", "unknown-card"): Say(N_("This deal is impossible: {card} ({place}) is not a card")),
    ("bad-deal", "player-count"): Say(
        N_("This deal is impossible: these rules are for {players} players, not {given}")
    ),
    ("bad-deal", "duplicate-player"): Say(N_("This deal is impossible: two players are called {player}")),
    ("bad-deal", "layout-size"): Say(
        N_(
            "This deal is impossible: the layout has {count} month cards, not {expected} (list a bonus card dealt "
            "there and the card that replaced it too)"
        )
    ),
    ("bad-deal", "hands-for-players"): Say(N_("This deal is impossible: hands must be given for exactly the players")),
    ("bad-deal", "hand-size"): Say(N_("This deal is impossible: {player} is dealt {count} cards, not {expected}")),
    ("bad-deal", "shown-not-player"): Say(
        N_("This deal is impossible: {player}, who shows cards at the deal, is not a player")
    ),
    ("bad-deal", "shown-not-chongtong"): Say(
        N_("This deal is impossible: {player} shows {cards}, but only a chongtong, four cards of one month, is shown")
    ),
    ("bad-deal", "shown-not-dealt"): Say(
        N_("This deal is impossible: {player} shows {cards}, which {player} was not dealt")
    ),
    ("bad-deal", "listed-twice"): Say(N_("This deal is impossible: {card} is dealt twice ({place})")),
    ("bad-deal", "in-two-places"): Say(N_("This deal is impossible: {card} is dealt twice, {first} and {place}")),
    ("bad-deal", "bonus-not-in-play"): (
        Say(
            N_("This deal is impossible: these rules play one 2-junk bonus card, and {card} is left out of the deck"),
            when=_twin_in_play,
        ),
        Say(N_("This deal is impossible: {card} is a bonus card these rules leave out of the deck")),
    ),
    ("bad-deal", "off"): Say(N_("This deal is impossible: {player} sits out, but these rules seat no fourth person")),
    ("bad-deal", "is-playing"): Say(N_("This deal is impossible: {player} sits out, but is also one of the players")),
    ("bad-deal", "seat"): Say(
        N_(
            "This deal is impossible: {player} sits out at seat {seat}, but only seats 2, 3 and 4 can sit out (the "
            "dealer always plays)"
        )
    ),
    ("bad-deal", "not-an-object"): Say(
        N_("This deal is impossible: who sits out is an object of a player, a seat and a hand")
    ),
    ("bad-deal", "no-player"): Say(N_("This deal is impossible: say who sits out")),
    ("bad-deal", "hand-not-a-list"): Say(
        N_("This deal is impossible: the hand of {player}, who sits out, is a list of cards")
    ),
    ("bad-deal", "stock-size"): Say(N_("This deal is impossible: the stock has {count} cards, not {expected}")),
    ("bad-deal", "deck-size"): Say(
        N_(
            "This deal is impossible: the hands, the layout and the stock hold {count} cards, not the {expected} of "
            "the deck"
        )
    ),
    # the form of a move
    ("bad-move", "not-an-object"): Say(N_("Move number {number} is not an object")),
    ("bad-move", "no-player"): Say(N_("Move number {number} does not say whose move it is")),
    ("bad-move", "unknown-field"): Say(N_("Move number {number} has a field no move has: {field}")),
    ("bad-move", "call-with-more"): Say(N_("A call carries nothing but the player and the call")),
    ("bad-move", "choice-with-more"): Say(
        N_("A chongtong choice or a shodang carries nothing but the player and the choice")
    ),
    ("bad-move", "declare-with-more"): Say(N_("A cup declaration carries nothing but the player and the declaration")),
    ("bad-move", "declare-in-turn"): Say(N_("Declare the cup in a move of its own")),
    ("bad-move", "turn-form"): Say(
        N_(
            "A turn is one of: a card played (perhaps shaken), a bomb, a flip turn, or a bonus card followed by a "
            "card played or a bomb"
        )
    ),
    ("bad-move", "shake-without-play"): Say(N_("A shake shows three cards and plays one of them")),
    ("bad-move", "capture-without-play"): Say(N_("A capture choice goes with a card played")),
    ("bad-move", "not-a-list"): Say(N_("{field} is a list of cards")),
    ("bad-move", "not-a-choice"): Say(N_("{field} has a value no move has")),
    ("bad-move", "bonus-with-play"): Say(
        N_("The {card} cannot be played like a hand card: play it as a bonus card and keep it")
    ),
    ("bad-move", "card-twice"): Say(N_("{player} uses {card} twice in one turn")),
    ("bad-move", "not-a-bonus-card"): Say(N_("{card} is not a bonus card")),
    ("bad-move", "bonus-then-nothing"): Say(N_("After the bonus card, {player} plays a hand card in the same turn")),
    ("bad-move", "bonus-flipped-not-bonus"): Say(N_("The bonus cards flipped list {card}, which is not a bonus card")),
    ("bad-move", "chongtong-without-bonus"): Say(
        N_("A chongtong is shown in a turn that plays a bonus card, and nothing else")
    ),
    # a move against the table
    ("not-your-turn", "not-your-turn"): Say(N_("It is {expected}'s turn, not {player}'s")),
    ("not-your-turn", "not-a-player"): Say(N_("{player} is not a player of this hand")),
    ("not-your-turn", "call-due"): Say(N_("{expected} must call go or stop now, not {player}")),
    ("not-your-turn", "chongtong-choice-due"): Say(
        N_("{expected} holds the chongtong and must choose to win or play on, not {player}")
    ),
    ("not-your-turn", "shodang-answer-due"): Say(N_("{expected} must answer the shodang now, not {player}")),
    ("card-not-in-hand", "card-not-in-hand"): Say(N_("{card} is not in {player}'s hand")),
    ("card-not-in-hand", "cannot-hold"): Say(N_("{player} cannot hold all of {cards}")),
    ("card-already-seen", "card-already-seen"): (
        Say(N_("{card} was already turned up in this turn"), when=_given("this_turn")),
        Say(N_("{card} has lain on the layout since the deal"), when=_seen("layout", since=False)),
        reading(
            N_("{card} has been on the layout since move {number}"),
            number="seen_since",
            when=_seen("layout", since=True),
        ),
        Say(
            N_("{card} is already among {owner}'s captures (seen since the deal)"), when=_seen("captured", since=False)
        ),
        reading(
            N_("{card} is already among {owner}'s captures (seen since move {number})"),
            number="seen_since",
            when=_seen("captured", since=True),
        ),
        Say(N_("{card} has already been played"), when=_seen("played")),
        # the one who tried it is named first: the card is not theirs to play (words-r5 Kn2)
        Say(
            N_("{player} cannot play {card}: {owner} showed it, so it is in {owner}'s hand"),
            when=lambda f: _seen("shown")(f) and f.get("action") == "play" and f.get("player") != f.get("owner"),
        ),
        Say(N_("{card} is in {owner}'s hand: {owner} showed it"), when=_seen("shown")),
        Say(N_("{card} is in {owner}'s hand"), when=_seen("hand")),
        Say(N_("{card} is still in the stock"), when=_seen("stock")),
        Say(N_("{card} has already been seen: {seen}")),
    ),
    ("capture-required", "capture-required"): Say(
        N_("{card} meets two cards on the layout, {layout}: say which of them it takes")
    ),
    ("capture-not-allowed", "not-on-layout"): Say(N_("{card} is not one of the two cards it could take: {layout}")),
    ("capture-not-allowed", "no-choice"): Say(
        N_(
            "{played} leaves nothing to choose: a capture is named only when the card meets two cards of its month "
            "on the layout, so {card} cannot be named"
        )
    ),
    ("capture-not-allowed", "draw-on-own-month"): Say(
        N_("The flipped {drawn} falls on the month of the card just played: there is no choice to make")
    ),
    ("capture-not-allowed", "nothing-flipped"): Say(
        N_("Nothing was flipped, so there is no capture choice for a flip")
    ),
    ("draw-mismatch", "not-the-top"): Say(N_("{player} says {card} was flipped, but the stock top is {top}")),
    ("draw-mismatch", "stock-empty"): Say(N_("{player} says {card} was flipped, but the stock is empty")),
    ("draw-mismatch", "bonus-not-flipped"): Say(N_("The bonus cards flipped list {card}, but no flip turned it up")),
    ("draw-mismatch", "bonus-list"): Say(N_("The stock turned up the bonus cards {flipped}, not {listed}")),
    ("draw-required", "draw-required"): Say(N_("The stock is not known: say which card {player}'s flip turned up")),
    ("draw-required", "after-bonus-draw"): Say(
        N_(
            "{bonus} is a bonus card, so the flip went on: list {bonus} among the bonus cards flipped, and give the "
            "card that came up after it as the flipped card"
        )
    ),
    ("call-required", "call-required"): Say(N_("{player} must call go or stop before anything else")),
    ("call-required", "chongtong-choice"): Say(
        N_("{player} was dealt a chongtong and must choose to win or play on before anything else")
    ),
    ("call-required", "shodang-answer"): Say(N_("{player} must accept or decline the shodang before anything else")),
    ("shodang-not-allowed", "shodang-off"): Say(N_("These rules do not play shodang")),
    ("shodang-not-allowed", "not-three-players"): Say(N_("Shodang is called at a table of three players only")),
    ("shodang-not-allowed", "already-called"): Say(N_("A shodang was already called this hand")),
    ("shodang-not-allowed", "not-at-turn"): Say(
        N_("{player} calls shodang, but it is called only on one's turn, before playing")
    ),
    ("shodang-not-allowed", "no-standoff"): Say(
        N_(
            "{player} cannot call shodang now: each of the other two must be one card short of a combination, and "
            "{player} must hold a card that completes each"
        )
    ),
    ("shodang-not-allowed", "no-answer-due"): Say(N_("{player} answers a shodang, but none was called")),
    ("chongtong-not-allowed", "no-choice-due"): Say(
        N_("{player} makes a chongtong choice, but no chongtong dealt waits for one")
    ),
    ("call-not-allowed", "go-on-last-turn"): Say(
        N_("{player} calls go on their last turn, where only stop is possible")
    ),
    ("call-not-allowed", "no-call-due"): Say(N_("{player} calls, but no go or stop is due")),
    ("call-not-allowed", "stop-not-above-go"): plural(
        "{player} called go once, so a stop needs more points than the go: at least {least}, not {points}",
        "{player} called go {n} times, so a stop needs more points than the last go: at least {least}, not {points}",
        "go_count",
    ),
    ("shake-not-allowed", "shake-off"): (
        Say(N_("These rules do not allow shaking, so {player} cannot have shaken"), when=_given("shakes")),
        Say(N_("These rules do not allow shaking")),
    ),
    ("shake-not-allowed", "not-three-of-a-month"): Say(N_("A shake shows three cards of one month, not {cards}")),
    ("shake-not-allowed", "plays-another"): Say(N_("{player} shakes {cards} but plays {card}")),
    ("shake-not-allowed", "month-on-layout"): Say(N_("{player} cannot shake {month}: the layout holds {layout}")),
    ("shake-not-allowed", "after-extra-flip"): Say(
        N_("Under these rules the card played after a bonus card is the stock top, which cannot be shaken")
    ),
    ("bomb-not-allowed", "bomb-off"): (
        Say(N_("These rules do not allow bombs, so {player} cannot have bombed"), when=_given("bombs")),
        Say(N_("These rules do not allow bombs")),
    ),
    ("bomb-not-allowed", "two-card-off"): Say(
        N_("These rules do not allow two-card bombs, so {player} cannot have made one")
    ),
    ("bomb-not-allowed", "not-two-of-a-month"): Say(N_("A two-card bomb plays two cards of one month, not {cards}")),
    ("bomb-not-allowed", "not-two-on-layout"): Say(
        N_("A two-card bomb of {month} needs two cards of it on the layout, which holds {layout}")
    ),
    ("chongtong-not-allowed", "off"): Say(
        N_("These rules do not count four cards completed by a bonus card's replacement as chongtong: {cards}")
    ),
    ("chongtong-not-allowed", "after-first-turn"): Say(
        N_(
            "Under these rules a bonus card's replacement completes a chongtong only on the player's first turn: "
            "{cards}"
        )
    ),
    ("chongtong-not-allowed", "extra-flip"): Say(
        N_("Under these rules a bonus card played from hand takes no card into the hand, so it completes no chongtong")
    ),
    ("chongtong-not-allowed", "not-four-of-a-month"): Say(
        N_("A chongtong is all four cards of one month, not {cards}")
    ),
    ("chongtong-not-allowed", "cannot-hold"): Say(
        N_("{player} cannot hold {cards} with the card just taken in for the bonus card")
    ),
    ("bomb-not-allowed", "not-three-of-a-month"): Say(N_("A bomb plays three cards of one month, not {cards}")),
    ("bomb-not-allowed", "fourth-not-alone"): Say(N_("A bomb of {month} needs the fourth card alone on the layout")),
    ("bomb-not-allowed", "after-extra-flip"): Say(
        N_("Under these rules the card played after a bonus card is the stock top, which cannot make a bomb")
    ),
    ("flip-not-allowed", "flip-not-allowed"): Say(N_("{player} has no flip turn left")),
    ("flip-required", "flip-required-next"): Say(
        N_("{player} must use a flip turn now: under these rules a bomb's flip turns come right after it")
    ),
    ("flip-required", "flip-required-empty"): Say(N_("{player} has no hand card left and must use a flip turn")),
    ("game-over", "game-over"): Say(N_("{player} moves after the hand is over")),
    ("game-over", "after-chongtong"): Say(
        N_(
            "The card taken in for the bonus card completed a chongtong of {month}: the hand ends there, with no "
            "more play"
        )
    ),
    # an evening
    ("people-count", "too-few"): Say(N_("An evening needs at least {minimum} people at the table, not {given}")),
    ("people-count", "too-many"): Say(N_("A table seats at most {maximum} people, not {given}")),
    ("people-count", "fewer-than-players"): Say(
        N_("These rules are for {players} players, and only {given} people are at the table")
    ),
    ("duplicate-person", "duplicate-person"): Say(N_("{player} is listed twice at the table")),
    ("unknown-person", "balance"): Say(N_("{player} has a balance but is not at the table")),
    ("balance-missing", "balance-missing"): Say(N_("No balance is given for {player}: give everyone's, or nobody's")),
    ("negative-balance", "negative-balance"): Say(N_("{player} brings {balance}: a balance cannot be below zero")),
    ("first-dealer", "given-and-drawn"): Say(
        N_("The first dealer is named ({player}) and drawn as well: give one or the other")
    ),
    ("dealer-not-at-table", "dealer-not-at-table"): Say(N_("{player}, named to deal first, is not at the table")),
    ("bad-draw", "time"): Say(N_("The draw is made at night or by day, not {time}")),
    ("bad-draw", "no-rounds"): Say(N_("The draw has no round")),
    ("bad-draw", "wrong-people"): reading(
        N_("In the {number:th} draw, the people who draw are {players}"), number="round", players="expected"
    ),
    ("bad-draw", "bonus-card"): reading(
        N_("In the {number:th} draw, {player} drew {card}, a bonus card: it has no month, so it is drawn again"),
        number="round",
    ),
    ("bad-draw", "same-card"): reading(N_("In the {number:th} draw, {card} is drawn twice"), number="round"),
    ("bad-draw", "round-after-decided"): reading(
        N_("The {number:th} draw is one too many: {player} was already found to deal"), number="round"
    ),
    ("bad-draw", "tie"): reading(
        N_("The draw ends in a tie between {players}: they draw again until one is left"), players="tied"
    ),
    ("player-not-at-table", "player-not-at-table"): Say(N_("{player} plays this hand but is not at the table")),
    ("dealer-not-playing", "dealer-not-playing"): Say(
        N_("{player} deals this hand but does not play in it: the dealer plays every hand they deal")
    ),
    ("hand-out-of-order", "hand-out-of-order"): Say(
        N_("The log lists {player} first, but {dealer} deals this hand, and a log lists its dealer first")
    ),
    ("amount-too-large", "amount-too-large"): (
        Say(
            N_("{player} would pay {factors}: past {limit}, the largest amount every client holds exactly"),
            when=_given("player"),
        ),
        Say(N_("The hand multiplies {factors}: past {limit}, the largest amount every client holds exactly")),
    ),
    ("amount-too-large", "nagari-streak"): Say(
        N_("{nagari_streak} nagari hands in a row: at most {limit} are counted, so that every amount stays exact")
    ),
    ("amount-too-large", "nagari-carry"): Say(
        N_(
            "A nagari carry of {nagari_multiplier} to the power {nagari_streak}: past {limit}, the largest amount "
            "every client holds exactly"
        )
    ),
    ("amount-too-large", "total"): Say(
        N_("{player}'s total would come to {total}: past {limit}, the largest amount every client holds exactly")
    ),
    ("out-of-money", "out-of-money"): Say(N_("{player} holds {balance} and cannot play a hand under all-in")),
    ("carry-stated", "nagari-streak"): Say(
        N_("Do not state the nagari streak ({nagari_streak}); the ledger counts it from the hands before")
    ),
    ("carry-stated", "pushes"): Say(N_("Do not state the pushes; the ledger counts them from the hands before")),
    ("stake-stated", "stake-stated"): Say(
        N_("The hand states a stake of {stake}, but the evening's is {evening_stake}")
    ),
    ("hand-not-finished", "hand-not-finished"): (
        Say(N_("The log has not ended: {next_player} is still to move"), when=_given("next_player")),
        Say(N_("The log has not ended")),
    ),
    ("push-not-allowed", "off"): Say(N_("These rules do not allow pushing a hand")),
    ("push-not-allowed", "no-winner"): Say(N_("A hand without a winner ({outcome}) cannot be pushed")),
    ("push-not-allowed", "over-cap"): plural(
        "{n} push is waiting already, and these rules allow at most {cap} in a row",
        "{n} pushes in a row are waiting already, and these rules allow at most {cap}",
        "pushes",
    ),
    ("unbalanced-totals", "unbalanced-totals"): Say(N_("The totals add up to {sum}, not to zero")),
    # a log in the text notation (docs/NOTATION.md 6); ``detail`` puts the line and column first
    ("bad-notation", "unexpected"): (
        Say(
            N_("The move should end here, but {token} follows"),
            when=lambda f: f.get("expected") == "end-of-move" and "token" in f,
        ),
        reading(N_("{token} is written where {wanted} should be"), wanted="expected", when=_given("token")),
        reading(N_("The line ends where {wanted} should be"), wanted="expected"),
    ),
    ("bad-notation", "unknown-card"): Say(N_("{card} is not a card")),
    ("bad-notation", "unknown-tag"): Say(N_("There is no tag called {tag}")),
    ("bad-notation", "duplicate-tag"): Say(N_("The tag {tag} is given twice (first on line {first_line})")),
    ("bad-notation", "missing-tag"): Say(N_("The tag {tag} is missing: a log needs Players and Layout")),
    ("bad-notation", "tag-after-moves"): Say(N_("A tag after the first move: the tags all come first")),
    ("bad-notation", "unclosed-tag"): Say(N_("The tag is not closed with ]")),
    ("bad-notation", "unclosed-quote"): Say(N_("The quote is not closed")),
    ("bad-notation", "not-a-number"): Say(N_("The tag {tag} takes a whole number, not {token}")),
    ("bad-notation", "duplicate-knob"): Say(N_("The Rules tag sets {knob} twice")),
    ("bad-notation", "not-utf-8"): Say(N_("The text is not UTF-8 from here on")),
}

IN_HAND = reading(N_("Hand {number}: {detail:cont}"), number="hand_index")

# Where in a text log a refusal points (a notation error, or a move of the text the replay refused).
AT_LINE = N_("Line {line}, column {column}: {said:cont}")


def title(w: Words, key: type[GoStopError] | str, code: str | None = None) -> str:
    """A problem's title: by the code where it has a title of its own, else by the engine error's family, or by
    the service's code."""
    if code is not None and code in CODE_TITLES:
        return w.say(CODE_TITLES[code])
    if isinstance(key, type):
        key = next(family for family in key.__mro__ if family in TITLES)
    return w.say(TITLES[key])


def detail(w: Words, err: GoStopError) -> str:
    """The sentence of an engine refusal, its facts named as players name them; one found in a text log starts
    with its line and column, one in a hand of an evening with that hand. A notation error that is a refusal of
    what the text says (the rules tag, words that make no move) is said as that refusal (its ``error`` and
    ``error_why``)."""
    code, why = err.code, err.why
    if isinstance(err, NotationError) and why in ("rules", "move"):
        code, why = str(err.params.get("error")), str(err.params.get("error_why"))
    sentence = REFUSALS.get((code, why)) or REFUSALS.get((code, code)) or REFUSALS[(err.code, err.code)]
    facts: Facts = err.params
    seen = facts.get("seen")
    if isinstance(seen, Place):  # where a card was seen decides the sentence
        facts = {**facts, "seen_kind": seen.kind, "owner": seen.player or "", "seen_since": seen.move_index}
    said = say(w, sentence, facts)
    if "line" in err.params:
        return w.say(AT_LINE, line=err.params["line"], column=err.params.get("column", 1), said=said)
    if "hand_index" in err.params:  # found in a hand of an evening: which one, counted from 1 as a table counts
        return say(w, IN_HAND, {"hand_index": err.params["hand_index"], "detail": said})
    return said


def http_detail(w: Words, code: str, why: str | None = None, **facts: Any) -> str:
    return say(w, HTTP_REFUSALS[(code, why or code)], facts)


# --- what each code means: the page a problem's type links to ------------------------------------------------

MEANINGS: Mapping[str, str] = {
    # refused before the request is read as JSON
    "bad-request": N_("The request is not a well-formed HTTP request, or cannot be read."),
    "forbidden": N_("The server does not serve this kind of request (a request meant for a proxy)."),
    "request-timeout": N_("The request body did not arrive in time after its headers."),
    "request-line-too-long": N_("The request line is longer than the server reads."),
    "headers-too-large": N_("The request has too many header lines, or one that is too long."),
    "expectation-failed": N_("The server cannot meet what the request's Expect header asks."),
    "not-implemented": N_("The request body uses a transfer coding the server does not know."),
    "busy": N_("Every worker of the server holds as many connections as it may: ask again shortly."),
    "length-required": N_(
        "The request body came in chunks, or without a Content-Length: bodies are read only with their length."
    ),
    "body-too-large": N_("The request body is larger than the service reads."),
    "unsupported-media-type": N_(
        "The request body is not sent as JSON (application/json), or, for a log, as text (text/plain) in UTF-8."
    ),
    "malformed-json": N_("The request body is not valid JSON, or nests deeper than the service reads."),
    "not-found": N_("There is nothing at this address: no such path, or no preset of that name."),
    "method-not-allowed": N_("The address does not answer this method; the Allow header lists those it answers."),
    "validation-error": N_(
        "The request body does not have the documented shape; errors maps each field that is wrong to what is "
        "wrong with it."
    ),
    "internal-error": N_("Something went wrong on the service's side; the request id identifies it in its logs."),
    "unavailable": N_("This copy of the service is about to stop; ask again, and another copy answers."),
    # the rules
    "unknown-preset": N_("The rules name a preset that does not exist; presets lists those that do."),
    "unknown-knob": N_("The rules name a house rule that does not exist."),
    "invalid-knob": N_(
        "A house rule is given a value of the wrong type or out of its range; choices lists the values it takes."
    ),
    # the cards
    "unknown-card": N_("A card id that is not in the catalog."),
    "duplicate-card": N_("The same card is listed twice, or in two places."),
    "bonus-not-in-play": N_("A bonus card that the rules leave out of the deck."),
    # a finished hand
    "player-count": N_("Not the number of players the rules are for."),
    "duplicate-player": N_("Two players have the same id."),
    "negative-count": N_("A go count, shakes, bombs, a declared count, a nagari streak or a stake below zero."),
    "sep-animal-pin": N_("The cup is counted as double junk where the rules always count it as an animal."),
    "invalid-outcome": N_(
        "A way to end the hand that cannot be: a nagari with a winner, or a switched-off instant win."
    ),
    "unknown-winner": N_("The winner is not one of the players, or a hand that needs a winner names none."),
    "unknown-player": N_("The player named as the last to call go is not one of the players."),
    "winner-below-target": N_("The winner stopped with fewer points than the rules need for a stop."),
    "last-go-required": N_(
        "Several losers called go where the last one pays for everyone (gobak): say which called last (last_go)."
    ),
    "impossible-counts": N_(
        "Counts said instead of cards that no deal could give: more than the deck holds, alone or together, or the "
        "rain bright or the cup where the counts leave no room for them."
    ),
    "impossible-points": N_(
        "The winner's points are missing or are not a score cards with the counts can make, or a loser says points."
    ),
    "sit-out-not-allowed": N_(
        "A fourth person who cannot sit out: the rules seat no fourth, the sitter is playing, a seat other than 2, "
        "3 or 4, or a hand of the wrong size."
    ),
    # a move log
    "bad-deal": N_(
        "This deal is impossible: a wrong number of cards somewhere, a card dealt twice, a deck that does not add up."
    ),
    "bad-move": N_("A move of no known form: a field no move has, or a turn of two kinds at once."),
    "not-your-turn": N_("The move is not by the player whose turn it is, or who must call go or stop."),
    "card-not-in-hand": N_("The card played is not in that player's hand."),
    "card-already-seen": N_(
        "The card played or flipped has already been seen elsewhere (a game whose hands are hidden)."
    ),
    "capture-required": N_(
        "The card meets two cards of its month on the layout, and the move does not say which it takes."
    ),
    "capture-not-allowed": N_("The move names a card to take where there is no choice, or a card it cannot take."),
    "draw-required": N_("The stock is not known, and the turn does not say which card its flip turned up."),
    "draw-mismatch": N_("The flipped card, or the bonus cards flipped, are not what the stock turned up."),
    "call-required": N_("A go or stop is due, and the log says something else."),
    "call-not-allowed": N_(
        "A go or stop where none is due, a go on a player's last turn, or a stop after a go at no more points than "
        "the go."
    ),
    "shake-not-allowed": N_("A shake the rules switch off, or that the cards and the layout do not allow."),
    "bomb-not-allowed": N_("A bomb the rules switch off, or that the cards and the layout do not allow."),
    "chongtong-not-allowed": N_(
        "A chongtong completed by a bonus card's replacement that the rules or the cards do not allow."
    ),
    "shodang-not-allowed": N_(
        "A shodang the rules switch off, at a table that is not of three, out of turn, or without the standoff it "
        "needs; or an answer where none is due."
    ),
    "flip-not-allowed": N_("A flip turn the player does not hold."),
    "flip-required": N_("A flip turn is owed after a bomb, and the move is something else."),
    "game-over": N_("A move after the hand is over."),
    # an evening
    "people-count": N_("Fewer than two or more than five people at the table, or fewer than the rules' players."),
    "duplicate-person": N_("Two people at the table have the same id."),
    "unknown-person": N_("A balance is given for someone who is not at the table."),
    "balance-missing": N_("Balances are given for some of the people at the table, not for all of them."),
    "negative-balance": N_("A starting balance below zero."),
    "first-dealer": N_("The first dealer is both named and drawn."),
    "dealer-not-at-table": N_("The first dealer named is not at the table."),
    "bad-draw": N_(
        "The draw for the first dealer (밤일낮장) cannot be: a bonus card, a card drawn twice, the wrong people "
        "in a round, a tie left unbroken, or a round after the dealer was found."
    ),
    "player-not-at-table": N_("A hand is played by someone who is not at the table; hand_index names the hand."),
    "dealer-not-playing": N_("The dealer of a hand does not play in it; hand_index names the hand."),
    "hand-out-of-order": N_("A hand's log lists someone other than its dealer first; hand_index names the hand."),
    "amount-too-large": N_(
        "An amount or point total past 2^53 - 1 (9007199254740991), the largest whole number every client "
        "(JavaScript included) holds exactly: a stake times many gos and multipliers, more than 20 nagari hands "
        "in a row, or an evening's total; factors names what the rules multiply."
    ),
    "out-of-money": N_("Under all-in, someone who holds nothing plays a hand; hand_index names the hand."),
    "carry-stated": N_("A hand states its own nagari streak or pushes, which the evening works out."),
    "stake-stated": N_("A hand states a stake other than the evening's."),
    "hand-not-finished": N_("A hand's log has not ended; hand_index names the hand."),
    "push-not-allowed": N_(
        "A push the rules do not allow: none at all, more in a row than the rules allow, or of a hand without a winner."
    ),
    "unbalanced-totals": N_("Totals to settle up that do not add up to zero."),
    # a text log
    "bad-notation": N_(
        "A log sent as text (text/plain) that is not in the notation: line and column say where, why what was "
        "found there."
    ),
}

# The words of the pages of the problem types (service.problems).
PAGE_TITLE = N_("gostop problem type {code}")
PAGE_STATUS = N_("Answered with the HTTP status {status}.")
INDEX_TITLE = N_("gostop problem types")
INDEX_LEAD = N_(
    "Every error of the service is answered as problem details (RFC 9457) whose type is one of these pages and "
    "whose code is the last part of its address."
)


def meaning(w: Words, code: str) -> str:
    """What a problem code means, for the page its type links to."""
    return w.say(MEANINGS[code])


# --- what the request schemas say of a field ---------------------------------------------------------------

# The messages of marshmallow and of the service's own fields, as they come (their text is the message id);
# those with numbers or choices are read back by a pattern into the message with placeholders.
FIELD_MESSAGES = frozenset(
    {
        N_("Not a valid string."),
        N_("Not a valid integer."),
        N_("Not a valid number."),
        N_("Not a valid boolean."),
        N_("Not a valid list."),
        N_("Not a valid mapping type."),
        N_("Invalid input type."),
        N_("Invalid value."),
        N_("Field may not be null."),
        N_("Missing data for required field."),
        N_("Unknown field."),
        N_("Not a card id."),
        N_("Not a valid move object."),
        N_("must be a preset name or an object of knob overrides"),
    }
)
FIELD_PATTERNS = tuple(
    (re.compile(pattern), message)
    for pattern, message in (
        (r"Length must be between (?P<min>\d+) and (?P<max>\d+)\.\Z", N_("Length must be between {min} and {max}.")),
        (r"Longer than maximum length (?P<max>\d+)\.\Z", N_("Longer than maximum length {max}.")),
        (r"Shorter than minimum length (?P<min>\d+)\.\Z", N_("Shorter than minimum length {min}.")),
        (
            r"Must be greater than or equal to (?P<min>-?\d+) and less than or equal to (?P<max>-?\d+)\.\Z",
            N_("Must be from {min:,} to {max:,}."),
        ),
        (r"Must be greater than or equal to (?P<min>-?\d+)\.\Z", N_("Must be greater than or equal to {min}.")),
        (r"Must be less than or equal to (?P<max>-?\d+)\.\Z", N_("Must be less than or equal to {max}.")),
        (r"Must be one of: (?P<choices>.*)\.\Z", N_("Must be one of: {choices}.")),
    )
)


def field_message(w: Words, message: str) -> str:
    """A request schema's message about a field, in the asked language (one this table does not know stays as
    it came)."""
    if message in FIELD_MESSAGES:
        return w.say(message)
    for pattern, said in FIELD_PATTERNS:
        found = pattern.match(message)
        if found:
            return w.say(said, **found.groupdict())
    return message
