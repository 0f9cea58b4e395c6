"""The generated mutants' score per clause, read from a ``mutants --generated --json`` file.

A mutant a fixture kills counts for each clause of that fixture; one only fuzz finds counts for
the clause its divergence is filed under; one nothing finds names no clause, and counts for its game. A clause's share is what its fixtures kill over that
plus what only fuzz finds: where it is low, fuzz knows the clause better than its fixtures do.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from typing import Any

from harness.host.files import FileRefused, read_utf8

LIMIT = 64 * 1024 * 1024  # bytes of one file: some ten thousand mutants' lines, far past a whole run
COUNTED = {"killed": 0, "fuzz": 1}  # the statuses counted, and their column
SURVIVED = "survived"  # nothing found it: counted per game, as it names no clause


class ScoreError(Exception):
    """A mutants file that cannot be read: every problem at once, each at its line."""


@dataclass
class ClauseScore:
    """The generated mutants of one clause: killed by its fixtures, found only by fuzz."""

    killed: int = 0
    fuzz_only: int = 0

    @property
    def share(self) -> str:
        """The fixtures' share, as a percentage, or ``-`` when there is nothing to share."""
        found = self.killed + self.fuzz_only
        return f"{100 * self.killed / found:.0f}%" if found else "-"


@dataclass
class MutantScores:
    """A mutants file read: each clause's score, and each game's survivors (they name no clause)."""

    clauses: dict[str, ClauseScore]
    survived: dict[str, int]


def read_scores(path: str | os.PathLike[str]) -> dict[str, ClauseScore]:
    """Each clause's score from the file's lines; ScoreError naming every bad line."""
    return read_mutants(path).clauses


def read_mutants(path: str | os.PathLike[str]) -> MutantScores:
    """Each clause's score and each game's survivors from the file's lines; ScoreError naming every bad line."""
    try:
        text = read_utf8(path, LIMIT)
    except (FileRefused, OSError) as error:
        raise ScoreError(f"--mutants {error}") from None
    scores: dict[str, ClauseScore] = {}
    survived: dict[str, int] = {}
    errors = []
    for number, line in enumerate(text.splitlines(), start=1):
        where = f"{os.fspath(path)}:{number}:1"
        try:
            record: Any = json.loads(line)
        except json.JSONDecodeError as error:
            errors.append(f"{where}: not valid JSON ({error.msg})")
            continue
        if not isinstance(record, dict) or not isinstance(record.get("status"), str):
            errors.append(f"{where}: $.status: must be a string; is this a `mutants --generated --json` file?")
            continue
        clauses = record.get("clauses")
        if not isinstance(clauses, list) or not all(isinstance(c, str) for c in clauses):
            errors.append(f"{where}: $.clauses: must be a list of clause ids")
            continue
        if record["status"] in COUNTED:
            for clause in clauses:
                score = scores.setdefault(clause, ClauseScore())
                if record["status"] == "killed":
                    score.killed += 1
                else:
                    score.fuzz_only += 1
        elif record["status"] == SURVIVED and isinstance(record.get("game"), str):
            survived[record["game"]] = survived.get(record["game"], 0) + 1
    if errors:
        raise ScoreError("\n".join(errors) + "\nwrite the file anew with `mutants --generated --json FILE`")
    return MutantScores(scores, survived)


def format_scores(scores: dict[str, ClauseScore], clauses: list[str]) -> str:
    """A text table of the clauses (in the order given) that generated mutants reached."""
    shown = [c for c in clauses if c in scores]
    width = max([len(c) for c in shown] + [10])
    lines = [f"{'clause':<{width}} {'killed':>6} {'fuzz only':>9} {'fixtures':>8}"]
    for clause in shown:
        score = scores[clause]
        lines.append(f"{clause:<{width}} {score.killed:>6} {score.fuzz_only:>9} {score.share:>8}")
    lines.append(f"{len(shown)} of {len(clauses)} clauses reached by generated mutants")
    return "\n".join(lines)
