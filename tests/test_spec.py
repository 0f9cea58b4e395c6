"""The spec is data that must hold together: schemas, unique clause ids, every open question answered."""

from __future__ import annotations

import re
from pathlib import Path

import jsonschema
import pytest

from harness.spec import gamespec as specs

RULES = Path(__file__).resolve().parents[2] / "shared" / "rules"
SPECS = specs.game_specs()


def test_every_schema_is_a_valid_draft_2020_12_schema() -> None:
    for name in ("game-spec.schema.json", "fixture.schema.json"):
        jsonschema.Draft202012Validator.check_schema(specs.schema(name))


@pytest.mark.parametrize("spec", SPECS, ids=lambda s: s.path.name)
def test_each_game_file_follows_the_game_spec_schema(spec: specs.GameSpec) -> None:
    errors = [f"{'/'.join(map(str, e.absolute_path))}: {e.message}"
              for e in specs.validator("game-spec.schema.json").iter_errors(spec.data)]
    assert errors == []
    assert spec.path.name == f"{spec.game}-{spec.rule_version}.yaml"


@pytest.mark.parametrize("spec", SPECS, ids=lambda s: s.path.name)
def test_the_embedded_schemas_are_valid(spec: specs.GameSpec) -> None:
    jsonschema.Draft202012Validator.check_schema(spec.data["layout"]["schema"])
    jsonschema.Draft202012Validator.check_schema(spec.data["state_view"]["schema"])
    for action in spec.data["actions"].values():
        jsonschema.Draft202012Validator.check_schema(action["schema"])


@pytest.mark.parametrize("spec", SPECS, ids=lambda s: s.path.name)
def test_every_optional_layout_key_has_a_default(spec: specs.GameSpec) -> None:
    schema = spec.data["layout"]["schema"]
    required = set(schema.get("required", []))
    required |= {key for alternative in schema.get("anyOf", []) for key in alternative.get("required", [])}
    missing = [key for key, value in schema["properties"].items() if key not in required and "default" not in value]
    assert missing == []


def test_clause_ids_are_unique_and_belong_to_their_game() -> None:
    seen: set[str] = set()
    for spec in SPECS:
        for clause in spec.data["clauses"]:
            assert clause["id"] not in seen
            assert clause["id"].startswith(spec.game + ".")
            seen.add(clause["id"])


def test_reason_codes_do_not_clash_with_the_common_ones() -> None:
    for spec in SPECS:
        assert not set(spec.data["reasons"]) & specs.common_reasons()


def rule_text(spec: specs.GameSpec) -> str:
    """The English rendering the game file follows (skips where shared/ is not beside us)."""
    rules = RULES / Path(spec.data["source"]).name
    if not rules.exists():
        pytest.skip(f"{rules} is not beside this checkout")
    return rules.read_text(encoding="utf-8")


@pytest.mark.parametrize("spec", SPECS, ids=lambda s: s.path.name)
def test_every_rule_paragraph_has_a_clause(spec: specs.GameSpec) -> None:
    text = rule_text(spec).split("## Artificial intelligence")[0]
    paragraphs = set(re.findall(r"^([RGP]-\d+\.\d+) ", text, flags=re.MULTILINE))
    sourced = {c.source for c in spec.clauses.values() if c.basis == "text"}
    assert sorted(paragraphs - sourced) == []


@pytest.mark.parametrize("spec", SPECS, ids=lambda s: s.path.name)
def test_every_open_question_is_answered_by_an_interpretation(spec: specs.GameSpec) -> None:
    questions = rule_text(spec).split("## Open questions")[1]
    asked = len(re.findall(r"^- ", questions, flags=re.MULTILINE))
    answered = {c.question for c in spec.clauses.values() if c.basis == "interpretation"}
    assert None not in answered
    assert len(answered) >= asked


def test_the_validator_gives_the_same_answers_without_its_accelerator() -> None:
    fixture_schema = specs.schema("fixture.schema.json")
    fast, slow = specs.Validator(fixture_schema), specs.Validator(fixture_schema)
    slow._fast = None  # as on a machine without jsonschema-rs
    for instance in ({}, {"id": "x"}, {"id": "a.b", "title": "Title", "game": "rummy", "rule_versions": "1.1.0",
                                       "clauses": ["rummy.run"], "basis": "text", "layout": {}, "steps": [{"legal": {"count": 1}}]}):
        assert fast.is_valid(instance) == slow.is_valid(instance)
        assert [e.message for e in fast.iter_errors(instance)] == [e.message for e in slow.iter_errors(instance)]
