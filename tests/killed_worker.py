"""A command run on a LocalCluster one of whose two workers is killed while busy; run by tests/test_cluster.py.

It runs in a process of its own because Dask itself can deadlock when a worker dies
(dask/distributed#3196): the test bounds this process's time, ends it and its workers, and
tries once more, so a deadlock in Dask cannot hang the suite. Usage: ``killed_worker.py ARGS...``,
where the argument ``ADDRESS`` stands for the cluster's scheduler; prints one JSON line.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import signal
import sys
import threading

from dask.distributed import Client, LocalCluster

from harness.cli import main


def kill_a_busy_worker(client: Client, stop: threading.Event, killed: list[int]) -> None:
    """SIGKILL the first worker seen running a task: its nanny starts another, its tasks run again."""
    pids = client.run(os.getpid)
    while not stop.is_set() and not killed:
        busy = [worker for worker, tasks in client.processing().items() if tasks and worker in pids]
        if busy:
            os.kill(pids[busy[0]], signal.SIGKILL)
            killed.append(pids[busy[0]])
        stop.wait(0.05)


def run(args: list[str]) -> dict[str, object]:
    """The command's exit code and output, and the workers killed while it ran."""
    killed: list[int] = []
    output = io.StringIO()
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0") as cluster, \
            Client(cluster) as client:
        stop = threading.Event()
        killer = threading.Thread(target=kill_a_busy_worker, args=(client, stop, killed))
        killer.start()
        try:
            with contextlib.redirect_stdout(output):
                code = main([cluster.scheduler_address if arg == "ADDRESS" else arg for arg in args])
        finally:
            stop.set()
            killer.join()
    return {"code": code, "out": output.getvalue(), "killed": killed}


if __name__ == "__main__":
    print(json.dumps(run(sys.argv[1:])))
