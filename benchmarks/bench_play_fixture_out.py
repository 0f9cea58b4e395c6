"""Measurement (not a test): ``play --fixture-out`` on the reference engine, every game, level and seat count.

Plays seeds ``--first``..``--last`` of each game with every seat at one level, for every seat count
the game allows, asking the reference's players beside the engine's (here the same reference): each
fixture written is a difference between the reference and itself, so the count must be 0. Prints
the games played, the fixtures written (their names) and the seconds. Run from the repository root:
``nice python3 benchmarks/bench_play_fixture_out.py [--first 1 --last 20] [--game rummy]``.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from harness.cli import main as cli  # noqa: E402
from harness.findings.games import facts  # noqa: E402
from harness.players.check import player_counts  # noqa: E402
from harness.spec.gamespec import LEVELS  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--first", type=int, default=1)
    parser.add_argument("--last", type=int, default=20)
    parser.add_argument("--game", action="append")
    args = parser.parse_args()
    written_in_all = 0
    for game in args.game or ["president", "rummy", "gin-rummy"]:
        for level in LEVELS:
            for count in player_counts(facts(game).spec):
                started, failed = time.perf_counter(), 0
                with tempfile.TemporaryDirectory() as out:
                    for seed in range(args.first, args.last + 1):
                        with contextlib.redirect_stdout(io.StringIO()):
                            code = cli(["play", "--game", game, "--players", ",".join([level] * count), "--seed",
                                        str(seed), "--delay", "0", "--fixture-out", out])
                        failed += code != 0
                    written = sorted(p.name for p in Path(out).iterdir())
                written_in_all += len(written)
                print(f"{game} {level} {count} seats: seeds {args.first}-{args.last}, {len(written)} fixtures written, "
                      f"{failed} non-zero exits, {time.perf_counter() - started:.1f} s", flush=True)
                for name in written:
                    print(f"  {name}")
    print(f"fixtures written: {written_in_all}")
    return 1 if written_in_all else 0


if __name__ == "__main__":
    sys.exit(main())
