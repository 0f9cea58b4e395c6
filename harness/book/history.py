"""One engine over time: its runs in order, what is newly failing and what is fixed since the run before, the trend."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from harness.book.report import FAILING, GameReport, build, score
from harness.book.runs import Run
from harness.host.files import file_part


@dataclass
class Change:
    """A fixture whose outcome changed between the last two runs."""

    id: str
    game: str
    was: str  # the outcome before, or "absent"
    now: str
    record: dict[str, Any]


@dataclass
class History:
    """The runs of one engine, oldest first."""

    engine: str
    slug: str
    labels: list[str]  # each run's date (or file name)
    games: list[GameReport]  # each row's cells are the runs, in order
    newly_failing: list[Change]
    fixed: list[Change]

    def scores(self, game: GameReport) -> list[tuple[int, int]]:
        """(passed, ran) of ``game`` in each run."""
        return [score(totals) for totals in game.totals]

    def changed(self, game: GameReport) -> list[Any]:
        """The rows of ``game`` whose outcome is not the same in every run."""
        return [row for row in game.rows if len({c.outcome for c in row.cells}) > 1]


def run_label(run: Run, with_version: bool = False) -> str:
    """``2026-12-07 10:55`` from the run's header, else the file's name; with the engine's version if asked."""
    started = run.header.get("started")
    when = started[:16].replace("T", " ") if isinstance(started, str) and len(started) >= 16 else Path(run.path).name
    version = (run.header.get("engine") or {}).get("version")
    return f"{when} ({version})" if with_version and version else when


def engine_name(run: Run) -> str:
    """The engine's name without its version: runs of one engine at several commits share it."""
    return str((run.header.get("engine") or {}).get("name") or run.engine)


def histories(runs: list[Run]) -> list[History]:
    """One history per engine (by name) given two runs or more; runs with a start time in its order, else as given."""
    by_engine: dict[str, list[Run]] = {}
    for run in runs:
        by_engine.setdefault(engine_name(run), []).append(run)
    found = []
    for engine, own in by_engine.items():
        if len(own) < 2:
            continue
        if all(isinstance(r.header.get("started"), str) for r in own):
            own = sorted(own, key=lambda r: str(r.header["started"]))
        before, now = _outcomes(own[-2]), _outcomes(own[-1])
        newly = [Change(i, r["game"], before[i]["outcome"] if i in before else "absent", r["outcome"], r)
                 for i, r in now.items() if r["outcome"] in FAILING and (i not in before or before[i]["outcome"] not in FAILING)]
        fixed = [Change(i, r["game"], before[i]["outcome"], r["outcome"], r)
                 for i, r in now.items() if r["outcome"] == "pass" and i in before and before[i]["outcome"] in FAILING]
        versions = {str((r.header.get("engine") or {}).get("version")) for r in own}
        found.append(History(engine, file_part(engine, default="engine"), [run_label(r, len(versions) > 1) for r in own],
                             build(own), newly, fixed))
    return found


def _outcomes(run: Run) -> dict[str, dict[str, Any]]:
    """Each fixture's record in a run, by id."""
    return {str(r["id"]): r for r in run.records}

