"""What a transport is to a remote engine (``Channel``), and the checking of one batch answer, request by request."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

import msgspec

from harness.adapters.counted_answers import counted_outcomes
from harness.adapters.protocol import AdapterError, EngineError, all_good, check_answer, decode


class Channel(Protocol):
    """A transport carrying one request and its answer at a time."""

    def open(self) -> None:
        """Start a new session (a process, a connection); the handshake comes next."""

    def is_open(self) -> bool:
        """Whether a session is live."""

    def exchange(self, message: dict[str, Any], what: str) -> Any:
        """Send ``message``; its answer, decoded from JSON but not yet checked."""

    def pipelines(self, hello: dict[str, Any]) -> bool:
        """Whether, in the session whose handshake ``hello`` answered, ``exchange_many`` may send several messages."""

    def abandon(self) -> str:
        """End the session after a failure; what to add to the error (the engine's stderr tail)."""

    def close(self, farewell: dict[str, Any] | None) -> str | None:
        """End the session politely, sending ``farewell`` first when it is live; what went wrong, if anything."""


class AnsweredAgain(AdapterError):
    """A call of several exchanges failed as a whole, and each was answered when asked again alone: a fault that
    struck once, charged to the call's first exchange."""


def retried(reason: str, count: int) -> AnsweredAgain:
    """The error of the first exchange of a call that failed as a whole, once each was answered when asked again."""
    return AnsweredAgain(f"{reason}; asked again, each of the {count} scenarios alone, the engine answered every "
                         "one: it failed once and not again, which is a fault of its own (this scenario, the call's "
                         "first, is charged with it); an engine answers every call the first time")


# One exchange of ``call_exchanges``: its outcomes, and the fault found for the exchange before it.
Exchanged = tuple[list[Any], str | None]


def batch_outcomes(calls: list[tuple[str, dict[str, Any]]], seqs: list[int], seq: int, what: str,
                   answer: Any) -> tuple[list[Any], AdapterError | None]:
    """Each request's checked answer (or its engine error) from one batch answer, and the fault that ends the session.

    An answer ``unread_batch`` left unread is read by ``counted_outcomes`` when all is well, else decoded here."""
    unread = type(answer) is dict and type(answer.get("answers")) is msgspec.Raw
    if unread and answer["seq"] == seq:
        counted = counted_outcomes(calls, seqs, answer["answers"])
        if counted is not None:
            return counted, None
    try:
        if unread:  # then as ``decode`` gives it, for the checks to word what is wrong
            answer = {**answer, "answers": decode(bytes(answer["answers"]), what)}
        answers = check_answer("batch", seq, answer, what)["answers"]
    except EngineError as error:
        return [], batch_refused(error)
    except AdapterError as error:
        return [], error
    if all_good(calls, seqs, answers):
        return list(answers), None
    outcomes: list[Any] = []
    for (cmd, _), inner_seq, inner in zip(calls, seqs, answers):
        try:
            outcomes.append(check_answer(cmd, inner_seq, inner, f"the answer to {cmd} (seq {inner_seq})"))
        except EngineError as error:
            outcomes.append(error)
        except AdapterError as error:
            return outcomes, error
    if len(answers) != len(calls):
        once = " once" if len(answers) > len(calls) else ""
        return outcomes, AdapterError(f"{what} holds {len(answers)} answers for {len(calls)} requests: answer every "
                                      f"request of a batch{once}, in order")
    return outcomes, None


def batch_refused(error: EngineError) -> AdapterError:
    """An error answer to a whole batch: a protocol failure, since each request must be answered."""
    return AdapterError(f"{error}: the engine declared batch, so it must answer each request of a batch, "
                        "with an error answer for the one that fails")


def once(work: Callable[[], None]) -> Callable[[], None]:
    """``work`` to be run at most once, however often it is called."""
    left = [work]

    def run() -> None:
        if left:
            left.pop()()

    return run
