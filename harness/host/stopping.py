"""SIGTERM and SIGHUP stop a command the way Ctrl-C does, so the engines it started are ended with it."""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

ASKED_TO_STOP = (signal.SIGTERM, signal.SIGHUP)  # a CI job's timeout, a closed terminal


def _as_ctrl_c(signum: int, frame: Any) -> None:
    """Stop as Ctrl-C would; where Ctrl-C is ignored (a pool worker: its parent ends it), end at once as before."""
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signum, signal.SIG_DFL)
        signal.raise_signal(signum)
        return
    signal.raise_signal(signal.SIGINT)


@contextmanager
def stopped_like_ctrl_c() -> Iterator[None]:
    """While inside, SIGTERM and SIGHUP (where nobody else handles them) take Ctrl-C's way out."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = {number: signal.getsignal(number) for number in ASKED_TO_STOP}
    for number, handler in previous.items():
        if handler is signal.SIG_DFL:  # an embedding program's own handler stays
            signal.signal(number, _as_ctrl_c)
    try:
        yield
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)
