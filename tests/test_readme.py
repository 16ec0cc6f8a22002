"""The README's curl examples are posted to the app, and the answers it shows are what the app says."""

from __future__ import annotations

import json
import re

import pytest

from tests.conftest import ROOT

README = (ROOT / "README.md").read_text(encoding="utf-8")
EXAMPLES = re.findall(r"```sh\n(curl -s localhost:8000(\S+) .*?-d '(.*?)')\n```\n```json\n(.*?)\n```", README, re.S)


def _elided(value) -> bool:
    """True for the README's "..." placeholders (a value the example does not spell out)."""
    text = json.dumps(value)
    return '"..."' in text


def test_the_readme_has_curl_examples_for_score_settle_replay_and_evening_in_both_languages():
    assert {path for _, path, _, _ in EXAMPLES} == {"/v1/score", "/v1/settle", "/v1/replay", "/v1/evening"}
    assert any("Accept-Language: ko" in command for command, _, _, _ in EXAMPLES)


@pytest.mark.parametrize(
    ("command", "path", "body", "shown"), EXAMPLES, ids=[f"{i}{p}" for i, (_, p, _, _) in enumerate(EXAMPLES)]
)
def test_readme_example_answers_are_true(client, command, path, body, shown):
    headers = dict(re.findall(r"-H '([\w-]+): ([^']+)'", command))
    resp = client.post(path, json=json.loads(body), headers={k: v for k, v in headers.items() if k != "Content-Type"})
    assert resp.status_code == 200, resp.get_json()
    answer = resp.get_json()
    expected = json.loads(shown)
    checked = 0
    for key, value in expected.items():
        if key == "..." or _elided(value):
            continue
        assert answer[key] == value, key
        checked += 1
    assert checked >= 2
