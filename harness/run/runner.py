"""Runs scenarios against an engine and judges each: pass, fail, skip or error.

The runner never asks any engine what is right: expectations come from the fixture only.
An engine that raises, answers out of contract or lists non-canonical actions gets an error,
which is never a pass and never a correct refusal.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from functools import partial

from harness.run import grouped
from harness.run.judge import Judge, Prepared, release
from harness.run.plan import Replay
from harness.run.verdicts import OUTCOMES, FixtureResult, count
from harness.suite.model import Scenario

__all__ = ["OUTCOMES", "FixtureResult", "Runner", "count"]
PREPARED_AHEAD = 4  # scenarios a remote engine may be asked about before the one being judged


class Runner(Judge):
    """Judges scenarios against one engine."""

    def run(self, scenario: Scenario) -> FixtureResult:
        """Judge one scenario."""
        started = time.perf_counter()
        result = self.judge(self.prepare(scenario))
        settle = getattr(self.engine, "settle", None)
        if settle is not None:  # alone, a scenario is cleared of stray output at once (one more round trip)
            result = release([(result, True)], settle())[0]
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
        ahead: deque[Future[list[Prepared]]] = deque()
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
        yield from release(held, getattr(self.engine, "settle", lambda: None)())

    def _jobs(self, scenarios: Iterable[Scenario]) -> tuple[Iterator[Callable[[], list[Prepared]]], int]:
        """The worker's jobs, each preparing some scenarios in order, and how many jobs to keep ahead.

        An engine that pipelines batches gets a few scenarios per write (``grouped``); any other, one
        scenario per exchange.
        """
        if getattr(self.engine, "pipelines_batches", False):
            return grouped.jobs(self, scenarios), grouped.AHEAD
        return (partial(lambda s: [self._timed_prepare(s)], scenario) for scenario in scenarios), PREPARED_AHEAD

    def _judge_held(self, prepared: Prepared, held: list[tuple[FixtureResult, bool]]) -> list[FixtureResult]:
        """Judge ``prepared`` into ``held``; the results it clears (or blames) for release."""
        started = time.perf_counter()
        result = self.judge(prepared)
        if prepared.fault:
            result = FixtureResult(result.scenario, "error", prepared.fault, rule_version=result.rule_version,
                                   error_kind="protocol")
        result.seconds = prepared.seconds + time.perf_counter() - started
        released = release(held, prepared.blame) if prepared.talked or prepared.blame else []
        held.append((result, prepared.talked))
        return released

    def _timed_prepare(self, scenario: Scenario) -> Prepared:
        """``prepare``, with the time it took."""
        started = time.perf_counter()
        prepared = self.prepare(scenario)
        if prepared.play is not None and (prepared.play.decider or not isinstance(prepared.play.game, Replay)):
            # A live game (the plan could not be made ahead), or players to ask: the next scenario's
            # start would end the game, and its requests must not cross these, so it is judged here.
            prepared.result = self.judge(prepared)
        prepared.seconds = time.perf_counter() - started
        return prepared
