"""A time limit on code running in this thread: a generated mutant may loop for ever.

A mutant that turns ``ranks &= ranks - 1`` into ``ranks = ranks - 1`` never leaves its loop. No
signal reaches a Dask worker's task thread, so a watchdog thread raises ``TimedOut`` inside the
running thread (CPython checks for it between bytecodes). ``TimedOut`` is a BaseException: the
kit's ``except Exception`` (an engine's exception is a divergence) and Hypothesis let it through.
"""

from __future__ import annotations

import ctypes
import threading
from collections.abc import Iterator
from contextlib import contextmanager


class TimedOut(BaseException):
    """The code ran past its deadline."""


@contextmanager
def deadline(seconds: float) -> Iterator[None]:
    """Run the block for at most ``seconds``; past that, ``TimedOut`` is raised inside it."""
    target = threading.get_ident()
    lock = threading.Lock()
    state = {"open": True, "fired": False}

    def fire() -> None:
        with lock:
            if state["open"]:
                state["fired"] = True
                ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(target), ctypes.py_object(TimedOut))

    timer = threading.Timer(seconds, fire)
    timer.daemon = True
    timer.start()
    try:
        yield
    finally:
        with lock:
            state["open"] = False
            timer.cancel()
            if state["fired"]:  # raised after the block ended on its own: withdrawn before it lands elsewhere
                ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(target), None)
