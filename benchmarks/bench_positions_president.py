"""How soon fuzz alone finds each President mutant, with and without the generated positions, over several seeds.

    python benchmarks/bench_positions_president.py [--examples 25] [--seeds 10] [--without]

One herd of every President mutant per seed, as `cardverse-conformance mutants` fuzzes them
(without the fixtures, in one process): for each mutant, the example that found it at each seed
(- when not within the budget). One seed's run says little, the games of a small budget being few;
the counts over seeds are what a change to the generator should move. ``--without`` plays the
fresh deals only (the positions draw keeps the deal), as before positions were generated.
"""

from __future__ import annotations

import argparse
import time

from harness.fuzzing import positions
from harness.fuzzing.campaign import FuzzOptions
from harness.mutants.catalogue import CATALOGUE, engine
from harness.mutants.herd import fuzz_herd


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--examples", type=int, default=25)
    parser.add_argument("--seeds", type=int, default=10)
    parser.add_argument("--without", action="store_true", help="no generated positions: fresh deals only")
    args = parser.parse_args()
    if args.without:
        positions._GENERATORS["president"] = lambda *_: None
    ids = [m.id for m in CATALOGUE if m.game == "president"]
    found: dict[str, list[int | None]] = {i: [] for i in ids}
    started = time.perf_counter()
    for seed in range(args.seeds):
        herd = fuzz_herd({i: engine(i) for i in ids}, FuzzOptions("president", examples=args.examples, seed=seed))
        for name, when in herd.items():
            found[name].append(when.examples if when else None)
    print(f"{'mutant':<42} found   examples at seeds 0..{args.seeds - 1} "
          f"({args.examples} a seed, {'fresh deals only' if args.without else 'with positions'})")
    for name, whens in found.items():
        hits = sum(w is not None for w in whens)
        print(f"{name:<42} {hits:>2}/{len(whens):<4} " + " ".join("-" if w is None else str(w) for w in whens))
    print(f"{sum(w is not None for ws in found.values() for w in ws)}/{len(ids) * args.seeds} found "
          f"in {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
