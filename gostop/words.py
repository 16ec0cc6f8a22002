"""The command's own words (headings and labels around the answers), in every language of the service.

The sentences inside the answers come from the service in the asked language; these are only the few words
the terminal tables put around them. They are entries of the same catalogs as the answers and the page
(service/sentences/command.py holds their English, service/locale/<lang>/ each language's), so the command
says what the page says.
"""

from __future__ import annotations

import os
from collections.abc import Mapping

from service.i18n import DEFAULT_LANGUAGE
from service.i18n import LANGUAGES as I18N_LANGUAGES
from service.sentences.command import command_names, command_words

__all__ = ["LANGUAGES", "NAMES", "WORDS", "language_from_environment", "named"]

LANGUAGES = tuple(I18N_LANGUAGES)  # the service's: one folder each in service/locale/

WORDS: Mapping[str, Mapping[str, str]] = {lang: command_words(w) for lang, w in I18N_LANGUAGES.items()}

# The table's names for the API's machine values (rules, events, outcomes, combinations): the page's words.
NAMES: Mapping[str, Mapping[str, str]] = {lang: command_names(w) for lang, w in I18N_LANGUAGES.items()}


def named(value: str, lang: str) -> str:
    """A rule, event, outcome or combination as the table says it in ``lang``."""
    return NAMES.get(lang, {}).get(value, value)


def language_from_environment(environ: Mapping[str, str] = os.environ) -> str:
    """The language of the locale the way POSIX ranks it (LC_ALL, then LC_MESSAGES, then LANG), by its language
    part (``ko_KR.UTF-8`` is ``ko``); English when the service has no catalog for it."""
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = environ.get(name, "")
        if value:
            lang = value.split(".")[0].split("_")[0].split("-")[0].lower()
            return lang if lang in I18N_LANGUAGES else DEFAULT_LANGUAGE
    return DEFAULT_LANGUAGE
