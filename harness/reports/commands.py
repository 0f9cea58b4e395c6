"""The ``run``, ``coverage`` and ``explain`` commands: fixtures judged against an engine and reported, clauses and fixtures told."""

from __future__ import annotations

import argparse
import json
import os
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

from harness import EXIT_FAILED, EXIT_NEVER_STARTED, EXIT_OK, EXIT_USAGE, KIT_NAME
from harness.adapters.arguments import add_remote, engine_from
from harness.adapters.engine import DEFAULT_ENGINE, Engine, EngineLoadError
from harness.reports.ci import FAIL_FAST, LastFailedError, add_ci_options, chosen_paths
from harness.spec.paths import fixtures_dir
from harness.suite.arguments import (
    add_no_cache,
    add_selection,
    load_reporting,
    game_argument,
    reporting_loader,
    select,
    unmatched_ids,
)
from harness.suite.fixtures import Loader


def add_run_command(subparsers: Any) -> None:
    """Add ``run`` to the CLI's subparsers."""
    run = subparsers.add_parser("run", help="run fixtures against an engine (default: the reference engine)")
    add_selection(run)
    engines = run.add_mutually_exclusive_group()
    engines.add_argument("--engine", default=DEFAULT_ENGINE, help="in-process engine factory, package.module:factory")
    add_remote(run, engines)
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

    add_no_cache(run)
    add_ci_options(run)


def add_commands(subparsers: Any) -> None:
    """Add ``coverage`` and ``explain`` to the CLI's subparsers."""
    cover = subparsers.add_parser("coverage", help="each clause with the fixtures that cover it")
    cover.add_argument("paths", nargs="*", help="fixture files or folders (default: the bundled suite)")
    cover.add_argument("--game", action="append", type=game_argument, help="only this game (repeatable)")
    cover.add_argument("--json", action="store_true", help="JSON lines instead of a table")
    cover.add_argument("--mutants", metavar="FILE", help="also each clause's generated mutants, from a "
                                                         "`mutants --generated --json FILE` file: killed by fixtures, "
                                                         "found only by fuzz")

    explain = subparsers.add_parser("explain", help="tell a fixture in words")
    explain.add_argument("fixture", help="a fixture file, or a fixture id from the bundled suite")


def _progress_wanted(choice: str) -> bool:
    """Whether to draw a progress line."""
    if choice != "auto":
        return choice == "on"
    return sys.stderr.isatty() and not os.environ.get("CI")


def command_run(args: argparse.Namespace) -> int:
    """Run the selected fixtures and report (with the game files of --game-file beside the bundled ones)."""
    from harness.spec.gamefile import GameFileError, extra_game_files

    try:
        with extra_game_files(args.game_file):
            return _command_run(args)
    except GameFileError as error:
        sys.stderr.write(f"{error}\n")
        return EXIT_USAGE


def _command_run(args: argparse.Namespace) -> int:
    """Run the selected fixtures and report."""
    from harness.reports.console import report_path_problems
    from harness.reports.ratchet import RatchetFileError, load_expected

    problems = report_path_problems({"--json": args.json, "--junit": args.junit,
                                     "--write-expect-fail": args.write_expect_fail})
    if problems:  # before any engine starts: a long run must not end in a report that cannot be written
        sys.stderr.write("".join(f"{problem}\n" for problem in problems))
        return EXIT_USAGE
    from harness.versions.expand import unknown_versions

    try:
        chosen_paths(args, fixtures_dir())
    except LastFailedError as error:
        sys.stderr.write(f"{error}\n")
        return EXIT_USAGE
    if args.last_failed is not None and args.id == []:
        print(f"nothing failed in {args.last_failed}: nothing to run again")
        return EXIT_OK
    problems = unknown_versions(args.rule_version)
    if problems:
        sys.stderr.write("".join(f"--rule-version: {problem}\n" for problem in problems))
        return EXIT_USAGE
    loader = reporting_loader(args, sys.stderr)
    if loader.path_errors:
        sys.stderr.write("no fixture was run: fix the paths above and run again\n")
        return EXIT_USAGE
    try:
        expected = load_expected(args.expect_fail) if args.expect_fail else None
        engine = engine_from(args)
    except (EngineLoadError, RatchetFileError) as error:
        sys.stderr.write(f"{error}\n")
        return EXIT_USAGE
    from harness.run.interrupt import EXIT_INTERRUPTED, engine_stops_on_interrupt

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
    from harness.adapters.handshake import by_hand, never_started_words, reason, stderr_tail
    from harness.audit.steps import charge
    from harness.reports.ci import annotate, in_github_actions, remember_report, step_summary
    from harness.host.text import console_text
    from harness.reports.console import (
        basis_notes,
        capability_notes,
        error_and_skip_notes,
        StartError,
        print_failures,
        summary_table,
        write_each,
        write_json_lines,
        write_junit,
    )
    from harness.reports.ratchet import Ratchet, never_started, write_expected
    from harness.run.interrupt import EXIT_INTERRUPTED
    from harness.run.runner import Runner, count
    from harness.versions.expand import per_version

    runner = Runner(engine)
    ratchet = Ratchet(expected or {})
    declared = [game.get("rule_versions") or [] for game in (runner.description.get("games") or {}).values()]
    # a fixture may run once per rule version (the engine has several, none picked alone): lines name the version
    one_picked = args.rule_version is not None and len(args.rule_version) == 1
    several = not one_picked and any(len(versions) > 1 for versions in declared)
    scenarios = (pinned for scenario in select(loader, args)
                 for pinned in per_version([scenario], runner.description, args.rule_version))
    total = len(loader.files)
    progress = _progress_wanted(args.progress)
    results = []
    incomplete = cut_short = None
    stopped = runner.describe_error  # the engine cannot describe itself: the run stops before its first fixture
    tail = stderr_tail(stopped)
    try:
        for i, result in enumerate(() if stopped else runner.run_all(scenarios), start=1):
            scenario = result.scenario
            charge(result, scenario)  # a failure charged by the reference's clause trace at the failing step
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
            if args.fail_fast and ratchet.outcome(result) in ("fail", "error"):
                cut_short = f"{FAIL_FAST}, after {i} fixture(s)"
                break
            if getattr(engine, "missed_hellos", 0) >= FAILED_STARTS:
                stopped = (f"it failed to start {FAILED_STARTS} times in a row (no answer to hello), the last: "
                           f"{reason(result.message)}")
                tail = stderr_tail(result.message)
                break
    except KeyboardInterrupt:
        incomplete = f"interrupted (Ctrl-C) after {len(results)} of {total} fixtures"
    if stopped:
        incomplete = f"stopped: the engine never started: {reason(stopped)}"
    if progress and results:
        sys.stderr.write("\n")
    counted = ratchet.unexpected(results)
    if not incomplete:
        print_failures(counted)
        if expected is not None:
            _print_ratchet(ratchet, results, set(loader.ids), args.expect_fail)
        print(summary_table(counted, every_clause=args.verbose))
        for note in basis_notes(counted) + error_and_skip_notes(counted) + capability_notes(counted):
            print(note)
        if cut_short:
            print(cut_short)
        if in_github_actions():
            annotate(counted, sys.stdout)

    start_error = StartError(reason(stopped), [console_text(line) for line in tail], by_hand(args)) if stopped else None

    def json_report() -> None:
        with open(args.json, "w", encoding="utf-8") as handle:
            write_json_lines(results, runner.description, handle, ratchet.record, incomplete or cut_short, start_error)
        remember_report(args.json, not args.no_cache)

    writers = {f"the JSON lines report {args.json}": json_report} if args.json else {}
    if args.junit:
        writers[f"the JUnit report {args.junit}"] = lambda: write_junit(
            [ratchet.for_junit(r) for r in results], runner.description, args.junit, incomplete or cut_short,
            start_error)
    lost = write_each(writers)
    step_summary(counted, runner.description, start_error)
    if incomplete:
        kept = [path for path in (args.json, args.junit) if path and not any(path in label for label in lost)]
        said = (f"reports written {'with the error' if stopped else 'and marked incomplete'}: {', '.join(kept)}"
                if kept else "no report asked for (--json, --junit)")
        said += "; known failures not written" if args.write_expect_fail else ""
        if stopped:
            sys.stderr.write(never_started_words(args, stopped, [console_text(line) for line in tail]) + said + "\n")
            return EXIT_NEVER_STARTED
        print(f"{incomplete}: {said}")
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
    unknown = [] if cut_short else unmatched_ids(args, loader.ids)  # cut short, the loader has not seen every id
    for problem in unknown:
        sys.stderr.write(f"{problem}; `{KIT_NAME} list` shows the ids\n")
    if unknown:
        return EXIT_USAGE
    if not results:
        print("no fixture matched the selection")
        return EXIT_USAGE
    if args.write_expect_fail:
        return EXIT_OK  # the file now lists every failure of this run: the baseline is recorded
    if totals["skip"] == len(counted) and not ratchet.xfails(results):
        print(f"nothing was checked: all {len(counted)} selected fixture(s) were skipped (the reasons are above; "
              "run -v for each one): a run that checks nothing is not a pass")
        return EXIT_FAILED
    return EXIT_FAILED if totals["fail"] or totals["error"] or ratchet.xpasses(results) or lost else EXIT_OK


FAILED_STARTS = 3  # starts in a row without an answer to hello before a run stops: the engine is not running


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


def command_coverage(args: argparse.Namespace) -> int:
    """Each clause with its fixtures; non-zero when a clause has a gap."""
    from harness.reports.coverage import coverage, format_table

    loaded = load_reporting(args.paths)
    if loaded.path_errors:
        return EXIT_USAGE
    entries = [entry for game in args.game or [None] for entry in coverage(loaded.scenarios, game)]
    scores = None
    if args.mutants:
        from harness.reports.mutant_scores import ScoreError, format_scores, read_scores

        try:
            scores = read_scores(args.mutants)
        except ScoreError as error:
            sys.stderr.write(f"{error}\n")
            return EXIT_USAGE
    if args.json:
        for entry in entries:
            record = entry.record()
            if scores is not None:
                score = scores.get(entry.clause.id)
                record["mutants"] = None if score is None else {"killed": score.killed, "fuzz_only": score.fuzz_only}
            print(json.dumps(record, ensure_ascii=False))
    else:
        print(format_table(entries))
        if scores is not None:
            print(format_scores(scores, [e.clause.id for e in entries]))
    return EXIT_FAILED if loaded.errors or any(e.gap for e in entries) else EXIT_OK


def command_explain(args: argparse.Namespace) -> int:
    """Tell one fixture in words."""
    from harness.reports.explain import explain

    target = Path(args.fixture)
    loaded = load_reporting([target] if target.exists() else [fixtures_dir()])
    matches = [s for s in loaded.scenarios if target.exists() or s.id == args.fixture]
    if not matches:
        from harness.spec.names import did_you_mean

        close = did_you_mean(args.fixture, (s.id for s in loaded.scenarios))
        sys.stderr.write(f"no fixture {args.fixture!r}{close}: give a file path or an id (`{KIT_NAME} list` shows them)\n")
        return EXIT_USAGE
    print(explain(matches[0]))
    return EXIT_OK


COMMANDS = {"run": command_run, "coverage": command_coverage, "explain": command_explain}
