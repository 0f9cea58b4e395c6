"""Who plays in a ladder: a level of the reference, a level of a plugged-in engine, or a factory."""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any

from harness.adapters.players import Player, ask, declared_players, missing_level
from harness.spec.gamespec import LEVELS
from harness.spec.names import did_you_mean

# Players known by a short name: OpenSpiel's simple Gin Rummy bot, where the bench extra is installed.
NAMED = {"openspiel": "harness.ladder.openspiel:simple_gin_rummy_bot"}


class ContestantError(ValueError):
    """A player name the ladder cannot use; the message says what to write instead."""


@dataclass(frozen=True)
class Contestant:
    """One side of a ladder, as named on the command line."""

    name: str
    kind: str  # "reference", "engine" or "factory"
    level: str
    factory: str = ""
    # --engine, --engine-cmd, --engine-url, --engine-page, --timeout: each worker opens the engine itself.
    engine: tuple[str | None, str | None, str | None, str | None, float | None] = (None,) * 5

    def build(self, game: str) -> Player:
        """A fresh player of this contestant for ``game``."""
        if self.kind == "reference":
            from reference_engine.players import NoSuchPlayer, player

            try:
                return player(game, self.level)
            except NoSuchPlayer as error:
                raise ContestantError(f"player {self.name!r}: {error}") from None
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
        return EnginePlayer(self, game)


class EnginePlayer:
    """A computer player of a plugged-in engine that takes the view (``interface: view``)."""

    def __init__(self, contestant: Contestant, game: str) -> None:
        import argparse

        from harness.adapters.arguments import engine_from
        from harness import NeverStarted
        from harness.adapters.handshake import described

        engine, command, url, page, timeout = contestant.engine
        self.engine: Any = None
        try:
            self.engine = engine_from(argparse.Namespace(engine=engine, engine_cmd=command, engine_url=url,
                                                          engine_page=page, timeout=timeout))
        except Exception as error:  # EngineLoadError, OSError: the engine is not usable
            raise ContestantError(f"player {contestant.name!r}: cannot open the engine ({error})") from None
        try:
            description = described(self.engine)
        except NeverStarted:  # a protocol error, a broken describe(): the engine never started (exit 3)
            self.close()
            raise
        problem = missing_level(description, game, contestant.level)
        declared = declared_players(description, game)
        if problem is None and declared and declared["interface"] != "view":
            problem = (f"the engine's {game} players live inside the engine (interface: seat); the ladder "
                       "plays on the reference engine and needs players that take the view")
        if problem:
            self.close()
            raise ContestantError(f"player {contestant.name!r}: {problem}")

    def choose(self, view: dict[str, Any]) -> dict[str, Any]:
        """The engine's choice for the view."""
        return ask(self.engine, None, "view", view)  # type: ignore[no-any-return]

    def close(self) -> None:
        """End the engine's process or connection, if it has one."""
        close = getattr(self.engine, "close", None)
        if callable(close):
            close()


def close_player(player: Any) -> None:
    """End whatever a player holds (an engine process); a player holding nothing is left as it is."""
    close = getattr(player, "close", None)
    if callable(close):
        close()


def parse_contestant(text: str, engine: tuple[str | None, str | None, str | None, str | None, float | None] = (None,) * 5
                     ) -> Contestant:
    """``hard`` (the reference's), ``engine:hard`` (the plugged-in engine's) or ``package.module:factory``."""
    if text in LEVELS:
        return Contestant(text, "reference", text)
    if text in NAMED:
        return Contestant(text, "factory", text, NAMED[text])
    head, colon, tail = text.partition(":")
    if colon and head == "engine":
        if tail not in LEVELS:
            raise ContestantError(f"player {text!r}: after engine: name a level ({', '.join(LEVELS)})"
                                  f"{did_you_mean(tail, LEVELS)}")
        return Contestant(text, "engine", tail, engine=engine)
    if colon and head and tail:
        return Contestant(text, "factory", tail, text)
    raise ContestantError(f"player {text!r}{did_you_mean(text, LEVELS)}: write a level ({', '.join(LEVELS)}), "
                          "engine:LEVEL for the plugged-in engine's player, package.module:factory for a Python "
                          "player, or openspiel (Gin Rummy, with the bench extra)")
