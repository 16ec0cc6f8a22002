"""The baseline: a bare Flask app that parses the same JSON bodies and answers a small JSON object.

Served by the same gunicorn config as the real service, so the ratio measures what gostop adds
(schema validation, the engine, the response) on top of Flask + gunicorn + JSON.
"""

from flask import Flask, jsonify, request

app = Flask(__name__)


@app.post("/v1/<name>")
def parse_only(name: str):
    body = request.get_json()
    return jsonify({"endpoint": name, "keys": len(body)})
