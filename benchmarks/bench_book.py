"""Where the time of `cardverse-conformance docs` goes: loading, replaying, rendering, writing.

    python benchmarks/bench_book.py [--repeat 3]

The bundled suite into a temporary folder; the best of --repeat runs of each phase is kept.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from harness.book import model
from harness.book.render import prepare, write
from harness.book.site import read_sources, render_book
from harness.suite.fixtures import load_paths
from harness.spec.paths import fixtures_dir


def main() -> None:
    """Print the best seconds of each phase."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    best: dict[str, float] = {}
    pages = 0
    for _ in range(args.repeat):
        times = {}
        started = time.perf_counter()
        scenarios = load_paths([fixtures_dir()]).scenarios
        times["load and lint"] = time.perf_counter() - started
        started = time.perf_counter()
        book = model.build(scenarios, read_sources(scenarios))
        times["replay on the reference"] = time.perf_counter() - started
        started = time.perf_counter()
        files = render_book(book)
        times["render (Jinja2)"] = time.perf_counter() - started
        with tempfile.TemporaryDirectory() as folder:
            started = time.perf_counter()
            prepare(Path(folder) / "book")
            write(Path(folder) / "book", files)
            times["write"] = time.perf_counter() - started
        pages = sum(name.endswith(".html") for name in files)
        for phase, seconds in times.items():
            best[phase] = min(best.get(phase, seconds), seconds)
    print(f"{len(scenarios)} fixtures, {pages} HTML pages (and as many Markdown), {len(files)} files")
    for phase, seconds in best.items():
        print(f"{phase:<26} {seconds:7.3f} s")
    print(f"{'total':<26} {sum(best.values()):7.3f} s")


if __name__ == "__main__":
    main()
