"""What a scenario comes to: its result (pass, fail, error, skip) and the verdict that ends it early. Data only."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from harness.suite.model import Scenario, Step

OUTCOMES = ("pass", "fail", "error", "skip")
# Why a skip: no rule version both have, a game, option, range, feature or player level not declared.
SKIP_KINDS = ("rule version", "game", "option", "option range", "feature", "level", "known failure")
# What an error was: the engine raised, an answer broke the interface, a method the engine declares is
# missing, a fault of the transport (protocol, timeout), the engine never started.
ERROR_KINDS = ("crash", "answer", "interface", "protocol", "timeout", "never-started")


@dataclass(frozen=True, slots=True)
class Differs:
    """What differed at a failing step: the answer to its action, a view's paths, or actions of the legal list."""

    what: str  # "apply", "state", "observation", "legal" or "error"
    paths: tuple[str, ...] = ()  # a view's dotted paths that differ (list positions left out)
    actions: tuple[dict[str, Any], ...] = ()  # the legal actions in dispute: listed by one side only
    seat: int | None = None  # an observation's seat


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
    skip_kind: str | None = None  # why a skip: SKIP_KINDS
    unchecked: list[str] = field(default_factory=list)  # checks the engine's declared features leave out
    raised_in: tuple[str, ...] = ()  # an error from an exception: the code files its traceback passed through
    error_kind: str | None = None  # an error's kind (ERROR_KINDS); None: "crash" if raised_in, else "answer"
    differs: Differs | None = None  # what differed at the failing step, for the clause trace
    blamed: tuple[str, ...] | None = None  # the clauses the clause trace charged (None: not traced)

    @property
    def kind(self) -> str | None:
        """What an error was (one of ERROR_KINDS); None for the other outcomes."""
        if self.outcome != "error":
            return None
        return self.error_kind or ("crash" if self.raised_in else "answer")

    @property
    def charged(self) -> tuple[str, ...]:
        """The clauses a failure or error is charged to: those traced, else the failing step's, else the fixture's."""
        if self.outcome in ("fail", "error") and self.blamed is not None:
            return self.blamed
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

    def __init__(self, outcome: str, message: str, details: list[str] | None = None,
                 raised_in: tuple[str, ...] = (), kind: str | None = None, differs: Differs | None = None) -> None:
        super().__init__(message)
        self.outcome, self.message, self.details, self.raised_in = outcome, message, details or [], raised_in
        self.kind, self.differs = kind, differs


def traceback_files(error: BaseException) -> tuple[str, ...]:
    """The code files ``error``'s traceback passed through, innermost last (who raised it: the engine or the kit)."""
    files: list[str] = []
    tb = error.__traceback__
    while tb is not None:
        files.append(tb.tb_frame.f_code.co_filename)
        tb = tb.tb_next
    return tuple(dict.fromkeys(files))


def count(results: list[FixtureResult]) -> dict[str, int]:
    """How many results of each outcome."""
    totals = dict.fromkeys(OUTCOMES, 0)
    for result in results:
        totals[result.outcome] += 1
    return totals
