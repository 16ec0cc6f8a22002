"""The words of ``gostop audit``'s findings, keyed by the finding's kind and code.

A line the API would refuse is said as the API says its refusal (``problems``: the engine's refusal, or the
service's own for a body that is not JSON, too large or of the wrong shape); what only an archive can get
wrong (an id missing or given twice, recorded payments, the archive itself, an audit stopped early) has its
own sentence here.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine import GoStopError

from ..i18n import N_, Words
from .problems import HTTP_REFUSALS, Sentence, detail
from .saying import Say, say

__all__ = ["FINDINGS", "finding_sentence"]


def _line_known(facts: Mapping[str, Any]) -> bool:
    return facts.get("line") is not None


# (kind, code) -> sentence; the facts are the finding's own fields (line, id, hands, seconds, signal...).
FINDINGS: Mapping[tuple[str, str], Sentence] = {
    ("invalid", "body-too-large"): HTTP_REFUSALS[("body-too-large", "body-too-large")],
    ("invalid", "not-json"): HTTP_REFUSALS[("malformed-json", "malformed-json")],
    ("invalid", "not-an-object"): HTTP_REFUSALS[("validation-error", "validation-error")],
    ("invalid", "validation-error"): HTTP_REFUSALS[("validation-error", "validation-error")],
    ("invalid", "missing-id"): Say(N_("The line has no id")),
    ("invalid", "bad-id"): Say(N_("The line's id is neither a string nor a whole number")),
    ("invalid", "bad-recorded"): Say(
        N_("The recorded payments are not a list of payments, each from one player to another with its points")
    ),
    ("duplicate", "duplicate-id"): Say(N_("The id {id} is also the id of an earlier line")),
    ("payments", "payments-differ"): Say(N_("The recorded payments differ from the ruling")),
    ("payments", "unfinished"): Say(N_("The log is not finished, but payments were recorded")),
    ("error", "internal-error"): Say(N_("The engine failed on this line: a fault of gostop's, to report")),
    ("archive", "empty"): Say(N_("The archive holds no line")),
    ("archive", "truncated"): Say(N_("The archive ends early: every complete line before line {line} was audited")),
    ("archive", "corrupt"): Say(
        N_("The archive cannot be decompressed from line {line} on: every line before it was audited")
    ),
    ("archive", "unreadable"): (
        Say(N_("The archive cannot be read from line {line} on: every line before it was audited"), when=_line_known),
        Say(N_("The archive cannot be read")),
    ),
    ("stopped", "scheduler-gone"): Say(
        N_("The audit stopped after {hands:,} hands: the Dask scheduler is gone; the findings before this are written")
    ),
    ("stopped", "no-worker"): Say(
        N_(
            "The audit stopped after {hands:,} hands: the Dask cluster had no worker for {seconds} seconds; the "
            "findings before this are written"
        )
    ),
    ("stopped", "worker-died"): Say(
        N_("The audit stopped after {hands:,} hands: a worker process died; the findings before this are written")
    ),
    ("stopped", "signal"): Say(
        N_(
            "The audit stopped after {hands:,} hands: it was told to stop ({signal}); the findings before this "
            "are written"
        )
    ),
}


def finding_sentence(w: Words, kind: str, code: str, facts: Mapping[str, Any], error: GoStopError | None = None) -> str:
    """A finding in words: an illegal line as the API says the engine's refusal (``error``), any other by its
    kind and code, of its facts."""
    if error is not None:
        return detail(w, error)
    return say(w, FINDINGS[(kind, code)], facts)
