"""The judging steps of one scenario: decided without the engine (a skip), started, played, its choices judged.

The runner takes scenarios through them one by one; ``grouped`` takes several through them in one
write. Both use only the public steps here.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from harness.adapters.engine import Engine
from harness.adapters.protocol import error_text
from harness.host.text import cut
from harness.run import capabilities as caps
from harness.run import decisions
from harness.run.plan import Call, Planned, Replay
from harness.run.play import Play, choose_requests
from harness.run.verdicts import Differs, FixtureResult, Verdict
from harness.spec import gamespec as specs
from harness.spec.semver import version_order
from harness.suite.model import Scenario


@dataclass
class Prepared:
    """A scenario ready to judge: already decided (skip, error), or a play to step through."""

    scenario: Scenario
    result: FixtureResult | None
    play: Play | None = None
    seconds: float = 0.0
    talked: bool = False  # whether it exchanged anything with the engine
    blame: str | None = None  # a protocol fault found now that belongs to the scenario that talked before
    fault: str | None = None  # a protocol fault of its own found later (grouped: before it is handed over)


class Judge:
    """The judging of scenarios against one engine, step by step: shared by the runner and the grouped runs."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.description: dict[str, Any] = {}
        self.describe_error = ""
        try:
            self.description = dict(engine.describe())
        except Exception as error:  # an engine's bug must not stop the run
            self.describe_error = f"describe() raised {type(error).__name__}: {error_text(error)}"

    def prepare(self, scenario: Scenario) -> Prepared:
        """Everything that talks to the engine before judging: the version, the start, a prefetch."""
        prepared = self.ready(scenario)
        return prepared if prepared.play is None else self.start(prepared)

    def ready(self, scenario: Scenario) -> Prepared:
        """The scenario decided without the engine (a skip, an error), or its play, not yet started."""
        if self.describe_error:
            return Prepared(scenario, FixtureResult(
                scenario, "error", f"the engine cannot describe itself: {self.describe_error}", error_kind="never-started"))
        chosen = self.choose_version(scenario)
        if isinstance(chosen, str):
            kind = ("game" if chosen.startswith("the engine does not implement ") and " option " not in chosen
                    else "option" if chosen.startswith("the engine does not implement option") else "rule version")
            return Prepared(scenario, FixtureResult(scenario, "skip", chosen, skip_kind=kind))
        capabilities = caps.declared(self.description["games"][scenario.game])
        lacking = caps.missing(capabilities, caps.needs(chosen, scenario))
        if lacking is not None:
            return Prepared(scenario, FixtureResult(scenario, "skip", lacking[1], rule_version=chosen.rule_version,
                                                     feature=lacking[0], skip_kind="feature"))
        out_of_range = caps.outside_range(capabilities, scenario.options)
        if out_of_range is not None:
            return Prepared(scenario, FixtureResult(scenario, "skip", out_of_range, rule_version=chosen.rule_version,
                                                     skip_kind="option range"))
        skip = decisions.skip_reason(self.description, scenario)
        if skip:
            return Prepared(scenario, FixtureResult(scenario, "skip", skip, rule_version=chosen.rule_version,
                                                     skip_kind="level"))
        play = Play(scenario, chosen, capabilities)
        play.decider = decisions.decider(self.engine, self.description, scenario)
        return Prepared(scenario, None, play)

    def start(self, prepared: Prepared) -> Prepared:
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

    def judge(self, prepared: Prepared) -> FixtureResult:
        """Play the steps and judge them (against a prefetched replay, or the live game)."""
        if prepared.result is not None:
            return prepared.result
        play = prepared.play
        assert play is not None
        result, questions = self.ask_later(play)
        if not questions:
            return result
        try:
            answers: list[Any] = self.engine.call_many(choose_requests(questions))  # type: ignore[attr-defined]
        except Exception as error:  # a protocol failure before the first answer: every choice has it
            answers = [error]
        return self.judge_choices(play, result, questions, answers)

    def ask_later(self, play: Play) -> tuple[FixtureResult, list[decisions.Question]]:
        """The steps judged; against a replay, the players' questions are kept to be asked together after."""
        decider = play.decider
        if decider is None or not isinstance(play.game, Replay):
            return self.play_steps(play), []
        decider.pending = []
        result = self.play_steps(play)
        questions, decider.pending = decider.pending, None
        return result, questions

    def judge_choices(self, play: Play, result: FixtureResult, questions: list[decisions.Question],
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
                                     unchecked=play.unchecked[:question.unchecked], raised_in=verdict.raised_in,
                                     error_kind=verdict.kind)
        return result

    def play_steps(self, play: Play) -> FixtureResult:
        """Play the steps and judge them; the first failing step is the verdict."""
        scenario = play.scenario
        for step in scenario.steps:
            try:
                play.step(step)
            except RecursionError:  # an answer nested past what Python can walk: the engine's fault
                return FixtureResult(scenario, "error", f"step {step.index + 1} (line {step.line}): an answer of "
                                     "the engine is nested too deeply to check", [], step, play.spec.rule_version,
                                     error_kind="answer")
            except Verdict as verdict:
                where = f"step {step.index + 1} (line {step.line})"
                differs = verdict.differs or (Differs("error") if verdict.outcome == "error" else None)
                return FixtureResult(scenario, verdict.outcome, f"{where}: {verdict.message}", verdict.details,
                                     step, play.spec.rule_version, unchecked=play.unchecked, raised_in=verdict.raised_in,
                                     error_kind=verdict.kind, differs=differs)
        return FixtureResult(scenario, "pass", rule_version=play.spec.rule_version, unchecked=play.unchecked)

    def choose_version(self, scenario: Scenario) -> specs.GameSpec | str:
        """The newest rule version both the spec and the engine have, or why there is none."""
        declared = self.description.get("games", {}).get(scenario.game)
        if declared is None:
            return f"the engine does not implement {scenario.game}"
        versions = set(declared.get("rule_versions", []))
        candidates = [s for s in specs.specs_in_range(scenario.game, scenario.rule_versions) if s.rule_version in versions]
        if not candidates:
            return (f"the engine implements {scenario.game} {', '.join(cut(v, 40) for v in sorted(map(str, versions), key=version_order)) or 'no version'}; "
                    f"the fixture covers {scenario.rule_versions}")
        spec = candidates[-1]
        supported = set(declared.get("options", []))
        for name, value in scenario.options.items():
            if name not in supported and value != spec.option_defaults.get(name):
                return f"the engine does not implement option {name}={json.dumps(value)}"
        return spec


def release(held: list[tuple[FixtureResult, bool]], blame: str | None) -> list[FixtureResult]:
    """The held results, the one that talked to the engine made an error when a fault found later is its own."""
    if blame:
        for index, (result, talked) in enumerate(held):
            if talked:
                held[index] = (FixtureResult(result.scenario, "error", blame, rule_version=result.rule_version,
                                             seconds=result.seconds, error_kind="protocol"), talked)
    released = [result for result, _ in held]
    held.clear()
    return released
