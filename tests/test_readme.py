"""The curl examples of the README and of the guides in docs/ are posted to the app, and the answers they show are
what the app says; the README stays a short front door whose links all lead somewhere."""

from __future__ import annotations

import json
import re

import pytest

from service.replay import LIVE_EXAMPLE
from tests.conftest import GUIDES, ROOT, guides_text

README = (ROOT / "README.md").read_text(encoding="utf-8")
# a POST's command and body, then the answer shown (no match reaches across blocks: none of them holds a backtick)
_CURL = r"```sh\n(curl -s localhost:8000(\S+) [^`]*?-d '([^`]*?)')\n```\n```json\n([^`]*?)\n```"
EXAMPLES = re.findall(_CURL, guides_text(), re.S)


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


# --- the front door (issue 30) ------------------------------------------------------------------------------------


def test_the_readme_is_a_short_front_door_with_one_example_of_each_endpoint():
    assert len(README.encode()) < 25 * 1024
    assert "make run" in README and "make test" in README
    shown = [path for _, path, _, _ in re.findall(_CURL, README, re.S)]
    assert sorted(shown) == ["/v1/evening", "/v1/replay", "/v1/score", "/v1/settle"]
    for path in ("/v1/rules", "/v1/rules/korean-2p", "/v1/cards"):
        assert f"curl -s localhost:8000{path} " in README


def _slug(heading: str) -> str:
    """The anchor GitHub gives a heading: lower case, punctuation dropped, spaces as hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def test_every_link_of_the_readme_and_the_guides_leads_somewhere():
    """A relative link names a file of the checkout, and its #anchor a heading of that file."""
    checked = 0
    for page in GUIDES:
        text = page.read_text(encoding="utf-8")
        prose = re.sub(r"```.*?```", "", text, flags=re.S)
        for target in re.findall(r"\]\(([^)\s]+)\)", prose) + re.findall(r'src="([^"]+)"', prose):
            if re.match(r"[a-z]+:", target):
                continue
            name, _, anchor = target.partition("#")
            path = (page.parent / name).resolve() if name else page
            assert path.exists(), f"{page.name}: {target}"
            if anchor:
                headings = re.findall(r"^#+ (.+)$", path.read_text(encoding="utf-8"), re.M)
                assert anchor in {_slug(h) for h in headings}, f"{page.name}: {target}"
            checked += 1
    assert checked > 20


def test_the_readme_links_every_guide():
    linked = set(re.findall(r"\]\((docs/[\w.-]+\.md)", README))
    assert {f"docs/{p.name}" for p in GUIDES[1:]} <= linked


def test_the_readmes_problem_is_what_the_service_answers(client):
    """README "Errors": the second move of a log made by the player who just moved."""
    shown = json.loads(re.search(r"## Errors\n.*?```json\n(.*?)\n```", README, re.S).group(1))
    layout = LIVE_EXAMPLE["deal"]["layout"]  # the README's log is the service's own live example
    moves = [
        {"player": "A", "play": "jan-junk-1", "draw": "dec-double"},
        {"player": "A", "play": "mar-bright", "draw": "mar-junk-1"},
    ]
    answer = client.post("/v1/replay", json={"players": ["A", "B"], "deal": {"layout": layout}, "moves": moves})
    assert answer.get_json() == shown


def test_the_readmes_commands_are_the_commands_options():
    """README "Use it from a program": every `gostop ...` line parses as the command's own parser reads it."""
    import shlex

    from gostop import cli

    block = re.search(r"## Use it from a program\n.*?```sh\n(.*?)```", README, re.S).group(1)
    lines = [line.split("#")[0].strip() for line in block.splitlines()]
    assert len(lines) >= 4
    for line in lines:
        argv = shlex.split(line)
        assert argv[0] == "gostop"
        args = cli.parser().parse_args(argv[1:])
        assert args.command == argv[1]


def test_the_readmes_catalog_requests_are_answered(client):
    """README "Rules and cards": each GET it shows answers 200 with what its comment says is there."""
    gets = re.findall(r"^curl -s localhost:8000(/v1/\S+) +# (.+)$", README, re.M)
    assert [path for path, _ in gets] == ["/v1/rules", "/v1/rules/korean-2p", "/v1/cards"]
    answers = {path: client.get(path) for path, _ in gets}
    assert all(r.status_code == 200 for r in answers.values())
    assert answers["/v1/rules"].get_json()["presets"] and answers["/v1/rules/korean-2p"].get_json()["preset"]
    assert len(answers["/v1/cards"].get_json()["cards"]) == 51
