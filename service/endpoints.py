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
# a validated body and the request's WSGI environ -> the answer and its headers, or None (see service.express)
Reply = Callable[[dict[str, Any], Mapping[str, Any]], "tuple[Any, list[tuple[str, str]]] | None"]


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
    reply: Reply | None = None,
) -> GoStopBlueprint:
    """A blueprint (``name``, under /v1) with one endpoint: POST ``path``, documented as ``operation_id``.

    ``doc`` is the operation's summary and description (a view's docstring). The request is documented with
    ``example`` (one body) or ``examples`` (bodies by name), and the answer with what ``answer`` gives to each
    (in English), plus ``more_answers`` (already in OpenAPI's ``{"summary", "value"}`` form). ``more_doc``,
    given the answers' examples, adds to the operation's document; ``text`` reads a text/plain body as well
    (``service.parsing``); ``check`` is the body's own check, as strict as the schema, which then only words a
    refusal (``service.parsing``). The view answers ``answer(body, request_words())``, unless a ``view`` is given.

    The blueprint's ``express`` is the endpoint's express lane (``service.express``): the body checked as the view's
    is (``check``, else the schema), answered by ``reply``, which must answer as ``view`` does, or by ``answer`` in
    the language of the request's Accept-Language when there is no ``view``.
    """
    import marshmallow as ma

    from .express import Express
    from .i18n import LANGUAGES, request_words, words_for
    from .jsonio import answered
    from .loading import Loader
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

    given_view = view is not None
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

    if reply is None:
        if given_view:  # a view of its own answers in its own way: the lane must be told how
            raise TypeError(f"{name}: a view of its own needs its reply for the express lane")

        def reply(body: dict[str, Any], environ: Mapping[str, Any]) -> tuple[Any, list[tuple[str, str]]] | None:
            return answer(body, words_for(environ.get("HTTP_ACCEPT_LANGUAGE"))), []

    loader = Loader(request_schema)

    def handle(data: Any, environ: Mapping[str, Any]) -> tuple[Any, list[tuple[str, str]]] | None:
        if check is not None:
            body = data if check(data) else None
        else:
            try:
                body = loader.load(data)
            except ma.ValidationError:
                body = None
        return None if body is None else reply(body, environ)  # a refusal is Flask's to word

    blp.express = Express("/v1" + path, handle)
    return blp
