"""The Player interface, and asking an engine's computer player for a choice.

An engine declares its players per game in ``describe()`` (``"players": {"levels": [...],
"interface": "view" | "seat"}``, spec/players.md). With ``view`` the harness sends the view and
the engine answers with ``choose(view)``; with ``seat`` the bots live inside the engine and the
game in progress answers ``choose_seat(seat, level, seed)``.
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

INTERFACES = ("view", "seat")


@runtime_checkable
class Player(Protocol):
    """A computer player: one action, from the view alone."""

    def choose(self, view: dict[str, Any]) -> dict[str, Any]:
        """One of ``view["legal"]``: the same one for the same view (the seed is in the view)."""


class ViewPlayers(Protocol):
    """An engine whose players take the view (``interface: view``)."""

    def choose(self, view: dict[str, Any]) -> dict[str, Any]:
        """The choice of the player ``view["level"]`` of ``view["game"]``."""


class SeatPlayers(Protocol):
    """A game in progress whose bots live in the engine (``interface: seat``)."""

    def choose_seat(self, seat: int, level: str, seed: int) -> dict[str, Any]:
        """The choice of the engine's bot of ``level`` sitting at ``seat`` in the current position."""


def declared_players(description: dict[str, Any], game: str) -> dict[str, Any] | None:
    """The ``players`` capability the engine declares for ``game``, or None."""
    declared = description.get("games", {}).get(game, {}).get("players")
    if not isinstance(declared, dict) or not declared.get("levels"):
        return None
    return {"levels": list(declared["levels"]), "interface": declared.get("interface", "view")}


def missing_level(description: dict[str, Any], game: str, level: str) -> str | None:
    """Why the engine cannot be asked for a ``level`` player of ``game``, or None when it can."""
    declared = declared_players(description, game)
    if declared is None:
        return f"the engine declares no computer players for {game}"
    if level not in declared["levels"]:
        return f"the engine has no {level} computer player for {game} (it declares {', '.join(declared['levels'])})"
    return None


def cannot_choose(engine: Any, interface: str, game: str) -> str | None:
    """Why an in-process engine declaring ``view`` players for ``game`` cannot be asked, or None."""
    if interface != "view" or hasattr(engine, "choose") or hasattr(engine, "call"):
        return None
    return (f"the engine declares players for {game} (interface: view) but has no choose(view); add choose(view) "
            "(spec/players.md) or leave players out of describe()")


def ask(engine: Any, game: Any, interface: str, view: dict[str, Any]) -> Any:
    """The engine's choice in ``view``, through the declared interface (what it returns, unchecked)."""
    if interface == "seat":
        if hasattr(game, "choose_seat"):
            return game.choose_seat(view["seat"], view["level"], view["seed"])
        return remote_choose_seat(game, view["seat"], view["level"], view["seed"])
    if hasattr(engine, "choose"):
        return engine.choose(view)
    return remote_choose(engine, view)


def remote_choose(engine: Any, view: dict[str, Any]) -> Any:
    """A remote engine's choice in ``view`` (the ``choose`` request)."""
    return engine.call("choose", view=view)["result"]


def remote_choose_seat(game: Any, seat: int, level: str, seed: int) -> Any:
    """A remote engine's own bot's choice in the game in progress (the ``choose_seat`` request)."""
    game.send_start()
    return game.engine.call("choose_seat", seat=seat, level=level, seed=seed)["result"]
