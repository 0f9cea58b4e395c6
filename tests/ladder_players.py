"""Computer players of known strength for the ladder's tests, each built by ``factory(game)``; deal scores tallied."""

from __future__ import annotations

import random
from typing import Any

from harness.ladder.sprt import Tally


class RandomPlayer:
    """Any legal action, drawn from the view's seed and the number of moves so far."""

    def choose(self, view: dict[str, Any]) -> dict[str, Any]:
        """A uniformly drawn legal action."""
        legal: list[dict[str, Any]] = view["legal"]
        return random.Random(f"{view['seed']}:{len(view['history'])}").choice(legal)


def random_player(game: str) -> RandomPlayer:
    """Factory for ``ladder_players:random_player`` (tests/ on the path)."""
    return RandomPlayer()


def tally(values: list[float]) -> Tally:
    """The deal scores ``values``, tallied as the ladder does."""
    counted = Tally()
    for value in values:
        counted.add(value)
    return counted
