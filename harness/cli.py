"""The ``cardverse-conformance`` command: run, lint, list, coverage, explain, serve, smoke, fuzz, properties, mutants."""

from __future__ import annotations

import argparse
import fnmatch
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TextIO

from harness import KIT_NAME, __version__
from harness.adapters import DEFAULT_TIMEOUT
from harness.engine import DEFAULT_ENGINE, Engine, EngineLoadError, load_engine
from harness.fixtures import LoadResult, Scenario, load_paths
from harness.fuzzing.commands import COMMANDS as FUZZING_COMMANDS
from harness.fuzzing.commands import add_commands as add_fuzzing_commands
from harness.ladder.commands import COMMANDS as LADDER_COMMANDS
from harness.ladder.commands import add_commands as add_ladder_commands
from harness.players.commands import COMMANDS as PLAYERS_COMMANDS
from harness.players.commands import add_commands as add_players_commands
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

    def with_remote(sub: argparse.ArgumentParser, group: Any) -> None:
        group.add_argument("--engine-cmd", metavar="COMMAND",
                           help='an engine speaking the protocol on stdio, e.g. "node engine.js" (spec/protocol.md)')
        group.add_argument("--engine-url", metavar="URL", help="an engine speaking the protocol over HTTP POST")
        sub.add_argument("--timeout", type=_seconds, default=DEFAULT_TIMEOUT, metavar="SECONDS",
                         help=f"per request to a remote engine (default {DEFAULT_TIMEOUT:g})")

    run = commands.add_parser("run", help="run fixtures against an engine (default: the reference engine)")
    with_selection(run)
    engines = run.add_mutually_exclusive_group()
    engines.add_argument("--engine", default=DEFAULT_ENGINE, help="in-process engine factory, package.module:factory")
    with_remote(run, engines)
    run.add_argument("--expect-fail", metavar="FILE",
                     help="known failures (YAML or JSON: fixture id -> reason): they fail as xfail; a fix shows as XPASS")
    run.add_argument("--write-expect-fail", metavar="FILE",
                     help="write this run's failures and errors as known failures (.json for JSON, else YAML)")
    run.add_argument("--json", metavar="FILE", help="write JSON lines: a header, then one line per fixture")
    run.add_argument("--junit", metavar="FILE", help="write a JUnit XML report")
    run.add_argument("-v", "--verbose", action="store_true", help="print every fixture's outcome, and every clause in the summary")
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

    serve = commands.add_parser("serve", help="an in-process engine as a protocol server (stdio, or HTTP on 127.0.0.1)")
    serve.add_argument("--engine", default=DEFAULT_ENGINE, help="in-process engine factory, package.module:factory")
    serve.add_argument("--http", type=int, metavar="PORT", help="serve HTTP on 127.0.0.1:PORT (0: any free port)")

    smoke = commands.add_parser("smoke", help="check that a remote engine speaks the protocol, before running fixtures")
    remote = smoke.add_mutually_exclusive_group(required=True)
    with_remote(smoke, remote)
    add_fuzzing_commands(commands)
    add_ladder_commands(commands)
    add_players_commands(commands)
    return parser


def _seconds(text: str) -> float:
    """A positive number of seconds, for --timeout."""
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not value > 0:
        raise argparse.ArgumentTypeError(f"{text!r} is not a positive number of seconds")
    return value


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point; returns the exit code."""
    args = build_parser().parse_args(argv)
    try:
        return int(COMMANDS[args.command](args))
    except BrokenPipeError:  # `... | head` is a normal way to read a long listing
        return EXIT_OK


def _load(paths: Sequence[str | os.PathLike[str]], out: TextIO | None = None) -> LoadResult:
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


def _engine(args: argparse.Namespace) -> Engine:
    """The engine the options name: a remote one (--engine-cmd, --engine-url) or an in-process factory."""
    from harness.adapters import connect

    if getattr(args, "engine_cmd", None) or getattr(args, "engine_url", None):
        try:
            return connect(args.engine_cmd, args.engine_url, args.timeout)
        except ValueError as error:
            raise EngineLoadError(str(error)) from None
    return load_engine(args.engine)


def _engine_option(args: argparse.Namespace) -> str:
    """The option naming the remote engine, as a user would type it again."""
    import shlex

    return f"--engine-cmd {shlex.quote(args.engine_cmd)}" if args.engine_cmd else f"--engine-url {args.engine_url}"


def command_run(args: argparse.Namespace) -> int:
    """Run the selected fixtures and report."""
    from harness.ratchet import RatchetFileError, load_expected

    loaded = _load(args.paths)
    scenarios = _select(loaded.scenarios, args)
    try:
        expected = load_expected(args.expect_fail) if args.expect_fail else None
        engine = _engine(args)
    except (EngineLoadError, RatchetFileError) as error:
        sys.stderr.write(f"{error}\n")
        return EXIT_USAGE
    try:
        return _run(args, loaded, scenarios, engine, expected)
    finally:
        close = getattr(engine, "close", None)
        if callable(close):  # a remote engine: say stop and reap its process
            close()


def _run(args: argparse.Namespace, loaded: LoadResult, scenarios: list[Scenario], engine: Engine,
         expected: dict[str, str] | None) -> int:
    """Judge every scenario, print and write the reports; the exit code."""
    from harness.ratchet import Ratchet, write_expected
    from harness.reports import print_failures, summary_table, write_json_lines, write_junit
    from harness.runner import Runner, count

    runner = Runner(engine)
    ratchet = Ratchet(expected or {})
    progress = _progress_wanted(args.progress)
    results = []
    for i, result in enumerate(runner.run_all(scenarios), start=1):
        scenario = result.scenario
        results.append(result)
        if args.verbose:
            outcome = ratchet.outcome(result)
            print(f"{outcome.upper():<5} {scenario.id}" + (f"  {result.message}" if result.message else ""))
        elif progress and (i % 25 == 0 or i == len(scenarios)):
            sys.stderr.write(f"\r{i}/{len(scenarios)} fixtures")
            sys.stderr.flush()
    if progress and scenarios:
        sys.stderr.write("\n")
    counted = ratchet.unexpected(results)
    print_failures(counted)
    if expected is not None:
        _print_ratchet(ratchet, results, loaded, args.expect_fail)
    print(summary_table(counted, every_clause=args.verbose))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as handle:
            write_json_lines(results, runner.description, handle, ratchet.record)
    if args.junit:
        write_junit([ratchet.for_junit(r) for r in results], runner.description, args.junit)
    if args.write_expect_fail:
        written = write_expected(args.write_expect_fail, results, expected or {})
        print(f"wrote {written} known failure(s) to {args.write_expect_fail}; "
              f"from now on run with --expect-fail {args.write_expect_fail}")
    totals = count(counted)
    if loaded.errors:
        print(f"{len(loaded.errors)} lint error(s): fix them and run again (`{KIT_NAME} lint` lists them)")
        return EXIT_USAGE
    if not scenarios:
        print("no fixture matched the selection")
        return EXIT_USAGE
    if args.write_expect_fail:
        return EXIT_OK  # the file now lists every failure of this run: the baseline is recorded
    return EXIT_FAILED if totals["fail"] or totals["error"] or ratchet.xpasses(results) else EXIT_OK


def _print_ratchet(ratchet: Any, results: list[Any], loaded: LoadResult, path: str) -> None:
    """The known failures: fixes first and loudly, then how many still fail, then stale entries."""
    xpasses, xfails = ratchet.xpasses(results), ratchet.xfails(results)
    for result in xpasses:
        print(f"XPASS {result.scenario.id}: listed as a known failure ({ratchet.expected[result.scenario.id]}), "
              f"but it passes now: remove it from {path}, or rewrite the file with --write-expect-fail")
    print(f"known failures ({path}): {len(xfails)} still failing (xfail), {len(xpasses)} fixed (XPASS)")
    known = {s.id for s in loaded.scenarios}
    stale = sorted(set(ratchet.expected) - known)
    if stale:
        print(f"{len(stale)} known failure(s) name no fixture of this suite: remove them from {path}: "
              + ", ".join(stale))


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


def command_serve(args: argparse.Namespace) -> int:
    """Serve an in-process engine over the protocol until stop (stdio) or Ctrl-C (HTTP)."""
    from harness.serve import serve_http, serve_stdio

    try:
        engine = load_engine(args.engine)
    except EngineLoadError as error:
        sys.stderr.write(f"{error}\n")
        return EXIT_USAGE
    if args.http is not None:
        return serve_http(engine, args.http)
    return serve_stdio(engine)


def command_smoke(args: argparse.Namespace) -> int:
    """Check the protocol itself; non-zero on any problem."""
    from harness.smoke import smoke

    try:
        engine = _engine(args)
    except EngineLoadError as error:
        sys.stderr.write(f"{error}\n")
        return EXIT_USAGE
    try:
        problems = smoke(engine, sys.stdout, _engine_option(args))  # type: ignore[arg-type]
    finally:
        engine.close()  # type: ignore[attr-defined]
    return EXIT_FAILED if problems else EXIT_OK


COMMANDS = {
    "run": command_run, "lint": command_lint, "list": command_list,
    "coverage": command_coverage, "explain": command_explain,
    "serve": command_serve, "smoke": command_smoke,
    **FUZZING_COMMANDS,
    **LADDER_COMMANDS,
    **PLAYERS_COMMANDS,
}
