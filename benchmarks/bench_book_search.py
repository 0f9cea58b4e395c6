"""What the book's search costs a reader: the size of its documents and the time to the first results.

    python benchmarks/bench_book_search.py [--repeat 5] [--chromium PATH]

Writes the bundled book into a temporary folder, prints the size of search-data.js (raw and gzipped)
and of the vendored MiniSearch, then opens search.html?q=QUERY from file:// in headless Chromium
(--dump-dom, no driver) --repeat times per query and prints the page's own measure: milliseconds
from the page's start to its first results shown (the index built in the page included), and the
number of results.
"""

from __future__ import annotations

import argparse
import gzip
import re
import shutil
import statistics
import subprocess
import tempfile
from pathlib import Path
from urllib.parse import quote

from harness.cli import main as kit

QUERIES = ("undercut", "Q♥", "knock-too-high", "what happens when the stock runs out")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--disable-extensions", "--virtual-time-budget=5000"]


def main() -> None:
    """Print the sizes, then per query the median and best time to the first results."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--chromium", default=shutil.which("chromium") or shutil.which("chromium-browser"))
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        book = Path(scratch) / "book"
        assert kit(["docs", "--out", str(book)]) == 0
        data = (book / "search-data.js").read_bytes()
        library = (book / "static" / "minisearch.js").read_bytes()
        documents = data.count(b'"kind":')
        print(f"search-data.js: {documents} documents, {len(data) / 1024:.0f} KB ({len(gzip.compress(data)) / 1024:.0f} KB gzipped); "
              f"minisearch.js {len(library) / 1024:.0f} KB ({len(gzip.compress(library)) / 1024:.0f} KB gzipped)")
        if not args.chromium:
            print("no Chromium: the times are not measured (apt-get install chromium)")
            return
        for query in QUERIES:
            times, count = [], ""
            for _ in range(args.repeat):
                dom = subprocess.run([args.chromium, *FLAGS, f"--user-data-dir={scratch}/profile", "--dump-dom",
                                      f"{(book / 'search.html').as_uri()}?q={quote(query)}"],
                                     capture_output=True, text=True, timeout=60).stdout
                ready = re.search(r'data-ready-ms="(\d+)"', dom)
                found = re.search(r'id="status"[^>]*>([^<(]*)', dom)
                if ready:
                    times.append(int(ready.group(1)))
                count = found.group(1).strip() if found else "no status"
            shown = f"median {statistics.median(times):.0f} ms, best {min(times)} ms" if times else "no result shown"
            print(f"{query!r}: {count}; first results after {shown} ({len(times)} loads)")


if __name__ == "__main__":
    main()
