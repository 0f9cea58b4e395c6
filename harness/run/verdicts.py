"""What a scenario comes to: its result (pass, fail, error, skip) and the verdict that ends it early. Data only."""

from __future__ import annotations

from dataclasses import dataclass, field

from harness.suite.model import Scenario, Step

OUTCOMES = ("pass", "fail", "error", "skip")


@dataclass
class FixtureResult:
    """What happened to one scenario."""

    scenario: Scenario
    outcome: str
    message: str = ""
    details: list[str] = field(default_factory=list)
    step: Step | None = None
    rule_version: str | None = None
    seconds: float = 0.0
    feature: str | None = None  # the missing feature a skip names
    unchecked: list[str] = field(default_factory=list)  # checks the engine's declared features leave out

    @property
    def charged(self) -> tuple[str, ...]:
        """The clauses a failure or error is charged to: the failing step's, else the fixture's."""
        if self.outcome in ("fail", "error") and self.step is not None and self.step.clauses:
            return self.step.clauses
        return self.scenario.clauses

    @property
    def line(self) -> int:
        """The YAML line to point at: the failing step's, else the fixture's."""
        return self.step.line if self.step else self.scenario.line

    def report(self) -> str:
        """The message and its details, one per line."""
        return "\n".join([self.message, *("  " + d for d in self.details)])


class Verdict(Exception):
    """Ends a scenario early with a failure or an error."""

    def __init__(self, outcome: str, message: str, details: list[str] | None = None) -> None:
        super().__init__(message)
        self.outcome, self.message, self.details = outcome, message, details or []


def count(results: list[FixtureResult]) -> dict[str, int]:
    """How many results of each outcome."""
    totals = dict.fromkeys(OUTCOMES, 0)
    for result in results:
        totals[result.outcome] += 1
    return totals
