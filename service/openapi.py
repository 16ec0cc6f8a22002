"""The OpenAPI 3.1 document, generated from the app: served at /openapi.yaml and /openapi.json, and written by
`make openapi`.

python -m service.openapi openapi.yaml

flask-smorest builds the document from the schemas (``service.schemas`` documents gostop's own fields, and
every named set of values is one component); ``tidy`` then declares what every operation shares, which no
schema says: the ``X-Request-ID`` header every operation takes and every answer carries, the
``Accept-Language`` every operation's sentences follow and the ``Content-Language`` that says which, and
leaves out the schemas nothing refers to.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from typing import Any

import orjson
import yaml  # type: ignore[import-untyped]
from flask import Flask

from .codes import API_VERSION
from .i18n import DEFAULT_LANGUAGE, LANGUAGES
from .observability import REQUEST_ID
from .schemas import SCHEMA_RULES

PUBLISHED = "gostop.openapi"  # app.extensions: {mimetype: (body, etag)}, kept by service.api.docs.publish
_METHODS = {"get", "put", "post", "delete", "options", "head", "patch", "trace"}
_WORDY = ("application/json", "application/problem+json")  # answers whose sentences follow Accept-Language
# the languages of the service, each a folder of service/locale: "en (the default), ko, ..."
_LANGUAGES_SAID = ", ".join(f"{lang} (the default)" if lang == DEFAULT_LANGUAGE else lang for lang in LANGUAGES)
_PARAMETERS = {
    "RequestId": {
        "name": REQUEST_ID,
        "in": "header",
        "required": False,
        "description": "an id for this request, echoed on the answer when it is 1-128 of A-Z a-z 0-9 . _ : - "
        "(anything else is replaced, never refused); made up when absent",
        "schema": {"type": "string"},
    },
    "AcceptLanguage": {
        "name": "Accept-Language",
        "in": "header",
        "required": False,
        "description": "the language of the answer's sentences (RFC 9110 12.5.4, q-values honoured): "
        f"{_LANGUAGES_SAID}; a tag is read by its primary subtag (ko-KR asks for ko, zh-Hans for zh). Only the "
        "sentences change: codes, ids, numbers and facts are the same in every language",
        "schema": {"type": "string"},
        "example": "ko-KR,ko;q=0.9,en;q=0.8",
    },
}

_HEADERS = {
    "ApiVersion": {
        "description": "the version of the API contract the answer follows (API.md v1.3); beside engine_version",
        "schema": {"type": "string", "example": API_VERSION},
    },
    "RequestId": {
        "description": "the request's id: the one sent, or one made up; the access log line carries it too",
        "schema": {"type": "string"},
    },
    "ContentLanguage": {
        "description": f"the language the answer's sentences are in ({_LANGUAGES_SAID}), as negotiated from "
        "Accept-Language",
        "schema": {"type": "string", "enum": list(LANGUAGES)},
    },
}


def tidy(spec: dict[str, Any]) -> dict[str, Any]:
    """The generated document, with what every operation shares declared (see the module docstring)."""
    components = spec.setdefault("components", {})
    components.setdefault("parameters", {}).update(_PARAMETERS)
    components.setdefault("headers", {}).update(_HEADERS)
    for path in spec["paths"].values():
        for method, operation in path.items():
            if method not in _METHODS:
                continue
            parameters = operation.setdefault("parameters", [])
            parameters.append({"$ref": "#/components/parameters/RequestId"})
            if _has_words(operation, components):
                parameters.append({"$ref": "#/components/parameters/AcceptLanguage"})
            for response in operation.get("responses", {}).values():
                if "$ref" not in response:
                    _add_headers(response)
    for response in components.get("responses", {}).values():
        _add_headers(response)
    for name, rule in SCHEMA_RULES.items():
        if name in components.get("schemas", {}):
            components["schemas"][name].update(orjson.loads(orjson.dumps(rule)))  # no shared node: no YAML alias
    _drop_unused_schemas(spec)
    return spec


def _add_headers(response: dict[str, Any]) -> None:
    headers = response.setdefault("headers", {})
    headers[REQUEST_ID] = {"$ref": "#/components/headers/RequestId"}  # a new dict each time: no YAML aliases
    headers["API-Version"] = {"$ref": "#/components/headers/ApiVersion"}
    if any(kind in _WORDY for kind in response.get("content", {})):
        headers["Content-Language"] = {"$ref": "#/components/headers/ContentLanguage"}


def _has_words(operation: dict[str, Any], components: dict[str, Any]) -> bool:
    """Whether any answer of the operation is JSON (an answer with sentences, or a problem with its title)."""
    for response in operation.get("responses", {}).values():
        ref = response.get("$ref", "")
        if ref:
            response = components["responses"][ref.rsplit("/", 1)[1]]
        if any(kind in _WORDY for kind in response.get("content", {})):
            return True
    return False


_SCHEMA_REF = "#/components/schemas/"


def _refs(node: Any) -> Iterator[str]:
    """Every ``$ref`` in a part of the document."""
    if isinstance(node, dict):
        if isinstance(node.get("$ref"), str):
            yield node["$ref"]
        for value in node.values():
            yield from _refs(value)
    elif isinstance(node, list):
        for value in node:
            yield from _refs(value)


def _drop_unused_schemas(spec: dict[str, Any]) -> None:
    """Keep the schemas the operations (and the other components) reach, directly or through other schemas."""
    schemas = spec["components"].get("schemas", {})
    outside = {k: v for k, v in spec.items() if k != "components"}
    outside["components"] = {k: v for k, v in spec["components"].items() if k != "schemas"}
    reached: set[str] = set()
    todo = [outside]
    while todo:
        for ref in _refs(todo.pop()):
            name = ref.removeprefix(_SCHEMA_REF)
            if ref.startswith(_SCHEMA_REF) and name in schemas and name not in reached:
                reached.add(name)
                todo.append(schemas[name])
    for name in [name for name in schemas if name not in reached]:
        del schemas[name]


def document(app: Flask) -> tuple[str, bytes]:
    """The app's OpenAPI document, as YAML (keys sorted, so the committed file diffs cleanly) and as JSON."""
    api = app.extensions["flask-smorest"]["apis"][""]["ext_obj"]
    # a copy through JSON: apispec's own dict stays as it made it, and no node is shared (no YAML aliases)
    spec = tidy(orjson.loads(orjson.dumps(api.spec.to_dict())))
    # libyaml's dumper when PyYAML has it (the same text, five times faster: the document is made per app)
    dumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)
    text = str(yaml.dump(spec, Dumper=dumper, sort_keys=True, allow_unicode=True, width=100))
    return text, orjson.dumps(spec, option=orjson.OPT_SORT_KEYS)


def openapi_yaml(app: Flask) -> str:
    """The document the app serves at /openapi.yaml (made when the app was built)."""
    return str(app.extensions[PUBLISHED]["application/yaml"][0])


def main(argv: list[str]) -> int:
    from . import create_app

    text = openapi_yaml(create_app())
    if len(argv) > 1:
        with open(argv[1], "w", encoding="utf-8") as out:
            out.write(text)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
