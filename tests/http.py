"""Checks of HTTP answers shared by the test modules."""

from __future__ import annotations

PROBLEM = "application/problem+json"


def assert_problem(resp, status, code=None):
    assert resp.status_code == status
    assert resp.mimetype == PROBLEM
    body = resp.get_json(force=True)
    assert {"type", "title", "status", "detail"} <= set(body)
    assert body["status"] == status
    assert "Traceback" not in resp.get_data(as_text=True)
    assert "?" not in body["detail"], body  # a fact its sentence names was missing (see service.i18n._Facts)
    if code is not None:
        assert body["code"] == code
    return body
