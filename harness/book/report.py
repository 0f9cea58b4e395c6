"""The conformance report: per game a matrix of clauses by engine, the failures, a badge per engine and game."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from harness.book.model import source_order
from harness.book.runs import Run, counts_for, record_clauses, worst
from harness.host.files import file_part
from harness.reports.grouping import alike
from harness.reports.safetext import safe_link
from harness.spec import gamespec as specs

FAILING = ("fail", "error", "xpass")


@dataclass
class Cell:
    """One clause for one engine: the outcomes of the fixtures covering it."""

    records: list[dict[str, Any]] = field(default_factory=list)

    @property
    def outcome(self) -> str:
        """The worst outcome, or ``none`` when no fixture of this run covers the clause."""
        return worst([r["outcome"] for r in self.records])

    @property
    def failing(self) -> list[dict[str, Any]]:
        """The records that fail, error or pass unexpectedly."""
        return [r for r in self.records if r["outcome"] in FAILING]

    @property
    def text(self) -> str:
        """``pass 3/3``, ``fail 1/3``, ``skip 2``, ``pass 2/2, 1 skipped``: the skipped never counted as checked."""
        ran = [r for r in self.records if r["outcome"] != "skip"]
        if not ran:
            return f"skip {len(self.records)}" if self.records else "—"
        passed = sum(r["outcome"] == "pass" for r in ran)
        skipped = len(self.records) - len(ran)
        return f"{self.outcome} {passed}/{len(ran)}" + (f", {skipped} skipped" if skipped else "")


@dataclass
class Row:
    """One clause of a game: its basis and a cell per engine."""

    clause: str
    source: str
    basis: str
    rule: str
    cells: list[Cell]


@dataclass
class GameReport:
    """One game at one rule version across every run."""

    game: str
    rule_version: str
    rows: list[Row]
    totals: list[Counter[str]]
    failures: list[list[dict[str, Any]]]

    @property
    def grouped(self) -> list[list[list[dict[str, Any]]]]:
        """Each run's failures, those with the same outcome, message and details together (one engine error
        repeated over 81 fixtures is told once, its fixtures behind a fold)."""
        return [alike(failures, lambda r: (r["outcome"], r.get("message", ""), tuple(r.get("details") or ())))
                for failures in self.failures]

    @property
    def key(self) -> str:
        """``rummy-1.1.0``: the name of the game's page, safe as a file name whatever the run file says."""
        return file_part(f"{self.game}-{self.rule_version}")


def score(totals: Counter[str]) -> tuple[int, int]:
    """(passed, ran): skips are not run; a known failure is run and not passed."""
    ran = sum(n for outcome, n in totals.items() if outcome != "skip")
    return totals["pass"], ran


def build(runs: list[Run]) -> list[GameReport]:
    """Every game and rule version any run covers, with its matrix."""
    keys = sorted({(r["game"], str(r.get("rule_version") or _spec_version(r["game"]))) for run in runs for r in run.records})
    return [_game_report(runs, game, version) for game, version in keys]


def _spec_version(game: str) -> str:
    """The newest rule version of ``game`` in the spec (a skipped record names none)."""
    versions = [s.rule_version for s in specs.game_specs() if s.game == game]
    return versions[-1] if versions else "?"


def _game_report(runs: list[Run], game: str, version: str) -> GameReport:
    """The matrix of one game: its clauses in rule-document order (then any the spec lacks), by run."""
    spec = next((s for s in specs.game_specs() if s.game == game and s.rule_version == version), None)
    per_run = [[r for r in run.records if r["game"] == game and str(r.get("rule_version") or _spec_version(game)) == version]
               for run in runs]
    told: dict[str, str | None] = {}
    for records in per_run:
        for record in records:
            for clause, basis in record_clauses(record).items():
                if basis or clause not in told:
                    told[clause] = basis
    known = sorted(spec.clauses.values(), key=lambda c: source_order(c.source)) if spec else []
    order = [c.id for c in known] + sorted(set(told) - {c.id for c in known})
    rows = []
    for clause_id in order:
        found = spec.clauses.get(clause_id) if spec else None
        cells = [Cell([r for r in records if counts_for(r, clause_id)]) for records in per_run]
        rows.append(Row(clause_id, found.source if found else "", told.get(clause_id) or (found.basis if found else "?"),
                        found.rule if found else "", cells))
    totals = [Counter(r["outcome"] for r in records) for records in per_run]
    failures = [[r for r in records if r["outcome"] in FAILING] for records in per_run]
    return GameReport(game, version, rows, totals, failures)
