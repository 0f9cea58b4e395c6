"""Runs scenarios against an engine and judges each: pass, fail, skip or error.

The runner never asks any engine what is right: expectations come from the fixture only.
An engine that raises, answers out of contract or lists non-canonical actions gets an error,
which is never a pass and never a correct refusal.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterable, Iterator
from collections import deque
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from harness import capabilities as caps
from harness import spec as specs
from harness.cards import show
from harness.compare import differences
from harness.engine import Engine
from harness.fixtures import Scenario, Step
from harness.legal_order import first_misplaced
from harness.patterns import is_pattern, matches, meld_index, names_meld_by_cards
from harness.players import decisions
from harness.plan import Call, Planned, Replay
from harness.semver import parse_version

OUTCOMES = ("pass", "fail", "error", "skip")
PREPARED_AHEAD = 4  # scenarios a remote engine may be asked about before the one being judged


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
    feature: str | None = None  # the missing feature a skip names
    unchecked: list[str] = field(default_factory=list)  # checks the engine's declared features leave out

    @property
    def charged(self) -> tuple[str, ...]:
        """The clauses a failure or error is charged to: the failing step's, else the fixture's."""
        if self.outcome in ("fail", "error") and self.step is not None and self.step.clauses:
            return self.step.clauses
        return self.scenario.clauses

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
    talked: bool = False  # whether it exchanged anything with the engine
    blame: str | None = None  # a protocol fault found now that belongs to the scenario that talked before
    fault: str | None = None  # a protocol fault of its own found later (grouped: before it is handed over)


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
        settle = getattr(self.engine, "settle", None)
        if settle is not None:  # alone, a scenario is cleared of stray output at once (one more round trip)
            result = _release([(result, True)], settle())[0]
        result.seconds = time.perf_counter() - started
        return result

    def run_all(self, scenarios: Iterable[Scenario]) -> Iterator[FixtureResult]:
        """Judge scenarios in order; a pipelining engine is asked about the next ones meanwhile.

        Talking to a remote engine is mostly waiting, so a worker thread does it ahead of the
        judging, and the engine's work overlaps the harness's on another core (an engine taking
        several batches per write is judged on that thread too, see ``grouped``). An in-process
        engine is run scenario by scenario (it may hold one game at a time).
        """
        if not getattr(self.engine, "pipelines", False):
            yield from map(self.run, scenarios)
            return
        # A fault can show only in what comes after a scenario's last answer (a stray line), so a
        # result is held until the next scenario's exchange (or the end) has cleared or blamed it.
        held: list[tuple[FixtureResult, bool]] = []
        jobs, in_hand = self._jobs(scenarios)
        ahead: deque[Future[list[_Prepared]]] = deque()
        with ThreadPoolExecutor(max_workers=1, thread_name_prefix="engine-io") as pool:
            try:
                for job in jobs:
                    ahead.append(pool.submit(job))
                    if len(ahead) > in_hand:  # a few in hand: the engine never waits for the judging
                        for prepared in ahead.popleft().result():
                            yield from self._judge_held(prepared, held)
                while ahead:
                    for prepared in ahead.popleft().result():
                        yield from self._judge_held(prepared, held)
            except BaseException:  # Ctrl-C, or the caller stopped early: start no further scenario
                pool.shutdown(wait=False, cancel_futures=True)
                raise
        yield from _release(held, getattr(self.engine, "settle", lambda: None)())

    def _jobs(self, scenarios: Iterable[Scenario]) -> tuple[Iterator[Callable[[], list[_Prepared]]], int]:
        """The worker's jobs, each preparing some scenarios in order, and how many jobs to keep ahead.

        An engine that pipelines batches gets a few scenarios per write (``grouped``); any other, one
        scenario per exchange.
        """
        if getattr(self.engine, "pipelines_batches", False):
            from harness import grouped

            return grouped.jobs(self, scenarios), grouped.AHEAD
        return (partial(lambda s: [self._timed_prepare(s)], scenario) for scenario in scenarios), PREPARED_AHEAD

    def _judge_held(self, prepared: _Prepared, held: list[tuple[FixtureResult, bool]]) -> list[FixtureResult]:
        """Judge ``prepared`` into ``held``; the results it clears (or blames) for release."""
        started = time.perf_counter()
        result = self._judge(prepared)
        if prepared.fault:
            result = FixtureResult(result.scenario, "error", prepared.fault, rule_version=result.rule_version)
        result.seconds = prepared.seconds + time.perf_counter() - started
        released = _release(held, prepared.blame) if prepared.talked or prepared.blame else []
        held.append((result, prepared.talked))
        return released

    def _timed_prepare(self, scenario: Scenario) -> _Prepared:
        """``_prepare``, with the time it took."""
        started = time.perf_counter()
        prepared = self._prepare(scenario)
        if prepared.play is not None and (prepared.play.decider or not isinstance(prepared.play.game, Replay)):
            # A live game (the plan could not be made ahead), or players to ask: the next scenario's
            # start would end the game, and its requests must not cross these, so it is judged here.
            prepared.result = self._judge(prepared)
        prepared.seconds = time.perf_counter() - started
        return prepared

    def _prepare(self, scenario: Scenario) -> _Prepared:
        """Everything that talks to the engine before judging: the version, the start, a prefetch."""
        prepared = self._ready(scenario)
        return prepared if prepared.play is None else self._start(prepared)

    def _ready(self, scenario: Scenario) -> _Prepared:
        """The scenario decided without the engine (a skip, an error), or its play, not yet started."""
        if self.describe_error:
            return _Prepared(scenario, FixtureResult(
                scenario, "error", f"the engine cannot describe itself: {self.describe_error}"))
        chosen = self._choose_version(scenario)
        if isinstance(chosen, str):
            return _Prepared(scenario, FixtureResult(scenario, "skip", chosen))
        capabilities = caps.declared(self.description["games"][scenario.game])
        lacking = caps.missing(capabilities, caps.needs(chosen, scenario))
        if lacking is not None:
            return _Prepared(scenario, FixtureResult(scenario, "skip", lacking[1], rule_version=chosen.rule_version,
                                                     feature=lacking[0]))
        out_of_range = caps.outside_range(capabilities, scenario.options)
        if out_of_range is not None:
            return _Prepared(scenario, FixtureResult(scenario, "skip", out_of_range, rule_version=chosen.rule_version))
        skip = decisions.skip_reason(self.description, scenario)
        if skip:
            return _Prepared(scenario, FixtureResult(scenario, "skip", skip, rule_version=chosen.rule_version))
        play = _Play(scenario, chosen, capabilities)
        play.decider = decisions.decider(self.engine, self.description, scenario)
        return _Prepared(scenario, None, play)

    def _start(self, prepared: _Prepared) -> _Prepared:
        """Start the play's game; across a pipe, with the whole plan answered in the same exchange."""
        play = prepared.play
        assert play is not None
        take_blame = getattr(self.engine, "take_indictment", lambda: None)
        prepared.talked = True
        try:
            play.game = self.engine.start(play.setup())
            prefetch: Callable[[list[Call]], list[Any]] | None = getattr(play.game, "prefetch", None)
            planned = Planned.of(play) if prefetch is not None else None
            if prefetch is not None and planned is not None:
                play.game = planned.replay(prefetch(planned.requests))
        except Exception as error:
            prepared.result = play.failed_start(error)
        prepared.blame = take_blame()
        return prepared

    def _judge(self, prepared: _Prepared) -> FixtureResult:
        """Play the steps and judge them (against a prefetched replay, or the live game)."""
        if prepared.result is not None:
            return prepared.result
        play = prepared.play
        assert play is not None
        result, questions = self._ask_later(play)
        if not questions:
            return result
        try:
            answers: list[Any] = self.engine.call_many(choose_requests(questions))  # type: ignore[attr-defined]
        except Exception as error:  # a protocol failure before the first answer: every choice has it
            answers = [error]
        return self._judge_choices(play, result, questions, answers)

    def _ask_later(self, play: _Play) -> tuple[FixtureResult, list[decisions.Question]]:
        """The steps judged; against a replay, the players' questions are kept to be asked together after."""
        decider = play.decider
        if decider is None or not isinstance(play.game, Replay):
            return self._play_steps(play), []
        decider.pending = []
        result = self._play_steps(play)
        questions, decider.pending = decider.pending, None
        return result, questions

    def _judge_choices(self, play: _Play, result: FixtureResult, questions: list[decisions.Question],
                       answers: list[Any]) -> FixtureResult:
        """``result`` after the players' answers to ``questions`` (a failure last, if they broke off).

        Each question was kept at a step before the one ``result`` stops at (a step judged at
        once), so a wrong choice comes first, as it would have when asked in its turn.
        """
        steps = [step for step in play.scenario.steps if step.decide is not None]
        for index, (step, question) in enumerate(zip(steps, questions)):
            answer = answers[min(index, len(answers) - 1)]
            choice = answer if isinstance(answer, Exception) else answer["result"]
            try:
                play.decider.judge_choice(play, question, choice)  # type: ignore[union-attr]
            except Verdict as verdict:
                return FixtureResult(play.scenario, verdict.outcome, f"step {step.index + 1} (line {step.line}): "
                                     f"{verdict.message}", verdict.details, step, play.spec.rule_version,
                                     unchecked=play.unchecked[:question.unchecked])
        return result

    def _play_steps(self, play: _Play) -> FixtureResult:
        """Play the steps and judge them; the first failing step is the verdict."""
        scenario = play.scenario
        for step in scenario.steps:
            try:
                play.step(step)
            except RecursionError:  # an answer nested past what Python can walk: the engine's fault
                return FixtureResult(scenario, "error", f"step {step.index + 1} (line {step.line}): an answer of "
                                     "the engine is nested too deeply to check", [], step, play.spec.rule_version)
            except Verdict as verdict:
                where = f"step {step.index + 1} (line {step.line})"
                return FixtureResult(scenario, verdict.outcome, f"{where}: {verdict.message}", verdict.details,
                                     step, play.spec.rule_version, unchecked=play.unchecked)
        return FixtureResult(scenario, "pass", rule_version=play.spec.rule_version, unchecked=play.unchecked)

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

    def __init__(self, scenario: Scenario, spec: specs.GameSpec,
                 capabilities: caps.Capabilities | None = None) -> None:
        self.scenario, self.spec = scenario, spec
        self.capabilities = capabilities or caps.Capabilities()
        self.game: Any = None
        self.checked: set[int] = set()  # the views already checked (a replay hands the same one out again)
        self.unchecked: list[str] = []
        self.decider: decisions.Decider | None = None

    def setup(self) -> dict[str, Any]:
        """The complete setup sent to the engine: every option explicit; a seeded layout as seed and players."""
        setup = {"game": self.scenario.game, "rule_version": self.spec.rule_version,
                 "options": {**self.spec.option_defaults, **self.scenario.options}}
        if "seed" in self.scenario.layout:
            return {**setup, **self.scenario.layout}
        return {**setup, "layout": self.scenario.layout, "later_layouts": list(self.scenario.later_layouts)}

    def failed_start(self, error: Exception) -> FixtureResult:
        """The result of a scenario whose game could not be started (or its plan answered)."""
        return FixtureResult(self.scenario, "error", f"the engine raised while starting: {type(error).__name__}: "
                             f"{error}", rule_version=self.spec.rule_version)

    def call(self, what: str, function: Any, *args: Any) -> Any:
        """Call the engine; an exception becomes an error verdict."""
        try:
            return function(*args)
        except Exception as error:
            raise Verdict("error", f"the engine raised in {what}: {type(error).__name__}: {error}") from None

    def state(self) -> dict[str, Any]:
        """The engine's state view, checked against the spec's schema."""
        view = self.call("state()", self.game.state)
        if not isinstance(view, dict):
            raise Verdict("error", f"state() returned {type(view).__name__}, not a mapping")
        return self.checked_view("state view", view)

    def checked_view(self, what: str, view: Any) -> dict[str, Any]:
        """``view`` once it follows the spec's state_view schema: every view is checked, not only the first."""
        if not isinstance(view, dict):
            raise Verdict("error", f"the engine's {what} is {type(view).__name__}, not a mapping")
        if id(view) not in self.checked:
            if not self.spec.state_validator.is_valid(view):
                problems = [f"{'/'.join(map(str, e.absolute_path)) or '$'}: {e.message}"
                            for e in self.spec.state_validator.iter_errors(view)]
                raise Verdict("error", f"the {what} does not follow the spec's state_view schema", problems[:10])
            self.checked.add(id(view))
        return view

    def step(self, step: Step) -> None:
        """Play one step and check what it expects."""
        if step.action is not None:
            self.act(step)
        if step.state is not None:
            self.check_view("state view", step.state, self.state())
        if step.observe is not None:
            seat = step.observe["seat"]
            view = self.checked_view(f"observation of seat {seat}",
                                     self.call(f"observation({seat})", self.game.observation, seat))
            self.check_view(f"observation of seat {seat}", step.observe["state"], view)
        if step.legal is not None:
            self.check_legal(step.legal)
        if step.decide is not None and self.decider is not None:
            self.decider.judge(self, step.decide)

    def act(self, step: Step) -> None:
        """Apply the step's action and judge acceptance, the reason, and an unchanged state."""
        assert step.action is not None and step.seat is not None
        before = self.state() if step.expect == "refused" or self.decider is not None else None
        action = self.resolved(step.action)
        reason = self.call("apply()", self.game.apply, step.seat, action)
        if reason is None and self.decider is not None and before is not None:
            self.decider.record(step.seat, action, before)
        said = _Said(step)
        if reason is not None and not isinstance(reason, str):
            raise Verdict("error", f"apply() returned {reason!r}; expected None (accepted) or a reason code")
        if self.capabilities.illegal_only:
            if reason not in (None, "illegal"):
                raise Verdict("error", f"{said} was refused with {reason!r}, but the engine declares "
                                       "reasons: illegal (every refusal is the code illegal)")
        elif reason is not None and reason not in self.spec.reasons:
            raise Verdict("error", f"{said} was refused with {reason!r}, which is not in the closed list of reason codes")
        if step.expect == "accepted":
            if reason is not None:
                raise Verdict("fail", f"{said} was refused ({reason}), but must be accepted")
            return
        if reason is None:
            must = f" ({' or '.join(step.reasons)})" if step.reasons else ""
            raise Verdict("fail", f"{said} was accepted, but must be refused{must}")
        if step.reasons and self.capabilities.illegal_only:
            self.unchecked.append(f"step {step.index + 1} (line {step.line}): the reason {' or '.join(step.reasons)} "
                                  "(the engine refuses with illegal only)")
        elif step.reasons and reason not in step.reasons:
            wanted = step.reasons[0] if len(step.reasons) == 1 else f"one of {', '.join(step.reasons)}"
            raise Verdict("fail", f"{said} was refused with {reason}, but the reason must be {wanted}")
        after = self.state()
        if after != before:
            changed = [f"{d.path}: {show(d.expected)} before, {show(d.actual)} after" for d in differences(before, after)]
            raise Verdict("fail", f"{said} was refused, but the refusal changed the state view", changed[:10])

    def resolved(self, action: dict[str, Any]) -> dict[str, Any]:
        """``action`` with a lay-off's target meld named by its cards turned into its index in the state's melds."""
        if not names_meld_by_cards(action):
            return action
        melds = self.state().get("melds")
        index = meld_index(melds, action["onto"])
        if index is None:
            raise Verdict("fail", f"there is no meld {show(action['onto'])} to lay off onto; the melds are {show(melds)}")
        return {**action, "onto": index}

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
        misplaced = first_misplaced(self.spec, actions)
        if misplaced is not None:
            raise Verdict("error", misplaced)
        problems = []
        if "exactly" in legal:
            wanted = {_key(a): a for a in legal["exactly"]}
            problems += [f"missing: {show(a)}" for k, a in wanted.items() if k not in listed]
            problems += [f"not legal, but listed: {show(a)}" for k, a in listed.items() if k not in wanted]
        for action in legal.get("includes", []):
            if _key(action) not in listed and not any(matches(action, a) for a in listed.values()):
                problems.append(f"missing: {show(action)}" + (" (with any other keys)" if is_pattern(self.spec, action) else ""))
        for action in legal.get("excludes", []):
            matched = [a for a in listed.values() if matches(action, a)]
            problems += [f"not legal, but listed: {show(a)}" for a in matched]
        if "count" in legal and legal["count"] != len(listed):
            problems.append(f"count: expected {legal['count']} legal actions, got {len(listed)}")
        if problems:
            missing = sum(p.startswith("missing: ") for p in problems)
            extra = sum(p.startswith("not legal, but listed: ") for p in problems)
            counted = f" ({missing} missing, {extra} listed but not legal)" if missing + extra > 1 else ""
            raise Verdict("fail", f"the legal actions differ from the fixture{counted}", problems)


def choose_requests(questions: list[decisions.Question]) -> list[tuple[str, dict[str, Any]]]:
    """The choose requests asking the players ``questions`` (interface view: no game needed)."""
    return [("choose", {"view": question.view}) for question in questions]


def _release(held: list[tuple[FixtureResult, bool]], blame: str | None) -> list[FixtureResult]:
    """The held results, the one that talked to the engine made an error when a fault found later is its own."""
    if blame:
        for index, (result, talked) in enumerate(held):
            if talked:
                held[index] = (FixtureResult(result.scenario, "error", blame,
                                             rule_version=result.rule_version, seconds=result.seconds), talked)
    released = [result for result, _ in held]
    held.clear()
    return released


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
