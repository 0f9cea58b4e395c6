"""Work spread on a Dask cluster (the ``cluster`` extra): tasks run on workers, results taken in order.

``--cluster local[:N]`` starts a LocalCluster of N worker processes here; any other value is a
running scheduler's address (``dask scheduler``; workers started with ``dask worker ADDRESS`` where
the kit is installed). Results come back in the order of their tasks, whatever order the workers
finish in, so a command prints what one process would. A task whose worker dies is run again by
the scheduler (``RETRIES`` times), and its result is taken once, from its future: nothing is lost
or counted twice.
"""

from __future__ import annotations

import contextlib
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from harness import install_line
from harness.host.cores import usable_cores

IN_FLIGHT = 3  # tasks per worker submitted ahead: the workers stay busy, and stopping early wastes little
RETRIES = 3  # a task whose worker died is run again this many times before the command gives up
MISSING = (f"--cluster needs dask.distributed, which is not installed: {install_line('cluster')} "
           "(on this machine and on every worker)")


class ClusterError(Exception):
    """The cluster named cannot be used; the message says what to do."""


def is_local(address: str) -> bool:
    """Whether ``address`` names a LocalCluster here (``local[:N]``): its workers share this machine's disk."""
    return address == "local" or address.startswith("local:")


def workers(client: Any) -> int:
    """The workers the client's scheduler knows now (at least 1: a scheduler waits for its first)."""
    return max(1, len(client.scheduler_info().get("workers", {})))


def connect(address: str) -> tuple[Any, Any]:
    """A client of ``local[:N]`` or of a scheduler's address, and the local cluster to close afterwards (or None)."""
    try:
        from dask.distributed import Client, LocalCluster
    except ImportError:
        raise ClusterError(MISSING) from None
    if is_local(address):
        count = address.partition(":")[2]
        if count and not (count.isdigit() and int(count) > 0):
            raise ClusterError(f"--cluster {address}: local:N needs a number of workers N of at least 1")
        cluster = LocalCluster(n_workers=int(count) if count else usable_cores(), threads_per_worker=1,
                               processes=True, dashboard_address=":0")  # any free port: 8787 may be taken
        return Client(cluster), cluster
    try:
        return Client(address, timeout=10), None
    except (OSError, TimeoutError, ValueError) as error:
        raise ClusterError(f"--cluster {address}: cannot reach a scheduler there ({error}); start one with "
                           "`dask scheduler` and workers with `dask worker ADDRESS` where the kit is installed") from None


@contextlib.contextmanager
def connected(address: str) -> Iterator[Any]:
    """A client of the cluster ``address`` names, closed (and a local cluster ended) afterwards."""
    client, cluster = connect(address)
    try:
        yield client
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


def ordered(client: Any, function: Callable[..., Any], tasks: Iterable[tuple[Any, ...]],
            ahead: int | None = None) -> Iterator[Any]:
    """``function(*task)`` for each task, run on the client's workers, yielded in the order of the tasks.

    A few tasks per worker (``ahead`` in all) are in flight at a time, so memory stays flat on any
    number of tasks; when the caller stops early, the tasks still in flight are cancelled."""
    from dask.distributed import KilledWorker

    ahead = ahead or IN_FLIGHT * workers(client)
    pending: deque[Any] = deque()
    tasks = iter(tasks)
    try:
        while True:
            task = next(tasks, None)
            if task is not None:
                pending.append(client.submit(function, *task, pure=False, retries=RETRIES))
            if pending and (task is None or len(pending) >= ahead):
                try:
                    result = pending.popleft().result()
                except KilledWorker as error:  # its task ended a worker each time it ran: memory, or a crash
                    raise ClusterError(f"the cluster lost a task for good ({error}); check the workers' logs") from None
                yield result
            elif task is None:
                return
    finally:
        for future in pending:
            future.cancel()
