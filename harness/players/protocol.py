"""The players' part of the engine protocol: ``choose`` (interface view) and ``choose_seat`` (interface seat).

Both directions: the harness's side asks a remote engine through its public ``call``; the
server's side (``serve``) answers with the in-process engine's players.
"""

from __future__ import annotations

from typing import Any


def remote_choose(engine: Any, view: dict[str, Any]) -> Any:
    """A remote engine's choice in ``view`` (the ``choose`` request)."""
    return engine.call("choose", view=view)["result"]


def remote_choose_seat(game: Any, seat: int, level: str, seed: int) -> Any:
    """A remote engine's own bot's choice in the game in progress (the ``choose_seat`` request)."""
    game.send_start()
    return game.engine.call("choose_seat", seat=seat, level=level, seed=seed)["result"]


def _serve_choose(server: Any, message: dict[str, Any]) -> dict[str, Any]:
    """Answer ``choose`` with the engine's view players."""
    choose = getattr(server.engine, "choose", None)
    if choose is None:
        raise RuntimeError("this engine has no computer players taking a view (no choose)")
    return {"result": choose(message["view"])}


def _serve_choose_seat(server: Any, message: dict[str, Any]) -> dict[str, Any]:
    """Answer ``choose_seat`` with the game's own bots."""
    choose_seat = getattr(server.current(message), "choose_seat", None)
    if choose_seat is None:
        raise RuntimeError("this engine's games have no bots of their own (no choose_seat)")
    return {"result": choose_seat(message["seat"], message["level"], message["seed"])}


def server_handlers() -> dict[str, Any]:
    """The handlers ``serve`` adds for the players' requests."""
    return {"choose": _serve_choose, "choose_seat": _serve_choose_seat}
