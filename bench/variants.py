import os, sys, orjson
sys.path.insert(0, "/work/main")
from flask import Flask, jsonify, request, Response
V = os.environ.get("VARIANT", "bare")
app = Flask(__name__)
BIG = orjson.loads(open("/tmp/perf/score_resp.json","rb").read())
HEAD = [("X-Request-ID", "8e59ee88447a1c43748d6b5bbfb1e6ee"), ("X-Content-Type-Options", "nosniff"), ("Referrer-Policy", "no-referrer"), ("Content-Security-Policy", "default-src 'none'; frame-ancestors 'none'"), ("Cache-Control", "no-store")]
@app.get("/healthz")
def h(): return "ok"
@app.post("/v1/<name>")
def parse_only(name):
    body = request.get_json()
    if V.startswith("big"):
        r = jsonify(BIG)
        if V == "bighead":
            r.headers.extend(HEAD)
        return r
    return jsonify({"endpoint": name, "keys": len(body)})
if V.startswith("obs"):
    if V == "obs-nolog": os.environ["ACCESS_LOG_LEVEL"] = "WARNING"
    from service import observability, security
    observability.init_app(app, security.headers_for)
