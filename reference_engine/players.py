"""The reference engine's computer players: ``player(game, level)`` finds one.

Each player lives in its game's folder as ``reference_engine/<folder>/<level>.py``
(``rummy/easy.py``, ``gin_rummy/normal.py``...) exposing ``choose(view) -> action``. A level
without its module is no such level; a module that is there but fails to import is a bug and
raises. A player module imports only card helpers and solvers on its own cards, never a game
module: it decides from the view alone (R-7.0, G-7.0, P-7.0; spec/players.md).
"""

from __future__ import annotations

import importlib
from functools import cache
from typing import Any

LEVELS = ("easy", "normal", "hard")
# game name -> the folder of its player modules (``reference_engine.<folder>.<level>``)
_FOLDERS = {"rummy": "rummy", "gin-rummy": "gin_rummy", "president": "president"}


class NoSuchPlayer(LookupError):
    """No reference player of that game and level."""


class ReferencePlayer:
    """A reference player of one game and level, as a ``harness.players.Player``."""

    def __init__(self, game: str, level: str, module: Any) -> None:
        self.game, self.level, self._choose = game, level, module.choose

    def choose(self, view: dict[str, Any]) -> dict[str, Any]:
        """The action this player picks in ``view`` (one of ``view["legal"]``)."""
        return dict(self._choose(view))

    def __repr__(self) -> str:
        return f"ReferencePlayer({self.game!r}, {self.level!r})"


@cache
def _module(game: str, level: str) -> Any:
    """The module of that player, or None when it does not exist (yet)."""
    if game not in _FOLDERS or level not in LEVELS:
        return None
    folder = f"reference_engine.{_FOLDERS[game]}"
    try:
        return importlib.import_module(f"{folder}.{level}")
    except ModuleNotFoundError as error:
        if error.name not in (f"{folder}.{level}", folder):
            raise  # a player that exists but fails to import is a bug, not a missing level
        return None


def levels(game: str) -> list[str]:
    """The levels the reference engine has a player for, easiest first."""
    return [level for level in LEVELS if _module(game, level) is not None]


def player(game: str, level: str) -> ReferencePlayer:
    """The reference player of ``game`` at ``level``."""
    module = _module(game, level)
    if module is None:
        have = ", ".join(levels(game)) or "none"
        raise NoSuchPlayer(f"the reference engine has no {level!r} player for {game!r} (it has: {have})")
    return ReferencePlayer(game, level, module)


def choose(view: dict[str, Any]) -> dict[str, Any]:
    """The choice of the reference player the view names (its game and level)."""
    return player(view["game"], view["level"]).choose(view)
