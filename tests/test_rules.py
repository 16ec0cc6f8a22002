"""RULES.md 10: knobs, presets and overrides."""

import re

import pytest

from engine import KNOBS, PRESET_SOURCES, PRESETS, RulesError, find_rules, resolve


def _preset_table(rules_md: str) -> dict[str, dict[str, object]]:
    """Parse the presets table of RULES.md 10 into {preset: {knob: value}}."""
    section = rules_md.split("## 10. Presets", 1)[1]
    rows = [line for line in section.splitlines() if line.startswith("|")]
    header = [c.strip() for c in rows[0].strip("|").split("|")]
    presets = header[1:]
    table: dict[str, dict[str, object]] = {p: {} for p in presets}
    for row in rows[2:]:
        cells = [c.strip() for c in row.strip("|").split("|")]
        names = [n.strip() for n in cells[0].split("/")]
        names = [names[0]] + [
            re.sub(r"^", "steal_", n) if names[0].startswith("steal_") and not n.startswith("steal_") else n
            for n in names[1:]
        ]
        for preset, cell in zip(presets, cells[1:], strict=True):
            if cell == "same as 2p":
                cell = dict(zip(presets, cells[1:], strict=True))["korean-2p"]
            values = [v.strip() for v in cell.split("/")] if len(names) > 1 else [cell]
            for name, value in zip(names, values, strict=True):
                table[preset][name] = _value(name, value)
    return table


def _value(name: str, text: str) -> object:
    kind = KNOBS[name].kind
    if kind == "bool":
        return {"on": True, "off": False}[text]
    if kind == "int":
        return int(text)
    if kind in ("set", "list"):
        if text in ("none", ""):
            return ()
        items = [t.strip() for t in text.split(",")]
        return tuple(int(i) for i in items) if kind == "list" else tuple(items)
    return text


# The knobs of the evening (RULES.md 11; API.md v1.2, POST /v1/evening), which the spec's table of one hand lacks
EVENING_KNOBS = {name for name, knob in KNOBS.items() if "(RULES.md 11)" in knob.doc}
# The house rules other engines and tables play (issue 19), which the spec's table lacks, with the value that plays
# as before they came: today's behaviour in every preset.
HOUSE_RULES = {
    "four_brights_points": 4,
    "ten_ribbons_points": 0,
    "gwang_palgi": False,
    "chongtong_at_deal": "win",
    "chongtong_by_bonus": "never",
    "two_card_bomb": "off",
    "bonus_on_ppuk": False,
    "chok_sseul": False,
    "steal_dealt_stack": -1,
    "sep_animal_stealable": False,
    # issue 29
    "ppuk_price": 0,
    "meongbak": False,
    "three_ppuk_baks": False,
    "bright_sale_price": 0,
    "chongtong_play_on_multiplier": 1,
    "first_chok_payment": 0,
    "first_bomb_payment": 0,
    "shodang": "off",
}


def test_rules_10_every_knob_of_the_table_exists_and_every_knob_is_in_the_table(rules_md):
    table = _preset_table(rules_md)
    assert {"all_in", "limited_liability", "push"} == EVENING_KNOBS
    assert set(table["korean-2p"]) == set(KNOBS) - EVENING_KNOBS - set(HOUSE_RULES)


# The project's own presets (RULES.md 10.1); the platform presets (10.4) play what their services play.
OWN_PRESETS = [name for name in PRESETS if name not in PRESET_SOURCES]


@pytest.mark.parametrize("preset", OWN_PRESETS)
def test_rules_11_no_preset_plays_a_rule_of_the_evening(preset):
    """The evening's knobs are off in every own preset, so every one settles as it did before they came."""
    assert not any(getattr(PRESETS[preset], name) for name in EVENING_KNOBS)


@pytest.mark.parametrize("preset", OWN_PRESETS)
def test_rules_10_every_preset_plays_the_house_rules_as_before_they_came(preset):
    """RULES.md 10.2: each house rule's default is what every preset played before it was a knob."""
    assert {name: getattr(PRESETS[preset], name) for name in HOUSE_RULES} == HOUSE_RULES


@pytest.mark.parametrize("preset", OWN_PRESETS)  # the shared spec's table has these; the platform presets are
def test_rules_10_preset_values_are_exactly_the_table(rules_md, preset):  # held to our rule book's 10.4 table
    expected = _preset_table(rules_md)[preset]
    rules = find_rules(preset)
    for name, value in expected.items():
        actual = getattr(rules, name)
        if KNOBS[name].kind == "set":
            assert set(actual) == set(value), name  # type: ignore[arg-type]
        else:
            assert actual == value, name


def test_rules_10_overrides_apply_and_echo_every_knob():
    rules = resolve({"preset": "korean-3p", "pibak_max_loser_junk": 6, "gobak": "double"})
    body = rules.asdict()
    assert body["preset"] == "korean-3p" and body["pibak_max_loser_junk"] == 6 and body["gobak"] == "double"
    assert set(body) == {"preset", *KNOBS}
    assert body["target_score"] == 3  # untouched knobs keep the preset's value


def test_default_preset_follows_the_player_count():
    assert resolve(None, players=2).preset == "korean-2p"
    assert resolve(None, players=3).preset == "korean-3p"
    assert resolve({"gobak": "none"}, players=3).preset == "korean-3p"


@pytest.mark.parametrize(
    ("spec", "code", "knob"),
    [
        ("korean-4p", "unknown-preset", "preset"),
        ({"preset": "nope"}, "unknown-preset", "preset"),
        ({"pibak": 3}, "unknown-knob", "pibak"),
        ({"target_score": "7"}, "invalid-knob", "target_score"),
        ({"target_score": True}, "invalid-knob", "target_score"),
        ({"target_score": 0}, "invalid-knob", "target_score"),
        ({"players": 4}, "invalid-knob", "players"),
        ({"double_junk": 1}, "invalid-knob", "double_junk"),
        ({"gobak": "triple"}, "invalid-knob", "gobak"),
        ({"bonus_cards": ["bonus-4"]}, "invalid-knob", "bonus_cards"),
        ({"bonus_cards": ["bonus-3", "bonus-3"]}, "invalid-knob", "bonus_cards"),
        ({"no_steal_on_last_turn": "chok"}, "invalid-knob", "no_steal_on_last_turn"),
        ({"first_ppuk_payments": [1, 2, 3, 4]}, "invalid-knob", "first_ppuk_payments"),
        ({"first_ppuk_payments": [-1]}, "invalid-knob", "first_ppuk_payments"),
        ({"pibak_max_loser_junk": -2}, "invalid-knob", "pibak_max_loser_junk"),
        ({"shake_multiplier": 0}, "invalid-knob", "shake_multiplier"),
    ],
)
def test_bad_rules_are_refused_naming_the_knob(spec, code, knob):
    with pytest.raises(RulesError) as err:
        resolve(spec)
    assert err.value.code == code
    assert err.value.context["knob"] == knob
    assert knob in str(err.value) or code == "unknown-preset"


def test_presets_are_cached_objects_not_rebuilt():
    assert resolve("korean-2p") is resolve("korean-2p") is PRESETS["korean-2p"]


def test_a_table_s_house_rules_are_built_once_and_a_wrong_type_is_never_served_from_the_cache():
    """resolve caches rule sets by their overrides (a table sends the same ones with every request); the key keeps
    each value's type, since True == 1 to a dict: a cached `gwangbak: true` must not answer `gwangbak: 1`."""
    house = {"preset": "korean-3p", "gobak": "double", "first_ppuk_payments": [1, 2]}
    assert resolve(house) is resolve(dict(house))
    assert resolve(house).first_ppuk_payments == (1, 2)
    assert resolve({"gwangbak": True}).gwangbak is True
    for _ in range(2):
        with pytest.raises(RulesError) as err:
            resolve({"gwangbak": 1})
        assert err.value.why == "not-a-bool"
    with pytest.raises(RulesError):  # a value no knob takes, and that cannot even be a cache key
        resolve({"bonus_cards": [{"id": "bonus-3"}]})


def test_each_knob_is_declared_once_as_a_typed_field_of_the_rule_set():
    """KNOBS is read off RuleSet's fields (RULES.md 10): the same names in the same order, the base rule set's
    values as the defaults, and a knob of a few choices typed by its Enum in every preset."""
    import dataclasses
    from enum import StrEnum

    from engine import RuleSet

    fields = [f for f in dataclasses.fields(RuleSet) if f.init and f.name != "preset"]
    assert [f.name for f in fields] == list(KNOBS)
    assert RuleSet() == PRESETS["korean-2p"]
    for f in fields:
        knob = KNOBS[f.name]
        assert knob.doc == f.metadata["doc"] and "RULES.md" in knob.doc
        if knob.kind == "choice":
            assert knob.enum is not None and knob.choices == tuple(m.value for m in knob.enum)
            for rules in PRESETS.values():
                assert isinstance(getattr(rules, f.name), knob.enum), (rules.preset, f.name)
        if knob.kind == "set" and knob.enum is not None:
            for rules in PRESETS.values():
                assert all(isinstance(v, knob.enum) for v in getattr(rules, f.name))
        assert issubclass(knob.enum, StrEnum) if knob.enum else knob.kind in ("bool", "int", "list", "set")


def test_a_choice_read_from_a_request_becomes_its_enum_and_a_misspelt_one_is_refused():
    from engine import Gobak, GoScheme

    rules = resolve({"preset": "korean-2p", "gobak": "pays-all", "go_scheme": "chips"})
    assert rules.gobak is Gobak.PAYS_ALL and rules.go_scheme is GoScheme.CHIPS
    assert rules.asdict()["gobak"] == "pays-all" and type(rules.asdict()["gobak"]) is str
    with pytest.raises(RulesError) as err:
        resolve({"gobak": "pays_all"})
    assert err.value.why == "not-a-choice" and "pays-all" in err.value.params["choices"]
