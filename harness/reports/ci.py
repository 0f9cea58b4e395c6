"""The run at home in CI: the ids that failed last time, annotations on a pull request, a step summary.

GitHub Actions sets ``GITHUB_ACTIONS=true`` and ``GITHUB_STEP_SUMMARY`` (a file whose Markdown shows on
the run's page); ``GITHUB_WORKSPACE`` is the checkout, which annotation paths are relative to.
"""

from __future__ import annotations

import fnmatch
import json
import os
import sys
from pathlib import Path
from typing import Any, TextIO

from harness import KIT_NAME
from harness.host.files import FileRefused, read_utf8
from harness.reports.grouping import alike
from harness.reports.safetext import markdown_code, markdown_fence, markdown_text
from harness.spec.store import NO_CACHE_ENV, cache_dir

LAST_REPORT = "last-json-report"  # in the cache folder: the path of the last JSON lines report `run --json` wrote
FAILED = ("fail", "error", "xpass")  # the outcomes --last-failed runs again (an unexpected pass too: the ratchet's)
FAIL_FAST = "stopped at the first failure (--fail-fast)"  # a run cut short by -x: its failure is the one to rerun
RUN_LIMIT = 512 << 20  # bytes of a JSON lines report read back (about a kilobyte a fixture)


class LastFailedError(Exception):
    """A report --last-failed cannot read; the message says which and what to do."""


def remember_report(path: str, enabled: bool = True) -> None:
    """Keep the path of the JSON lines report just written, for a later ``--last-failed`` with no file (in the
    cache folder, unless the cache is off: ``--no-cache``, ``CARDVERSE_NO_CACHE``)."""
    if not enabled or os.environ.get(NO_CACHE_ENV, "") not in ("", "0"):
        return
    try:
        folder = cache_dir()
        folder.mkdir(parents=True, exist_ok=True)
        (folder / LAST_REPORT).write_text(str(Path(path).resolve()) + "\n", encoding="utf-8")
    except OSError:  # a cache that cannot be written costs only the default of --last-failed
        pass


def last_report() -> str:
    """The JSON lines report the last run wrote (``run --json``), or LastFailedError."""
    try:
        return (cache_dir() / LAST_REPORT).read_text(encoding="utf-8").strip()
    except OSError:
        raise LastFailedError("--last-failed: no JSON lines report to read: run once with --json FILE, or give "
                              "the file: --last-failed FILE") from None


def failed_ids(path: str) -> tuple[list[str], str]:
    """The ids of the fixtures that failed, errored or passed unexpectedly in the JSON lines report ``path``, and
    why that run did not judge every fixture it selected ('' when it did)."""
    try:
        lines = read_utf8(Path(path), RUN_LIMIT).splitlines()
    except (FileRefused, OSError) as error:
        raise LastFailedError(f"--last-failed {path}: cannot read it ({error}); give the file `run --json` "
                              "wrote") from None
    ids: list[str] = []
    cut = ""
    for number, line in enumerate(lines, start=1):
        try:
            record = json.loads(line) if line.strip() else {}
        except json.JSONDecodeError as error:
            raise LastFailedError(f"{path}:{number}: not JSON ({error.msg}); give the file `run --json` "
                                  "wrote") from None
        if number == 1 and (not isinstance(record, dict) or "kit" not in record):
            raise LastFailedError(f"{path}:1: not the header of a JSON lines report; give the file `run --json` "
                                  "wrote")
        if number == 1:
            cut = str(record.get("incomplete") or "")
        elif isinstance(record, dict) and record.get("outcome") in FAILED and isinstance(record.get("id"), str):
            ids.append(record["id"])
    return list(dict.fromkeys(ids)), cut


def escaped(text: str, property_value: bool = False) -> str:
    """Text for a workflow command: ``%``, CR and LF always escaped; ``:`` and ``,`` too in a property."""
    text = text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    return text.replace(":", "%3A").replace(",", "%2C") if property_value else text


def in_github_actions() -> bool:
    """Whether the run is a GitHub Actions step."""
    return os.environ.get("GITHUB_ACTIONS") == "true"


def annotate(results: list[Any], out: TextIO) -> None:
    """One ``::error`` workflow command per failing fixture, at its failing step's line in the fixture file."""
    workspace = os.environ.get("GITHUB_WORKSPACE") or os.getcwd()
    for result in results:
        if result.outcome not in ("fail", "error"):
            continue
        file = os.path.relpath(os.path.abspath(result.scenario.file), workspace)
        title = f"{result.scenario.id}: {result.outcome}"
        out.write(f"::error file={escaped(file, True)},line={result.line},title={escaped(title, True)}::"
                  f"{escaped(result.report())}\n")


def step_summary(results: list[Any], description: dict[str, Any], start_error: Any = None) -> None:
    """The run as Markdown appended to ``$GITHUB_STEP_SUMMARY`` (when set): counts by game, then what failed."""
    path = os.environ.get("GITHUB_STEP_SUMMARY")
    if not path:
        return
    engine = " ".join(str(description.get(k)) for k in ("name", "version") if description.get(k)) or "the engine"
    lines = [f"### {KIT_NAME} against {markdown_text(engine)}", ""]
    if start_error is not None:
        fence = markdown_fence([start_error.by_hand])
        lines += [f"**The engine never started**: {markdown_text(start_error.message)}", "", "To see it by hand:", "",
                  f"{fence}sh", start_error.by_hand, fence, ""]
    games: dict[str, dict[str, int]] = {}
    for result in results:
        row = games.setdefault(result.scenario.game, dict.fromkeys(("pass", "fail", "error", "skip"), 0))
        row[result.outcome] += 1
    if games:
        lines += ["| game | pass | fail | error | skip |", "|---|---:|---:|---:|---:|"]
        lines += [f"| {markdown_text(game)} | " + " | ".join(str(n) for n in row.values()) + " |" for game, row in sorted(games.items())]
        lines.append("")
    failed = [r for r in results if r.outcome in ("fail", "error")]
    for group in alike(failed, lambda r: (r.outcome, r.message)):
        first = group[0]
        named = markdown_code(first.scenario.id) if len(group) == 1 else f"{len(group)} fixtures"
        lines.append(f"- **{first.outcome}** {named}: {markdown_text(first.message)}")
        if len(group) > 1:
            lines += ["  <details><summary>the fixtures</summary>", "",
                      *(f"  - {markdown_code(r.scenario.id)}" for r in group), "", "  </details>"]
    try:
        with open(path, "a", encoding="utf-8") as out:
            out.write("\n".join(lines) + "\n")
    except OSError:  # the summary is a courtesy: the reports and the exit code stand without it
        pass



def add_ci_options(run: Any) -> None:
    """``--suite``, ``--last-failed`` and ``-x``/``--fail-fast`` on the ``run`` command's parser."""
    run.add_argument("--suite", action="append", metavar="PATH",
                     help="your own fixtures (a file or folder), run beside the bundled suite (or the paths given); "
                          "repeatable")
    run.add_argument("--last-failed", nargs="?", const="", metavar="RUN.jsonl",
                     help="run again only the fixtures that failed, errored or passed unexpectedly in this JSON lines "
                          "report (default: the last one `run --json` wrote)")
    run.add_argument("-x", "--fail-fast", action="store_true", help="stop at the first failure or error")


def chosen_paths(args: Any, bundled: Path) -> None:
    """``args.paths`` with ``--suite``'s after the bundled suite (or the paths given), and ``args.id`` the ids that
    failed last time with ``--last-failed``; LastFailedError when that report cannot be read."""
    if args.suite:
        args.paths = [*(args.paths or [str(bundled)]), *args.suite]
    if args.last_failed is not None:
        report = args.last_failed or last_report()
        failed, cut = failed_ids(report)
        args.last_failed = report
        if cut and not cut.startswith(FAIL_FAST):  # fixtures that never ran may fail too: the whole selection again
            sys.stderr.write(f"--last-failed: the run of {report} was cut short ({cut}); running the whole "
                             "selection\n")
            return
        # --id with it keeps those of them it matches
        args.id = [i for i in failed if not args.id or any(fnmatch.fnmatchcase(i, glob) for glob in args.id)]
