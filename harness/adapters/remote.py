"""An engine reached through the protocol: the Engine/Game interface on top of any transport.

It owns the session logic (handshake, seq numbers, one game at a time, checking every message);
a transport (``Channel``) only moves one message and its answer, and restarts when told to.
"""

from __future__ import annotations

from typing import Any, Protocol

from harness.adapters.protocol import (
    AdapterError,
    EngineError,
    PartialAnswers,
    check_answer,
    check_hello,
    request,
)


class Channel(Protocol):
    """A transport carrying one request and its answer at a time."""

    def open(self) -> None:
        """Start a new session (a process, a connection); the handshake comes next."""

    def is_open(self) -> bool:
        """Whether a session is live."""

    def exchange(self, message: dict[str, Any], what: str) -> Any:
        """Send ``message``; its answer, decoded from JSON but not yet checked."""

    def abandon(self) -> str:
        """End the session after a failure; what to add to the error (the engine's stderr tail)."""

    def close(self, farewell: dict[str, Any] | None) -> None:
        """End the session politely, sending ``farewell`` first when it is live."""


class RemoteEngine:
    """The in-process Engine interface for an engine behind a ``Channel``."""

    pipelines = True  # the runner may prepare the next scenarios while it judges one

    def __init__(self, channel: Channel) -> None:
        self.channel = channel
        self.seq = 0
        self.session = 0
        self.description: dict[str, Any] | None = None
        self.current: RemoteGame | None = None

    def describe(self) -> dict[str, Any]:
        """The engine's description, from the handshake."""
        self._ensure_session()
        assert self.description is not None
        return dict(self.description)

    def start(self, setup: dict[str, Any]) -> RemoteGame:
        """A new game; it replaces any game in progress (one game at a time per engine).

        The start request goes out with the game's first request, saving a round trip.
        """
        self._ensure_session()
        self.current = RemoteGame(self, self.session, setup)
        return self.current

    def call(self, cmd: str, **fields: Any) -> dict[str, Any]:
        """Send one request and return its checked answer; any protocol failure ends the session."""
        self._ensure_session()
        self.seq += 1
        return self._exchange(cmd, self.seq, request(cmd, self.seq, **fields))

    def call_many(self, calls: list[tuple[str, dict[str, Any]]]) -> list[Any]:
        """Send several requests at once (when the transport can pipeline); each checked answer or its exception."""
        self._ensure_session()
        exchange_many = getattr(self.channel, "exchange_many", None)
        if exchange_many is None:  # one at a time, stopping the session at the first protocol failure
            outcomes: list[Any] = []
            for cmd, fields in calls:
                try:
                    outcomes.append(self.call(cmd, **fields))
                except (AdapterError, EngineError) as error:
                    outcomes.append(error)
                    if isinstance(error, AdapterError):
                        break
            return outcomes
        seqs = list(range(self.seq + 1, self.seq + 1 + len(calls)))
        self.seq += len(calls)
        whats = [f"the answer to {cmd} (seq {seq})" for (cmd, _), seq in zip(calls, seqs)]
        failure: AdapterError | None = None
        try:
            answers = exchange_many([request(cmd, seq, **fields) for (cmd, fields), seq in zip(calls, seqs)], whats)
        except PartialAnswers as partial:
            answers, failure = partial.answers, partial.error
        outcomes = []
        for (cmd, _), seq, what, answer in zip(calls, seqs, whats, answers):
            try:
                outcomes.append(check_answer(cmd, seq, answer, what))
            except EngineError as error:
                outcomes.append(error)
            except AdapterError as error:
                failure = error
                break
        if failure is not None:
            outcomes.append(self._abandon(failure))
        return outcomes

    def close(self) -> None:
        """Say stop and end the session; safe to call twice."""
        if self.channel.is_open():
            self.seq += 1
            self.channel.close(request("stop", self.seq))
        self.current = None

    def __enter__(self) -> RemoteEngine:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _ensure_session(self) -> None:
        """Open a session and shake hands if none is live (first use, or after a failure)."""
        if self.channel.is_open():
            return
        self.channel.open()
        self.session += 1
        answer = self._exchange("hello", None, request("hello", 0))
        try:
            self.description = check_hello(answer)
        except AdapterError as error:
            raise self._abandon(error) from None

    def _abandon(self, error: AdapterError) -> AdapterError:
        """End the session after ``error``; the error to raise, with the channel's context."""
        return AdapterError(error.reason + self.channel.abandon())

    def _exchange(self, cmd: str, seq: int | None, message: dict[str, Any]) -> dict[str, Any]:
        """One round trip; on a protocol failure the session is abandoned and the error says so."""
        what = f"the answer to {cmd}" + (f" (seq {seq})" if seq is not None else "")
        try:
            return check_answer(cmd, seq, self.channel.exchange(message, what), what)
        except AdapterError as error:
            raise self._abandon(error) from None
        except EngineError as error:
            if cmd != "hello":
                raise
            # without a handshake there is no session to go on with
            raise self._abandon(AdapterError(f"{error}; the handshake must succeed")) from None


class RemoteGame:
    """One game inside a remote engine; valid until the next start or a restart."""

    def __init__(self, engine: RemoteEngine, session: int, setup: dict[str, Any]) -> None:
        self.engine, self.session = engine, session
        self.setup: dict[str, Any] | None = setup  # sent with the first request

    def _check_alive(self) -> None:
        """Refuse locally once the game is gone."""
        engine = self.engine
        if engine.current is not self or engine.session != self.session or not engine.channel.is_open():
            raise AdapterError("this game is gone: the engine was restarted after an error, or a newer start "
                               "replaced it (an engine holds one game at a time); start a new game")

    def send_start(self) -> None:
        """Send the start request now, if it has not gone out yet (to check its answer alone)."""
        self._check_alive()
        if self.setup is not None:
            setup, self.setup = self.setup, None
            self.engine.call("start", setup=setup)

    def _call(self, cmd: str, **fields: Any) -> dict[str, Any]:
        """A request about this game (after its start, if that has not gone out yet)."""
        self.send_start()
        return self.engine.call(cmd, **fields)

    def prefetch(self, calls: list[tuple[str, tuple[Any, ...]]]) -> list[Any]:
        """Answers to a whole plan of calls at once: each the method's result, or the exception it raises."""
        self._check_alive()
        requests = [(cmd, _FIELDS[cmd](*args)) for cmd, args in calls]
        if self.setup is not None:
            requests.insert(0, ("start", {"setup": self.setup}))
            self.setup = None
            outcomes = self.engine.call_many(requests)
            if isinstance(outcomes[0], Exception):
                raise outcomes[0]
            outcomes = outcomes[1:] or [AdapterError("the engine gave no answers after start")]
        else:
            outcomes = self.engine.call_many(requests)
        return [outcome if isinstance(outcome, Exception) else _RESULTS[cmd](outcome)
                for (cmd, _), outcome in zip(calls, outcomes)] + [o for o in outcomes[len(calls):]]

    def legal_actions(self) -> list[dict[str, Any]]:
        """The legal actions of the seat to act."""
        return list(self._call("legal_actions")["result"])

    def apply(self, seat: int, action: dict[str, Any]) -> str | None:
        """None when accepted, else the reason code."""
        answer = self._call("apply", seat=seat, action=action)
        return None if answer["accepted"] else str(answer["reason"])

    def state(self) -> dict[str, Any]:
        """The full state view."""
        return dict(self._call("state")["result"])

    def observation(self, seat: int) -> dict[str, Any]:
        """The view as ``seat`` may see it."""
        return dict(self._call("observation", seat=seat)["result"])


# How each Game method becomes a request, and how its checked answer becomes the method's result.
_FIELDS: dict[str, Any] = {
    "legal_actions": lambda: {}, "state": lambda: {},
    "apply": lambda seat, action: {"seat": seat, "action": action},
    "observation": lambda seat: {"seat": seat},
}
_RESULTS: dict[str, Any] = {
    "legal_actions": lambda answer: list(answer["result"]), "state": lambda answer: dict(answer["result"]),
    "observation": lambda answer: dict(answer["result"]),
    "apply": lambda answer: None if answer["accepted"] else str(answer["reason"]),
}
