"""Mid-game positions for the fuzzer: the rare corners a game from a fresh deal seldom reaches.

Random play from a deal almost never reaches a near-empty stock, tied hands, a score one point
short of the target or a gin with cards to lay off. Each game's module draws, with Hypothesis, an
explicit layout of such a position from the cards of a deal (every one of the 52 placed), which
the engine then plays on like any other. Only for engines that declare ``positions``; the expected
answers still come from the reference engine, never from here.
"""

from __future__ import annotations

from typing import Any

from harness.findings.games import GameFacts
from harness.fuzzing.actions import Draw
from harness.fuzzing.positions import gin_rummy, president, rummy

# Per game: draw(data, facts, deal, options) -> a position layout, or None to keep the deal.
_GENERATORS = {"rummy": rummy.draw, "gin-rummy": gin_rummy.draw, "president": president.draw}


def draw_position(data: Draw, facts: GameFacts, deal: dict[str, Any], options: dict[str, Any]) -> dict[str, Any] | None:
    """A mid-game layout made from the cards of ``deal`` (a fresh deal's layout), or None (play the deal)."""
    return _GENERATORS[facts.game](data, facts, deal, options)  # type: ignore[no-any-return]
