"""Declared capabilities: fixtures an engine cannot run are skipped naming the feature; `illegal` refusals leave reasons unchecked."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

import fake_engines as fakes
import pytest

from harness.adapters import subprocess_engine
from harness.cli import main
from harness.run.capabilities import Capabilities, declared, needs
from harness.run.runner import FixtureResult, Runner
from harness.spec import gamespec as specs
from harness.spec.paths import fixtures_dir
from harness.suite.fixtures import load_paths
from harness.suite.model import Scenario
from reference_engine import ReferenceEngine

DATA = Path(__file__).parent / "data"


@pytest.fixture(scope="module")
def suite() -> list[Scenario]:
    loaded = load_paths([fixtures_dir(), DATA / "scenarios", DATA / "capabilities"])
    assert not loaded.errors
    return loaded.scenarios


def by_id(suite: list[Scenario], fixture_id: str) -> Scenario:
    return next(s for s in suite if s.id == fixture_id)


def test_an_engine_without_match_positions_or_reasons_runs_the_suite_with_skips_and_no_failure(
        suite: list[Scenario]) -> None:
    results = list(Runner(fakes.OneHandFromADealEngine()).run_all(suite))
    assert {r.outcome for r in results} == {"pass", "skip"}
    skipped = [r for r in results if r.outcome == "skip"]
    assert {r.feature for r in skipped} == {"match", "positions"}
    assert all(r.message.startswith(f"needs the feature {r.feature} (") for r in skipped)
    assert any(r.unchecked for r in results if r.outcome == "pass")


def test_a_skip_names_the_feature_and_what_in_the_fixture_needs_it(suite: list[Scenario]) -> None:
    engine = fakes.OneHandFromADealEngine()
    later = Runner(engine).run(by_id(suite, "president.series.exchange-refusals"))
    assert (later.outcome, later.feature, later.message) == (
        "skip", "match", "needs the feature match (several rounds or hands; here it plays 2 rounds), "
                         "which the engine declares it does not have")
    position = Runner(engine).run(by_id(suite, "harness.going-out-scores"))
    assert (position.outcome, position.message) == ("pass", "")
    mid_game = Runner(engine).run(by_id(suite, "gin-rummy.layoff.position-after-knock"))
    assert mid_game.feature == "positions"
    assert mid_game.message.startswith("needs the feature positions (mid-game layouts; here the layout gives phase")
    assert mid_game.message.endswith("which the engine declares it does not have")


def test_a_fixture_may_name_more_in_its_needs_list(suite: list[Scenario]) -> None:
    result = Runner(fakes.OneHandFromADealEngine()).run(by_id(suite, "harness.needs-match"))
    assert (result.outcome, result.feature, result.message) == (
        "skip", "match", "needs the feature match (several rounds or hands; here the fixture's needs list "
                         "names it), which the engine declares it does not have")
    assert Runner(ReferenceEngine()).run(by_id(suite, "harness.needs-match")).outcome == "pass"


def test_a_reason_check_against_an_illegal_only_engine_is_unchecked_not_failed(suite: list[Scenario]) -> None:
    result = Runner(fakes.OneHandFromADealEngine()).run(by_id(suite, "harness.meld-and-refuse"))
    assert (result.outcome, result.message) == ("pass", "")
    assert result.unchecked == ["step 3 (line 20): the reason invalid-meld (the engine refuses with illegal only)"]


def test_an_illegal_only_engine_that_answers_a_code_is_an_error(suite: list[Scenario]) -> None:
    class SaysIllegalButGivesCodes(ReferenceEngine):
        def describe(self) -> dict[str, object]:
            description = super().describe()
            description["games"]["rummy"]["features"] = {"reasons": "illegal"}
            return description

    result = Runner(SaysIllegalButGivesCodes()).run(by_id(suite, "harness.meld-and-refuse"))
    assert (result.outcome, result.message) == (
        "error", "step 3 (line 20): seat 0 {meld: [2♣, 3♦, 4♠]} was refused with 'invalid-meld', but the engine "
                 "declares reasons: illegal (every refusal is the code illegal)")


def test_illegal_from_an_engine_with_exact_reasons_is_outside_the_closed_list(suite: list[Scenario]) -> None:
    result = Runner(fakes.make(fakes.RefusesWithIllegal)).run(by_id(suite, "harness.meld-and-refuse"))
    assert (result.outcome, result.message) == (
        "error", "step 3 (line 20): seat 0 {meld: [2♣, 3♦, 4♠]} was refused with 'illegal', which is not in the "
                 "closed list of reason codes")


def test_an_option_outside_the_declared_range_is_skipped(suite: list[Scenario]) -> None:
    result = Runner(fakes.KnockLimitFiveToTwenty()).run(by_id(suite, "harness.knock-limit-0"))
    assert (result.outcome, result.message) == (
        "skip", "the engine supports option knock_limit only from 5 to 20, not 0")
    target = Runner(fakes.KnockLimitFiveToTwenty()).run(by_id(suite, "rummy.option.target-custom"))
    assert target.outcome == "skip" and target.message.startswith("the engine supports option target only as 100, 500, not ")
    assert Runner(ReferenceEngine()).run(by_id(suite, "harness.knock-limit-0")).outcome == "pass"


def test_a_seeded_fixture_needs_the_seeded_deal(suite: list[Scenario]) -> None:
    scenario = by_id(suite, "gin-rummy.deal.seeded-2-players")
    gin = next(s for s in specs.game_specs() if s.game == "gin-rummy")
    assert needs(gin, scenario) == {"seeded_deal": "the layout is a seed"}

    class NoSeededDeal(ReferenceEngine):
        def describe(self) -> dict[str, object]:
            description = super().describe()
            description["games"]["gin-rummy"]["features"] = {"seeded_deal": False}
            return description

    result: FixtureResult = Runner(NoSeededDeal()).run(scenario)
    assert (result.outcome, result.feature) == ("skip", "seeded_deal")


def test_absent_features_mean_yes_except_clone() -> None:
    assert declared({"rule_versions": ["1.1.0"]}) == Capabilities()
    assert Capabilities().has("positions") and not Capabilities().clone and not Capabilities().illegal_only


def test_the_reference_declares_everything_it_has() -> None:
    games = ReferenceEngine().describe()["games"]
    assert all(g["features"] | {"clone": False} == {"match": True, "positions": True, "deck_deal": True,
                                                    "seeded_deal": True, "reasons": "exact", "clone": False}
               for g in games.values())
    assert games["rummy"]["features"]["clone"] is True


def test_the_summary_counts_feature_skips_apart_and_the_unchecked_reasons(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(Path(__file__).parent))
    code = main(["run", str(DATA / "scenarios"), str(DATA / "capabilities"),
                 "--engine", "fake_engines:OneHandFromADealEngine"])
    out = capsys.readouterr().out.splitlines()
    assert code == 0
    assert out[-3:] == [
        "skipped: 1 fixture(s), by reason: feature 1",
        "skipped for a feature the engine does not declare: match 1 (1 fixtures)",
        "left unchecked by the engine's declared features: 1 reason check(s) in 1 fixture(s) (reasons: illegal); "
        "run -v to list them"]


def test_the_capabilities_travel_in_the_hello_answer(suite: list[Scenario], monkeypatch: pytest.MonkeyPatch) -> None:
    tests = Path(__file__).parent
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(tests.parent), str(tests)]))
    engine = subprocess_engine([sys.executable, "-m", "harness", "serve", "--engine", "fake_engines:OneHandFromADealEngine"])
    try:
        chosen = [by_id(suite, i) for i in ("president.series.exchange-refusals", "harness.meld-and-refuse")]
        results = [Runner(engine).run(s) for s in chosen]
    finally:
        engine.close()
    assert [(r.outcome, r.feature) for r in results] == [("skip", "match"), ("pass", None)]
    assert results[1].unchecked == ["step 3 (line 20): the reason invalid-meld (the engine refuses with illegal only)"]


def test_a_fixture_checking_a_later_round_needs_match() -> None:
    from dataclasses import replace

    from harness.spec.gamespec import game_specs
    from harness.suite.model import Step

    scenario = next(s for s in load_paths([fixtures_dir() / "rummy"]).scenarios if s.id == "rummy.meld.q-k-a-run")
    spec = next(s for s in game_specs() if s.game == "rummy")
    assert "match" not in needs(spec, scenario)
    onward = replace(scenario, steps=(*scenario.steps, Step(index=len(scenario.steps), line=1, state={"round": 2})))
    assert needs(spec, onward)["match"] == "it checks round 2"


def test_every_fixture_that_plays_past_its_first_round_needs_match() -> None:
    from harness.spec.gamespec import game_specs

    class Watch:
        def __init__(self, inner: Any, seen: list[int]) -> None:
            self.inner, self.seen = inner, seen
            seen.append(inner.state()["round"])

        def apply(self, seat: int, action: dict[str, Any]) -> Any:
            reason = self.inner.apply(seat, action)
            self.seen.append(self.inner.state()["round"])
            return reason

        def __getattr__(self, name: str) -> Any:
            return getattr(self.inner, name)

    class Watching(ReferenceEngine):
        seen: list[int] = []

        def start(self, setup: dict[str, Any]) -> Any:
            self.seen = []
            return Watch(super().start(setup), self.seen)

    engine = Watching()
    runner = Runner(engine)
    for scenario in load_paths([fixtures_dir()]).scenarios:
        assert runner.run(scenario).outcome == "pass"
        spec = next(s for s in game_specs() if s.game == scenario.game)
        if max(engine.seen) > engine.seen[0]:
            assert "match" in needs(spec, scenario), scenario.id


@pytest.mark.parametrize("command", ["fuzz", "properties"])
def test_fuzz_and_properties_send_only_what_the_engine_declares(
        command: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    # the engine raises on later layouts and mid-game layouts, and refuses with illegal only
    monkeypatch.syspath_prepend(str(Path(__file__).parent))
    code = main([command, "--engine", "fake_engines:OneHandFromADealEngine", "--game", "gin-rummy",
                 "--examples", "15", "--seed", "1"])
    assert code == 0, capsys.readouterr().out
