"""What an audit found, reported as it goes: a line per problem, JSON lines, JUnit, and the summary at the end.

Each writer is fed one game at a time and keeps only counts (JUnit keeps one file's problem cases
until the file ends), so a report over millions of records needs no more memory than over one.
"""

from __future__ import annotations

import json
import tempfile
from collections import Counter
from dataclasses import dataclass, field
from typing import IO, Any, NamedTuple, TextIO
from xml.sax.saxutils import quoteattr

from harness import KIT_NAME, __version__
from harness.audit.judge import Disagreement

# Why a game did not end that is the server's fault (spec/records.md): a finding of its own, beside
# the rules' disagreements; a game the operator stopped (interrupted) or the server stopped for its
# own reasons (unfinished: true, "stopped" here) is counted but is no finding.
UNENDED = {"move-cap": "the server's move cap stopped it: the game was not over",
           "engine-died": "the engine under it died or broke", "player-failed": "a seat's player chose an illegal action",
           "no-move": "the server named a seat to act that had nothing it could do"}


class Outcome(NamedTuple):
    """One line of a record file, judged: clean, disagree, or unreadable (a record that cannot be audited); a named
    tuple, as each line makes one (a frozen dataclass takes three times as long to make)."""

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
    unfinished: str = ""  # why the game did not end: a word of spec/records.md, or stopped (true)
    stops: bool = False  # an unreadable file or line after which its file was not read: the audit is incomplete

    @property
    def unended(self) -> bool:
        """The game did not end, by the server's fault: a finding of its own."""
        return self.unfinished in UNENDED

    @property
    def where(self) -> str:
        """``file:line`` (and the server's id for the game)."""
        return f"{self.source}:{self.line}" + (f" ({self.id})" if self.id else "")

    def words(self) -> str:
        """The line printed for a problem."""
        if self.outcome == "unreadable":
            return f"{self.source}:{self.line}: {self.message}"
        said = [f"{self.where}: {self.game} DISAGREES at {self.disagreement.words()}"] if self.disagreement else []
        if self.unended:
            judged = ("; its moves are judged up to that disagreement" if self.disagreement else
                      f" after {self.moves:,} moves, in round {self.hands}; the moves it has follow the rules")
            said.append(f"{self.where}: {self.game} DID NOT END ({self.unfinished}): {UNENDED[self.unfinished]}{judged}")
        return "\n".join(said)

    def as_json(self) -> dict[str, Any]:
        """The JSON line of this outcome."""
        data: dict[str, Any] = {"source": self.source, "line": self.line, "outcome": self.outcome}
        if self.outcome == "unreadable":
            return {**data, "kind": self.kind, "message": self.message}
        data.update(game=self.game, id=self.id, hands=self.hands, moves=self.moves)
        if self.unfinished:
            data["unfinished"] = self.unfinished
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
    unfinished: Counter[str] = field(default_factory=Counter)
    incomplete_at: list[str] = field(default_factory=list)  # where a file's reading stopped before its end (file:line)
    interrupted: bool = False  # Ctrl-C: the files were not read to their end
    output_closed: bool = False  # standard output was closed (a pipe's reader left): the rest was not judged
    rules_only: bool = False  # --rules-only: the computer-player seats' levels were not judged

    def add(self, outcome: Outcome) -> None:
        """Count one outcome."""
        if outcome.outcome == "unreadable":
            self.unreadable[outcome.kind] += 1
            if outcome.stops:
                self.incomplete_at.append(f"{outcome.source}:{outcome.line}")
            return
        self.games += 1
        self.hands += outcome.hands
        self.moves += outcome.moves
        if outcome.unfinished:
            self.unfinished[outcome.unfinished] += 1
        if outcome.disagreement is None:
            self.clean += 1
        else:
            self.clauses[outcome.disagreement.clause] += 1

    @property
    def disagree(self) -> int:
        """Games with a disagreement."""
        return self.games - self.clean

    @property
    def unended(self) -> int:
        """Games that did not end by the server's fault (move cap, engine died, player failed)."""
        return sum(count for why, count in self.unfinished.items() if why in UNENDED)

    @property
    def failed(self) -> bool:
        """Whether anything was found: a disagreement, an unreadable record or a game that did not end."""
        return bool(self.disagree or self.unreadable or self.unended)

    def as_json(self) -> dict[str, Any]:
        """The summary line of the JSON lines."""
        return {"summary": {"games": self.games, "hands": self.hands, "moves": self.moves, "clean": self.clean,
                            "disagree": self.disagree, "clauses": dict(sorted(self.clauses.items())),
                            "unreadable": sum(self.unreadable.values()), "unreadable_kinds": dict(sorted(self.unreadable.items())),
                            "unended": self.unended, "unfinished": dict(sorted(self.unfinished.items())),
                            "complete": not (self.incomplete_at or self.interrupted or self.output_closed),
                            "incomplete_at": self.incomplete_at, "interrupted": self.interrupted,
                            "output_closed": self.output_closed, "levels_judged": not self.rules_only}}

    def text(self) -> str:
        """The summary for a person."""
        lines = [f"audit: {self.games:,} games, {self.hands:,} hands, {self.moves:,} moves: {self.clean:,} clean, "
                 f"{self.disagree:,} disagree with the rules, {sum(self.unreadable.values()):,} records unreadable"]
        lines += [f"  {count:>9,}  {clause}" for clause, count in sorted(self.clauses.items(), key=lambda c: (-c[1], c[0]))]
        if self.unended:
            told = ", ".join(f"{why} {count:,}" for why, count in sorted(self.unfinished.items()) if why in UNENDED)
            lines.append(f"  {self.unended:,} games did not end ({told}): a finding apart from the rules' disagreements")
        other = ", ".join(f"{why} {count:,}" for why, count in sorted(self.unfinished.items())
                          if why not in UNENDED and why != "stopped")  # a server's own stops (true) are its business
        if other:
            lines.append(f"  unfinished, no finding: {other}")
        if self.unreadable:
            lines.append("  unreadable: " + ", ".join(f"{kind} {count:,}" for kind, count in sorted(self.unreadable.items())))
        if self.incomplete_at:
            lines.append(f"  incomplete: reading stopped at {', '.join(self.incomplete_at)}; the lines after were not judged")
        if self.interrupted:
            lines.append("  incomplete: interrupted (Ctrl-C); the records after were not judged")
        if self.rules_only:
            lines.append("  rules only (--rules-only): the seats marked as computer players were not judged against their level")
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
        self.counts["disagree" if outcome.outcome == "clean" and outcome.unended else outcome.outcome] += 1
        if outcome.outcome == "clean" and not outcome.unended:
            return
        tag, name = ("error", f"line {outcome.line}") if outcome.outcome == "unreadable" else ("failure", outcome.where)
        clause = outcome.disagreement.clause if outcome.disagreement else outcome.kind or outcome.unfinished
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
