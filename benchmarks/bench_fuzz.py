"""How fast differential fuzzing plays: lockstep steps per second, in process and over stdio.

    python benchmarks/bench_fuzz.py [--examples 40] [--repeat 3] [--no-stdio] [--properties]
    python benchmarks/bench_fuzz.py --catalogue [--examples N]

A step is one action applied to both engines and compared (legal actions, the answer, the
state view and every seat's observation), with the invariant checks on. The engine under test
is the reference engine, in process and then behind `cardverse-conformance serve` over stdio;
the comparator is always the in-process reference. ``--properties`` times `properties` instead
(the engine alone, its default budget unless --examples). Repeats are interleaved (in process,
then over stdio); the best of each is kept. CPU seconds are shown beside: on a loaded machine
every round trip of the pipe waits for a turn on a core, so the wall ratio grows there, while
the CPU ratio (the harness and the server together, against in process) is the pipe's work.
``--catalogue`` runs `properties` (its default budget, no shrinking) on every mutant of the
catalogue in process and prints the invariant each breaks: what a faster budget must still find.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import sys
import time
from typing import Any

from harness.fuzzing.campaign import FuzzOptions, fuzz
from reference_engine import create

GAMES = ("rummy", "gin-rummy", "president")


def server_cpu(engine: Any) -> float:
    """CPU seconds the server process of a stdio engine has used so far (0 when unknown)."""
    pid = getattr(getattr(engine, "channel", None), "pid", None)
    try:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def once(engine: Any, game: str, examples: int | None, properties: bool) -> tuple[float, float, int]:
    """One run: wall seconds, CPU seconds (with the server's), steps."""
    options = FuzzOptions(game, examples=examples)
    cpu, server, wall = time.process_time(), server_cpu(engine), time.perf_counter()
    if properties:
        from harness.fuzzing.properties import check_properties

        result = check_properties(engine, options)
    else:
        result = fuzz(engine, options)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu + server_cpu(engine) - server
    if result.finding is not None:
        raise SystemExit(f"{game}: the reference engine failed: {result.finding.failure}")
    return wall, cpu, result.steps


def catalogue(examples: int | None) -> None:
    """`properties` on each mutant of the catalogue: the invariant it breaks, or -."""
    from harness.fuzzing.properties import check_properties
    from harness.mutants.catalogue import CATALOGUE, engine

    found, started = 0, time.process_time()
    for mutant in CATALOGUE:
        result = check_properties(engine(mutant.id), FuzzOptions(mutant.game, examples=examples, shrink=False))
        failure = result.finding.failure if result.finding else None
        found += failure is not None
        print(f"{mutant.id:<45} {getattr(failure, 'invariant', '-'):<16} {result.examples:>4} games", flush=True)
    print(f"{found}/{len(CATALOGUE)} mutants break an invariant; {time.process_time() - started:.1f} s cpu")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--examples", type=int, default=None, help="games a run (default: 40, or the "
                                                                   "properties budget with --properties)")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--no-stdio", action="store_true", help="only in process")
    parser.add_argument("--properties", action="store_true", help="time `properties` instead of `fuzz`")
    parser.add_argument("--catalogue", action="store_true", help="which mutants `properties` finds")
    args = parser.parse_args()
    if args.catalogue:
        from harness.fuzzing.budget import PROPERTIES_EXAMPLES

        return catalogue(args.examples or PROPERTIES_EXAMPLES)
    if args.examples is None and not args.properties:
        args.examples = 40
    if args.examples is None:
        from harness.fuzzing.budget import PROPERTIES_EXAMPLES

        args.examples = PROPERTIES_EXAMPLES
    stdio = not args.no_stdio and importlib.util.find_spec("harness.adapters") is not None
    remote = None
    if stdio:
        from harness.adapters import connect

        remote = connect(f"{sys.executable} -m harness serve")
    what = "properties" if args.properties else "fuzz"
    try:
        head = f"{'game':<10} {'in process':>22}" + (f" {'over stdio':>22} {'wall':>5} {'cpu':>5}" if remote else "")
        print(f"{head}   ({what}, {args.examples} games, best of {args.repeat}, load {os.getloadavg()[0]:.1f})")
        totals = [0.0, 0.0]
        for game in GAMES:
            local, far = [], []
            for _ in range(args.repeat):  # interleaved: both sides see the same load
                local.append(once(create(), game, args.examples, args.properties))
                if remote is not None:
                    far.append(once(remote, game, args.examples, args.properties))
            (wall, cpu, steps) = min(local)
            totals[0] += wall
            line = f"{game:<10} {steps / wall:>6.0f} step/s {wall:5.1f} s"
            if far:
                (far_wall, far_cpu, _) = min(far)
                totals[1] += far_wall
                line += f" {steps / far_wall:>6.0f} step/s {far_wall:5.1f} s {far_wall / wall:4.1f}x {far_cpu / cpu:4.1f}x"
            print(line + f"   ({steps} steps a run, {cpu:.1f} s cpu in process)")
        print(f"{'all games':<10} {totals[0]:>20.1f} s" + (f" {totals[1]:>20.1f} s" if remote else ""))
    finally:
        if remote is not None:
            remote.close()


if __name__ == "__main__":
    main()
