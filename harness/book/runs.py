"""Runs read back from their JSON lines (harness/reports/console.py): a header line, then one record per fixture."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from harness.host.files import DATA_DEPTH, FileRefused, nesting_depth, read_utf8
from harness.reports.safetext import read_back

MAX_DEPTH = DATA_DEPTH  # levels of nesting a record may have; `run --json` writes four or five
RUN_LIMIT = 512 << 20  # bytes of a run file: about a kilobyte a fixture
OUTCOMES = ("pass", "fail", "error", "skip", "xfail", "xpass")
# The worst outcome of a clause's fixtures is the clause's; a skip counts only when nothing ran.
SEVERITY = ("fail", "error", "xpass", "xfail", "pass", "skip")


class RunFileError(Exception):
    """A run file that cannot be read: the message names the file and line and says what to do."""


@dataclass
class Run:
    """One engine's run: its header and its fixture records."""

    path: str
    header: dict[str, Any]
    records: list[dict[str, Any]] = field(default_factory=list)
    label: str = ""
    notes: list[str] = field(default_factory=list)  # records left out, each with its file and line

    @property
    def engine(self) -> str:
        """``name version`` from the header."""
        engine = self.header.get("engine") or {}
        return " ".join(str(engine[k]) for k in ("name", "version") if engine.get(k)) or "engine"


def read_run(path: str | Path) -> Run:
    """A run from its JSON lines file; bad input raises RunFileError, never a traceback."""
    path = Path(path)
    try:
        lines = read_utf8(path, RUN_LIMIT).splitlines()
    except FileRefused as error:
        raise RunFileError(f"{error}; give the file `run --json FILE` wrote") from None
    except OSError as error:
        raise RunFileError(f"{path}: cannot read it ({error}); give the file `run --json FILE` wrote") from None
    run: Run | None = None
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            value = json.loads(line)
        except json.JSONDecodeError as error:
            raise RunFileError(f"{path}:{number}: not JSON ({error.msg}); each line must be one JSON object, "
                               "as `run --json FILE` writes") from None
        except RecursionError:
            value = None
        if value is None or nesting_depth(value) > MAX_DEPTH:
            if run is None:
                raise RunFileError(f"{path}:{number}: the header is nested deeper than {MAX_DEPTH} levels; "
                                   "give the file `run --json FILE` wrote")
            run.notes.append(f"{path}:{number}: a record nested deeper than {MAX_DEPTH} levels, left out "
                             "(`run --json` writes a few levels)")
            continue
        value = read_back(value)  # a lone surrogate (\ud800 in the file) cannot be written into a page; a 1 MB message is cut
        if not isinstance(value, dict):
            raise RunFileError(f"{path}:{number}: a JSON {type(value).__name__}, not an object")
        if run is None:
            if "kit" not in value or "engine" not in value:
                raise RunFileError(f"{path}:{number}: the first line must be the run's header "
                                   "(kit, spec, engine); is this a file `run --json` wrote?")
            run = Run(str(path), value)
            continue
        if "error" in value and "id" not in value:  # the run's own error (an engine that never started)
            run.notes.append(f"{path}:{number}: {value.get('message') or value['error']}")
            continue
        missing = [k for k in ("id", "game", "outcome") if k not in value]
        if missing:
            raise RunFileError(f"{path}:{number}: a fixture record without {', '.join(missing)}")
        if value["outcome"] not in OUTCOMES:
            raise RunFileError(f"{path}:{number}: unknown outcome {value['outcome']!r} "
                               f"(one of {', '.join(OUTCOMES)})")
        run.records.append(value)
    if run is None:
        raise RunFileError(f"{path}: empty; give the file `run --json FILE` wrote")
    return run


def read_runs(paths: list[str]) -> list[Run]:
    """Every run, each labelled by its engine; two runs of the same engine also by file name."""
    runs = [read_run(p) for p in paths]
    seen: dict[str, int] = {}
    for run in runs:
        seen[run.engine] = seen.get(run.engine, 0) + 1
    for run in runs:
        run.label = run.engine if seen[run.engine] == 1 else f"{run.engine} ({Path(run.path).name})"
    return runs


def record_clauses(record: dict[str, Any]) -> dict[str, str | None]:
    """The clauses a record covers, each with its basis when the record says it.

    Read: ``clauses`` as ids or as ``{"id", "basis"}`` objects; a ``basis`` (or ``clause_basis``)
    mapping of clause to basis; the clauses a failure is ``charged`` to; and the clauses of each step
    (``steps: [{"clauses": [...]}]`` or ``step_clauses``). A basis the record does not give is None:
    the caller takes it from the game file.
    """
    found: dict[str, str | None] = {}

    def add(items: Any) -> None:
        for item in items if isinstance(items, list) else []:
            if isinstance(item, str):
                found.setdefault(item, None)
            elif isinstance(item, dict) and isinstance(item.get("id"), str):
                if item.get("basis") or item["id"] not in found:
                    found[item["id"]] = item.get("basis")
            elif isinstance(item, list):
                add(item)

    add(record.get("clauses"))
    add(record.get("charged"))
    steps = record.get("steps")
    for step in steps if isinstance(steps, list) else []:
        if isinstance(step, dict):
            add(step.get("clauses"))
    step_clauses = record.get("step_clauses")
    add(list(step_clauses.values()) if isinstance(step_clauses, dict) else step_clauses)
    for key in ("basis", "clause_basis"):
        basis = record.get(key)
        for clause, value in basis.items() if isinstance(basis, dict) else ():
            if isinstance(value, str) and clause in found:
                found[clause] = value
    return found


def counts_for(record: dict[str, Any], clause: str) -> bool:
    """Whether the record's outcome counts for ``clause``: a failure charged to some clauses counts only for them."""
    charged = record.get("charged")
    if record["outcome"] in ("pass", "skip") or not isinstance(charged, list):
        return clause in record_clauses(record)
    return clause in charged


def worst(outcomes: list[str]) -> str:
    """The outcome a group of fixtures shows: the worst of them."""
    for outcome in SEVERITY:
        if outcome in outcomes:
            return outcome
    return "none"
