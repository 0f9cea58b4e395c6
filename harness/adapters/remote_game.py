"""One game inside a remote engine, and the Game methods as protocol requests and their answers as results."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from harness.adapters.protocol import AdapterError


class Host(Protocol):
    """What a game needs of the remote engine holding it (``RemoteEngine``)."""

    current: Any  # the game of the latest start
    session: int  # counts the engine's (re)starts
    channel: Any

    def call(self, cmd: str, **fields: Any) -> dict[str, Any]:
        """One request answered."""

    def call_many(self, calls: list[tuple[str, dict[str, Any]]], fresh: bool = False,
                  meanwhile: Callable[[], None] | None = None) -> list[Any]:
        """Several requests answered in order."""


class RemoteGame:
    """One game inside a remote engine (or a copy of one, made by fork); valid until the next start or a restart."""

    def __init__(self, engine: Host, session: int, setup: dict[str, Any] | None,
                 number: int = 0, root: RemoteGame | None = None) -> None:
        self.engine, self.session = engine, session
        self.setup = setup  # sent with the first request
        self.number = number  # 0: the started game; else the copy's number, named in every request
        self.root = root or self

    def _check_alive(self) -> None:
        """Refuse locally once the game is gone."""
        engine = self.engine
        if engine.current is not self.root or engine.session != self.session or not engine.channel.is_open():
            raise AdapterError("this game is gone: the engine was restarted after an error, or a newer start "
                               "replaced it (an engine holds one game at a time); start a new game")

    def send_start(self) -> None:
        """Send the start request now, if it has not gone out yet (to check its answer alone)."""
        self._check_alive()
        if self.root.setup is not None:
            setup, self.root.setup = self.root.setup, None
            self.engine.call("start", setup=setup)

    def _call(self, cmd: str, **fields: Any) -> dict[str, Any]:
        """A request about this game (after its start, if that has not gone out yet)."""
        self.send_start()
        if self.number:
            fields["game"] = self.number
        return self.engine.call(cmd, **fields)

    def prefetch(self, calls: list[tuple[str, tuple[Any, ...]]], meanwhile: Callable[[], None] | None = None) -> list[Any]:
        """Answers to a whole plan of calls at once: each the method's result, or the exception it raises.
        ``meanwhile``: the caller's own work, run (at most once) while the engine answers."""
        self._check_alive()
        requests = as_requests(calls)
        if self.number:
            requests = [(cmd, {**fields, "game": self.number}) for cmd, fields in requests]
        if self.setup is not None:
            requests.insert(0, ("start", {"setup": self.setup}))
            self.setup = None
            outcomes = self.engine.call_many(requests, fresh=True, meanwhile=meanwhile)
            self.session = self.engine.session  # a restart for the previous scenario's fault starts it anew
            outcomes = after_start(outcomes)
        else:
            outcomes = self.engine.call_many(requests, meanwhile=meanwhile)
        return as_results(calls, outcomes)

    def clone(self) -> RemoteGame:
        """A copy of this game inside the engine (the fork request), going on apart from it."""
        number = self._call("fork")["result"]["game"]
        return RemoteGame(self.engine, self.session, None, number, self.root)

    def apply_on_copies(self, seat: int, actions: list[dict[str, Any]]) -> list[Any]:
        """Each action applied to a copy of this game of its own, in two batches (the forks, then the
        applies): per action None or the reason code, or the exception it raised."""
        self.send_start()
        mine = {"game": self.number} if self.number else {}
        copies = padded(self.engine.call_many([("fork", dict(mine)) for _ in actions]), len(actions))
        if any(isinstance(copy, AdapterError) for copy in copies):
            return copies
        live = [(i, copy["result"]["game"]) for i, copy in enumerate(copies) if not isinstance(copy, Exception)]
        answers = padded(self.engine.call_many([("apply", {"seat": seat, "action": actions[i], "game": number})
                                                for i, number in live]), len(live)) if live else []
        outcomes = list(copies)
        for (i, _), answer in zip(live, answers):
            outcomes[i] = answer if isinstance(answer, Exception) else _RESULTS["apply"](answer)
        return outcomes

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
_RESULTS: dict[str, Any] = {  # no copies: each answer is fresh from the decoder and read-only to the runner
    "legal_actions": lambda answer: answer["result"], "state": lambda answer: answer["result"],
    "observation": lambda answer: answer["result"],
    "apply": lambda answer: None if answer["accepted"] else str(answer["reason"]),
}


def after_start(outcomes: list[Any]) -> list[Any]:
    """The outcomes of the calls sent after a start (the first outcome), raising the start's failure."""
    if isinstance(outcomes[0], Exception):
        raise outcomes[0]
    return outcomes[1:] or [AdapterError("the engine gave no answers after start")]


def as_requests(calls: list[tuple[str, tuple[Any, ...]]]) -> list[tuple[str, dict[str, Any]]]:
    """Game method calls (name, arguments) as requests (cmd, fields)."""
    return [(cmd, _FIELDS[cmd](*args)) for cmd, args in calls]


def as_results(calls: list[tuple[str, tuple[Any, ...]]], outcomes: list[Any]) -> list[Any]:
    """The checked answers to ``calls`` as the methods' results; an exception stays (and any beyond the calls)."""
    return [outcome if isinstance(outcome, Exception) else _RESULTS[cmd](outcome)
            for (cmd, _), outcome in zip(calls, outcomes)] + outcomes[len(calls):]


def padded(answers: list[Any], count: int) -> list[Any]:
    """``count`` answers: a list cut short by a protocol failure has that failure for every call it cut off."""
    return answers + answers[-1:] * (count - len(answers))
