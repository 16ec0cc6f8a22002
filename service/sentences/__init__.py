"""The words of the answers: one module per answer family, each keyed by the engine's own names and codes.

    names        the game's words that sentences name: cards, months, rules, outcomes, knobs, places
    saying       how a fact becomes a sentence (``Say``, ``say``): the one way every module says something
    score        a score's explanation, by ``Combination``
    settlement   a settlement's lines, and each check's reason, by its rule and reason
    replay       what each event means, by ``EventType``; instant payments; what a go risks
    catalogs     what each preset plays
    problems     a refusal's title and detail, by code and why; what each code means; field messages

The English sentences written here are the message ids of the gettext catalogs (``service/locale``); every
other language translates them there (``service.i18n``). Placeholders are named (``{player}``), and a
catalog must use the same names (a test checks). No sentence shows an identifier a player would not say:
card ids, knob names and codes stay in the machine fields of an answer.
"""

from .names import card, rule

__all__ = ["card", "rule"]
