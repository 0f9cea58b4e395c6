"""The reference's count beside a remote engine's: in a child process forked while the harness has one thread (its
counts and divide, its failure said in words, a child no longer needed stopped), else in a thread."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time

import pytest

from harness.perft.beside import Beside
from harness.perft.tree import LocalTree, PerftError
from harness.perft.vectors import vectors
from reference_engine import create

# Run in a process of its own: pytest's workers hold threads, and the child is forked only where there are none.
ALONE = """
import json, os, sys, time
from harness.perft.beside import Beside
from harness.perft.tree import LocalTree
from harness.perft.vectors import vectors
from reference_engine import create

setup = vectors("president")[0].setup
def broken():
    raise ValueError("no deck")
how = sys.argv[1]
if how == "count":
    beside = Beside(lambda: LocalTree(create(), setup), 3)
    print(json.dumps({"threaded": beside.threaded, "pid": os.getpid(), "child": beside.child[0],
                      "counts": beside.result(), "divide": beside.divide}))
elif how == "broken":
    beside = Beside(broken, 3)
    try:
        beside.result()
    except Exception as error:
        print(json.dumps({"threaded": beside.threaded, "error": f"{type(error).__name__}: {error}"}))
elif how == "orphan":  # the kit killed outright: its child must not count on
    beside = Beside(lambda: LocalTree(create(), setup), 12)
    print(json.dumps({"child": beside.child[0]}), flush=True)
    os.kill(os.getpid(), 9)
else:
    beside = Beside(lambda: LocalTree(create(), setup), 12)  # hours of counting
    pid = beside.child[0]
    time.sleep(0.2)
    beside.close()
    gone = False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        gone = True
    print(json.dumps({"threaded": beside.threaded, "gone": gone}))
"""


def alone(how: str) -> dict[str, object]:
    """What the script above prints for ``how``."""
    done = subprocess.run([sys.executable, "-c", ALONE, how], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)  # type: ignore[no-any-return]


@pytest.mark.skipif(sys.platform != "linux", reason="the reference counts in a forked child on Linux only")
def test_a_child_process_counts_the_reference_and_gives_its_divide() -> None:
    found = alone("count")
    vector = vectors("president")[0]
    reference = LocalTree(create(), vector.setup)
    assert found["threaded"] is False and found["child"] != found["pid"]
    assert tuple(found["counts"]) == vector.counts[:3]  # type: ignore[arg-type]
    assert found["divide"] == [[action, nodes] for action, nodes in reference.divide(3)]


@pytest.mark.skipif(sys.platform != "linux", reason="the reference counts in a forked child on Linux only")
def test_a_child_that_fails_says_why_and_one_not_needed_is_stopped() -> None:
    assert alone("broken") == {"threaded": False,
                               "error": "PerftError: the reference engine failed to count: ValueError: no deck"}
    assert alone("close") == {"threaded": False, "gone": True}


@pytest.mark.skipif(sys.platform != "linux", reason="the reference counts in a forked child on Linux only")
def test_a_child_whose_kit_is_killed_outright_stops_too() -> None:
    done = subprocess.run([sys.executable, "-c", ALONE, "orphan"], capture_output=True, text=True, timeout=30)
    child = json.loads(done.stdout)["child"]
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and os.path.exists(f"/proc/{child}"):
        time.sleep(0.05)
    assert not os.path.exists(f"/proc/{child}")


def test_beside_other_threads_the_count_is_a_thread_of_its_own() -> None:
    started = threading.Event()
    holder = threading.Thread(target=started.wait, daemon=True)  # a thread of the harness: no fork now
    holder.start()
    try:
        vector = vectors("rummy")[0]
        beside = Beside(lambda: LocalTree(create(), vector.setup), 3)
        assert beside.threaded and tuple(beside.result()) == vector.counts[:3]
        failing = Beside(lambda: LocalTree(create(), {**vector.setup, "seed": -1}), 2)
        with pytest.raises(PerftError, match=r"the engine raised in start\(\) at the start: ValueError: a seed"):
            failing.result()
    finally:
        started.set()
