"""Scenarios against an engine that pipelines batches: the exchanges of several scenarios in one write.

Each scenario's plan is still one batch of its own (its start, then every call judging it makes),
answered on a line of its own, so stray output between two answers is charged to the exchange
before, exactly as when the batches go one by one; only the waiting is shared. A scenario with
decisions asks its players once its plan is answered: those questions need no game (interface
view), so they go first in the next write, and the scenarios after it wait for its verdict to
keep the order. Runs on the runner's worker thread.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Iterator
from itertools import islice
from typing import TYPE_CHECKING, Any, Callable

from harness.adapters.protocol import AdapterError
from harness.adapters.remote import as_requests, as_results
from harness.fixtures import Scenario

if TYPE_CHECKING:
    from harness.players.decisions import Question
    from harness.runner import FixtureResult, Planned, Runner, _Prepared

GROUP = 8  # scenarios per write: enough to share the waiting, few enough to start judging soon
AHEAD = 2  # groups the worker may prepare before the one being judged


def jobs(runner: Runner, scenarios: Iterable[Scenario]) -> Iterator[Callable[[], list[_Prepared]]]:
    """The worker's jobs: a group of scenarios each, then one for the last scenario's questions."""
    grouper = Grouper(runner)
    stream = iter(scenarios)
    while group := list(islice(stream, GROUP)):
        yield lambda group=group: grouper.prepare(group)  # type: ignore[misc]
    yield grouper.finish


class Grouper:
    """Prepares scenarios group by group, carrying a scenario whose players' choices are still to come."""

    def __init__(self, runner: Runner) -> None:
        self.runner = runner
        self.engine: Any = runner.engine  # a RemoteEngine: the runner sends jobs here only when it pipelines batches
        self.asking: tuple[_Prepared, FixtureResult, list[Question]] | None = None
        self.waiting: list[_Prepared] = []  # in order, behind the scenario asking

    def prepare(self, group: list[Scenario]) -> list[_Prepared]:
        """``group`` prepared (judged, where the judging talks), as far as the order allows."""
        from harness.runner import Planned

        started = time.perf_counter()
        ready: list[_Prepared] = []
        segment: list[tuple[_Prepared, Planned | None]] = []
        for scenario in group:
            prepared = self.runner._ready(scenario)
            planned = Planned.of(prepared.play) if prepared.play is not None else None
            if prepared.play is not None and planned is None:  # played live: alone, after everything before it
                ready += self._send(segment) + self._send([])
                segment = []
                ready.append(self._live(prepared))
                continue
            segment.append((prepared, planned))
            if prepared.play is not None and prepared.play.decider is not None:
                ready += self._send(segment)  # its questions go with the next write
                segment = []
        ready += self._send(segment)
        for prepared in ready:
            prepared.seconds = (time.perf_counter() - started) / len(group)
        return ready

    def finish(self) -> list[_Prepared]:
        """The last scenario's questions asked, and everything waiting behind it."""
        return self._send([])

    def _live(self, prepared: _Prepared) -> _Prepared:
        """A scenario played in the live game (judged here: the next start would end it)."""
        self.runner._start(prepared)
        prepared.result = self.runner._judge(prepared)
        return prepared

    def _send(self, segment: list[tuple[_Prepared, Planned | None]]) -> list[_Prepared]:
        """The questions carried, then each planned scenario of ``segment``, in one write; what is ready."""
        exchanges: list[list[tuple[str, dict[str, Any]]]] = []
        if self.asking is not None:
            from harness.runner import choose_requests

            exchanges.append(choose_requests(self.asking[2]))
        for prepared, planned in segment:
            if planned is not None:
                assert prepared.play is not None
                exchanges.append([("start", {"setup": prepared.play.setup()}), *as_requests(planned.requests)])
        answered = iter(self.engine.call_exchanges(exchanges) if exchanges else [])
        ready: list[_Prepared] = []
        if self.asking is not None:
            asking, result, questions = self.asking
            assert asking.play is not None
            asking.result = self.runner._judge_choices(asking.play, result, questions, next(answered)[0])
            ready += [asking, *self.waiting]
            self.asking, self.waiting = None, []
        for prepared, planned in segment:
            if planned is not None:
                outcomes, prepared.blame = next(answered)
                prepared.talked = True
                self._replay(prepared, planned, outcomes)
                if self.asking is not None and self.asking[0] is prepared:
                    continue
            (self.waiting if self.asking is not None else ready).append(prepared)
        return ready

    def _replay(self, prepared: _Prepared, planned: Planned, outcomes: list[Any]) -> None:
        """The scenario's game made a replay of its answers; one with decisions judged, its questions kept."""
        play = prepared.play
        assert play is not None
        if isinstance(outcomes[0], Exception):
            prepared.result = play.failed_start(outcomes[0])
            return
        answers = outcomes[1:] or [AdapterError("the engine gave no answers after start")]
        play.game = planned.replay(as_results(planned.requests, answers))
        if play.decider is not None:
            result, questions = self.runner._ask_later(play)
            if questions:
                self.asking = (prepared, result, questions)
            else:
                prepared.result = result
