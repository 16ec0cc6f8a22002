"""The OpenAPI document, generated from the app: served at /openapi.yaml and written by `make openapi`.

python -m service.openapi openapi.yaml

flask-smorest builds the document from the schemas; ``tidy`` then makes it fit for client generators in
the few places where apispec's output is not: a nullable object is its real schema or null (apispec writes
``anyOf`` with an untyped object), the ``X-Request-ID`` header every operation takes and every answer
carries is declared, and schemas nothing refers to are left out.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from typing import Any

import yaml  # type: ignore[import-untyped]
from flask import Flask

from .observability import REQUEST_ID

_METHODS = {"get", "put", "post", "delete", "options", "head", "patch", "trace"}
_UNTYPED_NULL = {"nullable": True, "type": "object"}
_REQUEST_ID_PARAMETER = {
    "name": REQUEST_ID,
    "in": "header",
    "required": False,
    "description": "an id for this request, echoed on the answer when it is 1-128 of A-Z a-z 0-9 . _ : - "
    "(anything else is replaced, never refused); made up when absent",
    "schema": {"type": "string"},
}
_REQUEST_ID_HEADER = {
    "description": "the request's id: the one sent, or one made up; the access log line carries it too",
    "schema": {"type": "string"},
}


def tidy(spec: dict[str, Any]) -> dict[str, Any]:
    """The generated document, fit for client generators (see the module docstring)."""
    spec = _typed_nulls(spec)
    components = spec.setdefault("components", {})
    components.setdefault("parameters", {})["RequestId"] = _REQUEST_ID_PARAMETER
    components.setdefault("headers", {})["RequestId"] = _REQUEST_ID_HEADER
    header_ref = {"$ref": "#/components/headers/RequestId"}
    for path in spec["paths"].values():
        for method, operation in path.items():
            if method not in _METHODS:
                continue
            operation.setdefault("parameters", []).append({"$ref": "#/components/parameters/RequestId"})
            for response in operation.get("responses", {}).values():
                if "$ref" not in response:
                    response.setdefault("headers", {})[REQUEST_ID] = dict(header_ref)  # no YAML aliases
    for response in components.get("responses", {}).values():
        response.setdefault("headers", {})[REQUEST_ID] = dict(header_ref)
    _drop_unused_schemas(spec)
    return spec


def _typed_nulls(node: Any) -> Any:
    if isinstance(node, dict):
        any_of = node.get("anyOf")
        if isinstance(any_of, list) and len(any_of) == 2 and _UNTYPED_NULL in any_of:
            (ref,) = (s for s in any_of if s != _UNTYPED_NULL)
            rest = {k: _typed_nulls(v) for k, v in node.items() if k != "anyOf"}
            return {**rest, "allOf": [_typed_nulls(ref)], "nullable": True}
        return {k: _typed_nulls(v) for k, v in node.items()}
    if isinstance(node, list):
        return [_typed_nulls(v) for v in node]
    return node


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


def openapi_yaml(app: Flask) -> str:
    """The app's OpenAPI document as YAML, keys sorted so the committed file diffs cleanly."""
    api = app.extensions["flask-smorest"]["apis"][""]["ext_obj"]
    return str(yaml.safe_dump(tidy(api.spec.to_dict()), sort_keys=True, allow_unicode=True, width=100))


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
