"""How fast the harness loads, lints and runs fixtures: a suite of N copies of the bundled ones.

    python benchmarks/bench_harness.py [--count 10000] [--repeat 3] [--memory-count 50000] [--kit PATH]

Each measure is a fresh `cardverse-conformance run` process (reference engine), timed by the
operating system: wall time, CPU time (user + system: the fairer number on a loaded machine)
and peak memory. It prints, against the same files:

- parse:   merely reading and parsing every file with LibYAML's CSafeLoader (the yardstick);
- cold:    `run` with an empty cache of linted fixtures;
- warm:    `run` again, the cache filled by the cold run;
- memory:  peak memory of a warm `run` on --memory-count fixtures;
- startup: a one-fixture `run`.

The best of --repeat is kept for each (the machine's noise only adds). --kit runs another
checkout's harness (e.g. an export of main) on the same suite, for before/after numbers.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from harness.suite.discovery import fixture_files
from harness.spec.paths import fixtures_dir

PARSE_ONLY = """
import sys, yaml
from pathlib import Path
for path in sorted(Path(sys.argv[1]).rglob("*.yaml")):
    yaml.load(path.read_bytes(), Loader=yaml.CSafeLoader)
"""


def make_suite(folder: Path, total: int) -> int:
    """Write ``total`` fixtures into ``folder``: the bundled ones, copied with new ids."""
    sources = [(path, path.read_text(encoding="utf-8")) for path in fixture_files([fixtures_dir()])]
    for i in range(total):
        path, text = sources[i % len(sources)]
        copy = re.sub(r"^id: (\S+)", lambda m: f"id: {m.group(1)}-copy{i}", text, count=1, flags=re.MULTILINE)
        (folder / f"{i:05d}-{path.name}").write_text(copy, encoding="utf-8")
    return len(sources)


def measure(command: list[str], cwd: Path, env: dict[str, str]) -> tuple[float, float, float]:
    """Wall seconds, CPU seconds and peak memory (MB) of one process."""
    started = time.perf_counter()
    process = subprocess.Popen(command, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - started
    process.returncode = os.waitstatus_to_exitcode(status)
    error = process.stderr.read().decode() if process.stderr else ""
    if process.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(command)} exited {process.returncode}: {error[-2000:]}")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def best(runs: list[tuple[float, float, float]]) -> tuple[float, float, float]:
    """The least of each measure over the runs."""
    return min(r[0] for r in runs), min(r[1] for r in runs), min(r[2] for r in runs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=10_000)
    parser.add_argument("--memory-count", type=int, default=50_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--kit", type=Path, default=Path(__file__).resolve().parent.parent,
                        help="the checkout whose harness runs (default: this one)")
    args = parser.parse_args()
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONDONTWRITEBYTECODE", "CI")}
    run = [sys.executable, "-m", "harness", "run", "--progress", "off"]
    with tempfile.TemporaryDirectory() as scratch:
        root = Path(scratch)
        suite, big, cache = root / "suite", root / "big", root / "cache"
        suite.mkdir()
        big.mkdir()
        env["CARDVERSE_CACHE_DIR"] = str(cache)
        distinct = make_suite(suite, args.count)
        one = next(iter(sorted(suite.iterdir())))
        measure(run + [str(one)], args.kit, env)  # compile the kit's bytecode once
        parse, cold, warm, startup = [], [], [], []
        for _ in range(args.repeat):  # interleaved, so that a busy moment of the machine hits every measure
            parse.append(measure([sys.executable, "-c", PARSE_ONLY, str(suite)], args.kit, env))
            subprocess.run(["rm", "-rf", str(cache)], check=True)
            cold.append(measure(run + [str(suite)], args.kit, env))
            warm.append(measure(run + [str(suite)], args.kit, env))
            startup.append(measure(run + [str(one)], args.kit, env))
        print(f"{args.count} fixtures ({distinct} distinct bundled ones, copied), kit {args.kit}; "
              f"best of {args.repeat}: wall s / CPU s / peak MB")
        rows = {"parse (CSafeLoader)": best(parse), "run, cold cache": best(cold), "run, warm cache": best(warm),
                "run, one fixture": best(startup)}
        for name, (wall, cpu, peak) in rows.items():
            print(f"  {name:<22} {wall:7.3f} {cpu:7.3f} {peak:7.0f}")
        base = rows["parse (CSafeLoader)"]
        for name in ("run, cold cache", "run, warm cache"):
            print(f"  {name} / parse: {rows[name][0] / base[0]:.2f}x wall, {rows[name][1] / base[1]:.2f}x CPU")
        if args.memory_count:
            make_suite(big, args.memory_count)
            measure(run + [str(big)], args.kit, env)  # fill the cache
            wall, cpu, peak = measure(run + [str(big)], args.kit, env)
            print(f"  {args.memory_count} fixtures, warm: {wall:.1f} s wall, {cpu:.1f} s CPU, peak {peak:.0f} MB")


if __name__ == "__main__":
    main()
