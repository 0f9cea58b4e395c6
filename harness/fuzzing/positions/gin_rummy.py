"""gin rummy positions for the fuzzer (see the package docstring)."""

from __future__ import annotations

from typing import Any

from harness.fuzzing.actions import Draw
from harness.fuzzing.games import GameFacts


def draw(data: Draw, facts: GameFacts, deal: dict[str, Any], options: dict[str, Any]) -> dict[str, Any] | None:
    """A position layout from the cards of ``deal``, or None (none written yet)."""
    return None
