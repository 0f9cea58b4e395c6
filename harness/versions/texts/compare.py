"""Rule documents against each other (the facts of each paragraph) and against the game file (fingerprints)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from harness.spec import gamespec as specs
from harness.spec.semver import in_range
from harness.suite.model import Scenario
from harness.versions.texts.document import Document
from harness.versions.texts.facts import Facts, facts
from harness.versions.texts.sources import fingerprint, paragraph_id, recorded


@dataclass
class Identified:
    """A document with the game file it belongs to (None when no game file matches), and how it was told."""

    document: Document
    game: str | None
    spec: specs.GameSpec | None
    how: str


def identify(document: Document, game: str | None = None) -> Identified:
    """The game of a document: ``game`` if given, else by a recorded title fingerprint, else by its sections' sizes."""
    candidates = [s for s in specs.game_specs() if game in (None, s.game)]
    if game is not None:
        same = [s for s in candidates if s.rule_version == document.version]
        return Identified(document, game, same[0] if same else None, "--game")
    title = fingerprint(document.title)
    by_title = [s for s in candidates
                if title in ((recorded(s).get("paragraphs") or {}).get("title") or {}).values()]
    by_shape = [s for s in candidates if recorded(s).get("sections") == document.shape]
    for found, how in ((by_title, "its title"), (by_shape, "the sizes of its sections")):
        games = sorted({s.game for s in found})
        if len(games) == 1:
            same = [s for s in specs.game_specs() if s.game == games[0] and s.rule_version == document.version]
            return Identified(document, games[0], same[0] if same else None, how)
    return Identified(document, None, None, "")


@dataclass
class Disagreement:
    """One paragraph where documents of one version say different things."""

    paragraph: str
    kind: str  # numbers, option names, card notations, rules in the section, sections
    values: dict[str, list[Any]]  # document -> what it says that the others do not
    lines: dict[str, int] = field(default_factory=dict)

    def record(self) -> dict[str, Any]:
        """As JSON."""
        return {"paragraph": self.paragraph, "kind": self.kind, "values": self.values, "lines": self.lines}


def _label(document: Document) -> str:
    """How a document is named in a report: its file name and language."""
    return f"{document.path.name} ({document.language})"


def disagreements(documents: list[Document], spec: specs.GameSpec) -> list[Disagreement]:
    """Every paragraph where two documents disagree on a number, an option name, a notation or a section's size.

    Numbers are compared as multisets, and one document stating only part of another's numbers is
    no disagreement: a translation may spell a number as a word this kit cannot read ("a card").
    Option names and notations must be the same sets.
    """
    found: list[Disagreement] = []
    if len({len(d.sections) for d in documents}) > 1:
        found.append(Disagreement("sections", "sections", {_label(d): [len(d.sections)] for d in documents}))
    for index in range(min(len(d.sections) for d in documents)):
        sizes = {_label(d): [len(d.sections[index].paragraphs)] for d in documents}
        if len({v[0] for v in sizes.values()}) > 1:
            found.append(Disagreement(paragraph_id(spec, f"{index}"), "rules in the section", sizes,
                                      {_label(d): d.sections[index].line for d in documents}))
    by_number: dict[str, list[tuple[Document, Any]]] = {}
    for document in documents:
        for paragraph in document.paragraphs():
            by_number.setdefault(paragraph.number, []).append((document, paragraph))
    for number, entries in by_number.items():
        if len(entries) < 2:
            continue
        stated = [(d, p, facts(p.text, d.language)) for d, p in entries]
        found += _compare_facts(paragraph_id(spec, number), stated)
    return found


def _compare_facts(pid: str, stated: list[tuple[Document, Any, Facts]]) -> list[Disagreement]:
    """The disagreements of one paragraph across its documents."""
    out = []
    numbers: dict[str, list[Any]] = {}
    for a, pa, fa in stated:
        for b, pb, fb in stated:
            if a is b:
                continue
            only_a, only_b = fa.numbers - fb.numbers, fb.numbers - fa.numbers
            if only_a and only_b:  # neither holds the other: a real contradiction
                numbers.setdefault(_label(a), [])
                numbers[_label(a)] = sorted(set(numbers[_label(a)]) | set(only_a.elements()))
    lines = {_label(d): p.line for d, p, _ in stated}
    if numbers:
        out.append(Disagreement(pid, "numbers", numbers, {k: v for k, v in lines.items() if k in numbers}))
    for kind, attr in (("option names", "options"), ("card notations", "notations")):
        sets = {_label(d): frozenset(getattr(f, attr)) for d, _, f in stated}
        if len(set(sets.values())) > 1:
            common = frozenset.intersection(*sets.values())
            out.append(Disagreement(pid, kind, {k: sorted(v - common) for k, v in sets.items()}, lines))
    return out


@dataclass
class Changed:
    """A paragraph of a document whose text is not the one the game file was written from."""

    paragraph: str
    document: str
    line: int
    how: str  # changed, new, missing
    clauses: list[str]
    options: list[str]
    fixtures: list[str]

    def record(self) -> dict[str, Any]:
        """As JSON."""
        return {"paragraph": self.paragraph, "document": self.document, "line": self.line, "how": self.how,
                "clauses": self.clauses, "options": self.options, "fixtures": self.fixtures}


def changes(document: Document, spec: specs.GameSpec, scenarios: list[Scenario]) -> list[Changed] | None:
    """The paragraphs changed since the game file was written; None when it has no fingerprint in that language."""
    paragraphs: dict[str, dict[str, str]] = recorded(spec).get("paragraphs") or {}
    if not any(document.language in by_language for by_language in paragraphs.values()):
        return None
    out = []
    seen = set()
    for paragraph in document.paragraphs():
        pid = paragraph_id(spec, paragraph.number)
        seen.add(pid)
        was = (paragraphs.get(pid) or {}).get(document.language)
        if was == fingerprint(paragraph.text):
            continue
        out.append(_revisit(pid, _label(document), paragraph.line, "new" if was is None else "changed", spec,
                            scenarios))
    for pid, by_language in paragraphs.items():
        if pid not in seen and document.language in by_language:
            out.append(_revisit(pid, _label(document), 0, "missing", spec, scenarios))
    return out


def _revisit(pid: str, label: str, line: int, how: str, spec: specs.GameSpec, scenarios: list[Scenario]) -> Changed:
    """A changed paragraph with the clauses and options written from it, and the fixtures covering those clauses."""
    clauses = [c.id for c in spec.clauses.values() if c.source == pid]
    options = [name for name, option in spec.data["options"].items() if option.get("source") == pid]
    fixtures = sorted(s.id for s in scenarios if s.game == spec.game and in_range(spec.rule_version, s.rule_versions)
                      and set(s.clauses) & set(clauses))
    return Changed(pid, label, line, how, clauses, options, fixtures)


def same_version_groups(found: list[Identified]) -> dict[tuple[str, str], list[Identified]]:
    """The identified documents by (game, version)."""
    groups: dict[tuple[str, str], list[Identified]] = {}
    for item in found:
        if item.game is not None:
            groups.setdefault((item.game, item.document.version), []).append(item)
    return groups
