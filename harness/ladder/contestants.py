"""Who plays in a ladder: a level of the reference, a level of a plugged-in engine, or a factory."""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any

from harness.ladder.deals import Player

LEVELS = ("easy", "normal", "hard")


class ContestantError(ValueError):
    """A player name the ladder cannot use; the message says what to write instead."""


@dataclass(frozen=True)
class Contestant:
    """One side of a ladder, as named on the command line."""

    name: str
    kind: str  # "reference", "engine" or "factory"
    level: str
    factory: str = ""

    def build(self, game: str) -> Player:
        """A fresh player of this contestant for ``game``."""
        if self.kind == "reference":
            try:
                from reference_engine.players import player
            except ImportError:
                raise ContestantError("the reference engine has no computer players in this kit") from None
            return player(game, self.level)  # type: ignore[no-any-return]
        if self.kind == "factory":
            module_name, _, attribute = self.factory.partition(":")
            try:
                made: Any = getattr(importlib.import_module(module_name), attribute)(game)
            except (ImportError, AttributeError) as error:
                raise ContestantError(f"player {self.name!r}: cannot load {self.factory} ({error})") from None
            if not callable(getattr(made, "choose", None)):
                raise ContestantError(f"player {self.name!r}: {self.factory} made {type(made).__name__}, "
                                      "which has no choose(view)")
            return made  # type: ignore[no-any-return]
        raise ContestantError(f"player {self.name!r}: the players of a plugged-in engine are not reachable "
                              "in this kit yet; name a reference level (easy, normal, hard) instead")


def parse_contestant(text: str) -> Contestant:
    """``hard`` (the reference's), ``engine:hard`` (the plugged-in engine's) or ``package.module:factory``."""
    if text in LEVELS:
        return Contestant(text, "reference", text)
    head, colon, tail = text.partition(":")
    if colon and head == "engine":
        if tail not in LEVELS:
            raise ContestantError(f"player {text!r}: after engine: name a level ({', '.join(LEVELS)})")
        return Contestant(text, "engine", tail)
    if colon and head and tail:
        return Contestant(text, "factory", tail, text)
    raise ContestantError(f"player {text!r}: write a level ({', '.join(LEVELS)}), engine:LEVEL for the "
                          "plugged-in engine's player, or package.module:factory for a Python player")
