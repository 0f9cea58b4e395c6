"""What making engine text safe costs when writing the reports: JSON lines and JUnit, safe versus raw.

    python benchmarks/bench_reports.py [--repeat 15]

The results are the bundled suite's against the reference engine (run once), with every message
made long and hostile (a lone surrogate, ANSI colours, a bell) so the cleaning has work to do.
"Raw" patches the cleaning functions to the identity, which is what the reports did before (and
what fails on such text: it is written here with errors="surrogatepass"). Rounds are
interleaved and the best of each kept; the ratio is safe / raw.
"""

from __future__ import annotations

import argparse
import io
import os
import tempfile
import time
from dataclasses import replace
from typing import Any

from harness.reports import console as reports
from harness.suite.fixtures import load_paths
from harness.spec.paths import fixtures_dir
from harness.run.runner import Runner
from reference_engine import create

HOSTILE = " engine said \ud800 \x1b[31mred\x1b[0m \x07" * 8


def write_both(results: list[Any], description: dict[str, Any], folder: str) -> None:
    """Both reports of one run."""
    with open(os.path.join(folder, "run.jsonl"), "w", encoding="utf-8", errors="surrogatepass") as handle:
        reports.write_json_lines(results, description, handle)
    out = io.BytesIO()
    reports.write_junit(results, description, out)  # type: ignore[arg-type]


def best(results: list[Any], description: dict[str, Any], folder: str) -> float:
    """Seconds for writing both reports once."""
    started = time.perf_counter()
    write_both(results, description, folder)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=15)
    args = parser.parse_args()
    runner = Runner(create())
    results = [replace(r, outcome="error", message="step 1: " + HOSTILE, details=[HOSTILE] * 3)
               for r in runner.run_all(load_paths([fixtures_dir()]).scenarios)]
    safe_functions = (reports.json_safe, reports.xml_text)
    timings: dict[str, float] = {"safe": float("inf"), "raw": float("inf")}
    with tempfile.TemporaryDirectory() as folder:
        for _ in range(args.repeat):
            reports.json_safe, reports.xml_text = safe_functions
            timings["safe"] = min(timings["safe"], best(results, runner.description, folder))
            reports.json_safe, reports.xml_text = (lambda v: v), (lambda v: str(v))  # type: ignore[assignment]
            try:
                timings["raw"] = min(timings["raw"], best(results, runner.description, folder))
            except (UnicodeEncodeError, ValueError):
                timings["raw"] = float("nan")  # the raw XML cannot hold the text at all
    reports.json_safe, reports.xml_text = safe_functions
    print(f"{len(results)} results; safe {timings['safe'] * 1000:.1f} ms, raw {timings['raw'] * 1000:.1f} ms, "
          f"ratio {timings['safe'] / timings['raw']:.2f}")


if __name__ == "__main__":
    main()
