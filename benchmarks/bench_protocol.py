"""The cost of the protocol: the whole bundled suite in process, then over stdio through ``serve``, in one run.

    python benchmarks/bench_protocol.py [--repeat 10] [--http]

Fixtures are loaded once; only running them is timed. The stdio engine is one long-lived
``cardverse-conformance serve`` process (started, with its handshake, before timing), so the
ratio is what every request's round trip adds: two JSON encodings, two schema checks, two pipe
hops. Passes alternate between the engines and the best of --repeat is kept for each (the
machine's noise only adds time). The goal is a ratio under 3.
"""

from __future__ import annotations

import argparse
import sys
import threading
import time
from typing import Any

from harness.adapters import subprocess_engine
from harness.adapters.http import http_engine
from harness.engine import load_engine
from harness.fixtures import Scenario, load_paths
from harness.paths import fixtures_dir
from harness.runner import Runner, count
from harness.serve import http_server


def timed_pass(runner: Runner, scenarios: list[Scenario]) -> tuple[float, dict[str, int]]:
    """One pass over the suite: seconds, and the outcomes."""
    started = time.perf_counter()
    results = list(runner.run_all(scenarios))
    return time.perf_counter() - started, count(results)


def best_times(engines: dict[str, Any], scenarios: list[Scenario], repeat: int) -> dict[str, tuple[float, dict[str, int]]]:
    """The fastest pass per engine; passes alternate between engines so both see the same machine load."""
    runners = {name: Runner(engine) for name, engine in engines.items()}
    best: dict[str, tuple[float, dict[str, int]]] = {}
    for _ in range(repeat):
        for name, runner in runners.items():
            seconds, totals = timed_pass(runner, scenarios)
            if name not in best or seconds < best[name][0]:
                best[name] = (seconds, totals)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--repeat", type=int, default=10)
    parser.add_argument("--http", action="store_true", help="also time HTTP (one server thread, in this process)")
    args = parser.parse_args()
    loaded = load_paths([fixtures_dir()])
    assert not loaded.errors, loaded.errors[:3]
    scenarios = loaded.scenarios
    n = len(scenarios)

    remote = subprocess_engine([sys.executable, "-m", "harness", "serve"])
    try:
        remote.describe()  # start the process and shake hands before the clock runs
        best = best_times({"local": load_engine(), "stdio": remote}, scenarios, args.repeat)
    finally:
        remote.close()
    (local, local_totals), (stdio, stdio_totals) = best["local"], best["stdio"]
    assert stdio_totals == local_totals, (stdio_totals, local_totals)

    print(f"{n} fixtures, outcomes {local_totals}, best of {args.repeat}")
    print(f"in process: {local:.3f} s  ({n / local:,.0f} fixtures/s)")
    print(f"stdio:      {stdio:.3f} s  ({n / stdio:,.0f} fixtures/s)")
    print(f"ratio:      {stdio / local:.2f}x  (goal: under 3x)")
    if args.http:
        server = http_server(load_engine())
        thread = threading.Thread(target=server.serve_forever, daemon=True)
        thread.start()
        try:
            engine = http_engine(f"http://127.0.0.1:{server.server_address[1]}/")
            web = best_times({"http": engine}, scenarios, args.repeat)["http"][0]
            engine.close()
        finally:
            server.shutdown()
            server.server_close()
        print(f"http:       {web:.3f} s  ({n / web:,.0f} fixtures/s, {web / local:.2f}x)")


if __name__ == "__main__":
    main()
