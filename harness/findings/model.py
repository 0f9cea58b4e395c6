"""What one played game is made of, as a finding: its setup, the moves played, and how it went wrong.

Plain values only, so a finding can be written as a fixture, printed, or compared in a test.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field, fields
from typing import Any

from harness.spec import gamespec as specs
from harness.spec.cards import ALL_CARDS
from harness.suite.layouts import complete_layout


@dataclass(frozen=True)
class Setup:
    """A complete engine setup (every option given): from explicit layouts, or with ``seed`` from the
    spec's seeded deal, when ``layout`` is round 1 as the seed deals it (a fixture has no seeds)."""

    game: str
    rule_version: str
    options: dict[str, Any]
    layout: dict[str, Any]
    later_layouts: tuple[dict[str, Any], ...] = ()
    seed: int | None = None

    def as_dict(self) -> dict[str, Any]:
        """The setup as ``Engine.start`` takes it."""
        if self.seed is not None:
            return {"game": self.game, "rule_version": self.rule_version, "options": dict(self.options),
                    "seed": self.seed, "players": self.players}
        spec = specs.specs_in_range(self.game, f"={self.rule_version}")[0]
        layout = complete_layout(spec, json.loads(json.dumps(self.layout)), set(ALL_CARDS))  # every key of its kind
        return {"game": self.game, "rule_version": self.rule_version, "options": dict(self.options),
                "layout": layout,
                "later_layouts": json.loads(json.dumps(list(self.later_layouts)))}

    @property
    def players(self) -> int:
        """The number of seats."""
        return len(self.layout["hands"])


@dataclass(frozen=True)
class Move:
    """One action tried, with the reference engine's answer (None: accepted)."""

    seat: int
    action: dict[str, Any]
    reason: str | None = None


@dataclass(eq=False)
class Divergence(Exception):
    """The engine under test and the reference engine disagree at step ``index``.

    ``kind`` is legal, apply, state, observation or error; ``check`` is what a fixture step must
    assert for the reference's behaviour (keys ``state``, ``legal`` or ``observe``), ``move`` the
    action of that step if it has one.
    """

    kind: str
    index: int
    message: str
    details: list[str] = field(default_factory=list)
    move: Move | None = None
    check: dict[str, Any] = field(default_factory=dict)
    refused: Move | None = None  # an action the engine lists, tried on the reference: its refusal
    actual: dict[str, Any] = field(default_factory=dict)  # the engine's values of the differing view keys
    clauses: list[str] = field(default_factory=list)  # what it is charged to, the deciding clause first (blame)

    def __reduce__(self) -> tuple[Any, ...]:
        # by its fields: an exception pickles only its positional arguments, and a finding comes back from a cluster's worker
        return type(self), tuple(getattr(self, f.name) for f in fields(self))

    def __str__(self) -> str:
        return "\n".join([self.message, *("  " + d for d in self.details)])


@dataclass(eq=False)
class Violation(Exception):
    """An invariant that holds for every correct engine is broken; no reference needed."""

    invariant: str
    message: str
    details: list[str] = field(default_factory=list)

    def __reduce__(self) -> tuple[Any, ...]:
        # by its fields: an exception pickles only its positional arguments, and a finding comes back from a cluster's worker
        return type(self), tuple(getattr(self, f.name) for f in fields(self))

    def __str__(self) -> str:
        return "\n".join([f"{self.invariant}: {self.message}", *("  " + d for d in self.details)])


@dataclass
class Finding:
    """A shrunk failing game: the setup, the moves before the failure, and the failure."""

    setup: Setup
    moves: list[Move]
    failure: Divergence | Violation
    found: float = field(default_factory=time.monotonic)

    def replay_text(self) -> str:
        """The game as JSON lines a person (or a script) can replay by hand."""
        lines = [json.dumps(self.setup.as_dict(), separators=(",", ":"))]
        lines += [json.dumps({"seat": m.seat, "action": m.action, "reference": m.reason or "accepted"})
                  for m in self.moves]
        return "\n".join(lines)
