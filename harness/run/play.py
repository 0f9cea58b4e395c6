"""One scenario played on an engine: its setup, and each step's action and checks judged against the fixture."""

from __future__ import annotations

import re
from typing import Any

from harness.adapters.protocol import AdapterError, error_text
from harness.run import capabilities as caps
from harness.run.compare import differences
from harness.run.decisions import Decider, Question
from harness.run.legal_order import first_misplaced
from harness.run.verdicts import Differs, FixtureResult, Verdict, traceback_files
from harness.spec import gamespec as specs
from harness.spec.cards import action_key, show
from harness.suite.model import Scenario, Step
from harness.suite.patterns import is_pattern, matches, meld_index, names_meld_by_cards


def error_kind(error: Exception) -> str:
    """What an exception from the engine was: a fault of its transport (timeout, protocol) or a crash."""
    if isinstance(error, AdapterError):
        return "timeout" if " did not come within " in str(error) else "protocol"
    return "crash"


class Play:
    """One scenario being played: the setup, the engine's game, and the checks of each step."""

    def __init__(self, scenario: Scenario, spec: specs.GameSpec,
                 capabilities: caps.Capabilities | None = None) -> None:
        self.scenario, self.spec = scenario, spec
        self.capabilities = capabilities or caps.Capabilities()
        self.game: Any = None
        self.checked: set[int] = set()  # the views already checked (a replay hands the same one out again)
        self.unchecked: list[str] = []
        self.decider: Decider | None = None

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
                             f"{error_text(error)}", rule_version=self.spec.rule_version, raised_in=traceback_files(error),
                             error_kind=error_kind(error))

    def call(self, what: str, function: Any, *args: Any) -> Any:
        """Call the engine; an exception becomes an error verdict."""
        try:
            return function(*args)
        except Exception as error:
            raise Verdict("error", f"the engine raised in {what}: {type(error).__name__}: {error_text(error)}",
                          raised_in=traceback_files(error), kind=error_kind(error)) from None

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
            self.check_view("state view", step.state, self.state(), Differs("state"))
        if step.observe is not None:
            seat = step.observe["seat"]
            view = self.checked_view(f"observation of seat {seat}",
                                     self.call(f"observation({seat})", self.game.observation, seat))
            self.check_view(f"observation of seat {seat}", step.observe["state"], view, Differs("observation", seat=seat))
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
        said = Said(step)
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
                raise Verdict("fail", f"{said} was refused ({reason}), but must be accepted", differs=APPLY)
            return
        if reason is None:
            must = f" ({' or '.join(step.reasons)})" if step.reasons else ""
            raise Verdict("fail", f"{said} was accepted, but must be refused{must}", differs=APPLY)
        if step.reasons and self.capabilities.illegal_only:
            self.unchecked.append(f"step {step.index + 1} (line {step.line}): the reason {' or '.join(step.reasons)} "
                                  "(the engine refuses with illegal only)")
        elif step.reasons and reason not in step.reasons:
            wanted = step.reasons[0] if len(step.reasons) == 1 else f"one of {', '.join(step.reasons)}"
            raise Verdict("fail", f"{said} was refused with {reason}, but the reason must be {wanted}", differs=APPLY)
        after = self.state()
        if after != before:
            changed = [f"{d.path}: {show(d.expected)} before, {show(d.actual)} after" for d in differences(before, after)]
            raise Verdict("fail", f"{said} was refused, but the refusal changed the state view", changed[:10],
                          differs=APPLY)

    def resolved(self, action: dict[str, Any]) -> dict[str, Any]:
        """``action`` with a lay-off's target meld named by its cards turned into its index in the state's melds."""
        if not names_meld_by_cards(action):
            return action
        melds = self.state().get("melds")
        index = meld_index(melds, action["onto"])
        if index is None:
            raise Verdict("fail", f"there is no meld {show(action['onto'])} to lay off onto; the melds are {show(melds)}")
        return {**action, "onto": index}

    def check_view(self, what: str, expected: dict[str, Any], actual: dict[str, Any], view: Differs) -> None:
        """The view holds everything the checkpoint names (``view``: which one, for the clause trace)."""
        if not isinstance(actual, dict):
            raise Verdict("error", f"the engine's {what} is {type(actual).__name__}, not a mapping")
        found = differences(expected, actual)
        if found:
            paths = tuple(dict.fromkeys(dotted(d.path) for d in found))
            raise Verdict("fail", f"the {what} differs from the fixture",
                          [f"{d.path}: expected {show(d.expected)}, got {show(d.actual)}" for d in found],
                          differs=Differs(view.what, paths, seat=view.seat))

    def checked_legal(self, actions: Any) -> dict[str, dict[str, Any]]:
        """A legal list the engine gave, by key, once it is one: mappings of the game's actions, of cards
        that exist, canonical, each once, in the canonical order (any step kind's list, a decision's too)."""
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
            key = action_key(action)
            if key in listed:
                raise Verdict("error", f"legal_actions() listed {show(action)} twice")
            listed[key] = action
        misplaced = first_misplaced(self.spec, actions)
        if misplaced is not None:
            raise Verdict("error", misplaced)
        return listed

    def check_legal(self, legal: dict[str, Any]) -> None:
        """The engine's legal actions against ``exactly``, ``includes``, ``excludes`` and ``count``."""
        listed = self.checked_legal(self.call("legal_actions()", self.game.legal_actions))
        # a lay-off in the check may name its meld by its cards, as a step's action may: by its index here
        legal = {key: [self.resolved(a) for a in value] if key != "count" else value for key, value in legal.items()}
        problems = []
        disputed: list[dict[str, Any]] = []  # the actions one side lists and the other does not
        if "exactly" in legal:
            wanted = {action_key(a): a for a in legal["exactly"]}
            disputed += [a for k, a in wanted.items() if k not in listed] + [a for k, a in listed.items() if k not in wanted]
            problems += [f"missing: {show(a)}" for k, a in wanted.items() if k not in listed]
            problems += [f"not legal, but listed: {show(a)}" for k, a in listed.items() if k not in wanted]
        for action in legal.get("includes", []):
            if action_key(action) not in listed and not any(matches(action, a) for a in listed.values()):
                disputed += [] if is_pattern(self.spec, action) else [action]
                problems.append(f"missing: {show(action)}" + (" (with any other keys)" if is_pattern(self.spec, action) else ""))
        for action in legal.get("excludes", []):
            matched = [a for a in listed.values() if matches(action, a)]
            disputed += matched
            problems += [f"not legal, but listed: {show(a)}" for a in matched]
        if "count" in legal and legal["count"] != len(listed):
            problems.append(f"count: expected {legal['count']} legal actions, got {len(listed)}")
        if problems:
            missing = sum(p.startswith("missing: ") for p in problems)
            extra = sum(p.startswith("not legal, but listed: ") for p in problems)
            counted = f" ({missing} missing, {extra} listed but not legal)" if missing + extra > 1 else ""
            raise Verdict("fail", f"the legal actions differ from the fixture{counted}", problems,
                          differs=Differs("legal", actions=tuple(disputed)))


APPLY = Differs("apply")  # the engine's answer to the step's action (accepted, refused, the reason, the state kept)


def dotted(path: str) -> str:
    """A checkpoint difference's path (``round_results[0].winner``, ``discard (includes)``) as the clause trace's
    dotted field (``round_results.winner``, ``discard``)."""
    return re.sub(r"\[\d+\]", "", path.removesuffix(" (includes)")).lstrip("$.") or "$"


def choose_requests(questions: list[Question]) -> list[tuple[str, dict[str, Any]]]:
    """The choose requests asking the players ``questions`` (interface view: no game needed)."""
    return [("choose", {"view": question.view}) for question in questions]


class Said:
    """"seat N {action}" for a message, written only if a message is needed (most steps pass)."""

    def __init__(self, step: Step) -> None:
        self.step = step

    def __str__(self) -> str:
        return f"seat {self.step.seat} {show(self.step.action)}"
