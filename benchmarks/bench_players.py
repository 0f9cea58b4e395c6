"""Benchmark (not a test): time per decision of the reference's computer players, per game and level.

Views are collected from seeded games between the players themselves, then each player decides
on every view of its game, the games interleaved round after round so that a busy machine
slows them all alike. Run from the repository root:
``python3 benchmarks/bench_players.py [--games 3] [--rounds 5]``.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from harness.fuzzing.games import TERMINAL_PHASES, facts  # noqa: E402
from harness.players.check import decision_seed, player_counts  # noqa: E402
from harness.players.view import History, build_view  # noqa: E402
from reference_engine import create, players  # noqa: E402


def views(game: str, level: str, games: int) -> list[dict[str, Any]]:
    """Every view met in ``games`` seeded games between the ``level`` players."""
    spec, engine, found = facts(game).spec, create(), []
    counts = player_counts(spec)
    for seed in range(games):
        setup = {"game": game, "rule_version": spec.rule_version, "options": dict(spec.option_defaults),
                 "seed": seed, "players": counts[seed % len(counts)]}
        played, history = engine.start(setup), History(game)
        while True:
            state = played.state()
            if state["phase"] in TERMINAL_PHASES or state["to_act"] is None:
                break
            seat = state["to_act"]
            view = build_view(spec, setup["options"], seat, level, decision_seed(seed, len(found)),
                              played.observation(seat), history, played.legal_actions())
            found.append(view)
            choice = players.choose(view)
            played.apply(seat, choice)
            history.record(seat, choice, state)
    return found


def quantile(times: list[float], q: float) -> float:
    """The ``q`` quantile of ``times``."""
    ordered = sorted(times)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3, help="seeded games per game and level (default 3)")
    parser.add_argument("--rounds", type=int, default=5, help="passes over every view, interleaved (default 5)")
    args = parser.parse_args()
    pairs = [(game, level) for game in ("rummy", "gin-rummy", "president") for level in players.levels(game)]
    collected = {pair: views(*pair, args.games) for pair in pairs}
    times: dict[tuple[str, str], list[float]] = {pair: [] for pair in pairs}
    for _ in range(args.rounds):
        for pair in pairs:
            choose = players.player(*pair).choose
            for view in collected[pair]:
                started = time.perf_counter()
                choose(view)
                times[pair].append(time.perf_counter() - started)
    print(f"{'game':<10} {'level':<6} {'decisions':>9} {'median µs':>10} {'p99 µs':>8} {'max µs':>8}")
    for pair in pairs:
        t = times[pair]
        print(f"{pair[0]:<10} {pair[1]:<6} {len(t):>9} {quantile(t, 0.5) * 1e6:>10.1f} {quantile(t, 0.99) * 1e6:>8.1f} "
              f"{max(t) * 1e6:>8.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
