"""Whether fuzz blames the right clause: ``python benchmarks/bench_blame.py [EXAMPLES] [SEED]``.

Fuzzes every mutant of the catalogue (a herd per game, as ``mutants`` does, without shrinking) and
prints, for each mutant found, the clause fuzz's finding is charged to against the mutant's own
clause, then the share of found mutants charged to their own clause.
"""

from __future__ import annotations

import sys
import time

from harness.fuzzing.campaign import FuzzOptions
from harness.mutants.catalogue import CATALOGUE
from harness.mutants.catalogue import engine as mutant_engine
from harness.mutants.herd import fuzz_herd


def main() -> None:
    examples = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 0
    started = time.perf_counter()
    found = right = 0
    for game in ("rummy", "gin-rummy", "president"):
        mutants = [m for m in CATALOGUE if m.game == game]
        results = fuzz_herd({m.id: mutant_engine(m.id) for m in mutants}, FuzzOptions(game, examples, seed))
        for mutant in mutants:
            result = results[mutant.id]
            if result is None:
                print(f"not found  {mutant.id}")
                continue
            found += 1
            right += result.clause == mutant.clause
            mark = "right" if result.clause == mutant.clause else "WRONG"
            print(f"{mark:<10} {mutant.id:<44} charged to {result.clause} (the mutant's: {mutant.clause})")
    print(f"fuzz charged {right} of {found} found mutants to their own clause ({100 * right / max(found, 1):.0f}%), "
          f"{len(CATALOGUE) - found} not found, in {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
