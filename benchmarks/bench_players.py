"""Benchmark (not a test): seconds per decision of each reference computer player, median and p99.

Plays ``--games`` seeded rounds per game and level (every seat at that level, on the reference
engine, through the ladder's game loop) and times every ``choose``; compares each figure with the
game file's ``computer_players.time_budget``. Run from the repository root:
``python3 benchmarks/bench_players.py [--games 20] [--game president]``.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from harness.spec import gamespec as specs  # noqa: E402
from harness.ladder.deals import Table, play_game  # noqa: E402
from reference_engine import create, players  # noqa: E402

SEATS = {"rummy": 2, "gin-rummy": 2, "president": 4}


class Timed:
    """A player whose every decision is timed."""

    def __init__(self, player: Any, times: list[float]) -> None:
        self.player, self.times = player, times

    def choose(self, view: dict[str, Any]) -> dict[str, Any]:
        """The player's choice, timed."""
        began = time.perf_counter()
        action: dict[str, Any] = self.player.choose(view)
        self.times.append(time.perf_counter() - began)
        return action


def percentile(values: list[float], share: float) -> float:
    """The ``share`` quantile (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="rounds per game and level (default 20)")
    parser.add_argument("--game", action="append", help="only this game (repeatable)")
    args = parser.parse_args()
    engine, over = create(), 0
    print(f"{'game':10} {'level':7} {'decisions':>9} {'median ms':>10} {'p99 ms':>8} {'budget ms (median/p99)':>24}")
    for spec in specs.game_specs():
        if args.game and spec.game not in args.game:
            continue
        table = Table(spec.game, spec.rule_version, dict(spec.option_defaults), SEATS[spec.game], 0)
        budgets = spec.data.get("computer_players", {}).get("time_budget", {})
        for level in players.levels(spec.game):
            times: list[float] = []
            seat = Timed(players.player(spec.game, level), times)
            for seed in range(args.games):
                play_game(engine, table, seed, [seat] * table.players, [level] * table.players, seed)
            median, p99 = statistics.median(times), percentile(times, 0.99)
            budget = budgets.get(level)
            within = budget is None or (median <= budget["median"] and p99 <= budget["p99"])
            over += not within
            shown = f"{budget['median'] * 1000:g}/{budget['p99'] * 1000:g}" if budget else "none stated"
            print(f"{spec.game:10} {level:7} {len(times):9} {median * 1000:10.3f} {p99 * 1000:8.2f} "
                  f"{shown:>24}{'' if within else '  OVER BUDGET'}")
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())
