"""Scenarios against an engine that pipelines batches: the exchanges of several scenarios in one write.

Each exchange is one batch answered on a line of its own: a scenario's plan (its start, then
every call judging it makes), or the questions of a scenario with decisions, asked once its plan
is answered (interface view: they need no game), first thing in the next write. Stray output
before an exchange's answer is the fault of the exchange written before it, whichever scenario
that was, so a scenario is handed to the runner only once the exchange after its last one has
been answered (or, at the end, the engine fenced), with any such fault already its own. Runs on
the runner's worker thread, judging included: one thread, so the judging never waits for the
thread that reads the answers to get the interpreter back.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Iterator
from itertools import islice
from typing import Any, Callable

from harness.adapters.remote_game import after_start, as_requests, as_results
from harness.run.decisions import Question
from harness.run.judge import Judge, Prepared
from harness.run.plan import Planned
from harness.run.play import choose_requests
from harness.run.verdicts import FixtureResult
from harness.suite.model import Scenario

GROUP = 12  # scenarios per write: enough to share the waiting, few enough to start judging soon
AHEAD = 2  # writes the worker may prepare before the one being judged


def jobs(runner: Judge, scenarios: Iterable[Scenario]) -> Iterator[Callable[[], list[Prepared]]]:
    """The worker's jobs: a group of scenarios each, then one for the last questions and the fence."""
    grouper = Grouper(runner)
    stream = iter(scenarios)
    while group := list(islice(stream, GROUP)):
        yield lambda group=group: grouper.prepare(group)  # type: ignore[misc]
    yield grouper.finish


class Grouper:
    """Prepares scenarios write by write, holding each until no fault found later can be its own.

    A write's answers are worked on (replays made, decisions judged) while the engine answers
    the next write, so that neither side waits for the other; the questions they raise go in the
    write after that.
    """

    def __init__(self, runner: Judge) -> None:
        self.runner = runner
        self.engine: Any = runner.engine  # a RemoteEngine: the runner sends jobs here only when it pipelines batches
        self.asking: list[tuple[Prepared, FixtureResult, list[Question]]] = []  # questions for the next write
        self.answered: list[tuple[tuple[Prepared, Any], tuple[list[Any], str | None]]] = []  # not yet worked on
        self.pending: list[Prepared] = []  # in order, not yet handed over
        self.sent: tuple[list[tuple[Prepared, Any]], list[Any]] | None = None  # written ahead, not yet read
        self.last: Prepared | None = None  # whose exchange was written last: the next answer may blame it

    def prepare(self, group: list[Scenario]) -> list[Prepared]:
        """``group`` prepared (judged, where the judging talks); the scenarios ready to hand over."""
        started = time.perf_counter()
        segment: list[tuple[Prepared, Planned | None]] = []
        for scenario in group:
            prepared = self.runner.ready(scenario)
            planned = Planned.of(prepared.play) if prepared.play is not None else None
            if prepared.play is not None and planned is None:  # played live: alone, after everything before it
                self._write(segment)
                self._drain()
                segment = []
                self._live(prepared)
                continue
            segment.append((prepared, planned))
        self._write(segment)
        for prepared, _ in segment:
            prepared.seconds = (time.perf_counter() - started) / len(group)
        return self._ready()

    def finish(self) -> list[Prepared]:
        """The last questions asked, the engine fenced (stray output after the last answer), everything handed over."""
        self._drain()
        found = self.engine.settle()
        self._blame(found)
        self.last = None
        return self._ready()

    def _drain(self) -> None:
        """Every answer read and worked on, and every question asked."""
        self._read()
        self._work()
        while self.asking:
            self._write([])
            self._read()
            self._work()

    def _ready(self) -> list[Prepared]:
        """The pending scenarios, in order, up to the first not yet worked on, asking, or open to blame."""
        waiting = {id(prepared) for prepared, _, _ in self.asking} | {id(self.last)}
        waiting |= {id(prepared) for (prepared, _), _ in self.answered}
        waiting |= {id(prepared) for prepared, _ in self.sent[0]} if self.sent else set()
        count = next((i for i, prepared in enumerate(self.pending) if id(prepared) in waiting), len(self.pending))
        ready, self.pending = self.pending[:count], self.pending[count:]
        return ready

    def _live(self, prepared: Prepared) -> None:
        """A scenario played in the live game (judged here: the next start would end it)."""
        self.pending.append(prepared)
        self.runner.start(prepared)
        self._blame(prepared.blame)
        prepared.blame = None
        prepared.result = self.runner.judge(prepared)
        self.last = prepared

    def _blame(self, fault: str | None) -> None:
        """A fault of the exchange written last."""
        if fault and self.last is not None:
            self.last.fault = self.last.fault or fault

    def _write(self, segment: list[tuple[Prepared, Planned | None]]) -> None:
        """The questions carried, then each planned scenario of ``segment``, in one write.

        An engine that takes writes ahead (stdio) gets it at once, and the write before is then read
        and worked on while it answers this one (it never waits for the harness); any other engine
        answers it now, while the previous write's answers are worked on.
        """
        self.pending += [prepared for prepared, _ in segment]
        asking, self.asking = self.asking, []
        owners: list[tuple[Prepared, Any]] = [(prepared, (result, questions)) for prepared, result, questions in asking]
        owners += [(prepared, planned) for prepared, planned in segment if planned is not None]
        exchanges = [choose_requests(extra[1]) if isinstance(extra, tuple) else
                     [("start", {"setup": prepared.play.setup()}), *as_requests(extra.requests)]  # type: ignore[union-attr]
                     for prepared, extra in owners]
        if exchanges and self.engine.send_ahead(exchanges):
            self._read()
            self._work()
            self.sent = (owners, exchanges)
            return
        self._read()
        if not exchanges:
            self._work()
            return
        answers = self._exchange(exchanges, self._work)
        self._work()  # done already as the meanwhile, unless the exchange failed before that
        self.answered = list(zip(owners, answers))

    def _read(self) -> None:
        """The write sent ahead, if any: its answers read, to be worked on after those before them."""
        if self.sent is None:
            return
        owners, exchanges = self.sent
        self.sent = None
        self.answered += list(zip(owners, self._exchange(exchanges)))

    def _exchange(self, exchanges: list[list[tuple[str, dict[str, Any]]]],
                  meanwhile: Callable[[], None] = lambda: None) -> list[tuple[list[Any], str | None]]:
        """The answers to ``exchanges``; ``meanwhile`` run once while the engine works on them."""
        try:
            return self.engine.call_exchanges(exchanges, meanwhile=meanwhile)  # type: ignore[no-any-return]
        except Exception as error:  # a failure no transport foresaw: each exchange has it, the run goes on
            meanwhile()
            return [([error], None)] * len(exchanges)

    def _work(self) -> None:
        """The last write's answers, in order: faults charged, replays made, decisions judged."""
        answered, self.answered = self.answered, []
        for (prepared, extra), (outcomes, fault) in answered:
            self._blame(fault)
            self.last = prepared
            if isinstance(extra, tuple):
                result, questions = extra
                assert prepared.play is not None
                prepared.result = self.runner.judge_choices(prepared.play, result, questions, outcomes)
            else:
                prepared.talked = True
                self._replay(prepared, extra, outcomes)

    def _replay(self, prepared: Prepared, planned: Planned, outcomes: list[Any]) -> None:
        """The scenario judged on a replay of its answers, here while the engine answers the next write
        (the runner's thread then only hands results over); the players' questions kept for that write."""
        play = prepared.play
        assert play is not None
        try:
            answers = after_start(outcomes)
        except Exception as error:
            prepared.result = play.failed_start(error)
            return
        play.game = planned.replay(as_results(planned.requests, answers))
        result, questions = self.runner.ask_later(play)
        if questions:
            self.asking.append((prepared, result, questions))
        else:
            prepared.result = result
