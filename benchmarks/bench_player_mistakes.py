"""Measurement (not a test): each player mistake, found by ``players`` under its own clause and killed by the fixtures?

For every mistake in harness/mutants/player_mistakes.py: ``players``' own check (``check_level``)
at its default budget (``--games`` 10 from seed 0, a twin every 7th decision, every seat count),
the clause the finding is charged to and whether it is the mistake's own; then every bundled
fixture of its game run on it: how many fail (kill it), and how many of those are its clause's.
Prints one table row per mistake and the totals; exit 1 if a mistake is missed or survives.
Run from the repository root: ``nice python3 benchmarks/bench_player_mistakes.py [--mutant ID]``.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from harness.mutants.player_mistakes import MISTAKES, engine  # noqa: E402
from harness.players.check import DEFAULT_GAMES, DEFAULT_TWIN_EVERY, check_level  # noqa: E402
from harness.run.runner import Runner  # noqa: E402
from harness.suite.fixtures import load_paths  # noqa: E402

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mutant", action="append", help="only this mistake's id (repeatable)")
    parser.add_argument("--games", type=int, default=DEFAULT_GAMES, help=f"players' games (default {DEFAULT_GAMES})")
    args = parser.parse_args()
    suites = {game: load_paths([FIXTURES / game]).scenarios for game in {m.game for m in MISTAKES}}
    print(f"{'mistake':48} {'found':5} {'clause charged':40} {'own':3} {'killed (own clause/all)':>23} {'s':>5}")
    missed = 0
    for mistake in MISTAKES:
        if args.mutant and mistake.id not in args.mutant:
            continue
        started = time.perf_counter()
        mistaken = engine(mistake.id)
        report = check_level(mistaken, mistake.game, mistake.level, args.games, 0, DEFAULT_TWIN_EVERY)
        finding = report.finding
        charged = finding.broken.clause if finding and finding.broken else (finding.check if finding else "-")
        failed = [s for s in suites[mistake.game] if Runner(mistaken).run(s).outcome == "fail"]
        own_failed = sum(mistake.clause in s.clauses for s in failed)
        own = charged == mistake.clause
        missed += not (own and failed)
        print(f"{mistake.id:48} {'yes' if finding else 'NO':5} {charged:40} {'yes' if own else 'NO':3} "
              f"{f'{own_failed}/{len(failed)}' if failed else 'NO':>23} {time.perf_counter() - started:5.1f}", flush=True)
    print(f"not found under its own clause or not killed: {missed}")
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
