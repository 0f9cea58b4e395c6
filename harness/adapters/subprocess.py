"""``--engine-cmd``: the engine as one long-lived child process speaking JSON lines on stdin/stdout.

Responsible for the process only: starting it in its own process group, moving lines with a
deadline (never blocking forever), keeping the tail of its stderr, and killing and reaping it
(the whole group) after a failure, at the end of the run, and at interpreter exit. The protocol
logic is in ``remote.py``. POSIX only (process groups, ``select`` on pipes).
"""

from __future__ import annotations

import atexit
import os
import select
import selectors
import shlex
import signal
import subprocess
import time
import weakref
from collections import deque
from collections.abc import Callable, Sequence
from typing import Any

from harness.adapters.polling import Poller
from harness.adapters.protocol import (
    MAX_LINE,
    AdapterError,
    Decoder,
    PartialAnswers,
    StrayOutput,
    decode,
    encode,
    quote,
)
from harness.adapters.remote import RemoteEngine
from harness.adapters.stderr_tail import StderrTail

DEFAULT_TIMEOUT = 10.0
STARTUP_TIMEOUT = 10.0  # the first answer also pays for starting a runtime (a JVM, node, python)
STRAY_GRACE = 0.5  # how long a line that is not the awaited answer may wait for the answer to follow it
_LIVE: weakref.WeakSet[ProcessChannel] = weakref.WeakSet()


class ProcessChannel:
    """One engine process at a time, restarted on demand, moving one line each way per request."""

    strays = True  # a stream, not framed messages: output can come that no request asked for
    takes_decoder = True  # exchange_many(decoder=...): the caller may say how a line becomes an answer

    def __init__(self, command: str | Sequence[str], timeout: float = DEFAULT_TIMEOUT) -> None:
        self.argv = shlex.split(command) if isinstance(command, str) else list(command)
        if not self.argv:
            raise ValueError("--engine-cmd is empty: give the command that starts your adapter, e.g. \"node engine.js\"")
        self.timeout = timeout
        self.process: subprocess.Popen[bytes] | None = None
        self.stderr: StderrTail | None = None
        self.selector: selectors.BaseSelector | None = None
        self.buffer = bytearray()
        self.first_answer = True
        self.starts = 0
        self.ahead: deque[list[dict[str, Any]]] = deque()  # messages written ahead, their answers still to read
        self.unsent = memoryview(b"")  # the bytes of them the pipe has not taken yet
        self.poller = Poller()
        _LIVE.add(self)

    @property
    def pid(self) -> int | None:
        """The live process's id, if any."""
        return self.process.pid if self.process else None

    def is_open(self) -> bool:
        """Whether a process is running for this channel."""
        return self.process is not None

    def open(self) -> None:
        """Start the engine in a new process group, its pipes non-blocking."""
        try:
            process = subprocess.Popen(self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                       stderr=subprocess.PIPE, bufsize=0, start_new_session=True)
        except OSError as error:
            raise AdapterError(f"cannot start the engine command {shlex.join(self.argv)!r} ({error}); check "
                               "--engine-cmd: the program must exist, be executable and be on PATH") from None
        assert process.stdin and process.stdout and process.stderr
        os.set_blocking(process.stdin.fileno(), False)
        os.set_blocking(process.stdout.fileno(), False)
        self.process, self.stderr = process, StderrTail(process.stderr)
        self.selector = selectors.DefaultSelector()
        self.selector.register(process.stdout, selectors.EVENT_READ)
        self.buffer.clear()
        self.first_answer = True
        self.starts += 1
        self._forget_ahead()

    def pipelines(self, hello: dict[str, Any]) -> bool:
        """Always: requests are lines in a pipe, written while the answers are read."""
        return True

    def send_ahead(self, messages: list[dict[str, Any]]) -> None:
        """Write ``messages`` now, as far as the pipe takes them without waiting, for ``exchange_many(messages)``
        to read their answers later: the engine finds them waiting when it has answered what came before.

        Until then only the exchanges sent before them may be read. A broken pipe is left for that read
        to find (it says how the engine ended).
        """
        self.ahead.append(messages)
        self.unsent = memoryview(bytes(self.unsent) + b"".join(encode(message) for message in messages))
        assert self.process and self.process.stdin
        try:
            self.unsent = self.unsent[os.write(self.process.stdin.fileno(), self.unsent):]
        except (BlockingIOError, BrokenPipeError, ConnectionResetError):
            pass

    def _forget_ahead(self) -> None:
        """A new or ended session: whatever was written ahead went to the process before."""
        self.ahead.clear()
        self.unsent = memoryview(b"")

    def exchange(self, message: dict[str, Any], what: str) -> Any:
        """Write one line, read one line back, each within the deadline."""
        assert not self.ahead, "an exchange while answers to messages written ahead are unread: please report this kit bug"
        self._check_quiet()
        wait = max(self.timeout, STARTUP_TIMEOUT) if self.first_answer else self.timeout
        deadline = time.monotonic() + wait
        self._write(encode(message), deadline, what, wait)
        answer = self._first_answer(deadline, what, wait, message.get("seq"))
        self.first_answer = False
        return answer

    def exchange_many(self, messages: list[dict[str, Any]], whats: list[str], fenced: bool = False,
                      meanwhile: Callable[[], None] | None = None, decoder: Decoder = decode) -> list[Any]:
        """Pipeline: write every request while reading the answers, one line each, in order.

        The answers come back as decoded JSON; the first failure is raised once the answers before
        it are known, as ``PartialAnswers`` (so the caller can still judge the steps before it).
        ``fenced``: each message is an exchange of its own (a batch), so a line before any of its
        answers may be the fault of the one before (StrayOutput), as for the first. ``meanwhile``:
        work to do once the requests are written, while the engine answers them (its time does not
        count against the deadline). ``decoder`` makes a line an answer (``decode``'s signature).
        """
        if self.ahead and self.ahead[0] is messages:  # written already: their answers may be here already
            self.ahead.popleft()
        else:
            assert not self.ahead, "an exchange before the answers to messages written ahead: please report this kit bug"
            try:
                self._check_quiet()
            except StrayOutput as stray:
                raise PartialAnswers([], stray) from None
            self.unsent = memoryview(b"".join(encode(message) for message in messages))
        assert self.process and self.process.stdin
        fd_in = self.process.stdin.fileno()
        answers: list[Any] = []
        wait = max(self.timeout, STARTUP_TIMEOUT) if self.first_answer else self.timeout
        try:
            while len(answers) < len(messages):
                what = whats[len(answers)]
                deadline = time.monotonic() + wait
                while self.unsent:  # feed stdin as far as the pipe takes it, so neither side ever blocks
                    try:
                        self.unsent = self.unsent[os.write(fd_in, self.unsent):]
                    except BlockingIOError:
                        break
                    except (BrokenPipeError, ConnectionResetError):
                        raise self._gone(what) from None
                if meanwhile is not None:
                    work, meanwhile = meanwhile, None
                    work()
                    deadline = time.monotonic() + wait
                if self.unsent and self.buffer.find(b"\n") < 0:
                    readable = self._wait_either(fd_in, deadline, what, wait)
                    if not readable:
                        continue  # stdin drained a little: write more before reading
                if answers and not fenced:
                    answers.append(decoder(self._read_line(deadline, what, wait), what))
                else:
                    answers.append(self._first_answer(deadline, what, wait, messages[len(answers)].get("seq"), decoder))
                self.first_answer = False
        except AdapterError as error:
            raise PartialAnswers(answers, error) from None
        return answers

    def _check_quiet(self) -> None:
        """Nothing may have come since the last answer (one line answers one request): a stray line is its fault."""
        assert self.process and self.process.stdout
        while not self.first_answer:
            try:
                chunk = os.read(self.process.stdout.fileno(), 1 << 16)
            except BlockingIOError:
                break
            if not chunk:
                break  # the engine is gone: the next read says how
            self.buffer += chunk
        if self.buffer and not self.first_answer:
            raise _stray(bytes(self.buffer).split(b"\n", 1)[0], None)

    def _first_answer(self, deadline: float, what: str, wait: float, seq: int | None,
                      decoder: Decoder = decode) -> Any:
        """The first answer of an exchange, decoded; StrayOutput if what comes first belongs to the exchange before.

        A second answer to an earlier request is the last exchange's fault at once. A line that is
        not an answer is, if the awaited answer follows it (within a short grace).
        """
        line = self._read_line(deadline, what, wait)
        problem: AdapterError | None = None
        try:
            value = decoder(line, what)
        except AdapterError as error:
            value, problem = None, error
        if self.first_answer or seq is None or isinstance(value, dict) and value.get("seq") == seq:
            if problem:
                raise problem
            return value
        earlier = value.get("seq") if isinstance(value, dict) else None
        if isinstance(earlier, int) and not isinstance(earlier, bool) and earlier < seq:
            raise _stray(line, value)
        try:
            following = decode(self._read_line(min(deadline, time.monotonic() + STRAY_GRACE), what, wait), what)
        except AdapterError:
            following = None
        if isinstance(following, dict) and following.get("seq") == seq:
            raise _stray(line, value)
        if problem:
            raise problem
        return value

    def _wait_either(self, fd_in: int, deadline: float, what: str, wait: float) -> bool:
        """Wait until stdout is readable (True) or stdin writable (False), within the deadline."""
        assert self.process and self.process.stdout
        fd_out = self.process.stdout.fileno()
        readable, writable, _ = select.select([fd_out], [fd_in], [], max(0.0, deadline - time.monotonic()))
        if not readable and not writable:
            raise _late(what, wait)
        return bool(readable)

    def _write(self, data: bytes, deadline: float, what: str, wait: float) -> None:
        """All of ``data`` into the engine's stdin, waiting while its pipe is full."""
        assert self.process and self.process.stdin
        fd, view = self.process.stdin.fileno(), memoryview(data)
        while view:
            try:
                view = view[os.write(fd, view):]
            except BlockingIOError:
                pass
            except (BrokenPipeError, ConnectionResetError):
                raise self._gone(what) from None
            if view and not select.select([], [fd], [], max(0.0, deadline - time.monotonic()))[1]:
                raise AdapterError(f"the engine stopped reading its stdin: the request for {what} could not be "
                                   f"written within {wait:g} s; read requests as they come (raise --timeout if it "
                                   "is only slow)")

    def _read_line(self, deadline: float, what: str, wait: float) -> bytes:
        """The next line from stdout, without its newline; a protocol error on EOF, overflow or timeout."""
        assert self.process and self.process.stdout and self.selector
        fd, searched = self.process.stdout.fileno(), 0
        while True:
            end = self.buffer.find(b"\n", searched)
            if end >= 0:
                line = bytes(self.buffer[:end])
                del self.buffer[:end + 1]
                return line
            searched = len(self.buffer)
            if searched > MAX_LINE:
                raise AdapterError(f"{what} is longer than {MAX_LINE} bytes and still has no newline: an answer is "
                                   "one JSON object on one line; write logs to stderr")
            try:
                chunk = os.read(fd, 1 << 16)  # first without waiting: the answer is often there already
            except BlockingIOError:
                if self.poller.ready(fd):
                    continue
                slept = time.monotonic()
                remaining = deadline - slept
                if remaining <= 0 or not self.selector.select(remaining):
                    raise _late(what, wait) from None
                self.poller.slept(time.monotonic() - slept)
                continue
            if not chunk:
                raise self._gone(what)
            self.buffer += chunk

    def _gone(self, what: str) -> AdapterError:
        """The error for an engine that closed its pipes: its exit status, once it has one."""
        assert self.process
        try:
            code = self.process.wait(timeout=1.0)
        except subprocess.TimeoutExpired:
            return AdapterError(f"the engine closed its stdout instead of sending {what}; keep stdout open "
                                "until stop")
        if code < 0:
            status = f"was killed by {signal.Signals(-code).name}" if -code in signal.valid_signals() else \
                f"was killed by signal {-code}"
        else:
            status = f"exited with code {code}"
        return AdapterError(f"the engine {status} instead of sending {what}; run it by hand with the request "
                            "to see why")

    def abandon(self) -> str:
        """Kill the process after a failure; its stderr tail and what happens next, for the error."""
        tail = self._reap()
        shown = ("\nthe engine's stderr ends with:\n" + "\n".join(f"| {line}" for line in tail.splitlines())
                 if tail.strip() else "\n(the engine wrote nothing on stderr)")
        return f"; the engine was stopped and is restarted for the next scenario{shown}"

    def close(self, farewell: dict[str, Any] | None) -> str | None:
        """Send ``farewell`` (stop); if answered, close stdin and give the engine a moment to exit; then reap it.

        What went wrong with the answer to stop, if anything (the run is over: it is only reported).
        """
        if self.process is None:
            return None
        problem = None
        if farewell is not None:
            try:
                deadline = time.monotonic() + min(self.timeout, 2.0)
                self._write(encode(farewell), deadline, "the answer to stop", 2.0)
                answer = decode(self._read_line(deadline, "the answer to stop", 2.0), "the answer to stop")
                if not isinstance(answer, dict) or answer.get("seq") != farewell["seq"] or "result" not in answer:
                    problem = (f"the answer to stop is {quote(encode(answer))}, not {{\"seq\": {farewell['seq']}, "
                               "\"result\": null}")
            except AdapterError as error:
                problem = error.reason
        if farewell is None or problem is None:
            try:
                assert self.process.stdin
                self.process.stdin.close()
                self.process.wait(timeout=2.0)
            except (OSError, subprocess.TimeoutExpired):
                pass
        self._reap()
        return problem

    def _reap(self) -> str:
        """Kill the process group, wait for the process, close every pipe; the stderr tail."""
        process, stderr = self.process, self.stderr
        if process is None:
            return ""
        self.process = self.stderr = None
        if self.selector:
            self.selector.close()
            self.selector = None
        try:
            os.killpg(process.pid, signal.SIGKILL)  # the group: children the engine started die with it
        except (ProcessLookupError, PermissionError):
            pass
        process.wait()
        for stream in (process.stdin, process.stdout):
            try:
                if stream:
                    stream.close()
            except OSError:
                pass
        self.buffer.clear()
        self._forget_ahead()
        return stderr.finish() if stderr else ""


def _stray(line: bytes, value: Any) -> StrayOutput:
    """The error for a line that came after the last answer: a second answer, or anything else."""
    if value is None:
        try:
            value = decode(line, "")
        except AdapterError:
            pass
    seq = value.get("seq") if isinstance(value, dict) else None
    if isinstance(seq, int) and not isinstance(seq, bool):
        return StrayOutput(f"the engine answered seq {seq} a second time, after its last answer: answer each "
                           "request exactly once")
    return StrayOutput(f"the engine wrote {quote(line)} after its last answer: answer each request with exactly "
                       "one line, and write logs to stderr")


def _late(what: str, wait: float) -> AdapterError:
    """The error for an answer that did not come in time."""
    return AdapterError(f"{what} did not come within {wait:g} s: the engine hangs or is too slow "
                        "(raise --timeout if it is only slow)")


@atexit.register
def _reap_all() -> None:
    """No engine outlives the harness, whatever path the run took to its end."""
    for channel in list(_LIVE):
        channel._reap()


def subprocess_engine(command: str | Sequence[str], timeout: float = DEFAULT_TIMEOUT) -> RemoteEngine:
    """An engine run as ``command`` (split like a shell would, run without one)."""
    return RemoteEngine(ProcessChannel(command, timeout))
