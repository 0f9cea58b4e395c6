"""The ``docs`` and ``report`` commands: the rule book and the conformance report, as static sites."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

EXIT_OK, EXIT_FAILED, EXIT_USAGE = 0, 1, 2


def add_commands(subparsers: Any) -> None:
    """Add ``docs`` and ``report`` to the CLI's subparsers."""
    docs = subparsers.add_parser("docs", help="write the rule book: a static site of the rules and the fixtures")
    docs.add_argument("paths", nargs="*", help="fixture files or folders (default: the bundled suite)")
    docs.add_argument("--out", required=True, metavar="DIR", help="the folder to write (new, empty, or an earlier book)")
    docs.add_argument("--mutants", metavar="FILE", help="also each clause's generated mutants, from a "
                                                        "`mutants --generated --json FILE` file")

    report = subparsers.add_parser("report", help="write a report page from runs' JSON lines, engines side by side")
    report.add_argument("runs", nargs="+", metavar="RUN.jsonl", help="files written by `run --json FILE`")
    report.add_argument("--out", required=True, metavar="DIR", help="the folder to write (new, empty, or an earlier report)")
    report.add_argument("--book", default="book", metavar="DIR_OR_URL",
                        help="where the rule book is, for links to fixture pages (default: ./book)")


def command_docs(args: argparse.Namespace) -> int:
    """Write the book; lint errors are printed and stop it."""
    from harness.book.render import SiteError
    from harness.book.site import write_book
    from harness.reports.mutant_scores import ScoreError, read_mutants
    from harness.spec.gamefile import GameFileError, extra_game_files
    from harness.spec.paths import fixtures_dir
    from harness.suite.fixtures import load_paths

    try:
        mutants = read_mutants(args.mutants) if args.mutants else None  # a bad file stops before any page is made
        with extra_game_files([]):  # the versions new-version wrote in ./spec/games have their pages too
            loaded = load_paths(args.paths or [fixtures_dir()])
            for error in loaded.errors:
                sys.stderr.write(f"{error}\n")
            if loaded.errors:
                sys.stderr.write(f"{len(loaded.errors)} lint error(s): fix them, then write the book again\n")
                return EXIT_USAGE
            pages = write_book(loaded.scenarios, Path(args.out), mutants)
    except (SiteError, GameFileError, ScoreError) as error:
        sys.stderr.write(f"{error}\n")
        return EXIT_USAGE
    print(f"wrote {pages} pages (and their Markdown twins) to {args.out}; open {Path(args.out) / 'index.html'}")
    return EXIT_OK


def command_report(args: argparse.Namespace) -> int:
    """Write the report; a run file that cannot be read is a usage error."""
    from harness.book.render import SiteError
    from harness.book.report_pages import write_report
    from harness.book.runs import RunFileError, read_runs
    from harness.host.text import console_text

    try:
        runs = read_runs(args.runs)
        for note in (note for run in runs for note in run.notes):
            sys.stderr.write(f"{console_text(note)}\n")
        badges = write_report(runs, Path(args.out), args.book)
    except (RunFileError, SiteError) as error:
        sys.stderr.write(f"{error}\n")
        return EXIT_USAGE
    print(f"wrote the report of {len(runs)} run(s) and {len(badges)} badge(s) to {args.out}; "
          f"open {Path(args.out) / 'index.html'}")
    return EXIT_OK


COMMANDS = {"docs": command_docs, "report": command_report}
