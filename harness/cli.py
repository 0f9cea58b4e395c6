"""The ``cardverse-conformance`` command: run, lint, list, coverage, explain, serve, smoke, fuzz, properties, mutants,
diff, new-version, texts, docs, report."""

from __future__ import annotations

import argparse
import fnmatch
import json
import os
import sys
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any, TextIO

from harness import KIT_NAME, __version__
from harness.adapters import DEFAULT_TIMEOUT
from harness.book.commands import COMMANDS as BOOK_COMMANDS
from harness.book.commands import add_commands as add_book_commands
from harness.engine import DEFAULT_ENGINE, Engine, EngineLoadError, load_engine
from harness.fixtures import Loader, LoadResult, Scenario, load_paths
from harness.fuzzing.commands import COMMANDS as FUZZING_COMMANDS
from harness.fuzzing.commands import add_commands as add_fuzzing_commands
from harness.ladder.commands import COMMANDS as LADDER_COMMANDS
from harness.ladder.commands import add_commands as add_ladder_commands
from harness.players.commands import COMMANDS as PLAYERS_COMMANDS
from harness.players.commands import add_commands as add_players_commands
from harness.paths import fixtures_dir
from harness.scenario_cache import default_cache
from harness.versions.commands import COMMANDS as VERSIONS_COMMANDS
from harness.versions.commands import add_commands as add_versions_commands

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

    def with_no_cache(sub: argparse.ArgumentParser) -> None:
        sub.add_argument("--no-cache", action="store_true",
                         help="parse and lint every file again, without the cache of linted fixtures "
                              "(also: CARDVERSE_NO_CACHE=1)")

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
    run.add_argument("--rule-version", action="append", metavar="[GAME@]VERSION",
                     help="only this rule version (repeatable); without it each fixture runs once per version "
                          "the engine declares")
    run.add_argument("--game-file", action="append", metavar="FILE",
                     help="a game file beside the bundled ones, e.g. a new rule version being written (repeatable)")

    with_no_cache(run)

    lint = commands.add_parser("lint", help="check fixtures without running them")
    lint.add_argument("paths", nargs="*", help="fixture files or folders (default: the bundled suite)")
    with_no_cache(lint)

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
    add_versions_commands(commands)
    add_book_commands(commands)
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
    """Load fixtures, printing every path problem and lint error."""
    out = out or sys.stderr
    result = load_paths(paths or [fixtures_dir()])
    for problem in result.path_errors:
        sys.stderr.write(f"{problem}\n")
    for error in result.errors:
        out.write(f"{error}\n")
    return result


def _loader(args: argparse.Namespace, out: TextIO) -> Loader:
    """A loader of the paths given (with the cache unless turned off) that prints each lint error as found."""
    loader = Loader(args.paths or [fixtures_dir()], default_cache(not args.no_cache),
                    on_error=lambda error: out.write(f"{error}\n"))
    for problem in loader.path_errors:
        sys.stderr.write(f"{problem}\n")
    return loader


def _select(scenarios: Iterable[Scenario], args: argparse.Namespace) -> Iterator[Scenario]:
    """The scenarios matching ``--game``, ``--clause`` and ``--id``, as they come."""
    for s in scenarios:
        if args.game and s.game not in args.game:
            continue
        if args.clause and not any(fnmatch.fnmatchcase(c, g) for c in s.clauses for g in args.clause):
            continue
        if args.id and not any(fnmatch.fnmatchcase(s.id, g) for g in args.id):
            continue
        yield s


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
    """Run the selected fixtures and report (with the game files of --game-file beside the bundled ones)."""
    from harness.versions.gamefile import GameFileError, extra_game_files

    try:
        with extra_game_files(args.game_file):
            return _command_run(args)
    except GameFileError as error:
        sys.stderr.write(f"{error}\n")
        return EXIT_USAGE


def _command_run(args: argparse.Namespace) -> int:
    """Run the selected fixtures and report."""
    from harness.ratchet import RatchetFileError, load_expected

    from harness.reports import report_path_problems

    problems = report_path_problems({"--json": args.json, "--junit": args.junit,
                                     "--write-expect-fail": args.write_expect_fail})
    if problems:  # before any engine starts: a long run must not end in a report that cannot be written
        sys.stderr.write("".join(f"{problem}\n" for problem in problems))
        return EXIT_USAGE
    loader = _loader(args, sys.stderr)
    if loader.path_errors:
        sys.stderr.write("no fixture was run: fix the paths above and run again\n")
        return EXIT_USAGE
    try:
        expected = load_expected(args.expect_fail) if args.expect_fail else None
        engine = _engine(args)
    except (EngineLoadError, RatchetFileError) as error:
        sys.stderr.write(f"{error}\n")
        return EXIT_USAGE
    from harness.interrupt import EXIT_INTERRUPTED, engine_stops_on_interrupt

    code = None
    try:
        with engine_stops_on_interrupt(engine):
            code = run_fixtures(args, loader, engine, expected)
            return code
    except KeyboardInterrupt:  # before the first fixture (the handshake); later ones are caught in run_fixtures
        print("interrupted (Ctrl-C) before any fixture ran: no report written")
        code = EXIT_INTERRUPTED
        return code
    finally:
        close = getattr(engine, "close", None)
        problem = close() if callable(close) else None  # a remote engine: say stop and reap its process
        # Every fixture had its answers: a bad goodbye is worth a warning, not a changed verdict. After
        # Ctrl-C the engine was killed on purpose, so its missing goodbye says nothing.
        if problem and code != EXIT_INTERRUPTED:
            sys.stderr.write(f"warning: {problem}; the results above stand\n")


def run_fixtures(args: argparse.Namespace, loader: Loader, engine: Engine, expected: dict[str, str] | None) -> int:
    """Judge every scenario as it loads, print and write the reports; the exit code.

    Fixtures stream from the loader to the engine, and each result keeps only what the reports
    need, so memory stays flat however large the suite.
    """
    from harness.interrupt import EXIT_INTERRUPTED
    from harness.ratchet import Ratchet, never_started, write_expected
    from harness.reports import (basis_notes, capability_notes, print_failures, summary_table, write_each,
                                 write_json_lines, write_junit)
    from harness.runner import Runner, count
    from harness.safetext import console_text
    from harness.versions.expand import per_version

    runner = Runner(engine)
    ratchet = Ratchet(expected or {})
    declared = [game.get("rule_versions") or [] for game in (runner.description.get("games") or {}).values()]
    # a fixture may run once per rule version (the engine has several, none picked alone): lines name the version
    one_picked = args.rule_version is not None and len(args.rule_version) == 1
    several = not one_picked and any(len(versions) > 1 for versions in declared)
    scenarios = (pinned for scenario in _select(loader, args)
                 for pinned in per_version([scenario], runner.description, args.rule_version))
    total = len(loader.files)
    progress = _progress_wanted(args.progress)
    results = []
    incomplete = None
    try:
        for i, result in enumerate(runner.run_all(scenarios), start=1):
            scenario = result.scenario
            # the reports need no more: memory stays flat however many fixtures run
            result.scenario = replace(scenario, options={}, layout={}, later_layouts=(), steps=(), description="")
            results.append(result)
            if args.verbose:
                outcome = ratchet.outcome(result)
                name = f"{scenario.id}[{result.rule_version}]" if several else scenario.id
                print(f"{outcome.upper():<5} {name}" + (f"  {console_text(result.message)}" if result.message else ""))
                for unchecked in result.unchecked:
                    print(f"      unchecked: {unchecked}")
            elif progress and (i % 25 == 0 or loader.done == total):
                sys.stderr.write(f"\r{loader.done}/{total} files, {i} fixtures run")
                sys.stderr.flush()
    except KeyboardInterrupt:
        incomplete = f"interrupted (Ctrl-C) after {len(results)} of {total} fixtures"
    if progress and results:
        sys.stderr.write("\n")
    counted = ratchet.unexpected(results)
    if not incomplete:
        print_failures(counted)
        if expected is not None:
            _print_ratchet(ratchet, results, set(loader.ids), args.expect_fail)
        print(summary_table(counted, every_clause=args.verbose))
        for note in basis_notes(counted) + capability_notes(counted):
            print(note)

    def json_report() -> None:
        with open(args.json, "w", encoding="utf-8") as handle:
            write_json_lines(results, runner.description, handle, ratchet.record, incomplete)

    writers = {f"the JSON lines report {args.json}": json_report} if args.json else {}
    if args.junit:
        writers[f"the JUnit report {args.junit}"] = lambda: write_junit(
            [ratchet.for_junit(r) for r in results], runner.description, args.junit, incomplete)
    lost = write_each(writers)
    if incomplete:
        kept = [path for path in (args.json, args.junit) if path and not any(path in label for label in lost)]
        print(f"{incomplete}: " + (f"reports written and marked incomplete: {', '.join(kept)}" if kept
                                   else "no report asked for (--json, --junit)")
              + ("; known failures not written" if args.write_expect_fail else ""))
        return EXIT_INTERRUPTED
    if args.write_expect_fail:
        why = never_started(results, runner.describe_error)
        if why:
            print(f"refusing to write {args.write_expect_fail}: {why}; nothing of the engine's rules was seen, so "
                  f"there is no baseline to record. Fix the engine's start-up first "
                  f"(`{KIT_NAME} smoke` checks a remote engine's protocol)")
            return EXIT_FAILED
        written = write_expected(args.write_expect_fail, results, expected or {})
        print(f"wrote {written} known failure(s) to {args.write_expect_fail}; "
              f"from now on run with --expect-fail {args.write_expect_fail}")
    totals = count(counted)
    if loader.errors:
        print(f"{len(loader.errors)} lint error(s): fix them and run again (`{KIT_NAME} lint` lists them)")
        return EXIT_USAGE
    if not results:
        print("no fixture matched the selection")
        return EXIT_USAGE
    if args.write_expect_fail:
        return EXIT_OK  # the file now lists every failure of this run: the baseline is recorded
    return EXIT_FAILED if totals["fail"] or totals["error"] or ratchet.xpasses(results) or lost else EXIT_OK


def _print_ratchet(ratchet: Any, results: list[Any], known: set[str], path: str) -> None:
    """The known failures: fixes first and loudly, then how many still fail, then stale entries."""
    xpasses, xfails = ratchet.xpasses(results), ratchet.xfails(results)
    for result in xpasses:
        print(f"XPASS {result.scenario.id}: listed as a known failure ({ratchet.expected[result.scenario.id]}), "
              f"but it passes now: remove it from {path}, or rewrite the file with --write-expect-fail")
    for result in ratchet.now_errors(results):
        print(f"ERROR {result.scenario.id}: listed as a known rule failure ({ratchet.expected[result.scenario.id]}), "
              "but the engine now ends it in an error: an error is never taken for a known failure")
    print(f"known failures ({path}): {len(xfails)} still failing (xfail), {len(xpasses)} fixed (XPASS)")
    stale = sorted(set(ratchet.expected) - known)
    if stale:
        print(f"{len(stale)} known failure(s) name no fixture of this suite: remove them from {path}: "
              + ", ".join(stale))


def command_lint(args: argparse.Namespace) -> int:
    """Lint fixtures, every error as it is found; exit 2 when a path names no fixture file, 1 on lint errors."""
    loader = _loader(args, sys.stdout)
    clean = sum(1 for _ in loader)
    print(f"{len(loader.files)} file(s), {clean} clean, {len(loader.errors)} error(s)"
          + (f", {len(loader.path_errors)} path(s) with no fixture file" if loader.path_errors else ""))
    if loader.path_errors:
        return EXIT_USAGE
    return EXIT_FAILED if loader.errors else EXIT_OK


def command_list(args: argparse.Namespace) -> int:
    """One line per fixture: id, game, clauses, title."""
    loaded = _load(args.paths)
    for scenario in _select(loaded.scenarios, args):
        print(f"{scenario.id}\t{scenario.game}\t{','.join(scenario.clauses)}\t{scenario.title}")
    if loaded.path_errors:
        return EXIT_USAGE
    return EXIT_FAILED if loaded.errors else EXIT_OK


def command_coverage(args: argparse.Namespace) -> int:
    """Each clause with its fixtures; non-zero when a clause has a gap."""
    from harness.coverage import coverage, format_table

    loaded = _load(args.paths)
    if loaded.path_errors:
        return EXIT_USAGE
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
    **FUZZING_COMMANDS, **VERSIONS_COMMANDS, **BOOK_COMMANDS, **LADDER_COMMANDS, **PLAYERS_COMMANDS,
}
