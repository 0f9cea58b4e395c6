"""How far fuzz's games went: the rounds they reached, the match ends, the phases and corners visited.

A game's reach is read off the reference's state views as the game is played (the engine under
test may be wrong), so the figures say what was tried, whatever the engine did. A campaign adds
up its games' reach (shrinking's replays left out) and prints it; over a seed range the
campaigns of a game are added up too.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

# The corners named apart from the phases: where rule mistakes live past a fresh deal.
#   new-round: a round dealt during the game (a later layout or the engine's seeded deal);
#   lay-off: Gin Rummy's lay-off phase, or a Rummy lay-off onto a meld on the table;
#   revolution: a President four of a kind that turned the order, played in a trick with passes before it;
#   last-move: the move that ended a round.
CORNERS = ("new-round", "lay-off", "revolution", "last-move")


@dataclass
class GameReach:
    """One game: the highest round its views showed, whether the match ended, what it visited."""

    round: int = 1
    ended: bool = False
    phases: set[str] = field(default_factory=set)
    corners: set[str] = field(default_factory=set)

    def see(self, view: dict[str, Any], before: dict[str, Any] | None = None,
            action: dict[str, Any] | None = None) -> None:
        """Take in the reference's view ``view``, reached from ``before`` by ``action`` (None at the start)."""
        phase = view.get("phase")
        round_ = view.get("round")
        if type(round_) is int and round_ > self.round:
            self.round = round_
        if isinstance(phase, str):
            self.phases.add(phase)
        if phase == "game-over":
            self.ended = True
        if before is None:
            return
        if round_ != before.get("round"):
            self.corners.add("new-round")
        if len(view.get("round_results") or ()) > len(before.get("round_results") or ()):
            self.corners.add("last-move")
        if action is not None and "layoff" in action:
            self.corners.add("lay-off")
        if action is not None and before.get("passed") and len(action.get("play") or ()) == 4 and \
                view.get("order") != before.get("order"):
            self.corners.add("revolution")


@dataclass
class Reach:
    """A campaign's games added up."""

    games: int = 0
    rounds: Counter[int] = field(default_factory=Counter)  # highest round reached -> games
    ended: int = 0
    visited: Counter[str] = field(default_factory=Counter)  # phase or corner -> games that visited it

    def add(self, game: GameReach) -> None:
        """One more game."""
        self.games += 1
        self.rounds[game.round] += 1
        self.ended += game.ended
        self.visited.update(game.phases | game.corners)

    def merge(self, other: Reach) -> None:
        """Another campaign's games."""
        self.games += other.games
        self.rounds.update(other.rounds)
        self.ended += other.ended
        self.visited.update(other.visited)

    def at_least(self, round_: int) -> int:
        """The games that reached round ``round_`` or a later one."""
        return sum(n for r, n in self.rounds.items() if r >= round_)

    def line(self) -> str:
        """``reached: round 2+ in A/N games, round 3+ in B/N (x%), the match's end in C/N; visited: ...``."""
        if not self.games:
            return "reached: no games"
        n = self.games
        third = self.at_least(3)
        visits = ", ".join(f"{name} {count}" for name, count in sorted(self.visited.items()))
        return (f"reached: round 2+ in {self.at_least(2)}/{n} games, round 3+ in {third}/{n} "
                f"({100 * third / n:.0f}%), the match's end in {self.ended}/{n}, highest round "
                f"{max(self.rounds)}; visited (games): {visits}")
