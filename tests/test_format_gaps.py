"""Fixture forms for hand-written scenarios: membership checks, action patterns, a lay-off's meld by
its cards, several acceptable reasons; each against an engine wrong in a known way."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import fake_engines as fakes
import pytest

from harness.run.runner import Runner
from harness.suite.fixtures import load_paths
from harness.suite.model import Scenario
from reference_engine import ReferenceEngine

FORMAT = Path(__file__).parent / "data" / "format"


@pytest.fixture(scope="module")
def scenario() -> Scenario:
    loaded = load_paths([FORMAT])
    assert not loaded.errors
    (only,) = loaded.scenarios
    return only


def test_the_reference_passes(scenario: Scenario) -> None:
    result = Runner(ReferenceEngine()).run(scenario)
    assert (result.outcome, result.message) == ("pass", "")


def test_a_membership_check_names_the_missing_card(scenario: Scenario) -> None:
    result = Runner(fakes.make(fakes.HandWithoutKC)).run(scenario)
    assert (result.outcome, result.message) == ("fail", "step 1 (line 16): the state view differs from the fixture")
    assert result.details == ["hands[0] (includes): expected K♣, got [5♥, 5♠, 6♥, 7♥, 9♣, K♦]"]


def test_an_included_pattern_matches_any_action_it_starts(scenario: Scenario) -> None:
    result = Runner(fakes.make(fakes.DropsLayoffs)).run(scenario)
    assert (result.outcome, result.message) == ("fail", "step 2 (line 19): the legal actions differ from the fixture")
    assert result.details == ["missing: {layoff: [5♠]} (with any other keys)"]


def test_an_excluded_pattern_names_every_listed_action_it_matches(scenario: Scenario) -> None:
    result = Runner(fakes.make(fakes.ListsALayoffOfKC)).run(scenario)
    assert result.outcome == "fail"
    assert result.details == ["not legal, but listed: {layoff: [K♣], onto: 0}"]


def test_several_acceptable_reasons(scenario: Scenario) -> None:
    result = Runner(fakes.make(fakes.RefusesWithWrongPhase)).run(scenario)
    assert (result.outcome, result.message) == (
        "fail", "step 4 (line 27): seat 0 {meld: [K♣, K♦]} was refused with wrong-phase, "
                "but the reason must be one of invalid-meld, ace-wrap")


def test_a_layoff_onto_a_meld_that_is_not_there_fails_naming_the_melds(scenario: Scenario) -> None:
    steps = list(scenario.steps)
    steps[2] = dataclasses.replace(steps[2], action={"layoff": ["5S"], "onto": ["2S", "3S"]})
    broken = dataclasses.replace(scenario, steps=tuple(steps))
    result = Runner(ReferenceEngine()).run(broken)
    assert (result.outcome, result.message) == (
        "fail", "step 3 (line 24): there is no meld [2♠, 3♠] to lay off onto; the melds are "
                "[{owner: 1, cards: [2♠, 3♠, 4♠]}]")


def test_lint_checks_the_new_forms(tmp_path: Path) -> None:
    text = (FORMAT / "membership-patterns.yaml").read_text(encoding="utf-8")
    text = text.replace("onto: [2S, 3S, 4S]", "onto: [2S, ZZ]").replace("reason: [invalid-meld, ace-wrap]",
                                                                       "reason: [invalid-meld, no-such-code]")
    text = text.replace("excludes: [{layoff: [KC]}]", "excludes: [{layoff: KC}]")
    (tmp_path / "broken.yaml").write_text(text, encoding="utf-8")
    errors = [str(e).split(": ", 1)[1] for e in load_paths([tmp_path]).errors]
    assert errors == [
        "$.steps[1].legal.excludes[0].layoff: 'KC' is not of type array",
        "$.steps[2].action.onto[1]: 'ZZ' is not a card: onto names a meld by its cards, or its index",
        "$.steps[3].reason[1]: unknown reason code 'no-such-code' (did you mean no-such-meld?); the closed list "
        "is in spec/reasons.yaml "
        "and spec/games/rummy-1.1.0.yaml",
    ]
