"""The tree of legal actions of one engine from one setup, walked in process: counts per depth and per first action.

A position is named by its path, the (seat, action) pairs played from the setup's start. A game
that declares ``clone`` (and has ``clone()``) is copied at each branch; any other is started
again and replayed along the path, which gives the same counts, only slower.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from harness.spec.cards import show

MAX_LEGAL = 10_000  # actions a legal list may hold (the protocol's 1 MiB line holds some 50,000): past it, an error

Path = tuple[tuple[int, dict[str, Any]], ...]


class PerftError(Exception):
    """The engine misbehaved while its tree was walked (raised, refused an action it listed, answered nonsense)."""


def where(path: Path) -> str:
    """The position after ``path`` for people: ``after seat 1 {draw: stock}, seat 1 {discard: 7♣}``."""
    if not path:
        return "at the start"
    return "after " + ", ".join(f"seat {seat} {show(action)}" for seat, action in path)


def declares_clone(engine: Any, game: str) -> bool:
    """Whether the engine declares the ``clone`` feature for ``game`` (absent means no)."""
    try:
        features = engine.describe().get("games", {}).get(game, {}).get("features") or {}
    except Exception as error:  # a broken describe() is the engine's fault, said as such
        raise PerftError(f"the engine cannot describe itself: {type(error).__name__}: {error}") from None
    return features.get("clone") is True


def checked_legal(actions: Any, path: Path) -> list[dict[str, Any]]:
    """``actions`` once it is a list of action mappings."""
    if not isinstance(actions, list) or not all(isinstance(a, dict) for a in actions):
        raise PerftError(f"legal_actions() {where(path)} is not a list of actions: {actions!r:.200}")
    if len(actions) > MAX_LEGAL:
        raise PerftError(f"legal_actions() {where(path)} lists {len(actions):,} actions, past the kit's bound of "
                         f"{MAX_LEGAL:,}: list each legal action once")
    return actions


def checked_seat(view: Any, path: Path) -> int:
    """The seat to act in the state view ``view`` (a position with legal actions has one)."""
    seat = view.get("to_act") if isinstance(view, dict) else None
    if type(seat) is not int:
        raise PerftError(f"the state view {where(path)} names no seat to act (to_act {seat!r}), "
                         "yet legal_actions() lists actions: give to_act whenever an action is legal")
    return seat


def refused(seat: int, action: dict[str, Any], reason: Any, path: Path) -> PerftError:
    """The error for an action the engine listed as legal and then refused."""
    return PerftError(f"{where(path)}: legal_actions() lists seat {seat} {show(action)}, but apply() refused it "
                      f"({reason}): every listed action must be accepted")


class LocalTree:
    """One engine's tree from one setup, in this process."""

    def __init__(self, engine: Any, setup: dict[str, Any]) -> None:
        self.engine, self.setup = engine, setup
        self.clones = declares_clone(engine, setup["game"])

    def call(self, what: str, path: Path, function: Callable[..., Any], *args: Any) -> Any:
        """An engine call; what it raises becomes a PerftError saying where."""
        try:
            return function(*args)
        except PerftError:
            raise
        except Exception as error:
            raise PerftError(f"the engine raised in {what} {where(path)}: {type(error).__name__}: {error}") from None

    def game_at(self, path: Path) -> Any:
        """A new game at the position after ``path``."""
        game = self.call("start()", (), self.engine.start, self.setup)
        for number, (seat, action) in enumerate(path):
            reason = self.call("apply()", path[:number], game.apply, seat, action)
            if reason is not None:
                raise refused(seat, action, reason, path[:number])
        return game

    def legal(self, path: Path = ()) -> list[dict[str, Any]]:
        """The legal actions after ``path``."""
        game = self.game_at(path)
        return checked_legal(self.call("legal_actions()", path, game.legal_actions), path)

    def view(self, path: Path = ()) -> dict[str, Any]:
        """The state view after ``path``."""
        game = self.game_at(path)
        return self.call("state()", path, game.state)  # type: ignore[no-any-return]

    def seat(self, path: Path = ()) -> int:
        """The seat to act after ``path``."""
        return checked_seat(self.view(path), path)

    def counts(self, depth: int, path: Path = (), tick: Callable[[int], None] | None = None) -> list[int]:
        """perft(1) .. perft(depth) from the position after ``path``; ``tick(n)`` learns of n more leaves."""
        counts = [0] * depth
        self._visit(self.game_at(path), path, 0, counts, tick)
        return counts

    def _visit(self, game: Any, path: Path, level: int, counts: list[int], tick: Callable[[int], None] | None) -> None:
        legal = checked_legal(self.call("legal_actions()", path, game.legal_actions), path)
        counts[level] += len(legal)
        if level + 1 == len(counts):
            if tick is not None:
                tick(len(legal))
            return  # the last ply counts the legal list without playing it
        if not legal:
            return
        seat = checked_seat(self.call("state()", path, game.state), path)
        clone = getattr(game, "clone", None) if self.clones else None
        for action in legal:
            child = path + ((seat, action),)
            if callable(clone):
                copy = self.call("clone()", path, clone)
                reason = self.call("apply()", path, copy.apply, seat, action)
                if reason is not None:
                    raise refused(seat, action, reason, path)
            else:
                copy = self.game_at(child)
            self._visit(copy, child, level + 1, counts, tick)

    def divide(self, depth: int, path: Path = ()) -> list[tuple[dict[str, Any], int]]:
        """Each first action after ``path`` with the leaves below it at ``depth`` (its perft(depth - 1))."""
        return self.divided(depth, path)[1]

    def divided(self, depth: int, path: Path = ()) -> tuple[list[int], list[tuple[dict[str, Any], int]]]:
        """perft(1) .. perft(depth) after ``path`` and its divide, in one walk."""
        legal = self.legal(path)
        counts = [len(legal)] + [0] * (depth - 1)
        if depth <= 1 or not legal:
            return counts, [(action, 1) for action in legal]
        seat = self.seat(path)
        divide = []
        for action in legal:
            below = self.counts(depth - 1, path + ((seat, action),))
            divide.append((action, below[-1]))
            counts[1:] = [mine + theirs for mine, theirs in zip(counts[1:], below)]
        return counts, divide
