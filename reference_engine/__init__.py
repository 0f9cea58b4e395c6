"""The reference engine: the three CardVerse games behind the kit's engine interface.

It knows the rules and nothing about fixtures or the harness; it reads its numbers and defaults from
the game files (``rules``). Each game has its own folder (``rummy/``, ``gin_rummy/``, ``president/``)
whose ``game`` module exposes ``GAME``, ``RULE_VERSION`` (the game file its clauses implement),
``OPTIONS`` and ``start(setup)``; the folder also holds the game's other rules modules and its
computer players. ``cards`` and ``seeded`` are shared by the three games.
"""

from __future__ import annotations

import importlib
from typing import Any

from reference_engine import players
from reference_engine.gamefiles import rules

__version__ = "0.1.0"

# game name -> module; imported on first use so loading one game costs nothing for the others.
GAME_MODULES = {
    "rummy": "reference_engine.rummy.game",
    "gin-rummy": "reference_engine.gin_rummy.game",
    "president": "reference_engine.president.game",
}

# What every game of the reference can do (spec/README.md, Capabilities); a module adds its own.
FEATURES: dict[str, Any] = {"match": True, "positions": True, "deck_deal": True, "seeded_deal": True,
                            "reasons": "exact", "clone": False}


def game_module(game: str) -> Any:
    """The module implementing ``game``."""
    return importlib.import_module(GAME_MODULES[game])


class ReferenceEngine:
    """The embedded default engine."""

    def describe(self) -> dict[str, Any]:
        """What this engine implements: games, rule versions and options."""
        games: dict[str, dict[str, Any]] = {}
        for game in GAME_MODULES:
            try:
                module = game_module(game)
            except ImportError:  # a game not written yet is simply not declared
                continue
            games[game] = {"rule_versions": list(rules.versions(game, module.RULE_VERSION)),
                           "options": list(module.OPTIONS),
                           "features": {**FEATURES, **getattr(module, "FEATURES", {})}}
            if players.levels(game):
                games[game]["players"] = {"levels": players.levels(game), "interface": "view"}
        return {"name": "cardverse-reference", "version": __version__, "games": games}

    def choose(self, view: dict[str, Any]) -> dict[str, Any]:
        """The reference computer player's choice in ``view`` (spec/players.md)."""
        return players.choose(view)

    def start(self, setup: dict[str, Any]) -> Any:
        """A new game from ``setup`` (see spec/README.md, "The engine interface")."""
        return game_module(setup["game"]).start(setup)


def create() -> ReferenceEngine:
    """Factory used by ``--engine reference_engine:create``."""
    return ReferenceEngine()
