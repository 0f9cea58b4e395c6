"""Waiting on a pipe: a short poll before sleeping on it, while the other side answers within that."""

from __future__ import annotations

import select
import time

from harness.host.cores import usable_cores

POLL_SECONDS = 0.001


class Poller:
    """Polls a file descriptor for up to a millisecond before the caller sleeps on it, while that pays.

    A sleep and its wake-up cost some 30 µs on Linux (more on a busy virtual machine), and a harness
    and an engine in ping-pong (fuzzing: one batch a step) pay that on both sides at every step.
    Polling needs a second core (else it would hold up the other side), and it stops after a poll
    that ran out, until a sleep is short again: a slow engine is waited for asleep.
    """

    def __init__(self, seconds: float = POLL_SECONDS) -> None:
        self.seconds = seconds if usable_cores() > 1 else 0.0
        self.paying = True

    def ready(self, fd: int) -> bool:
        """Whether ``fd`` became readable within the poll; if not, the caller sleeps on it (timed by ``slept``)."""
        if not (self.seconds and self.paying):
            return False
        end = time.perf_counter() + self.seconds
        try:
            while time.perf_counter() < end:
                if select.select([fd], [], [], 0)[0]:
                    return True
        except (OSError, ValueError):  # a descriptor select cannot poll: sleep on it as before
            self.seconds = 0.0
            return False
        self.paying = False
        return False

    def slept(self, seconds: float) -> None:
        """The caller slept ``seconds`` for its answer: poll again once that is within a poll."""
        self.paying = seconds <= self.seconds
