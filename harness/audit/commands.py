"""The ``audit`` command: game records judged on the reference engine; a line per problem, reports, a summary.

Exit codes: 0 every record was read and is clean, 1 a disagreement, an unreadable record or a game
that did not end by the server's fault (its move cap, its engine died: spec/records.md), or
standard output closed before the end (the reports marked incomplete), 2 a usage error (the
message says what to do), 130 interrupted (Ctrl-C: the reports so far written,
their summary marked incomplete).
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any

from harness import EXIT_FAILED, EXIT_INTERRUPTED, EXIT_OK, EXIT_USAGE


PROGRESS_EVERY = 200  # records between redraws of the progress line


def add_commands(subparsers: Any) -> None:
    """Add ``audit`` to the CLI's subparsers."""
    audit = subparsers.add_parser(
        "audit", help="judge the games a server played, from its game records (spec/records.md), on the reference "
                      "engine: every decision and announcement, move by move")
    audit.add_argument("files", nargs="+", metavar="FILE",
                       help="record files, one game a line: .jsonl, .jsonl.gz, .jsonl.zst (with the zstandard "
                            "package), or - for standard input")
    audit.add_argument("--out", metavar="DIR", help="write the first disagreement of each clause as a fixture "
                                                    "here, checked to lint and pass on the reference")
    audit.add_argument("--json", metavar="FILE", help="write JSON lines: a header, one line per record, the summary")
    audit.add_argument("--junit", metavar="FILE", help="write a JUnit XML report (a failure per game that "
                                                       "disagrees, an error per unreadable record)")
    audit.add_argument("--rules-only", action="store_true",
                       help="judge the rules only: not the seats a record marks as computer players (seats[i].level) "
                            "against their level's clauses, which costs many times the rules' replay")
    audit.add_argument("--quiet", action="store_true", help="print only the summary, not a line per problem")
    audit.add_argument("--cluster", metavar="local[:N]|ADDRESS",
                       help="judge on a Dask cluster: local:N worker processes here, or a running `dask scheduler`'s "
                            "address (the cluster extra); the same report as without")
    audit.add_argument("--progress", choices=("auto", "on", "off"), default="auto",
                       help="a progress line on stderr (auto: only on a terminal outside CI)")


def _writers(args: argparse.Namespace) -> list[Any] | str:
    """The report writers asked for, their files opened; or what is wrong with a path."""
    from harness.audit.report import JsonLines, JUnit

    writers: list[Any] = []
    for path, kind in ((args.json, JsonLines), (args.junit, JUnit)):
        if path is None:
            continue
        try:
            writers.append(kind(open(path, "w", encoding="utf-8")))  # noqa: SIM115 (closed by close())
        except OSError as error:
            return f"cannot write {path}: {error.strerror or error}; give a path in a folder that exists"
    return writers


def command_audit(args: argparse.Namespace) -> int:
    """Audit every record of the files named, a record of a version in ./spec/games (``new-version``) too."""
    from harness.spec.gamefile import GameFileError, extra_game_files

    try:
        with extra_game_files([]):
            return audited(args)
    except GameFileError as error:  # a broken game file in ./spec/games
        sys.stderr.write(f"{error}\n")
        return EXIT_USAGE


def audited(args: argparse.Namespace) -> int:
    """Audit every record of the files named."""
    from harness.audit.campaign import judge_groups
    from harness.audit.report import Summary
    from harness.host.progress import Progress
    from harness.records.stream import groups, lines
    from reference_engine import create

    if args.files.count("-") > 1:
        sys.stderr.write("standard input (-) can be read only once; name it once\n")
        return EXIT_USAGE
    writers = _writers(args)
    if isinstance(writers, str):
        sys.stderr.write(writers + "\n")
        return EXIT_USAGE
    reference, summary, progress = create(), Summary(rules_only=args.rules_only), Progress(args.progress)
    written: set[str] = set()
    if not args.cluster:
        return _audit(args, judge_groups(groups(args.files), reference, not args.rules_only), reference, summary, progress, writers, written)
    from harness.audit.cluster import judge_on
    from harness.host.cluster import ClusterError, connected

    try:
        with connected(args.cluster) as client:
            code = _audit(args, judge_on(client, lines(args.files), not args.rules_only), reference, summary, progress, writers, written)
    except ClusterError as error:
        sys.stderr.write(f"{error}\n")
        return EXIT_USAGE
    return code


def _audit(args: argparse.Namespace, judged: Any, reference: Any, summary: Any, progress: Any, writers: list[Any],
           written: set[str]) -> int:
    """Report each outcome as it comes, then the summary (marked incomplete after Ctrl-C); the exit code."""
    try:
        _report_each(args, judged, reference, summary, progress, writers, written)
    except KeyboardInterrupt:  # the report so far is written, and says it is incomplete
        summary.interrupted = True
    except BrokenPipeError:  # `audit ... | head`: the reports are still written, marked incomplete
        summary.output_closed = True
        sys.stdout = open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115 (nothing more can be shown)
    progress.done()
    for writer in writers:
        writer.close(summary)
    print(summary.text())
    if summary.output_closed:
        return EXIT_FAILED  # not every record was judged: never a pass
    if summary.interrupted:
        sys.stderr.write("audit: interrupted (Ctrl-C); the report above covers the records judged before it\n")
        return EXIT_INTERRUPTED
    if not summary.failed and not summary.games:  # an empty file is not a clean server
        sys.stderr.write("nothing was checked: the files given hold no game record (one JSON object a line, "
                         "spec/records.md): point audit at the files the server wrote\n")
        return EXIT_USAGE
    return EXIT_FAILED if summary.failed else EXIT_OK


def _report_each(args: argparse.Namespace, judged: Any, reference: Any, summary: Any, progress: Any,
                 writers: list[Any], written: set[str]) -> None:
    """Report each outcome as it comes (a line per problem, the writers, a fixture per clause)."""
    from harness.audit.fixture import NoFixture, write_disagreement

    for outcome, record in judged:
        summary.add(outcome)
        for writer in writers:
            writer.add(outcome)
        if (outcome.outcome != "clean" or outcome.unended) and not args.quiet:
            progress.done()
            print(outcome.words(), flush=True)
        found = outcome.disagreement
        if args.out and found is not None and record is not None and found.clause not in written:
            written.add(found.clause)
            try:
                note = write_disagreement(record, found, outcome.where, Path(args.out), reference).words()
            except NoFixture as why:
                note = f"no fixture written: {why}"
            except OSError as error:
                note = f"no fixture written: cannot write into {args.out}: {error.strerror or error}"
            if not args.quiet:
                print(f"  {note}", flush=True)
        if (summary.games + sum(summary.unreadable.values())) % PROGRESS_EVERY == 0:
            progress.show(f"audit: {summary.games:,} games, {summary.hands:,} hands · {outcome.source}")


COMMANDS = {"audit": command_audit}
