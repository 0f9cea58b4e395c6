"""The ``perft`` request answered in process: every line of legal play below a game counted on copies of it.

The game is never changed: each child is a copy (the game's own ``clone()``, else a deep copy) with
one action applied. The seat to act comes from the state view, as it does for the harness.
"""

from __future__ import annotations

import copy
from typing import Any


def copier(game: Any) -> Any:
    """The way to copy ``game``: its ``clone`` when it has one, else a deep copy."""
    clone = getattr(game, "clone", None)
    return clone if callable(clone) else (lambda: copy.deepcopy(game))


def child(game: Any, seat: int, action: dict[str, Any]) -> Any:
    """A copy of ``game`` with ``action`` played by ``seat``; an engine that refuses what it listed fails the count."""
    made = copier(game)()
    reason = made.apply(seat, action)
    if reason is not None:
        raise RuntimeError(f"legal_actions() lists {action}, but apply() refused it ({reason})")
    return made


def walk(game: Any, depth: int, counts: list[int], level: int = 0) -> None:
    """Add the positions 1 .. ``depth`` plies below ``game`` to ``counts[level:]``."""
    legal = game.legal_actions()
    counts[level] += len(legal)
    if depth == 1 or not legal:
        return
    seat = game.state()["to_act"]
    for action in legal:
        walk(child(game, seat, action), depth - 1, counts, level + 1)


def perft(game: Any, depth: int) -> dict[str, Any]:
    """The answer's result: ``counts`` per depth 1 .. ``depth`` and ``divide``, each first action with its leaves."""
    legal = game.legal_actions()
    counts = [len(legal)] + [0] * (depth - 1)
    if depth == 1 or not legal:
        return {"counts": counts, "divide": [{"action": action, "nodes": 1} for action in legal]}
    seat = game.state()["to_act"]
    divide = []
    for action in legal:
        below = [0] * (depth - 1)
        walk(child(game, seat, action), depth - 1, below)
        divide.append({"action": action, "nodes": below[-1]})
        for level, nodes in enumerate(below, start=1):
            counts[level] += nodes
    return {"counts": counts, "divide": divide}
