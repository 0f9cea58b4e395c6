"""What a perft against a remote engine does while the engine starts and answers: its handshake, and the reference's count.

The reference counts in a child process forked before the engine is started (Linux): it then uses
a core of its own, instead of taking the interpreter from the thread that reads and checks the
engine's answers. Elsewhere it counts in a thread, which hands the interpreter back often.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import sys
import threading
from collections.abc import Callable, Iterator
from typing import Any

from harness.perft.tree import PerftError

PR_SET_PDEATHSIG = 1  # prctl(2): the signal this process gets when its parent dies


class Handshake:
    """An engine's description asked for in a thread of its own, as soon as the engine is named: a remote engine
    starts (a process, a page) and shakes hands while the harness loads the reference and starts its count."""

    def __init__(self, engine: Any) -> None:
        self.engine = engine
        self.described: dict[str, Any] | None = None
        self.error: Exception | None = None
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def run(self) -> None:
        """Ask, keeping what the engine raised for ``description``."""
        try:
            self.described = self.engine.describe()
        except Exception as error:  # raised again in the command's thread, where it is reported
            self.error = error

    def description(self) -> dict[str, Any]:
        """The engine's description, once its handshake is over; what it raised, raised again."""
        self.thread.join()
        if self.error is not None:
            raise self.error
        assert self.described is not None
        return self.described


def counted(reference: Callable[[], Any], depth: int) -> dict[str, Any]:
    """The reference's counts and divide from its start, or the error that stopped them, as JSON can carry them.

    The reference is the yardstick, not the engine under test: it is counted on copies as serve counts
    (``serve.counting``), without the checks and the paths ``LocalTree`` keeps for an engine it judges.
    """
    from harness.serve.counting import perft

    try:
        found = perft(reference().game_at(()), depth)
    except PerftError as error:
        return {"error": str(error)}
    except Exception as error:
        return {"error": f"the reference engine failed to count: {type(error).__name__}: {error}"}
    return {"counts": found["counts"], "divide": [[entry["action"], entry["nodes"]] for entry in found["divide"]]}


class Beside:
    """The reference's counts, made beside the harness (a child process, else a thread) while it works the engine."""

    def __init__(self, reference: Callable[[], Any], depth: int) -> None:
        """Count ``reference()`` (a ``LocalTree``, made where it counts) to ``depth``."""
        self.found: dict[str, Any] | None = None
        self.child: tuple[int, int] | None = None  # the child's pid and the pipe its answer comes on
        # forked while the harness has no thread of its own yet (the handshake's starts after): the child
        # needs no lock another thread could hold, and it uses a core of its own
        if sys.platform == "linux" and threading.active_count() == 1:
            self.child = fork(reference, depth)
            self.thread = None
        else:
            self.thread = threading.Thread(target=self.run, args=(reference, depth), daemon=True)
            self.thread.start()

    @property
    def threaded(self) -> bool:
        """Whether the count shares this process's interpreter (a thread)."""
        return self.thread is not None

    def run(self, reference: Callable[[], Any], depth: int) -> None:
        """Count in this thread."""
        self.found = counted(reference, depth)

    def result(self) -> list[int]:
        """The counts, once made; what stopped them, raised as a PerftError."""
        if self.thread is not None:
            self.thread.join()
        elif self.child is not None:
            self.found = answer(*self.child)
            self.child = None
        assert self.found is not None
        if "error" in self.found:
            raise PerftError(self.found["error"])
        return self.found["counts"]  # type: ignore[no-any-return]

    @property
    def divide(self) -> list[tuple[dict[str, Any], int]]:
        """Each first action with the leaves below it, once the counts are made."""
        self.result()
        assert self.found is not None
        return [(action, nodes) for action, nodes in self.found["divide"]]

    def close(self) -> None:
        """A child still counting is stopped (the command ended before it needed the counts)."""
        if self.child is not None:
            pid, pipe = self.child
            self.child = None
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            os.close(pipe)


def fork(reference: Callable[[], Any], depth: int) -> tuple[int, int]:
    """A child process counting the reference: its pid, and the pipe its JSON answer comes on."""
    read, write = os.pipe()
    parent = os.getpid()
    pid = os.fork()
    if pid == 0:  # the child: count, answer, and leave without running the parent's exit handlers
        status = 1
        try:
            os.close(read)
            ends_with(parent)
            data = json.dumps(counted(reference, depth)).encode()
            while data:
                data = data[os.write(write, data):]
            status = 0
        finally:
            os._exit(status)
    os.close(write)
    return pid, read


def ends_with(parent: int) -> None:
    """This process killed when ``parent`` dies, however it dies (a kit killed outright leaves no count running)."""
    import ctypes

    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != parent:  # it died before the request was made
        os._exit(1)


def answer(pid: int, pipe: int) -> dict[str, Any]:
    """The child's answer, once it has ended."""
    chunks = []
    try:
        while chunk := os.read(pipe, 1 << 16):
            chunks.append(chunk)
    finally:
        os.close(pipe)
        _, status = os.waitpid(pid, 0)
    try:
        return json.loads(b"".join(chunks))  # type: ignore[no-any-return]
    except ValueError:
        return {"error": f"the reference's count ended without an answer (exit status {os.waitstatus_to_exitcode(status)})"
                         ": run perft with the engine in process (no --engine-cmd) to see why"}


@contextlib.contextmanager
def handed_back(short: bool) -> Iterator[None]:
    """With ``short``, the interpreter's switch interval cut to half a millisecond: a level at a time, the harness
    waits for the engine in thousands of short spells while the reference counts beside it in a thread, and at
    the usual 5 ms each answer would wait that long for the thread to hand the interpreter back."""
    if not short:
        yield
        return
    was = sys.getswitchinterval()
    sys.setswitchinterval(0.0005)
    try:
        yield
    finally:
        sys.setswitchinterval(was)
