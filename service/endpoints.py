"""One documented POST endpoint of an answer family (score, settlement, replay, evening), built from its
request schema, its examples and its answer function: the blueprint code the families share.

The examples are answered once, at start-up (in English), by the very function the view answers with, so the
document shows what the service answers. Flask and flask-smorest are imported only inside ``post_endpoint``:
the families' answers also run in the page's engine, under Pyodide, without them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import marshmallow as ma
    from flask.typing import ResponseReturnValue

    from .i18n import Words
    from .parsing import GoStopBlueprint, TextReader, View

__all__ = ["post_endpoint"]

Answer = Callable[[dict[str, Any], "Words"], Any]  # a validated body and the request's words -> the JSON answer


def post_endpoint(
    name: str,
    import_name: str,
    description: str,
    *,
    path: str,
    operation_id: str,
    doc: str,
    request_schema: ma.Schema,
    response_schema: type[ma.Schema],
    response_description: str,
    answer: Answer,
    example: Mapping[str, Any] | None = None,
    examples: Mapping[str, Mapping[str, Any]] | None = None,
    more_answers: Mapping[str, Mapping[str, Any]] | None = None,
    more_doc: Callable[[dict[str, Any]], dict[str, Any]] | None = None,
    text: TextReader | None = None,
    check: Callable[[Any], bool] | None = None,
    view: View | None = None,
) -> GoStopBlueprint:
    """A blueprint (``name``, under /v1) with one endpoint: POST ``path``, documented as ``operation_id``.

    ``doc`` is the operation's summary and description (a view's docstring). The request is documented with
    ``example`` (one body) or ``examples`` (bodies by name), and the answer with what ``answer`` gives to each
    (in English), plus ``more_answers`` (already in OpenAPI's ``{"summary", "value"}`` form). ``more_doc``,
    given the answers' examples, adds to the operation's document; ``text`` reads a text/plain body as well
    (``service.parsing``); ``check`` is the body's own check, as strict as the schema, which then only words a
    refusal (``service.parsing``). The view answers ``answer(body, request_words())``, unless a ``view`` is given.
    """
    from .i18n import LANGUAGES, request_words
    from .jsonio import answered
    from .parsing import GoStopBlueprint

    blp = GoStopBlueprint(name, import_name, url_prefix="/v1", description=description)
    english = LANGUAGES["en"]

    arguments: dict[str, Any] = {}
    responses: dict[str, Any] = {}
    answer_examples: dict[str, Any] = {}
    if example is not None:
        arguments["example"] = example
        responses["example"] = answer(request_schema.load(example), english)
    if examples is not None:
        answer_examples = {k: {"value": answer(request_schema.load(v), english)} for k, v in examples.items()}
        answer_examples.update(more_answers or {})
        arguments["examples"] = {k: {"value": v} for k, v in examples.items()}
        responses["examples"] = answer_examples
    if text is not None:
        arguments["text"] = text
    if check is not None:
        arguments["check"] = check

    if view is None:

        def view(body: dict[str, Any]) -> ResponseReturnValue:
            return answered(answer(body, request_words()))

    view.__name__ = "post_" + path.strip("/")  # the endpoint's name: post_score, post_settle, ...
    view.__doc__ = doc

    decorated = blp.arguments(request_schema, **arguments)(
        blp.alt_response(200, schema=response_schema, success=True, description=response_description, **responses)(view)
    )
    decorated = blp.doc(operationId=operation_id, **(more_doc(answer_examples) if more_doc else {}))(decorated)
    blp.route(path, methods=["POST"])(decorated)
    return blp
