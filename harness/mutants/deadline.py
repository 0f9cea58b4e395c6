"""A time and memory limit on code running in this thread: a generated mutant may loop for ever.

A mutant that turns ``ranks &= ranks - 1`` into ``ranks = ranks - 1`` never leaves its loop, and
one that swaps an operator in a loop that builds a list fills the memory at hundreds of MB a
second (gin-rummy:deadwood:meldable:swap_op:1: 630 MB in 10 s). No signal reaches a Dask worker's
task thread, so a watchdog thread raises ``TimedOut`` inside the running thread (CPython checks for
it between bytecodes) once the time is up or the process has grown by ``MEMORY_BYTES``.
``TimedOut`` is a BaseException: the kit's ``except Exception`` (an engine's exception is a
divergence) and Hypothesis let it through.
"""

from __future__ import annotations

import ctypes
import os
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

MEMORY_BYTES = 1 << 30  # growth of the process past which the block is stopped: no sound mutant comes near
POLL_SECONDS = 0.1
_PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096


class TimedOut(BaseException):
    """The code ran past its deadline, or past its memory."""

    def __init__(self, why: str = "") -> None:
        super().__init__(why)
        self.why = why


def resident() -> int | None:
    """This process's resident memory in bytes (None where /proc is not there to say)."""
    try:
        with open("/proc/self/statm", encoding="ascii") as statm:
            return int(statm.read().split()[1]) * _PAGE
    except (OSError, ValueError, IndexError):
        return None


@contextmanager
def deadline(seconds: float, memory: int = MEMORY_BYTES) -> Iterator[list[str]]:
    """Run the block for at most ``seconds`` and ``memory`` bytes of growth; past either, ``TimedOut`` is
    raised inside it. The list yielded holds, once it fired, why: "time" or "memory"."""
    target = threading.get_ident()
    lock = threading.Lock()
    fired: list[str] = []  # why it fired, once it has
    stop = threading.Event()  # set when the block ends: the watchdog fires no more
    start, began = resident(), time.monotonic()

    def fire(why: str) -> None:
        with lock:
            if not stop.is_set():
                fired.append(why)
                ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(target), ctypes.py_object(TimedOut))

    def watch() -> None:
        while not stop.wait(POLL_SECONDS):
            if time.monotonic() - began > seconds:
                fire("time")
                return
            now = resident()
            if start is not None and now is not None and now - start > memory:
                fire("memory")
                return

    watchdog = threading.Thread(target=watch, name="mutant deadline", daemon=True)
    watchdog.start()
    try:
        yield fired
    finally:
        with lock:
            stop.set()
            if fired:  # raised after the block ended on its own: withdrawn before it lands elsewhere
                ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(target), None)
