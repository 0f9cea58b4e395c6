"""Ctrl-C during a run: end the engine at once so the run stops within a second, then unwind."""

from __future__ import annotations

import os
import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from harness import EXIT_INTERRUPTED  # noqa: F401 - where the run command and others import it from


@contextmanager
def engine_stops_on_interrupt(engine: Any) -> Iterator[None]:
    """While inside, Ctrl-C kills a remote engine's process group first, then raises KeyboardInterrupt.

    A worker thread may be waiting for that engine's answer (up to --timeout); killing the process
    ends the wait now instead of then. The harness reaps the process as usual afterwards.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def interrupted(signum: int, frame: Any) -> None:
        pid = getattr(getattr(engine, "channel", None), "pid", None)
        if isinstance(pid, int):
            try:
                os.killpg(pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGINT, interrupted)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
