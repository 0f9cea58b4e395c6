"""How fast differential fuzzing plays: lockstep steps per second, in process and over stdio.

    python benchmarks/bench_fuzz.py [--examples 40] [--repeat 3] [--no-stdio]

A step is one action applied to both engines and compared (legal actions, the answer, the
state view and every seat's observation), with the invariant checks on. The engine under test
is the reference engine, in process and then behind `cardverse-conformance serve` over stdio;
the comparator is always the in-process reference. The best of --repeat runs is kept.
"""

from __future__ import annotations

import argparse
import importlib.util
import sys

from harness.fuzzing.campaign import FuzzOptions, fuzz
from reference_engine import create

GAMES = ("rummy", "gin-rummy", "president")


def rate(engine: object, game: str, examples: int, repeat: int) -> tuple[float, int]:
    """The best steps per second of ``repeat`` runs, and the steps of one run."""
    best, steps = 0.0, 0
    for _ in range(repeat):
        result = fuzz(engine, FuzzOptions(game, examples=examples))  # type: ignore[arg-type]
        if result.finding is not None:
            raise SystemExit(f"{game}: the engine diverged from the reference: {result.finding.failure}")
        best, steps = max(best, result.steps / result.seconds), result.steps
    return best, steps


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--examples", type=int, default=40)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--no-stdio", action="store_true", help="only in process")
    args = parser.parse_args()
    stdio = not args.no_stdio and importlib.util.find_spec("harness.adapters") is not None
    remote = None
    if stdio:
        from harness.adapters import connect

        remote = connect(f"{sys.executable} -m harness serve")
    try:
        head = f"{'game':<10} {'in process':>14}" + (f" {'over stdio':>14} {'ratio':>6}" if remote else "")
        print(f"{head}   ({args.examples} games, best of {args.repeat})")
        for game in GAMES:
            local, steps = rate(create(), game, args.examples, args.repeat)
            line = f"{game:<10} {local:>8.0f} step/s"
            if remote is not None:
                far, _ = rate(remote, game, args.examples, args.repeat)
                line += f" {far:>8.0f} step/s {local / far:>5.1f}x"
            print(line + f"   ({steps} steps a run)")
    finally:
        if remote is not None:
            remote.close()


if __name__ == "__main__":
    main()
