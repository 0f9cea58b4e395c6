"""The runner against fake engines that are wrong in known ways: each exact failure is asserted."""

from __future__ import annotations

from pathlib import Path

import fake_engines as fakes
import pytest

from harness.run.decisions import has_decisions
from harness.run.plan import Replay, plannable, planned_calls, without_repeats
from harness.run.runner import FixtureResult, Runner
from harness.suite.fixtures import load_paths
from harness.suite.model import Scenario
from reference_engine import ReferenceEngine

SCENARIOS = Path(__file__).parent / "data" / "scenarios"


@pytest.fixture(scope="module")
def scenarios() -> dict[str, Scenario]:
    loaded = load_paths([SCENARIOS])
    assert not loaded.errors
    return {s.id.removeprefix("harness."): s for s in loaded.scenarios}


def run(engine: object, scenario: Scenario) -> FixtureResult:
    return Runner(engine).run(scenario)  # type: ignore[arg-type]


def test_the_reference_engine_passes_the_harness_scenarios(scenarios: dict[str, Scenario]) -> None:
    for scenario in scenarios.values():
        result = run(ReferenceEngine(), scenario)
        assert (result.outcome, result.message) == ("pass", "")


def test_accepting_everything_is_caught_at_the_refused_step(scenarios: dict[str, Scenario]) -> None:
    result = run(fakes.make(fakes.AcceptsEverything), scenarios["meld-and-refuse"])
    assert result.outcome == "fail"
    assert result.message == ("step 3 (line 20): seat 0 {meld: [2♣, 3♦, 4♠]} was accepted, "
                              "but must be refused (invalid-meld)")
    assert result.step is not None and result.step.index == 2


def test_refusing_everything_is_caught_at_the_first_action(scenarios: dict[str, Scenario]) -> None:
    result = run(fakes.make(fakes.RefusesEverything), scenarios["meld-and-refuse"])
    assert (result.outcome, result.message) == (
        "fail", "step 1 (line 15): seat 0 {draw: stock} was refused (wrong-phase), but must be accepted")


def test_a_wrong_score_shows_expected_against_actual(scenarios: dict[str, Scenario]) -> None:
    result = run(fakes.make(fakes.WrongScores), scenarios["going-out-scores"])
    assert (result.outcome, result.message) == ("fail", "step 5 (line 23): the state view differs from the fixture")
    assert result.details == ["scores[0]: expected 48, got 49"]


def test_a_missing_legal_action_is_named(scenarios: dict[str, Scenario]) -> None:
    result = run(fakes.make(fakes.MissesALegalAction), scenarios["going-out-scores"])
    assert (result.outcome, result.message) == ("fail", "step 1 (line 15): the legal actions differ from the fixture")
    assert result.details == ["missing: {draw: discard}"]


def test_an_extra_legal_action_is_named(scenarios: dict[str, Scenario]) -> None:
    result = run(fakes.make(fakes.ListsAnIllegalAction), scenarios["going-out-scores"])
    assert result.outcome == "fail"
    assert result.details == ["not legal, but listed: {discard: A♠}"]


def test_non_canonical_legal_actions_are_an_engine_error(scenarios: dict[str, Scenario]) -> None:
    result = run(fakes.make(fakes.NonCanonicalActions), scenarios["going-out-scores"])
    assert result.outcome == "error"
    assert result.message.startswith("step 2 (line 16): legal_actions() listed {meld: [")
    assert "which is not in canonical form" in result.message


def test_actions_outside_the_vocabulary_are_an_engine_error(scenarios: dict[str, Scenario]) -> None:
    result = run(fakes.make(fakes.GarbageActions), scenarios["going-out-scores"])
    assert (result.outcome, result.message) == (
        "error", "step 1 (line 15): legal_actions() listed {teleport: 9c}, which is not in the rummy vocabulary "
                 "(spec/games/rummy-1.1.0.yaml, actions)")


def test_an_engine_that_raises_is_an_error_never_a_refusal(scenarios: dict[str, Scenario]) -> None:
    result = run(fakes.make(fakes.RaisesOnSecondAction), scenarios["meld-and-refuse"])
    assert (result.outcome, result.message) == (
        "error", "step 2 (line 17): the engine raised in apply(): RuntimeError: boom")


def test_a_reason_code_outside_the_closed_list_is_an_error(scenarios: dict[str, Scenario]) -> None:
    result = run(fakes.make(fakes.UnknownReason), scenarios["meld-and-refuse"])
    assert (result.outcome, result.message) == (
        "error", "step 3 (line 20): seat 0 {meld: [2♣, 3♦, 4♠]} was refused with 'nope', "
                 "which is not in the closed list of reason codes")


def test_a_refusal_that_changes_the_state_fails(scenarios: dict[str, Scenario]) -> None:
    result = run(fakes.make(fakes.RefusalChangesState), scenarios["meld-and-refuse"])
    assert (result.outcome, result.message) == (
        "fail", "step 3 (line 20): seat 0 {meld: [2♣, 3♦, 4♠]} was refused, but the refusal changed the state view")
    assert result.details == ["stock_size: 36 before, 35 after"]


def test_a_state_that_is_not_a_mapping_is_an_error(scenarios: dict[str, Scenario]) -> None:
    result = run(fakes.make(fakes.StateIsNotAMapping), scenarios["meld-and-refuse"])
    assert (result.outcome, result.message) == ("error", "step 2 (line 17): state() returned list, not a mapping")


def test_a_state_view_off_schema_is_an_error(scenarios: dict[str, Scenario]) -> None:
    result = run(fakes.make(fakes.StateMissesKeys), scenarios["meld-and-refuse"])
    assert result.outcome == "error"
    assert result.message == "step 2 (line 17): the state view does not follow the spec's state_view schema"
    assert result.details == ["$: 'phase' is a required property"]


def test_an_unsupported_option_is_skipped_with_the_reason(scenarios: dict[str, Scenario]) -> None:
    result = run(fakes.RummyOnlyWithoutOptions(), scenarios["needs-ace-high"])
    assert (result.outcome, result.message) == ("skip", "the engine does not implement option ace_high=true")
    assert run(fakes.RummyOnlyWithoutOptions(), scenarios["meld-and-refuse"]).outcome == "pass"


def test_an_unsupported_rule_version_is_skipped(scenarios: dict[str, Scenario]) -> None:
    result = run(fakes.OtherRuleVersion(), scenarios["meld-and-refuse"])
    assert (result.outcome, result.message) == (
        "skip", "the engine implements rummy 1.0.0; the fixture covers >=1.1.0 <2.0.0")


def test_an_unsupported_game_is_skipped(scenarios: dict[str, Scenario]) -> None:
    engine = fakes.RummyOnlyWithoutOptions()
    engine.describe = lambda: {"name": "p", "version": "0", "games": {"president": {"rule_versions": ["1.1.0"]}}}  # type: ignore[method-assign]
    result = run(engine, scenarios["meld-and-refuse"])
    assert (result.outcome, result.message) == ("skip", "the engine does not implement rummy")


def test_an_engine_that_cannot_describe_itself_errors_every_scenario(scenarios: dict[str, Scenario]) -> None:
    result = run(fakes.DescribeRaises(), scenarios["meld-and-refuse"])
    assert (result.outcome, result.message) == (
        "error", "the engine cannot describe itself: describe() raised OSError: no such engine")


def test_an_engine_that_cannot_start_is_an_error(scenarios: dict[str, Scenario]) -> None:
    result = run(fakes.StartRaises(), scenarios["meld-and-refuse"])
    assert (result.outcome, result.message) == (
        "error", "the engine raised while starting: ValueError: cannot deal")


class RecordsCalls(fakes.WrappedGame):
    """Passes everything through, noting each call as the runner's plan names it."""

    log: list[tuple[str, tuple[object, ...]]] = []

    def legal_actions(self) -> list[dict[str, object]]:
        self.log.append(("legal_actions", ()))
        return super().legal_actions()

    def apply(self, seat: int, action: dict[str, object]) -> str | None:
        self.log.append(("apply", (seat, action)))
        return super().apply(seat, action)

    def state(self) -> dict[str, object]:
        self.log.append(("state", ()))
        return super().state()

    def observation(self, seat: int) -> dict[str, object]:
        self.log.append(("observation", (seat,)))
        return super().observation(seat)


def test_the_plan_for_pipelining_is_exactly_what_judging_calls() -> None:
    from harness.spec.paths import fixtures_dir

    runner = Runner(fakes.make(RecordsCalls))
    for scenario in [*load_paths([SCENARIOS]).scenarios, *load_paths([fixtures_dir()]).scenarios]:
        if has_decisions(scenario):  # never prefetched: a player decides in the live game
            continue
        RecordsCalls.log = []
        assert runner.run(scenario).outcome == "pass"
        if plannable(scenario):  # the others are never prefetched
            assert RecordsCalls.log == planned_calls(scenario), scenario.id


def test_repeated_reads_between_applies_are_asked_once() -> None:
    apply = ("apply", (0, {"draw": "stock"}))
    plan = [("state", ()), apply, ("state", ()), ("state", ()), ("legal_actions", ()), ("state", ()), apply, ("state", ())]
    unique, positions = without_repeats(plan)
    assert unique == [("state", ()), apply, ("state", ()), ("legal_actions", ()), apply, ("state", ())]
    assert positions == [0, 1, 2, 2, 3, 2, 4, 5]


def test_a_replay_refuses_calls_out_of_its_plan() -> None:
    replay = Replay([("state", ())], [{"phase": "draw"}])
    with pytest.raises(AssertionError, match="out of its plan"):
        replay.legal_actions()
