"""Waiting on a pipe: a short poll before sleeping on it, while the other side answers within that."""

from __future__ import annotations

import select
import time

from harness.host.cores import usable_cores

POLL_SECONDS = 0.001
LOOK_EVERY = 0.05  # how often to look again whether a core is free (reading /proc/loadavg costs ~20 µs)


def cores_to_spare(cores: int) -> bool:
    """Whether no process waits for a core now: the tasks running or ready to run (ours among them), from
    /proc/loadavg, are no more than ``cores``. True where the system does not say."""
    try:
        with open("/proc/loadavg", "rb") as load:
            running = int(load.read().split()[3].split(b"/")[0])
    except (OSError, IndexError, ValueError):
        return True
    return running <= cores


class Poller:
    """Polls a file descriptor for up to a millisecond before the caller sleeps on it, while that pays.

    A sleep and its wake-up cost some 30 µs on Linux (more on a busy virtual machine), and a harness
    and an engine in ping-pong (fuzzing: one batch a step) pay that on both sides at every step.
    Polling needs a core to spare (else it would hold up the other side, or another program, and
    fuzz over stdio on a machine with three processes per core ran at half speed), and it stops
    after a poll that ran out, until a sleep is short again: a slow engine is waited for asleep.
    """

    def __init__(self, seconds: float = POLL_SECONDS) -> None:
        self.cores = usable_cores()
        self.seconds = seconds if self.cores > 1 else 0.0
        self.paying = True
        self.spare = True  # whether a core was free when last looked, at ``looked``
        self.looked = float("-inf")

    def ready(self, fd: int) -> bool:
        """Whether ``fd`` became readable within the poll; if not, the caller sleeps on it (timed by ``slept``)."""
        if not (self.seconds and self.paying):
            return False
        now = time.perf_counter()
        if now - self.looked > LOOK_EVERY:
            self.spare, self.looked = cores_to_spare(self.cores), now
        if not self.spare:
            return False
        end = now + self.seconds
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
