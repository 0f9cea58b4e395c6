"""Computer players of known strength for the ladder's tests, each built by ``factory(game)``."""

from __future__ import annotations

import random
from typing import Any


class RandomPlayer:
    """Any legal action, drawn from the view's seed and the number of moves so far."""

    def choose(self, view: dict[str, Any]) -> dict[str, Any]:
        """A uniformly drawn legal action."""
        legal: list[dict[str, Any]] = view["legal"]
        return random.Random(f"{view['seed']}:{len(view['history'])}").choice(legal)


def random_player(game: str) -> RandomPlayer:
    """Factory for ``ladder_players:random_player`` (tests/ on the path)."""
    return RandomPlayer()
