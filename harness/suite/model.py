"""The fixture model: a linted scenario, its steps, a lint error and where it points. Data only.

Everything above it in ``harness/suite`` builds these; everything else in the kit reads them.
"""

from __future__ import annotations

from dataclasses import MISSING, dataclass, field, fields
from typing import Any

from harness.suite.discovery import PathError

JsonPath = tuple[str | int, ...]


def json_path(path: JsonPath) -> str:
    """``("steps", 3, "action")`` as ``$.steps[3].action``."""
    out = "$"
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else f".{part}"
    return out


@dataclass(frozen=True, slots=True)
class LintError:
    """One problem in one fixture file, where it is and what to do."""

    file: str
    line: int
    column: int
    path: str
    message: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column}: {self.path}: {self.message}"


@dataclass(frozen=True, slots=True)
class Step:
    """One step of a scenario: an optional action, then optional checks."""

    index: int
    line: int
    seat: int | None = None
    action: dict[str, Any] | None = None
    expect: str | None = None
    reason: str | None = None
    state: dict[str, Any] | None = None
    reasons: tuple[str, ...] = ()  # every acceptable code (reason is the first)
    clauses: tuple[str, ...] = ()  # the clauses this step checks (a failure here is charged to them)
    legal: dict[str, Any] | None = None
    observe: dict[str, Any] | None = None
    note: str | None = None
    decide: dict[str, Any] | None = None  # a computer player's decision to judge (harness.run.decisions)


@dataclass(frozen=True, slots=True)
class Scenario:
    """A linted fixture, with complete layouts and canonical actions, ready to run."""

    id: str
    title: str
    game: str
    rule_versions: str
    options: dict[str, Any]
    clauses: tuple[str, ...]
    basis: str
    layout: dict[str, Any]
    later_layouts: tuple[dict[str, Any], ...]
    steps: tuple[Step, ...]
    file: str
    line: int
    column: int = 1
    description: str = ""
    needs: tuple[str, ...] = ()  # features named by the fixture, beyond those its layouts need

    @property
    def players(self) -> int:
        """The number of seats."""
        return int(self.layout.get("players") or len(self.layout["hands"]))

    @property
    def refuses(self) -> bool:
        """Whether some step must be refused."""
        return any(step.expect == "refused" for step in self.steps)


@dataclass
class LoadResult:
    """The scenarios that loaded cleanly and every error found."""

    scenarios: list[Scenario] = field(default_factory=list)
    errors: list[LintError] = field(default_factory=list)
    files: int = 0
    path_errors: list[PathError] = field(default_factory=list)


SCENARIO_FIELDS = tuple(f.name for f in fields(Scenario))
STEP_FIELDS = tuple(f.name for f in fields(Step))


def to_record(scenario: Scenario) -> dict[str, Any]:
    """A scenario as plain data for the cache (its file name is the reader's, so it is left out)."""
    record = {name: getattr(scenario, name) for name in SCENARIO_FIELDS if name != "file"}
    record["steps"] = [{name: getattr(step, name) for name in STEP_FIELDS} for step in scenario.steps]
    return record


_SEQUENCE = (tuple, list)
_OPTIONAL_DICT = (dict, type(None))
_OPTIONAL_STR = (str, type(None))
# The type of each field of a record: anything else is a damaged entry, and the file is parsed again.
SCENARIO_SHAPE: dict[str, Any] = {
    "id": str, "title": str, "game": str, "rule_versions": str, "options": dict, "clauses": _SEQUENCE, "basis": str,
    "layout": dict, "later_layouts": _SEQUENCE, "steps": _SEQUENCE, "line": int, "column": int, "description": str,
    "needs": _SEQUENCE}
STEP_SHAPE: dict[str, Any] = {
    "index": int, "line": int, "seat": (int, type(None)), "action": _OPTIONAL_DICT, "expect": _OPTIONAL_STR,
    "reason": _OPTIONAL_STR, "state": _OPTIONAL_DICT, "reasons": _SEQUENCE, "clauses": _SEQUENCE,
    "legal": _OPTIONAL_DICT, "observe": _OPTIONAL_DICT, "note": _OPTIONAL_STR, "decide": _OPTIONAL_DICT}


def _fits(record: Any, shape: dict[str, Any], required: tuple[str, ...]) -> bool:
    """Whether ``record`` is a mapping of known fields, each of its type, with every required one."""
    return (isinstance(record, dict) and all(k in record for k in required)
            and all(k in shape and isinstance(v, shape[k]) for k, v in record.items()))


def from_record(record: Any, name: str) -> Scenario | None:
    """A cached scenario, or None when the record does not fit today's classes (an old or damaged entry)."""
    required = tuple(f.name for f in fields(Scenario) if f.name != "file" and f.default is MISSING)
    if not _fits(record, SCENARIO_SHAPE, required) or not all(
            _fits(step, STEP_SHAPE, ("index", "line")) for step in record["steps"]):
        return None
    if not all(isinstance(c, str) for key in ("clauses", "needs") for c in record.get(key, ())):
        return None
    try:
        steps = tuple(Step(**step) for step in record["steps"])
        return Scenario(**{**record, "steps": steps, "file": name})
    except (TypeError, KeyError):
        return None
