"""The ``lint`` and ``list`` commands: fixtures checked and listed without an engine."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from harness import EXIT_FAILED, EXIT_OK, EXIT_USAGE
from harness.suite.arguments import (
    add_no_cache,
    add_selection,
    load_reporting,
    reporting_loader,
    select,
    unmatched_ids,
)


def add_commands(subparsers: Any) -> None:
    """Add ``lint`` and ``list`` to the CLI's subparsers."""
    lint = subparsers.add_parser("lint", help="check fixtures without running them")
    lint.add_argument("paths", nargs="*", help="fixture files or folders (default: the bundled suite)")
    add_no_cache(lint)

    listing = subparsers.add_parser("list", help="list fixtures")
    add_selection(listing)


def command_lint(args: argparse.Namespace) -> int:
    """Lint fixtures, every error as it is found; exit 2 when a path names no fixture file, 1 on lint errors."""
    loader = reporting_loader(args, sys.stdout)
    clean = sum(1 for _ in loader)
    print(f"{len(loader.files)} file(s), {clean} clean, {len(loader.errors)} error(s)"
          + (f", {len(loader.path_errors)} path(s) with no fixture file" if loader.path_errors else ""))
    if loader.path_errors:
        return EXIT_USAGE
    return EXIT_FAILED if loader.errors else EXIT_OK


def command_list(args: argparse.Namespace) -> int:
    """One line per fixture: id, game, clauses, title."""
    loaded = load_reporting(args.paths)
    for scenario in select(loaded.scenarios, args):
        print(f"{scenario.id}\t{scenario.game}\t{','.join(scenario.clauses)}\t{scenario.title}")
    unknown = unmatched_ids(args, (s.id for s in loaded.scenarios))
    for problem in unknown:
        sys.stderr.write(f"{problem}; `cardverse-conformance list` shows the ids\n")
    if loaded.path_errors or unknown:
        return EXIT_USAGE
    return EXIT_FAILED if loaded.errors else EXIT_OK


COMMANDS = {"lint": command_lint, "list": command_list}
