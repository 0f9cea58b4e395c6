"""Benchmark (not a test): random legal President rounds per second on the reference engine.

Run from the repository root: ``python3 benchmarks/bench_president.py [--seconds 3]``.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from reference_engine.president import game as president  # noqa: E402


def random_round(seed: int, players: int, rng: random.Random) -> int:
    """Deal from ``seed`` and play one round of random legal actions; the number of steps."""
    game = president.start({"game": "president", "rule_version": "1.1.0", "seed": seed, "players": players,
                            "options": {"revolution": True, "rounds": 1}})
    steps = 0
    while game.to_act is not None:
        game.apply(game.to_act, rng.choice(game.legal_actions()))
        steps += 1
    return steps


def bench(players: int, seconds: float) -> tuple[float, float]:
    """(rounds per second, steps per second) over about ``seconds`` of play."""
    rng = random.Random(players)
    rounds = steps = 0
    start = time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        steps += random_round(rounds, players, rng)
        rounds += 1
    return rounds / elapsed, steps / elapsed


def main() -> None:
    """Print the rates for 3 and 6 players."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=3.0, help="time per player count")
    args = parser.parse_args()
    for players in (3, 6):
        rounds, steps = bench(players, args.seconds)
        print(f"{players} players: {rounds:8.0f} rounds/s  {steps:10.0f} steps/s (legal_actions + apply)")


if __name__ == "__main__":
    main()
