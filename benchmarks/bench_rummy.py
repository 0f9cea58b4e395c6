"""Random legal Rummy playouts on the reference engine: rounds per second for 2 and 4 players.

Not a test. Run from the repository root: ``python3 benchmarks/bench_rummy.py [seconds]``.
Each step asks for the legal actions and applies a random one, as a fuzzer or bot would.
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from reference_engine.rummy import game as rummy  # noqa: E402

OPTIONS = {"discard_to_win": False, "ace_high": False, "target": 100}


def playout(seed: int, players: int) -> tuple[int, int]:
    """Play one seeded game with random legal actions; (rounds, steps)."""
    game = rummy.start({"game": "rummy", "rule_version": "1.1.0", "options": OPTIONS,
                        "seed": seed, "players": players})
    rng = random.Random(seed)
    steps = 0
    while game.to_act is not None:
        game.apply(game.to_act, rng.choice(game.legal_actions()))
        steps += 1
    return len(game.round_results), steps


def bench(players: int, seconds: float) -> None:
    """Play games for about ``seconds`` and print the rates."""
    rounds = steps = games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        r, s = playout(games, players)
        rounds, steps, games = rounds + r, steps + s, games + 1
    elapsed = time.perf_counter() - start
    print(f"{players} players: {rounds / elapsed:8.1f} rounds/s  {steps / elapsed:9.0f} steps/s  "
          f"({games} games, {rounds} rounds, {steps} steps in {elapsed:.1f} s)")


if __name__ == "__main__":
    duration = float(sys.argv[1]) if len(sys.argv) > 1 else 3.0
    for count in (2, 4):
        bench(count, duration)
