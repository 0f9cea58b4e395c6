"""The plan of a scenario: the engine calls judging it makes, sent ahead to a remote engine and replayed.

Only ``apply`` changes a game and the script of actions is fixed, so the calls can be known
before any answer; a ``Replay`` then answers the judging from the prefetched answers, checking
that the judging asks exactly what was planned.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from harness.suite.model import Scenario
from harness.suite.patterns import names_meld_by_cards

if TYPE_CHECKING:
    from harness.run.play import Play


Call = tuple[str, tuple[Any, ...]]


def plannable(scenario: Scenario) -> bool:
    """Whether every call can be planned ahead: not when a lay-off's meld index comes from the state then."""
    return not any(names_meld_by_cards(step.action) for step in scenario.steps)


def planned_calls(scenario: Scenario, seats: int = 0) -> list[Call]:
    """The engine calls judging ``scenario`` makes, in order, if every step goes as the fixture says.

    Only ``apply`` changes a game and the script of actions is fixed, so a remote engine can be sent
    the whole plan at once; judging stops at the first failure, ignoring the rest of the answers.
    This must follow ``Play.step`` call for call (``Replay`` checks it). ``seats``: the scenario's
    decisions are judged too (its number of seats): the state before each action (for the players'
    history) and, at each decision, the state, the legal actions and the observation of every seat
    (the one to act is known only from that state).
    """
    calls: list[Call] = []
    for step in scenario.steps:
        if step.action is not None:
            refused = step.expect == "refused"
            calls += [("state", ())] * (refused or seats > 0) + [("apply", (step.seat, step.action))] + \
                [("state", ())] * refused
        if step.state is not None:
            calls.append(("state", ()))
        if step.observe is not None:
            calls.append(("observation", (step.observe["seat"],)))
        if step.legal is not None:
            calls.append(("legal_actions", ()))
        if step.decide is not None and seats:
            calls += [("state", ()), ("legal_actions", ()), ("observations", (seats,))]
    return calls


def seats(scenario: Scenario) -> int:
    """How many seats the scenario's game has: its hands, or the players of a deck or seed."""
    return len(scenario.layout.get("hands") or ()) or int(scenario.layout.get("players") or 0)


def with_every_seat(plan: list[Call]) -> tuple[list[Call], list[tuple[int, int | None]]]:
    """The plan with each ``observations`` call made one observation per seat; where each call's answers are."""
    calls: list[Call] = []
    spans: list[tuple[int, int | None]] = []
    for call in plan:
        if call[0] == "observations":
            spans.append((len(calls), call[1][0]))
            calls += [("observation", (seat,)) for seat in range(call[1][0])]
        else:
            spans.append((len(calls), None))
            calls.append(call)
    return calls, spans


def _at(answers: list[Any], start: int, span: int | None) -> Any:
    """The answer at ``start`` (the last one, a failure, past the end), or the ``span`` answers from there."""
    if span is None:
        return answers[min(start, len(answers) - 1)]
    return [answers[min(i, len(answers) - 1)] for i in range(start, start + span)]


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


class Planned:
    """A scenario's plan of calls, as the requests sent ahead and the replay their answers make."""

    def __init__(self, scenario: Scenario, seat_count: int) -> None:
        self.plan = planned_calls(scenario, seat_count)
        unique, self.positions = without_repeats(self.plan)
        self.requests, self.spans = with_every_seat(unique)

    @staticmethod
    def of(play: Play) -> Planned | None:
        """The play's plan, or None when it must be played live: a lay-off's meld found in the state then,
        or a bot of the engine's own (interface seat), which decides in the live game."""
        decider = play.decider
        if not plannable(play.scenario) or (decider is not None and not decider.asks_views):
            return None
        return Planned(play.scenario, seats(play.scenario) if decider else 0)

    def replay(self, answers: list[Any]) -> Replay:
        """The game that answers the plan from ``answers`` (one per request, a failure last if it broke off)."""
        outcomes = [_at(answers, start, span) for start, span in self.spans]
        return Replay(self.plan, [outcomes[i] for i in self.positions])


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
        if self.next < len(self.plan) and self.plan[self.next][0] == "observations":  # a decision's: every seat's
            answers = self._answer("observations", *self.plan[self.next][1])
            if not isinstance(seat, int) or not 0 <= seat < len(answers):
                raise LookupError(f"there is no seat {seat!r} in a game of {len(answers)} seats")
            if isinstance(answers[seat], Exception):
                raise answers[seat]
            return answers[seat]
        return self._answer("observation", seat)
