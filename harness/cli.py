"""The ``cardverse-conformance`` command: run, lint, list, coverage, explain."""

from __future__ import annotations

import argparse
import fnmatch
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

from harness import KIT_NAME, __version__
from harness.engine import DEFAULT_ENGINE, EngineLoadError, load_engine
from harness.fixtures import LoadResult, Scenario, load_paths
from harness.paths import fixtures_dir

EXIT_OK, EXIT_FAILED, EXIT_USAGE = 0, 1, 2


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every subcommand."""
    parser = argparse.ArgumentParser(prog=KIT_NAME, description="Check a CardVerse engine against the rules.")
    parser.add_argument("--version", action="version", version=f"{KIT_NAME} {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def with_selection(sub: argparse.ArgumentParser) -> None:
        sub.add_argument("paths", nargs="*", help="fixture files or folders (default: the bundled suite)")
        sub.add_argument("--game", action="append", help="only this game (repeatable)")
        sub.add_argument("--clause", action="append", help="only fixtures covering a clause matching this glob")
        sub.add_argument("--id", action="append", help="only fixtures whose id matches this glob")

    run = commands.add_parser("run", help="run fixtures against an engine (default: the reference engine)")
    with_selection(run)
    run.add_argument("--engine", default=DEFAULT_ENGINE, help="in-process engine factory, package.module:factory")
    run.add_argument("--json", metavar="FILE", help="write JSON lines: a header, then one line per fixture")
    run.add_argument("--junit", metavar="FILE", help="write a JUnit XML report")
    run.add_argument("-v", "--verbose", action="store_true", help="print every fixture's outcome")
    run.add_argument("--progress", choices=("auto", "on", "off"), default="auto",
                     help="a progress line on the terminal (auto: only on a terminal outside CI)")

    lint = commands.add_parser("lint", help="check fixtures without running them")
    lint.add_argument("paths", nargs="*", help="fixture files or folders (default: the bundled suite)")

    listing = commands.add_parser("list", help="list fixtures")
    with_selection(listing)

    cover = commands.add_parser("coverage", help="each clause with the fixtures that cover it")
    cover.add_argument("paths", nargs="*", help="fixture files or folders (default: the bundled suite)")
    cover.add_argument("--game", help="only this game")
    cover.add_argument("--json", action="store_true", help="JSON lines instead of a table")

    explain = commands.add_parser("explain", help="tell a fixture in words")
    explain.add_argument("fixture", help="a fixture file, or a fixture id from the bundled suite")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point; returns the exit code."""
    args = build_parser().parse_args(argv)
    try:
        return int(COMMANDS[args.command](args))
    except BrokenPipeError:  # `... | head` is a normal way to read a long listing
        return EXIT_OK


def _load(paths: list[str], out: TextIO | None = None) -> LoadResult:
    """Load fixtures, printing every lint error."""
    out = out or sys.stderr
    result = load_paths(paths or [fixtures_dir()])
    for error in result.errors:
        out.write(f"{error}\n")
    return result


def _select(scenarios: list[Scenario], args: argparse.Namespace) -> list[Scenario]:
    """The scenarios matching ``--game``, ``--clause`` and ``--id``."""
    chosen = scenarios
    if args.game:
        chosen = [s for s in chosen if s.game in args.game]
    if args.clause:
        chosen = [s for s in chosen if any(fnmatch.fnmatchcase(c, g) for c in s.clauses for g in args.clause)]
    if args.id:
        chosen = [s for s in chosen if any(fnmatch.fnmatchcase(s.id, g) for g in args.id)]
    return chosen


def _progress_wanted(choice: str) -> bool:
    """Whether to draw a progress line."""
    if choice != "auto":
        return choice == "on"
    return sys.stderr.isatty() and not os.environ.get("CI")


def command_run(args: argparse.Namespace) -> int:
    """Run the selected fixtures and report."""
    from harness.reports import print_failures, summary_table, write_json_lines, write_junit
    from harness.runner import Runner, count

    loaded = _load(args.paths)
    scenarios = _select(loaded.scenarios, args)
    try:
        engine = load_engine(args.engine)
    except EngineLoadError as error:
        sys.stderr.write(f"{error}\n")
        return EXIT_USAGE
    runner = Runner(engine)
    progress = _progress_wanted(args.progress)
    results = []
    for i, scenario in enumerate(scenarios, start=1):
        result = runner.run(scenario)
        results.append(result)
        if args.verbose:
            print(f"{result.outcome.upper():<5} {scenario.id}" + (f"  {result.message}" if result.message else ""))
        elif progress and (i % 25 == 0 or i == len(scenarios)):
            sys.stderr.write(f"\r{i}/{len(scenarios)} fixtures")
            sys.stderr.flush()
    if progress and scenarios:
        sys.stderr.write("\n")
    print_failures(results)
    print(summary_table(results))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as handle:
            write_json_lines(results, runner.description, handle)
    if args.junit:
        write_junit(results, runner.description, args.junit)
    totals = count(results)
    if loaded.errors:
        print(f"{len(loaded.errors)} lint error(s): fix them and run again (`{KIT_NAME} lint` lists them)")
        return EXIT_USAGE
    if not scenarios:
        print("no fixture matched the selection")
        return EXIT_USAGE
    return EXIT_FAILED if totals["fail"] or totals["error"] else EXIT_OK


def command_lint(args: argparse.Namespace) -> int:
    """Lint fixtures; every error at once."""
    loaded = _load(args.paths, sys.stdout)
    print(f"{loaded.files} file(s), {len(loaded.scenarios)} clean, {len(loaded.errors)} error(s)")
    return EXIT_FAILED if loaded.errors else EXIT_OK


def command_list(args: argparse.Namespace) -> int:
    """One line per fixture: id, game, clauses, title."""
    loaded = _load(args.paths)
    for scenario in _select(loaded.scenarios, args):
        print(f"{scenario.id}\t{scenario.game}\t{','.join(scenario.clauses)}\t{scenario.title}")
    return EXIT_FAILED if loaded.errors else EXIT_OK


def command_coverage(args: argparse.Namespace) -> int:
    """Each clause with its fixtures; non-zero when a clause has a gap."""
    from harness.coverage import coverage, format_table

    loaded = _load(args.paths)
    entries = coverage(loaded.scenarios, args.game)
    if args.json:
        for entry in entries:
            print(json.dumps(entry.record(), ensure_ascii=False))
    else:
        print(format_table(entries))
    return EXIT_FAILED if loaded.errors or any(e.gap for e in entries) else EXIT_OK


def command_explain(args: argparse.Namespace) -> int:
    """Tell one fixture in words."""
    from harness.explain import explain

    target = Path(args.fixture)
    loaded = _load([target] if target.exists() else [fixtures_dir()])
    matches = [s for s in loaded.scenarios if target.exists() or s.id == args.fixture]
    if not matches:
        sys.stderr.write(f"no fixture {args.fixture!r}: give a file path or an id (`{KIT_NAME} list` shows them)\n")
        return EXIT_USAGE
    print(explain(matches[0]))
    return EXIT_OK


COMMANDS = {
    "run": command_run, "lint": command_lint, "list": command_list,
    "coverage": command_coverage, "explain": command_explain,
}
