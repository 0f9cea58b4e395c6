"""How fast the harness loads, lints and runs fixtures: a suite of N copies of the bundled ones.

    python benchmarks/bench_harness.py [--count 1000] [--repeat 3]

Prints fixtures per second for load+lint and for run (reference engine), and the total time
for N fixtures. The best of --repeat runs is kept (the machine's noise only adds time).
"""

from __future__ import annotations

import argparse
import re
import tempfile
import time
from pathlib import Path

from harness.engine import load_engine
from harness.fixtures import fixture_files, load_paths
from harness.paths import fixtures_dir
from harness.runner import Runner, count


def make_suite(folder: Path, total: int) -> int:
    """Write ``total`` fixtures into ``folder``: the bundled ones, copied with new ids."""
    sources = [(path, path.read_text(encoding="utf-8")) for path in fixture_files([fixtures_dir()])]
    for i in range(total):
        path, text = sources[i % len(sources)]
        copy = re.sub(r"^id: (\S+)", lambda m: f"id: {m.group(1)}-copy{i}", text, count=1, flags=re.MULTILINE)
        (folder / f"{i:05d}-{path.name}").write_text(copy, encoding="utf-8")
    return len(sources)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        distinct = make_suite(Path(folder), args.count)
        best_load = best_run = float("inf")
        for _ in range(args.repeat):
            started = time.perf_counter()
            loaded = load_paths([folder])
            loaded_at = time.perf_counter()
            runner = Runner(load_engine())
            results = list(runner.run_all(loaded.scenarios))
            finished = time.perf_counter()
            best_load = min(best_load, loaded_at - started)
            best_run = min(best_run, finished - loaded_at)
        assert not loaded.errors, loaded.errors[:3]
        n = len(loaded.scenarios)
        print(f"{n} fixtures ({distinct} distinct bundled ones, copied), outcomes {count(results)}")
        print(f"load + lint: {best_load:.3f} s  ({n / best_load:,.0f} fixtures/s)")
        print(f"run:         {best_run:.3f} s  ({n / best_run:,.0f} fixtures/s, reference engine)")
        print(f"total:       {best_load + best_run:.3f} s for {n} fixtures")


if __name__ == "__main__":
    main()
