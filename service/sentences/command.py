"""The command's own words (``gostop``): the headings and labels its terminal tables put around the answers,
keyed as gostop/tables.py asks for them, their values the English message ids of the catalogs (so the command
says what the page and the answers say). The rules, events, outcomes and combinations it names are the page's
words for them (``page.PAGE``)."""

from __future__ import annotations

from collections.abc import Mapping

from ..i18n import N_, Words
from .page import PAGE

__all__ = ["COMMAND", "NAMED_GROUPS", "command_names", "command_words"]

COMMAND: Mapping[str, str] = {
    "points": N_("points"),
    "combination": N_("combination"),
    "cards": N_("cards"),
    "counts": N_("brights {brights} · animals {animals} · ribbons {ribbons} · junk units {junk_units}"),
    "total": N_("{total} points"),
    "from": N_("from"),
    "to": N_("to"),
    "amount": N_("amount"),
    "factors": N_("factors"),
    "rule": N_("rule"),
    "applied": N_("applied"),
    "factor": N_("factor"),
    "reason": N_("reason"),
    "yes": N_("yes"),
    "no": N_("-"),
    "checks_of": N_("{payer} pays {payee}: every rule checked"),
    "wins": N_("{winner} wins ({outcome}), {base} base points"),
    "nagari": N_("nagari: nobody pays"),
    "nobody_pays": N_("nobody pays"),
    "move": N_("move"),
    "player": N_("player"),
    "event": N_("event"),
    "detail": N_("detail"),
    "events": N_("events"),
    "instant_payments": N_("paid at once"),
    "captured": N_("captured"),
    "score": N_("score"),
    "go": N_("go"),
    "hand": N_("hand"),
    "finished": N_("finished"),
    "in_progress": N_("in progress: {player} to {expects}"),
    "expects_play": N_("play"),
    "expects_call": N_("call go or stop"),
    "expects_flip": N_("flip"),
    "if_stop": N_("a stop now would pay"),
    "legal": N_("legal"),
    "illegal": N_("illegal at move {move} ({player})"),
    "refused": N_("refused ({status} {code})"),
    "at_move": N_("at move {move}"),
    "recorded": N_("recorded"),
    "ruled": N_("ruled"),
    "agree": N_("the recorded payments agree with the ruling"),
    "differ": N_("the recorded payments differ from the ruling"),
    "unfinished": N_("the log is not finished, but payments were recorded"),
    "preset": N_("preset"),
    "players": N_("players"),
    "description": N_("description"),
    "knob": N_("knob"),
    "value": N_("value"),
    "field": N_("field"),
    "message": N_("message"),
    "source": N_("source: {service}, graded {grade}; {page}"),
    "total_won": N_("won or lost"),
    "balance": N_("holds"),
    "settle_up": N_("to settle up"),
    "card": N_("card"),
    "month": N_("month"),
    "kind": N_("kind"),
    "junk_units": N_("junk units"),
    "name": N_("name"),
    "no_preset": N_("there is no preset {preset}; the presets are {presets}"),
}

# The page's groups of the machine values an answer names (a rule, an event, an outcome, a combination).
NAMED_GROUPS = ("combination", "rule", "event", "outcome", "kind")


def command_words(w: Words) -> dict[str, str]:
    return {key: w.text(message) for key, message in COMMAND.items()}


def command_names(w: Words) -> dict[str, str]:
    """A machine value (``pibak``, ``ppuk``, ``stop``) -> the table's word for it in this language."""
    return {value: w.text(message) for group in NAMED_GROUPS for value, message in PAGE[group].items()}
