"""The ladder's loop: deals in order, spread over worker processes, until the SPRT or the cap stops it.

Deal ``k`` always has the same seed and its result joins the test in the order of ``k``, so the
verdict, the deals needed and every number reported are the same whatever ``jobs`` is: workers
only compute ahead; results past the deciding deal are dropped. Ctrl-C is passed on to the workers,
and the games of every deal they had begun are kept as records (the one in progress unfinished).
"""

from __future__ import annotations

import concurrent.futures
import multiprocessing.util
import signal
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from harness.adapters.rule_versions import Played, played_here, playing_as
from harness.ladder.contestants import Contestant, close_player
from harness.ladder.deals import DealResult, IllegalChoice, Player, Table, play_deal
from harness.ladder.sprt import ACCEPT_H0, ACCEPT_H1, Bounds, Tally, decide, elo_interval, elo_of, llr

STRONGER, NOT_STRONGER, UNDECIDED = "A stronger", "no difference shown", "undecided at the cap"


@dataclass
class LadderResult:
    """Everything the ladder reports."""

    table: Table
    a: str
    b: str
    bounds: Bounds
    cap: int
    points: Tally = field(default_factory=Tally)
    scores: Tally = field(default_factory=Tally)
    wins: int = 0
    draws: int = 0
    losses: int = 0
    unfinished: int = 0
    games: int = 0
    verdict: str = UNDECIDED
    seconds: float = 0.0
    interrupted: bool = False  # Ctrl-C: the deals so far
    stopped: tuple[str, ...] = ()  # Ctrl-C: the records of the deals begun and not counted, games in progress unfinished
    course: list[dict[str, Any]] = field(default_factory=list)  # after each deal: the LLR and the Elo estimate with its interval

    @property
    def deals(self) -> int:
        """Deals played and counted."""
        return self.points.n

    @property
    def llr(self) -> float:
        """The test's log-likelihood ratio now."""
        return llr(self.scores, self.bounds)

    def add(self, deal: DealResult) -> None:
        """Count one deal and decide if the test allows it."""
        self.points.add(deal.net)
        self.scores.add(deal.score)
        self.games += len(deal.points)
        self.unfinished += deal.unfinished
        self.wins += deal.score == 1.0
        self.draws += deal.score == 0.5
        self.losses += deal.score == 0.0
        elo_low, elo_high = elo_interval(self.scores)
        self.course.append({"deal": self.deals, "llr": round(self.llr, 4), "elo": round(elo_of(self.scores.mean), 1),
                            "elo_low": _finite(elo_low, 1), "elo_high": _finite(elo_high, 1)})
        decision = decide(self.scores, self.bounds, self.wins + self.losses)
        if decision == ACCEPT_H1:
            self.verdict = STRONGER
        elif decision == ACCEPT_H0:
            self.verdict = NOT_STRONGER

    @property
    def decided(self) -> bool:
        """Whether the test has stopped."""
        return self.verdict != UNDECIDED

    def record(self) -> dict[str, Any]:
        """The result as JSON."""
        low, high = self.points.interval()
        elo_low, elo_high = elo_interval(self.scores)
        return {"game": self.table.game, "rule_version": self.table.rule_version, "players": self.table.players,
                "a": self.a, "b": self.b, "seed": self.table.seed, "cap": self.cap,
                "sprt": {"elo0": self.bounds.elo0, "elo1": self.bounds.elo1, "alpha": self.bounds.alpha,
                         "beta": self.bounds.beta, "llr": round(self.llr, 4),
                         "lower": round(self.bounds.lower, 4), "upper": round(self.bounds.upper, 4)},
                "deals": self.deals, "games": self.games, "unfinished": self.unfinished,
                "points_per_deal": {"mean": round(self.points.mean, 4), "low": _finite(low), "high": _finite(high)},
                "deal_scores": {"wins": self.wins, "draws": self.draws, "losses": self.losses,
                                "mean": round(self.scores.mean, 4), "elo": round(elo_of(self.scores.mean), 1),
                                "elo_low": _finite(elo_low, 1), "elo_high": _finite(elo_high, 1)},
                "verdict": self.verdict, "seconds": round(self.seconds, 2), "course": thinned(self.course)}


COURSE_POINTS = 400  # the course kept in the JSON: enough for a plot, a few kilobytes whatever the cap


def thinned(course: list[dict[str, Any]], most: int = COURSE_POINTS) -> list[dict[str, Any]]:
    """At most ``most`` points of the course, evenly spread, the first and the last always kept."""
    if len(course) <= most:
        return list(course)
    step = (len(course) - 1) / (most - 1)
    return [course[round(i * step)] for i in range(most)]


def _finite(value: float, digits: int = 4) -> float | None:
    """A bound for JSON: None when it is not known yet."""
    return round(value, digits) if abs(value) != float("inf") else None


# Each worker process builds its players once.
_WORKER: dict[str, Any] = {}


def _start_worker(table: Table, a: Contestant, b: Contestant, pooled: bool = True, stop: Any = None) -> None:
    """Build the engine and the two players of this worker; ``stop`` is the parent's Ctrl-C, passed on."""
    from reference_engine import create

    if pooled:  # Ctrl-C is the parent's to handle; the worker's engines are ended when it exits
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        multiprocessing.util.Finalize(None, _close_worker, exitpriority=10)
    _WORKER.update(engine=create(), table=table, players={"A": (a.build(table.game), a.level),
                                                          "B": (b.build(table.game), b.level)},
                   stop=stop.is_set if stop is not None else None)


def _close_worker() -> None:
    """End the engines this worker's players hold."""
    for player, _ in _WORKER.pop("players", {}).values():
        close_player(player)


def _worker_deal(index: int) -> DealResult:
    """Deal ``index`` in this worker."""
    players: dict[str, tuple[Player, str]] = _WORKER["players"]
    return play_deal(_WORKER["engine"], _WORKER["table"], index, players.__getitem__, _WORKER.get("stop"))


CLUSTER_BATCH = 4  # deals a cluster task plays: its players are built once a worker, so small batches cost little


def cluster_deals(table: Table, a: Contestant, b: Contestant, first: int, count: int,
                  played: Played) -> list[DealResult]:
    """On a cluster worker: deals ``first`` to ``first + count - 1``, with this worker's players (built once), at
    the command's rule versions and game files."""
    with playing_as(played):
        if _WORKER.get("key") != (table, a, b):
            _close_worker()
            _start_worker(table, a, b, pooled=False)
            _WORKER["key"] = (table, a, b)
        return [_worker_deal(index) for index in range(first, first + count)]


def _cluster_results(table: Table, a: Contestant, b: Contestant, cap: int, client: Any) -> Iterator[DealResult]:
    """Deal results in the order of their index, played on the client's workers."""
    from harness.host.cluster import ordered

    played = played_here()
    tasks = ((table, a, b, first, min(CLUSTER_BATCH, cap - first), played) for first in range(0, cap, CLUSTER_BATCH))
    for deals in ordered(client, cluster_deals, tasks):
        yield from deals


class _Pooled:
    """Deal results in the order of their index, ``jobs`` worker processes computing ahead."""

    def __init__(self, table: Table, a: Contestant, b: Contestant, cap: int, jobs: int) -> None:
        self.cap, self.ahead = cap, 4 * jobs  # enough queued work to keep every worker busy, not so much that stopping wastes it
        self.stop_event = multiprocessing.get_context().Event()
        self.pool = concurrent.futures.ProcessPoolExecutor(jobs, initializer=_start_worker,
                                                           initargs=(table, a, b, True, self.stop_event))
        self.pending = {i: self.pool.submit(_worker_deal, i) for i in range(min(self.ahead, cap))}

    def __iter__(self) -> Iterator[DealResult]:
        for index in range(self.cap):
            result = self.pending[index].result()
            del self.pending[index]  # only once it is had: Ctrl-C while waiting leaves it to stopped()
            if index + self.ahead < self.cap:
                self.pending[index + self.ahead] = self.pool.submit(_worker_deal, index + self.ahead)
            yield result

    def stopped(self) -> list[str]:
        """After Ctrl-C: the workers told to stop; the records of every deal they had begun, in index order."""
        self.stop_event.set()
        for future in self.pending.values():
            future.cancel()  # a deal not begun is simply not played
        lines: list[str] = []
        for _, future in sorted(self.pending.items()):
            if future.cancelled():
                continue
            try:
                lines += future.result().records
            except IllegalChoice as error:  # its game a player broke is a record as well
                lines += error.records
        return lines

    def close(self) -> None:
        """Workers ended (they end their engines as they exit)."""
        self.pool.shutdown(wait=True, cancel_futures=True)


class _InOrder:
    """Deal results in the order of their index, played in this process (or on a cluster's workers)."""

    def __init__(self, results: Iterator[DealResult]) -> None:
        self.results = results

    def __iter__(self) -> Iterator[DealResult]:
        return self.results

    def stopped(self) -> list[str]:
        """After Ctrl-C: nothing more (a deal played here gives its games so far as an interrupted deal)."""
        return []

    def close(self) -> None:
        """The deals' generator closed, its players with it."""
        self.results.close()  # type: ignore[attr-defined]


def _in_process(table: Table, a: Contestant, b: Contestant, cap: int) -> Iterator[DealResult]:
    """Deal results in the order of their index, played in this process."""
    _start_worker(table, a, b, pooled=False)
    try:
        for index in range(cap):
            yield _worker_deal(index)
    finally:
        _close_worker()


def _results(table: Table, a: Contestant, b: Contestant, cap: int, jobs: int, client: Any = None) -> _Pooled | _InOrder:
    """Deal results in the order of their index, computed ``jobs`` at a time (or on a cluster's workers)."""
    if client is not None:
        return _InOrder(_cluster_results(table, a, b, cap, client))
    if jobs <= 1:
        return _InOrder(_in_process(table, a, b, cap))
    return _Pooled(table, a, b, cap, jobs)


def run_ladder(table: Table, a: Contestant, b: Contestant, bounds: Bounds, cap: int, jobs: int = 1,
               progress: Callable[[LadderResult], None] | None = None,
               counted: Callable[[DealResult], None] | None = None, client: Any = None) -> LadderResult:
    """Play deals until the test decides or ``cap`` deals are played; ``counted`` is given each deal the
    test counts, in deal order; with a Dask ``client`` the deals are played on its workers."""
    result = LadderResult(table, a.name, b.name, bounds, cap)
    for player in (a.build(table.game), b.build(table.game)):  # a player that cannot be built fails here
        close_player(player)
    began = time.perf_counter()
    results = _results(table, a, b, cap, jobs, client)
    try:
        for deal in results:
            if deal.interrupted:  # Ctrl-C in its middle: its games so far are records, not counted
                result.interrupted, result.stopped = True, tuple(deal.records)
                break
            result.add(deal)
            if counted:
                counted(deal)
            if progress:
                progress(result)
            if result.decided:
                break
    except KeyboardInterrupt:  # the workers' deals begun and not counted: their games are records too
        result.interrupted = True
        result.stopped = tuple(results.stopped())
    finally:
        results.close()
    result.seconds = time.perf_counter() - began
    return result
