"""How long the long commands take: wall time and CPU time (the process and its workers).

    python benchmarks/bench_long_commands.py [--only mutants|properties|fuzz] [-- extra args]

Runs `cardverse-conformance mutants`, `properties` and `fuzz` (default budgets) one after the
other and prints wall seconds, CPU seconds and the last line of each. On a loaded machine the
wall time says little: CPU seconds divided by the cores is what an idle machine would take.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import time

COMMANDS = {"mutants": ["mutants"], "properties": ["properties"], "fuzz": ["fuzz"]}


def measure(argv: list[str]) -> tuple[float, float, str]:
    """Wall seconds, CPU seconds of the children, and the last line of output."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "harness", *argv], capture_output=True, text=True,
                          env={**os.environ, "CI": ""})
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    lines = done.stdout.strip().splitlines()
    return wall, cpu, lines[-1] if lines else done.stderr.strip()[-200:]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", choices=sorted(COMMANDS), action="append")
    parser.add_argument("extra", nargs="*", help="arguments added to every command (after --)")
    args = parser.parse_args()
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    print(f"{'command':<12} {'wall s':>8} {'cpu s':>8} {'cpu/cores':>10}  last line   (load {os.getloadavg()[0]:.1f})")
    for name in args.only or list(COMMANDS):
        wall, cpu, last = measure(COMMANDS[name] + args.extra)
        print(f"{name:<12} {wall:8.1f} {cpu:8.1f} {cpu / cores:10.1f}  {last}")


if __name__ == "__main__":
    main()
