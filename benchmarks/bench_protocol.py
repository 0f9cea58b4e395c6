"""The cost of the protocol: the whole bundled suite in process, over stdio and over HTTP through ``serve``, in one run.

    python benchmarks/bench_protocol.py [--repeat 10] [--no-http]
    python benchmarks/bench_protocol.py --page [--repeat 10]

Fixtures are loaded once; only running them is timed. The remote engines are
``cardverse-conformance serve`` processes (stdio, and ``serve --http 0``), each started with its
handshake before timing, so the ratios are what the protocol adds: the requests and answers
encoded and checked, the pipe or the socket. Passes alternate between the engines (interleaved)
and the best of --repeat is kept for each (the machine's noise only adds time). The goals: stdio
at most 1.5x in process, HTTP at most 1.5x (issue 35). On a loaded machine the CPU seconds per pass (the
harness's and the engine process's, median) say more than the clock.

``--page`` times a web client instead: the President fixtures against the example page
(examples/browser-president/index.html) in headless Chromium (``--engine-page``, the ``browser``
extra), and against the same ES module under Node over stdio (its stdio.js); the goal: the page at
most 2x stdio. Its CPU seconds are the harness's alone (Chromium's and Playwright's driver's are
not counted), so only the clock compares the two.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from harness.adapters import subprocess_engine
from harness.adapters.http import http_engine
from harness.adapters.engine import load_engine
from harness.suite.fixtures import load_paths
from harness.suite.model import Scenario
from harness.spec.paths import fixtures_dir
from harness.run.runner import Runner, count

SERVE = [sys.executable, "-m", "harness", "serve"]
EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "browser-president"


Verdicts = list[tuple[str, str, str]]


def cpu_seconds(pid: int | None) -> float:
    """The CPU time (user and system) a process has used so far: this one's, and the engine's if it has one."""
    own = time.process_time()
    if pid is None:
        return own
    with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return own + (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def timed_pass(runner: Runner, scenarios: list[Scenario],
               pid: int | None) -> tuple[float, float, dict[str, int], Verdicts]:
    """One pass over the suite: seconds, CPU seconds, the outcomes, and each fixture's verdict (id, outcome, text)."""
    started, cpu = time.perf_counter(), cpu_seconds(pid)
    results = list(runner.run_all(scenarios))
    seconds = time.perf_counter() - started
    return seconds, cpu_seconds(pid) - cpu, count(results), [(r.scenario.id, r.outcome, r.message) for r in results]


Best = dict[str, tuple[float, float, dict[str, int]]]


def best_times(engines: dict[str, Any], pids: dict[str, int | None], scenarios: list[Scenario], repeat: int) -> Best:
    """The fastest pass per engine and its median CPU seconds; passes alternate between engines (the same load).

    Every pass of every engine must give each fixture the verdict it gets from the first engine.
    """
    runners = {name: Runner(engine) for name, engine in engines.items()}
    best: dict[str, tuple[float, dict[str, int]]] = {}
    cpus: dict[str, list[float]] = {name: [] for name in engines}
    local: Verdicts | None = None
    for _ in range(repeat):
        for name, runner in runners.items():
            seconds, cpu, totals, verdicts = timed_pass(runner, scenarios, pids[name])
            local = local or verdicts  # the first pass is the first engine's (in process, or Node for --page)
            assert verdicts == local, (name, [(a, b) for a, b in zip(verdicts, local) if a != b][:3])
            cpus[name].append(cpu)
            if name not in best or seconds < best[name][0]:
                best[name] = (seconds, totals)
    return {name: (seconds, statistics.median(cpus[name]), totals) for name, (seconds, totals) in best.items()}


def http_serve() -> tuple[subprocess.Popen[str], str]:
    """``serve --http 0`` in a child process, and its URL (from the banner on its stderr)."""
    server = subprocess.Popen([*SERVE, "--http", "0"], stderr=subprocess.PIPE, text=True)
    assert server.stderr is not None
    banner = server.stderr.readline()
    return server, banner.split(" on ")[1].split()[0]


def page_mode(repeat: int) -> None:
    """The President fixtures against the example page in Chromium and against its module under Node over stdio."""
    from harness.adapters.page import page_engine

    loaded = load_paths([fixtures_dir() / "president"])
    assert not loaded.errors, loaded.errors[:3]
    scenarios = loaded.scenarios
    engines: dict[str, Any] = {"stdio": subprocess_engine(["node", str(EXAMPLE / "stdio.js")]),
                               "page": page_engine(str(EXAMPLE / "index.html"))}
    try:
        for engine in engines.values():
            engine.describe()  # start node, and Chromium with the page loaded, before the clock runs
        best = best_times(engines, {"stdio": engines["stdio"].channel.pid, "page": None}, scenarios, repeat)
    finally:
        for engine in engines.values():
            engine.close()
    stdio, stdio_cpu, totals = best["stdio"]
    page, page_cpu, page_totals = best["page"]
    assert page_totals == totals, (page_totals, totals)
    print(f"{len(scenarios)} President fixtures, outcomes {totals}, best of {repeat} interleaved passes "
          f"(load average {os.getloadavg()[0]:.1f})")
    print(f"{'stdio:':12}{stdio:.3f} s  ({len(scenarios) / stdio:,.0f} fixtures/s); node examples/browser-president/"
          f"stdio.js; CPU {stdio_cpu:.3f} s per pass (harness and node)")
    print(f"{'page:':12}{page:.3f} s  ({len(scenarios) / page:,.0f} fixtures/s), {page / stdio:.2f}x stdio (goal: "
          f"at most 2x); --engine-page examples/browser-president/index.html; CPU {page_cpu:.3f} s per pass "
          "(the harness's only)")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--repeat", type=int, default=10)
    parser.add_argument("--no-http", action="store_true", help="time stdio only")
    parser.add_argument("--page", action="store_true",
                        help="the example web client in Chromium against its module under Node over stdio")
    args = parser.parse_args()
    if args.page:
        page_mode(args.repeat)
        return
    loaded = load_paths([fixtures_dir()])
    assert not loaded.errors, loaded.errors[:3]
    scenarios = loaded.scenarios
    n = len(scenarios)

    engines: dict[str, Any] = {"in process": load_engine(), "stdio": subprocess_engine(SERVE)}
    server = None
    if not args.no_http:
        server, url = http_serve()
        engines["http"] = http_engine(url)
    try:
        for engine in engines.values():
            engine.describe()  # start the process and shake hands before the clock runs
        pids = {"in process": None, "stdio": engines["stdio"].channel.pid}
        if server is not None:
            pids["http"] = server.pid
        best = best_times(engines, pids, scenarios, args.repeat)
    finally:
        for engine in engines.values():
            getattr(engine, "close", lambda: None)()
        if server is not None:
            server.terminate()
            server.wait()
            assert server.stderr is not None
            server.stderr.close()
    local, local_cpu, local_totals = best["in process"]
    print(f"{n} fixtures, outcomes {local_totals}, best of {args.repeat} interleaved passes "
          f"(load average {os.getloadavg()[0]:.1f})")
    goals = {"stdio": 1.5, "http": 1.5}
    for name, (seconds, cpu, totals) in best.items():
        assert totals == local_totals, (name, totals, local_totals)
        ratio = f", {seconds / local:.2f}x in process (goal: at most {goals[name]}x)" if name in goals else ""
        cpu_ratio = f", {cpu / local_cpu:.2f}x" if name in goals else ""
        print(f"{name + ':':12}{seconds:.3f} s  ({n / seconds:,.0f} fixtures/s{ratio}); "
              f"CPU {cpu:.3f} s per pass{cpu_ratio}")


if __name__ == "__main__":
    main()
