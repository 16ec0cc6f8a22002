"""The OpenAPI document, generated from the app: served at /openapi.yaml and written by `make openapi`.

python -m service.openapi openapi.yaml
"""

from __future__ import annotations

import sys

import yaml  # type: ignore[import-untyped]
from flask import Flask


def openapi_yaml(app: Flask) -> str:
    """The app's OpenAPI document as YAML, keys sorted so the committed file diffs cleanly."""
    api = app.extensions["flask-smorest"]["apis"][""]["ext_obj"]
    return str(yaml.safe_dump(api.spec.to_dict(), sort_keys=True, allow_unicode=True, width=100))


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
