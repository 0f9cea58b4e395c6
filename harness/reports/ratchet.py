"""The known-failures ratchet: a file of fixture ids expected to fail, so a team can adopt the kit step by step.

A listed fixture that fails is ``xfail`` (it does not fail the run); one that passes is ``xpass``:
a fix, shown prominently, that fails the run until the file is updated, so the list only shrinks.
Engine errors are kept apart from rule failures: an entry whose reason starts with ``error:`` is a
known error; any other is a known rule failure, and a known rule failure that now ends in an
error (a crash, a hang, garbage) is an error that fails the run, never an ``xfail``.
This module reads and writes that file and classifies results; it leaves the runner's outcomes alone.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import yaml

from harness.host.files import FileRefused, parse_data, read_utf8, write_file
from harness.host.text import unicode_text
from harness.run.runner import FixtureResult

FAILED = ("fail", "error")
KNOWN_ERROR = "error:"


FILE_LIMIT = 16 << 20  # bytes of a known-failures file: a line per fixture, far under this


class RatchetFileError(Exception):
    """A known-failures file that cannot be used."""


def load_expected(path: str | Path) -> dict[str, str]:
    """Fixture id -> reason, from a YAML or JSON mapping."""
    path = Path(path)
    try:
        data = parse_data(path, read_utf8(path, FILE_LIMIT), "json" if path.suffix == ".json" else "yaml")
    except FileRefused as error:
        raise RatchetFileError(f"--expect-fail {error}; write one with --write-expect-fail") from None
    except OSError as error:
        raise RatchetFileError(f"--expect-fail {path}: cannot read it ({error.strerror or error}); "
                               "write one with --write-expect-fail") from None
    if data is None:
        return {}
    if not isinstance(data, dict) or not all(isinstance(k, str) and isinstance(v, (str, type(None)))
                                             for k, v in data.items()):
        raise RatchetFileError(f"--expect-fail {path}: expected a mapping of fixture id to reason text, "
                               "e.g. `president.play.equal-rank-refused: equal ranks not refused yet`")
    return {key: value or "" for key, value in data.items()}


@dataclass(frozen=True)
class Ratchet:
    """Results classified against the known failures."""

    expected: dict[str, str]

    def outcome(self, result: FixtureResult) -> str:
        """pass/fail/error/skip, or xfail/xpass for a listed fixture."""
        reason = self.expected.get(result.scenario.id)
        if reason is None:
            return result.outcome
        if result.outcome in FAILED:
            known = "error" if reason.startswith(KNOWN_ERROR) else "fail"
            return "xfail" if result.outcome == known else result.outcome
        return "xpass" if result.outcome == "pass" else result.outcome

    def unexpected(self, results: list[FixtureResult]) -> list[FixtureResult]:
        """The results that count as they are: everything not listed, or listed but skipped."""
        return [r for r in results if self.outcome(r) not in ("xfail", "xpass")]

    def xfails(self, results: list[FixtureResult]) -> list[FixtureResult]:
        """Listed fixtures that still fail."""
        return [r for r in results if self.outcome(r) == "xfail"]

    def xpasses(self, results: list[FixtureResult]) -> list[FixtureResult]:
        """Listed fixtures that pass now."""
        return [r for r in results if self.outcome(r) == "xpass"]

    def now_errors(self, results: list[FixtureResult]) -> list[FixtureResult]:
        """Listed as known rule failures, but ending in an engine error now (they count as errors)."""
        return [r for r in results if r.scenario.id in self.expected and r.outcome == "error"
                and self.outcome(r) == "error"]

    def record(self, result: FixtureResult, record: dict[str, Any]) -> dict[str, Any]:
        """A JSON-lines record with the ratchet's outcome; the engine's own stays in ``actual``."""
        outcome = self.outcome(result)
        if outcome in ("xfail", "xpass"):
            record = {**record, "outcome": outcome, "actual": result.outcome,
                      "known_failure": self.expected[result.scenario.id]}
        return record

    def for_junit(self, result: FixtureResult) -> FixtureResult:
        """xfail as skipped, xpass as a failure, as pytest's JUnit output does."""
        outcome = self.outcome(result)
        reason = self.expected.get(result.scenario.id, "")
        if outcome == "xfail":
            return replace(result, outcome="skip", message=f"known failure ({reason}): {result.message}",
                           skip_kind="known failure")
        if outcome == "xpass":
            return replace(result, outcome="fail", message=f"listed as a known failure ({reason}), but it passes now: "
                                                           "remove it from the known-failures file")
        return result


def write_expected(path: str | Path, results: list[FixtureResult], previous: dict[str, str]) -> int:
    """Write every failure and error of the run as known failures; how many were written."""
    failed = sorted((r for r in results if r.outcome in FAILED), key=lambda r: r.scenario.id)
    entries = {r.scenario.id: unicode_text(previous.get(r.scenario.id) or _reason(r)) for r in failed}
    path = Path(path)
    if path.suffix == ".json":
        text = json.dumps(entries, indent=2, ensure_ascii=False) + "\n"
    else:
        head = ("# Known failures: fixture id -> why it fails. Written by cardverse-conformance run "
                "--write-expect-fail;\n# read by --expect-fail. Remove a line when its fixture passes.\n")
        text = head + (yaml.safe_dump(entries, allow_unicode=True, sort_keys=True, width=200) if entries else "{}\n")
    write_file(path, text)
    return len(entries)


def never_started(results: list[FixtureResult], describe_error: str = "") -> str | None:
    """Why this run shows nothing of the engine's rules (it never got through a scenario), or None.

    Such a run must not become a baseline: every fixture would be listed, and the next run green.
    """
    if describe_error:
        return f"the engine could not describe itself ({describe_error.splitlines()[0]})"
    judged = [r for r in results if r.outcome != "skip"]
    if judged and all(r.outcome == "error" for r in judged):
        first = judged[0].message.splitlines()[0] if judged[0].message else ""
        return f"every one of the {len(judged)} fixture(s) run ended in an engine error, the first: {first}"
    return None


def _reason(result: FixtureResult) -> str:
    """A first reason for a new entry: the outcome and the first line of the message, kept short."""
    first = result.message.splitlines()[0] if result.message else ""
    text = f"{result.outcome}: {first}"
    return text if len(text) <= 200 else text[:197] + "..."
