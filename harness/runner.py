"""Runs scenarios against an engine and judges each: pass, fail, skip or error.

The runner never asks any engine what is right: expectations come from the fixture only.
An engine that raises, answers out of contract or lists non-canonical actions gets an error,
which is never a pass and never a correct refusal.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from harness import spec as specs
from harness.cards import show
from harness.compare import differences
from harness.engine import Engine
from harness.fixtures import Scenario, Step
from harness.players import decisions
from harness.semver import parse_version

OUTCOMES = ("pass", "fail", "error", "skip")


@dataclass
class FixtureResult:
    """What happened to one scenario."""

    scenario: Scenario
    outcome: str
    message: str = ""
    details: list[str] = field(default_factory=list)
    step: Step | None = None
    rule_version: str | None = None
    seconds: float = 0.0

    @property
    def line(self) -> int:
        """The YAML line to point at: the failing step's, else the fixture's."""
        return self.step.line if self.step else self.scenario.line

    def report(self) -> str:
        """The message and its details, one per line."""
        return "\n".join([self.message, *("  " + d for d in self.details)])


@dataclass
class _Prepared:
    """A scenario ready to judge: already decided (skip, error), or a play to step through."""

    scenario: Scenario
    result: FixtureResult | None
    play: _Play | None = None
    seconds: float = 0.0


class Verdict(Exception):
    """Ends a scenario early with a failure or an error."""

    def __init__(self, outcome: str, message: str, details: list[str] | None = None) -> None:
        super().__init__(message)
        self.outcome, self.message, self.details = outcome, message, details or []


class Runner:
    """Judges scenarios against one engine."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.description: dict[str, Any] = {}
        self.describe_error = ""
        try:
            self.description = dict(engine.describe())
        except Exception as error:  # an engine's bug must not stop the run
            self.describe_error = f"describe() raised {type(error).__name__}: {error}"

    def run(self, scenario: Scenario) -> FixtureResult:
        """Judge one scenario."""
        started = time.perf_counter()
        result = self._judge(self._prepare(scenario))
        result.seconds = time.perf_counter() - started
        return result

    def run_all(self, scenarios: Iterable[Scenario]) -> Iterator[FixtureResult]:
        """Judge scenarios in order; a pipelining engine is asked about the next ones meanwhile.

        Talking to a remote engine is mostly waiting, so a worker thread does it ahead of the
        judging, and the engine's work overlaps the harness's on another core. An in-process
        engine is run scenario by scenario (it may hold one game at a time).
        """
        if not getattr(self.engine, "pipelines", False):
            yield from map(self.run, scenarios)
            return
        with ThreadPoolExecutor(max_workers=1, thread_name_prefix="engine-io") as pool:
            for prepared in pool.map(self._timed_prepare, scenarios):
                started = time.perf_counter()
                result = self._judge(prepared)
                result.seconds = prepared.seconds + time.perf_counter() - started
                yield result

    def _timed_prepare(self, scenario: Scenario) -> _Prepared:
        """``_prepare``, with the time it took."""
        started = time.perf_counter()
        prepared = self._prepare(scenario)
        prepared.seconds = time.perf_counter() - started
        return prepared

    def _prepare(self, scenario: Scenario) -> _Prepared:
        """Everything that talks to the engine before judging: the version, the start, a prefetch."""
        if self.describe_error:
            return _Prepared(scenario, FixtureResult(
                scenario, "error", f"the engine cannot describe itself: {self.describe_error}"))
        chosen = self._choose_version(scenario)
        if isinstance(chosen, str):
            return _Prepared(scenario, FixtureResult(scenario, "skip", chosen))
        skip = decisions.skip_reason(self.description, scenario)
        if skip:
            return _Prepared(scenario, FixtureResult(scenario, "skip", skip))
        play = _Play(scenario, chosen)
        play.decider = decisions.decider(self.engine, self.description, scenario)
        try:
            play.game = self.engine.start(play.setup())
            prefetch = getattr(play.game, "prefetch", None)
            if prefetch is not None and play.decider is None:  # a remote engine answers the whole plan in one go
                plan = planned_calls(scenario)
                unique, positions = without_repeats(plan)
                answers = prefetch(unique)
                play.game = Replay(plan, [answers[min(i, len(answers) - 1)] for i in positions])
        except Exception as error:
            return _Prepared(scenario, FixtureResult(
                scenario, "error", f"the engine raised while starting: {type(error).__name__}: {error}",
                rule_version=chosen.rule_version))
        return _Prepared(scenario, None, play)

    def _judge(self, prepared: _Prepared) -> FixtureResult:
        """Play the steps and judge them (against a prefetched replay, or the live game)."""
        if prepared.result is not None:
            return prepared.result
        play, scenario = prepared.play, prepared.scenario
        assert play is not None
        for step in scenario.steps:
            try:
                play.step(step)
            except Verdict as verdict:
                where = f"step {step.index + 1} (line {step.line})"
                return FixtureResult(scenario, verdict.outcome, f"{where}: {verdict.message}", verdict.details,
                                     step, play.spec.rule_version)
        return FixtureResult(scenario, "pass", rule_version=play.spec.rule_version)

    def _choose_version(self, scenario: Scenario) -> specs.GameSpec | str:
        """The newest rule version both the spec and the engine have, or why there is none."""
        declared = self.description.get("games", {}).get(scenario.game)
        if declared is None:
            return f"the engine does not implement {scenario.game}"
        versions = set(declared.get("rule_versions", []))
        candidates = [s for s in specs.specs_in_range(scenario.game, scenario.rule_versions) if s.rule_version in versions]
        if not candidates:
            return (f"the engine implements {scenario.game} {', '.join(sorted(versions, key=parse_version)) or 'no version'}; "
                    f"the fixture covers {scenario.rule_versions}")
        spec = candidates[-1]
        supported = set(declared.get("options", []))
        for name, value in scenario.options.items():
            if name not in supported and value != spec.option_defaults.get(name):
                return f"the engine does not implement option {name}={json.dumps(value)}"
        return spec


class _Play:
    """One scenario being played: the setup, the engine's game, and the checks of each step."""

    def __init__(self, scenario: Scenario, spec: specs.GameSpec) -> None:
        self.scenario, self.spec = scenario, spec
        self.game: Any = None
        self.view_checked = False
        self.decider: decisions.Decider | None = None

    def setup(self) -> dict[str, Any]:
        """The complete setup sent to the engine: every option explicit."""
        return {
            "game": self.scenario.game, "rule_version": self.spec.rule_version,
            "options": {**self.spec.option_defaults, **self.scenario.options},
            "layout": self.scenario.layout, "later_layouts": list(self.scenario.later_layouts),
        }

    def call(self, what: str, function: Any, *args: Any) -> Any:
        """Call the engine; an exception becomes an error verdict."""
        try:
            return function(*args)
        except Exception as error:
            raise Verdict("error", f"the engine raised in {what}: {type(error).__name__}: {error}") from None

    def state(self) -> dict[str, Any]:
        """The engine's state view, checked against the spec's schema the first time."""
        view = self.call("state()", self.game.state)
        if not isinstance(view, dict):
            raise Verdict("error", f"state() returned {type(view).__name__}, not a mapping")
        if not self.view_checked:
            self.view_checked = True
            problems = [f"{'/'.join(map(str, e.absolute_path)) or '$'}: {e.message}"
                        for e in self.spec.state_validator.iter_errors(view)]
            if problems:
                raise Verdict("error", "the state view does not follow the spec's state_view schema", problems[:10])
        return view

    def step(self, step: Step) -> None:
        """Play one step and check what it expects."""
        if step.action is not None:
            self.act(step)
        if step.state is not None:
            self.check_view("state view", step.state, self.state())
        if step.observe is not None:
            seat = step.observe["seat"]
            view = self.call(f"observation({seat})", self.game.observation, seat)
            self.check_view(f"observation of seat {seat}", step.observe["state"], view)
        if step.legal is not None:
            self.check_legal(step.legal)
        if step.decide is not None and self.decider is not None:
            self.decider.judge(self, step.decide)

    def act(self, step: Step) -> None:
        """Apply the step's action and judge acceptance, the reason, and an unchanged state."""
        assert step.action is not None and step.seat is not None
        before = self.state() if step.expect == "refused" or self.decider is not None else None
        reason = self.call("apply()", self.game.apply, step.seat, step.action)
        if reason is None and self.decider is not None and before is not None:
            self.decider.record(step.seat, step.action, before)
        said = _Said(step)
        if reason is not None and not isinstance(reason, str):
            raise Verdict("error", f"apply() returned {reason!r}; expected None (accepted) or a reason code")
        if reason is not None and reason not in self.spec.reasons:
            raise Verdict("error", f"{said} was refused with {reason!r}, which is not in the closed list of reason codes")
        if step.expect == "accepted":
            if reason is not None:
                raise Verdict("fail", f"{said} was refused ({reason}), but must be accepted")
            return
        if reason is None:
            must = f" ({step.reason})" if step.reason else ""
            raise Verdict("fail", f"{said} was accepted, but must be refused{must}")
        if step.reason is not None and reason != step.reason:
            raise Verdict("fail", f"{said} was refused with {reason}, but the reason must be {step.reason}")
        after = self.state()
        if after != before:
            changed = [f"{d.path}: {show(d.expected)} before, {show(d.actual)} after" for d in differences(before, after)]
            raise Verdict("fail", f"{said} was refused, but the refusal changed the state view", changed[:10])

    def check_view(self, what: str, expected: dict[str, Any], actual: dict[str, Any]) -> None:
        """The view holds everything the checkpoint names."""
        if not isinstance(actual, dict):
            raise Verdict("error", f"the engine's {what} is {type(actual).__name__}, not a mapping")
        found = differences(expected, actual)
        if found:
            raise Verdict("fail", f"the {what} differs from the fixture",
                          [f"{d.path}: expected {show(d.expected)}, got {show(d.actual)}" for d in found])

    def check_legal(self, legal: dict[str, Any]) -> None:
        """The engine's legal actions against ``exactly``, ``includes``, ``excludes`` and ``count``."""
        actions = self.call("legal_actions()", self.game.legal_actions)
        if not isinstance(actions, list) or not all(isinstance(a, dict) for a in actions):
            raise Verdict("error", "legal_actions() must return a list of action mappings")
        order = self.spec.card_order
        listed = {}
        for action in actions:
            kind = self.spec.action_kind(action)
            if kind is None or not self.spec.action_validators[kind].is_valid(action):
                raise Verdict("error", f"legal_actions() listed {show(action)}, which is not in the "
                                       f"{self.spec.game} vocabulary (spec/games/{self.spec.path.name}, actions)")
            canonical = order.canonical(action)
            if canonical != action:
                raise Verdict("error", f"legal_actions() listed {show(action)}, which is not in canonical form "
                                       f"({show(canonical)}); see spec/README.md, Actions")
            key = _key(action)
            if key in listed:
                raise Verdict("error", f"legal_actions() listed {show(action)} twice")
            listed[key] = action
        problems = []
        if "exactly" in legal:
            wanted = {_key(a): a for a in legal["exactly"]}
            problems += [f"missing: {show(a)}" for k, a in wanted.items() if k not in listed]
            problems += [f"not legal, but listed: {show(a)}" for k, a in listed.items() if k not in wanted]
        for action in legal.get("includes", []):
            if _key(action) not in listed:
                problems.append(f"missing: {show(action)}")
        for action in legal.get("excludes", []):
            if _key(action) in listed:
                problems.append(f"not legal, but listed: {show(action)}")
        if "count" in legal and legal["count"] != len(listed):
            problems.append(f"count: expected {legal['count']} legal actions, got {len(listed)}")
        if problems:
            raise Verdict("fail", "the legal actions differ from the fixture", problems)


Call = tuple[str, tuple[Any, ...]]


def planned_calls(scenario: Scenario) -> list[Call]:
    """The engine calls judging ``scenario`` makes, in order, if every step goes as the fixture says.

    Only ``apply`` changes a game and the script of actions is fixed, so a remote engine can be sent
    the whole plan at once; judging stops at the first failure, ignoring the rest of the answers.
    This must follow ``_Play.step`` call for call (``Replay`` checks it).
    """
    calls: list[Call] = []
    for step in scenario.steps:
        if step.action is not None:
            refused = step.expect == "refused"
            calls += [("state", ())] * refused + [("apply", (step.seat, step.action))] + [("state", ())] * refused
        if step.state is not None:
            calls.append(("state", ()))
        if step.observe is not None:
            calls.append(("observation", (step.observe["seat"],)))
        if step.legal is not None:
            calls.append(("legal_actions", ()))
    return calls


def without_repeats(plan: list[Call]) -> tuple[list[Call], list[int]]:
    """The plan with each read repeated before the next apply asked once; where each call's answer is.

    Between two applies nothing changes, so a second state() there (a refusal's "after" followed by
    the next refusal's "before") has the same answer.
    """
    unique: list[Call] = []
    positions: list[int] = []
    asked: dict[Call, int] = {}
    for call in plan:
        if call[0] == "apply":
            asked = {}
        elif call in asked:
            positions.append(asked[call])
            continue
        else:
            asked[call] = len(unique)
        positions.append(len(unique))
        unique.append(call)
    return unique, positions


class Replay:
    """A game that answers from a plan's prefetched outcomes, in the planned order."""

    def __init__(self, plan: list[Call], outcomes: list[Any]) -> None:
        self.plan, self.outcomes, self.next = plan, outcomes, 0

    def _answer(self, cmd: str, *args: Any) -> Any:
        index, self.next = self.next, self.next + 1
        if index >= len(self.plan) or self.plan[index] != (cmd, args):
            raise AssertionError(f"the harness called {cmd}{args} out of its plan; please report this kit bug")
        outcome = self.outcomes[index] if index < len(self.outcomes) else self.outcomes[-1]
        if isinstance(outcome, Exception):  # a failure ends the plan: every later call gets it too
            raise outcome
        return outcome

    def legal_actions(self) -> Any:
        return self._answer("legal_actions")

    def apply(self, seat: int, action: dict[str, Any]) -> Any:
        return self._answer("apply", seat, action)

    def state(self) -> Any:
        return self._answer("state")

    def observation(self, seat: int) -> Any:
        return self._answer("observation", seat)


class _Said:
    """"seat N {action}" for a message, written only if a message is needed (most steps pass)."""

    def __init__(self, step: Step) -> None:
        self.step = step

    def __str__(self) -> str:
        return f"seat {self.step.seat} {show(self.step.action)}"


def _key(action: dict[str, Any]) -> str:
    """A hashable identity for an action."""
    return json.dumps(action, sort_keys=True)


def count(results: list[FixtureResult]) -> dict[str, int]:
    """How many results of each outcome."""
    totals = dict.fromkeys(OUTCOMES, 0)
    for result in results:
        totals[result.outcome] += 1
    return totals
