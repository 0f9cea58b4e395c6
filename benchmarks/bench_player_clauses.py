"""Measurement (not a test): the reference's players against every position clause of their level.

For each game, level and seat count the game allows, plays seeds ``--first``..``--last`` through
``players``' own game loop (``check_level``: every check made at every decision, twins off) and prints the
decisions judged, the findings and the seconds taken; the clause checks' own cost is measured
apart. Run from the repository root: ``nice python3 benchmarks/bench_player_clauses.py [--first 1 --last 50]``.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from harness.findings.games import facts  # noqa: E402
from harness.findings import rules  # noqa: E402
from harness.players import check  # noqa: E402
from harness.players.check import check_level, player_counts  # noqa: E402
from harness.spec.gamespec import LEVELS  # noqa: E402
from reference_engine import ReferenceEngine  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--first", type=int, default=1)
    parser.add_argument("--last", type=int, default=50)
    parser.add_argument("--game", action="append")
    args = parser.parse_args()
    engine, judged = ReferenceEngine(), [0.0]
    judge = check.broken

    def timed(spec, view, choice):  # type: ignore[no-untyped-def]
        started = time.perf_counter()
        try:
            return judge(spec, view, choice)
        finally:
            judged[0] += time.perf_counter() - started

    check.broken = timed  # the clause checks' share of the time
    found = 0
    for game in args.game or ["president", "rummy", "gin-rummy"]:
        spec = facts(game).spec
        for level in LEVELS:
            for count in player_counts(spec):
                started, judged[0] = time.perf_counter(), 0.0
                report = check_level(engine, game, level, args.last - args.first + 1, args.first, 10**9,
                                     counts=[count])
                if report.finding is not None:
                    found += 1
                    print(f"  FOUND {report.finding}")
                print(f"{game} {level} {count} seats: seeds {args.first}-{args.first + report.games - 1}, {report.decisions} decisions "
                      f"judged, {time.perf_counter() - started:.1f} s ({judged[0]:.1f} s in the clause checks)",
                      flush=True)
    print(f"findings: {found}; clauses checked: {sum(len(rules.checks_of(facts(g).spec, lv)) for g in ('president', 'rummy', 'gin-rummy') for lv in LEVELS)}")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
