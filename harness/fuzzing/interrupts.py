"""Ctrl-C that a campaign cannot lose.

Python swallows an exception raised inside a garbage-collector callback, and Hypothesis installs
one: a KeyboardInterrupt raised while it runs vanishes (printed as "Exception ignored") and the
campaign would go on. So the handler also keeps the request, the campaign checks it before every
game, and the swallowed one is not printed.
"""

from __future__ import annotations

import signal
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

_requested = threading.Event()


class Interrupted(Exception):
    """Ctrl-C: the command stops after keeping what it found."""


def _interrupted(signum: int, frame: Any) -> None:
    _requested.set()
    raise KeyboardInterrupt


@contextmanager
def kept_interrupts() -> Iterator[None]:
    """While inside, Ctrl-C raises at once and, should that raise be swallowed, again at the next check."""
    _requested.clear()
    main = threading.current_thread() is threading.main_thread()
    if not main or signal.getsignal(signal.SIGINT) is signal.SIG_IGN:  # ignored: leave it so
        yield
        return
    previous = signal.signal(signal.SIGINT, _interrupted)
    previous_hook = sys.unraisablehook

    def quiet(unraisable: Any) -> None:
        if not isinstance(unraisable.exc_value, KeyboardInterrupt):  # a kept Ctrl-C is raised again soon
            previous_hook(unraisable)

    sys.unraisablehook = quiet
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
        sys.unraisablehook = previous_hook
        _requested.clear()


def check() -> None:
    """Raise the Ctrl-C that arrived and was swallowed, if any."""
    if _requested.is_set():
        raise KeyboardInterrupt


def keeping_interrupts(command: Callable[[Any], int]) -> Callable[[Any], int]:
    """``command`` run inside ``kept_interrupts``."""
    def run(args: Any) -> int:
        with kept_interrupts():
            return command(args)
    run.__doc__ = command.__doc__
    return run
