"""What an audit found, reported as it goes: a line per problem, JSON lines, JUnit, and the summary at the end.

Each writer is fed one game at a time and keeps only counts (JUnit keeps one file's problem cases
until the file ends), so a report over millions of records needs no more memory than over one.
"""

from __future__ import annotations

import json
import tempfile
from collections import Counter
from dataclasses import dataclass, field
from typing import IO, Any, TextIO
from xml.sax.saxutils import quoteattr

from harness import KIT_NAME, __version__
from harness.audit.judge import Disagreement


@dataclass(frozen=True)
class Outcome:
    """One line of a record file, judged: clean, disagree, or unreadable (a record that cannot be audited)."""

    source: str
    line: int
    outcome: str
    game: str | None = None
    id: str | None = None
    hands: int = 0
    moves: int = 0
    disagreement: Disagreement | None = None
    message: str = ""  # an unreadable record: where in it and what is wrong
    kind: str = ""  # an unreadable record: not-json, invalid, unknown-game, no-deal, cut-short...

    @property
    def where(self) -> str:
        """``file:line`` (and the server's id for the game)."""
        return f"{self.source}:{self.line}" + (f" ({self.id})" if self.id else "")

    def words(self) -> str:
        """The line printed for a problem."""
        if self.outcome == "unreadable":
            return f"{self.source}:{self.line}: {self.message}"
        assert self.disagreement is not None
        return f"{self.where}: {self.game} DISAGREES at {self.disagreement.words()}"

    def as_json(self) -> dict[str, Any]:
        """The JSON line of this outcome."""
        data: dict[str, Any] = {"source": self.source, "line": self.line, "outcome": self.outcome}
        if self.outcome == "unreadable":
            return {**data, "kind": self.kind, "message": self.message}
        data.update(game=self.game, id=self.id, hands=self.hands, moves=self.moves)
        found = self.disagreement
        if found is not None:
            data.update(kind=found.kind, clause=found.clause, move=found.move, round=found.round, seat=found.seat,
                        action=found.action, server=found.server, rules=found.rules, message=found.words())
        return data


@dataclass
class Summary:
    """The counts over every record audited."""

    games: int = 0
    hands: int = 0
    moves: int = 0
    clean: int = 0
    clauses: Counter[str] = field(default_factory=Counter)
    unreadable: Counter[str] = field(default_factory=Counter)

    def add(self, outcome: Outcome) -> None:
        """Count one outcome."""
        if outcome.outcome == "unreadable":
            self.unreadable[outcome.kind] += 1
            return
        self.games += 1
        self.hands += outcome.hands
        self.moves += outcome.moves
        if outcome.disagreement is None:
            self.clean += 1
        else:
            self.clauses[outcome.disagreement.clause] += 1

    @property
    def disagree(self) -> int:
        """Games with a disagreement."""
        return self.games - self.clean

    def as_json(self) -> dict[str, Any]:
        """The summary line of the JSON lines."""
        return {"summary": {"games": self.games, "hands": self.hands, "moves": self.moves, "clean": self.clean,
                            "disagree": self.disagree, "clauses": dict(sorted(self.clauses.items())),
                            "unreadable": sum(self.unreadable.values()), "unreadable_kinds": dict(sorted(self.unreadable.items()))}}

    def text(self) -> str:
        """The summary for a person."""
        lines = [f"audit: {self.games:,} games, {self.hands:,} hands, {self.moves:,} moves: {self.clean:,} clean, "
                 f"{self.disagree:,} disagree with the rules, {sum(self.unreadable.values()):,} records unreadable"]
        lines += [f"  {count:>9,}  {clause}" for clause, count in sorted(self.clauses.items(), key=lambda c: (-c[1], c[0]))]
        if self.unreadable:
            lines.append("  unreadable: " + ", ".join(f"{kind} {count:,}" for kind, count in sorted(self.unreadable.items())))
        return "\n".join(lines)


class JsonLines:
    """A header line, one line per record as it is judged, then the summary line."""

    def __init__(self, out: TextIO) -> None:
        self.out = out
        out.write(json.dumps({"audit": KIT_NAME, "version": __version__, "reference": "cardverse-reference"}) + "\n")

    def add(self, outcome: Outcome) -> None:
        """One record's line."""
        self.out.write(json.dumps(outcome.as_json(), ensure_ascii=False) + "\n")

    def close(self, summary: Summary) -> None:
        """The summary line."""
        self.out.write(json.dumps(summary.as_json()) + "\n")
        self.out.close()


class JUnit:
    """One test suite per file: a failure per game that disagrees, an error per unreadable record, and one
    passing case for the file's clean games (a case per clean game would make a file as big as the records)."""

    def __init__(self, out: TextIO) -> None:
        self.out = out
        out.write(f'<?xml version="1.0" encoding="utf-8"?>\n<testsuites name={quoteattr(f"{KIT_NAME} audit")}>\n')
        self.source: str | None = None
        self.cases: IO[str] = tempfile.TemporaryFile("w+", encoding="utf-8")
        self.counts: Counter[str] = Counter()

    def add(self, outcome: Outcome) -> None:
        """One record's case (or a count of the clean ones)."""
        if outcome.source != self.source:
            self._flush()
            self.source = outcome.source
        self.counts[outcome.outcome] += 1
        if outcome.outcome == "clean":
            return
        tag, name = ("error", f"line {outcome.line}") if outcome.outcome == "unreadable" else ("failure", outcome.where)
        clause = outcome.disagreement.clause if outcome.disagreement else outcome.kind
        self.cases.write(f"    <testcase classname={quoteattr(clause)} name={quoteattr(name)} line=\"{outcome.line}\">"
                         f"<{tag} message={quoteattr(_xml_safe(outcome.words()))}/></testcase>\n")

    def _flush(self) -> None:
        """Write the suite of the file just finished."""
        if self.source is None:
            return
        clean = self.counts["clean"]
        tests = self.counts["disagree"] + self.counts["unreadable"] + (1 if clean else 0)
        self.out.write(f"  <testsuite name={quoteattr(_xml_safe(self.source))} tests=\"{tests}\" "
                       f"failures=\"{self.counts['disagree']}\" errors=\"{self.counts['unreadable']}\">\n")
        if clean:
            self.out.write(f"    <testcase classname=\"audit\" name={quoteattr(f'{clean} clean games')}/>\n")
        self.cases.seek(0)
        for line in self.cases:
            self.out.write(line)
        self.cases.seek(0)
        self.cases.truncate()
        self.out.write("  </testsuite>\n")
        self.counts.clear()

    def close(self, summary: Summary) -> None:
        """The last suite and the end of the document."""
        self._flush()
        self.out.write("</testsuites>\n")
        self.out.close()
        self.cases.close()


def _xml_safe(text: str) -> str:
    """``text`` without the characters XML 1.0 cannot hold (a record's id may have any)."""
    return "".join(c for c in text if c in "\t\n\r" or " " <= c <= "\ud7ff" or "\ue000" <= c <= "\ufffd"
                   or "\U00010000" <= c <= "\U0010ffff")
