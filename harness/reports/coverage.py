"""Which fixtures cover which clause, accepting and refusing, and where the gaps are."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from harness.spec import gamespec as specs
from harness.suite.model import Scenario


@dataclass
class ClauseCoverage:
    """The fixtures covering one clause."""

    game: str
    rule_version: str
    clause: specs.Clause
    accepting: list[str] = field(default_factory=list)
    refusing: list[str] = field(default_factory=list)

    @property
    def gap(self) -> str:
        """What is missing, or an empty string."""
        if self.clause.checked in ("players", "aggregate"):
            return ""  # checked over seeded games by `players`, or only in aggregate: no fixture can
        if not self.accepting and not self.refusing:
            return "no decision fixture" if self.clause.checked == "position" else "no fixture"
        if not self.accepting:
            return "no fixture where the actions are accepted"
        if self.clause.refusable and not self.refusing:
            return "no fixture with a refused action (mark the clause refusable: false if none is possible)"
        return ""

    def record(self) -> dict[str, Any]:
        """As a JSON object."""
        return {"game": self.game, "rule_version": self.rule_version, "clause": self.clause.id,
                "source": self.clause.source, "basis": self.clause.basis, "accepting": self.accepting,
                "refusing": self.refusing, "checked": self.clause.checked, "gap": self.gap or None}


def coverage(scenarios: list[Scenario], game: str | None = None) -> list[ClauseCoverage]:
    """One entry per clause of every game file (or of ``game``), in spec order."""
    table: dict[str, ClauseCoverage] = {}
    for spec in specs.game_specs():
        if game is None or spec.game == game:
            for clause in spec.clauses.values():
                table[clause.id] = ClauseCoverage(spec.game, spec.rule_version, clause)
    for scenario in scenarios:
        has_accepted = any(s.expect != "refused" for s in scenario.steps)
        for clause_id in scenario.clauses:
            entry = table.get(clause_id)
            if entry is None:
                continue
            if has_accepted:
                entry.accepting.append(scenario.id)
            if scenario.refuses:
                entry.refusing.append(scenario.id)
    return list(table.values())


def format_table(entries: list[ClauseCoverage]) -> str:
    """A text table: clause, source, basis, counts and the gap."""
    width = max([len(e.clause.id) for e in entries] + [10])
    lines = [f"{'clause':<{width}} {'source':<7} {'basis':<14} {'accept':>6} {'refuse':>6}  gap"]
    for entry in entries:
        lines.append(f"{entry.clause.id:<{width}} {entry.clause.source:<7} {entry.clause.basis:<14} "
                     f"{len(entry.accepting):>6} {len(entry.refusing):>6}  {entry.gap or _checked_by(entry.clause)}")
    gaps = sum(1 for e in entries if e.gap)
    lines.append(f"{len(entries)} clauses, {gaps} with a gap")
    return "\n".join(lines)


def _checked_by(clause: specs.Clause) -> str:
    """For a computer-player clause no fixture checks, what does."""
    return {"players": "(checked by `players`)", "aggregate": "(only in aggregate)"}.get(clause.checked or "", "")
