"""An engine reached through the protocol: the Engine/Game interface on top of any transport.

It owns the session logic (handshake, seq numbers, one game at a time, checking every message);
a transport (``Channel``) only moves one message and its answer, and restarts when told to.
"""

from __future__ import annotations

from typing import Any, Protocol

from harness.adapters.protocol import AdapterError, EngineError, check_answer, check_hello, request


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
        """A new game; it replaces any game in progress (one game at a time per engine)."""
        self.call("start", setup=setup)
        self.current = RemoteGame(self, self.session)
        return self.current

    def call(self, cmd: str, **fields: Any) -> dict[str, Any]:
        """Send one request and return its checked answer; any protocol failure ends the session."""
        self._ensure_session()
        self.seq += 1
        return self._exchange(cmd, self.seq, request(cmd, self.seq, **fields))

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

    def __init__(self, engine: RemoteEngine, session: int) -> None:
        self.engine, self.session = engine, session

    def _call(self, cmd: str, **fields: Any) -> dict[str, Any]:
        """A request about this game, refused locally once the game is gone."""
        engine = self.engine
        if engine.current is not self or engine.session != self.session or not engine.channel.is_open():
            raise AdapterError("this game is gone: the engine was restarted after an error, or a newer start "
                               "replaced it (an engine holds one game at a time); start a new game")
        return engine.call(cmd, **fields)

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
