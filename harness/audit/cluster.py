"""Audit on a Dask cluster (the ``cluster`` extra): batches of record lines judged on workers, in file order.

The lines are read here and sent in batches; a few batches per worker are in flight at a time,
so memory stays flat, and each batch's outcomes are yielded when every batch before it is done,
so the report is the one a single process writes. A worker that dies has its batches run again
by the scheduler; a batch's outcomes are taken once, from its future.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Iterator
from itertools import islice
from typing import Any

from harness.audit.campaign import judge_line
from harness.audit.report import Outcome
from harness.host.cores import usable_cores
from harness.records.record import Record, parse_record
from harness.records.stream import Broken, Line

BATCH = 400  # lines a task judges: big enough that sending them costs little beside judging them
IN_FLIGHT = 3  # batches per worker submitted ahead
MISSING = ("--cluster needs dask.distributed, which is not installed: pip install 'cardverse-conformance[cluster]' "
           "(on this machine and on every worker)")


class ClusterError(Exception):
    """The cluster named cannot be used; the message says what to do."""


def connect(address: str) -> tuple[Any, Any]:
    """A client of ``local[:N]`` (a LocalCluster of N worker processes here) or of a running scheduler's address;
    and the local cluster to close afterwards (None for a scheduler)."""
    try:
        from dask.distributed import Client, LocalCluster
    except ImportError:
        raise ClusterError(MISSING) from None
    if address == "local" or address.startswith("local:"):
        count = address.partition(":")[2]
        if count and not (count.isdigit() and int(count) > 0):
            raise ClusterError(f"--cluster {address}: local:N needs a number of workers N of at least 1")
        cluster = LocalCluster(n_workers=int(count) if count else usable_cores(), threads_per_worker=1,
                               processes=True, dashboard_address=None)
        return Client(cluster), cluster
    try:
        return Client(address, timeout=10), None
    except (OSError, TimeoutError, ValueError) as error:
        raise ClusterError(f"--cluster {address}: cannot reach a scheduler there ({error}); start one with "
                           "`dask scheduler` and workers with `dask worker ADDRESS` where the kit is installed") from None


def judge_batch(items: list[Line | Broken]) -> list[Outcome]:
    """On a worker: each line's outcome (the records stay there; a disagreement's is parsed again here)."""
    from reference_engine import create

    reference = create()
    return [judge_line(item, reference)[0] for item in items]


def judge_on(client: Any, items: Iterable[Line | Broken]) -> Iterator[tuple[Outcome, Record | None]]:
    """Every line's outcome, in order, judged on the client's workers."""
    workers = max(1, len(client.scheduler_info().get("workers", {})))
    pending: deque[tuple[Any, list[Line | Broken]]] = deque()
    lines = iter(items)
    while True:
        batch = list(islice(lines, BATCH))
        if batch:
            pending.append((client.submit(judge_batch, batch, pure=False), batch))
        if pending and (not batch or len(pending) >= IN_FLIGHT * workers):
            future, sent = pending.popleft()
            for outcome, item in zip(future.result(), sent):
                record = parse_record(item.text) if outcome.disagreement is not None and isinstance(item, Line) else None
                yield outcome, record
        elif not batch:
            return
