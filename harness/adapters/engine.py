"""The engine interface every adapter presents to the runner, and loading one by name."""

from __future__ import annotations

import importlib
from typing import Any, Protocol, runtime_checkable

DEFAULT_ENGINE = "reference_engine:create"
# Modules that moved, by their old name: a command line or record written before the move still works.
MOVED = {"harness.fuzzing.mutants": "harness.mutants"}


@runtime_checkable
class Game(Protocol):
    """One game in progress inside an engine."""

    def legal_actions(self) -> list[dict[str, Any]]:
        """The legal actions of the seat to act, in canonical form."""

    def apply(self, seat: int, action: dict[str, Any]) -> str | None:
        """Play ``action`` for ``seat``: None when accepted, else the reason code of the refusal."""

    def state(self) -> dict[str, Any]:
        """The full canonical state view."""

    def observation(self, seat: int) -> dict[str, Any]:
        """The state view as ``seat`` may see it."""


@runtime_checkable
class Engine(Protocol):
    """An implementation of some CardVerse games, behind any adapter."""

    def describe(self) -> dict[str, Any]:
        """``{"name", "version", "games": {game: {"rule_versions": [...], "options": [...]}}}``."""

    def start(self, setup: dict[str, Any]) -> Game:
        """A new game from a complete setup (see spec/README.md)."""


class EngineLoadError(Exception):
    """An ``--engine`` value that does not name a usable engine factory."""


def load_engine(name: str = DEFAULT_ENGINE) -> Engine:
    """The engine made by the factory ``package.module:factory``."""
    module_name, _, attribute = name.partition(":")
    module_name = MOVED.get(module_name, module_name)
    if not module_name or not attribute:
        raise EngineLoadError(f"--engine {name!r}: expected package.module:factory, e.g. {DEFAULT_ENGINE}")
    try:
        module = importlib.import_module(module_name)
    except ImportError as error:
        raise EngineLoadError(f"--engine {name!r}: cannot import {module_name!r} ({error}); "
                              "is it installed or on PYTHONPATH?") from None
    factory = getattr(module, attribute, None)
    if not callable(factory):
        raise EngineLoadError(f"--engine {name!r}: {module_name} has no callable {attribute!r}")
    engine = factory()
    if not isinstance(engine, Engine):
        raise EngineLoadError(f"--engine {name!r}: the factory returned {type(engine).__name__}, "
                              "which lacks describe() or start()")
    return engine
