"""What the book holds: games, clauses in rule-document order, fixtures told step by step."""

from __future__ import annotations

import dataclasses
import re
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from harness.book.positions import Position, Replayer, position
from harness.reports.explain import (
    action_sentence,
    check_sentences,
    layout_lines,
    options_line,
    refusal,
    scenario_spec,
)
from harness.reports.mutant_scores import ClauseScore, MutantScores
from harness.spec import gamespec as specs
from harness.spec.cards import is_card, normalise, show
from harness.spec.paths import fixtures_dir
from harness.suite.model import Scenario, Step

# Scenario fields every fixture page shows in its own place; any other field is listed plainly.
_SHOWN = frozenset({"id", "title", "game", "rule_versions", "options", "clauses", "basis", "layout",
                    "later_layouts", "steps", "file", "line", "column", "description"})


# The languages of the rule documents, by the codes their fingerprints are kept under (harness/versions/texts).
LANGUAGES = {"vi": "Vietnamese", "ro": "Romanian", "th": "Thai", "en": "English"}


def game_key(spec: specs.GameSpec) -> str:
    """``rummy-1.1.0``: the name of a game's pages."""
    return f"{spec.game}-{spec.rule_version}"


def clause_page(spec: specs.GameSpec, clause_id: str) -> str:
    """The book path of a clause's page."""
    return f"clauses/{game_key(spec)}/{clause_id}"


def fixture_page(fixture_id: str) -> str:
    """The book path of a fixture's page (no extension: .html and .md)."""
    return f"fixtures/{fixture_id}"


def source_order(source: str) -> tuple[Any, ...]:
    """``R-3.10`` as (3, 10): clauses sort as their paragraphs appear in the rule document."""
    numbers = re.findall(r"\d+", source)
    return (0, *map(int, numbers)) if numbers else (1,)


@dataclass
class StepView:
    """One step as the book tells it."""

    number: int
    line: int
    action: str
    refused: bool
    reason: str
    checks: list[str]
    after: Position | None
    moved: frozenset[str] = frozenset()  # the cards the step's action moved, marked where they land


@dataclass
class FixtureView:
    """One fixture page."""

    scenario: Scenario
    spec: specs.GameSpec
    options: str
    layouts: list[tuple[str, list[str], Position | None]]
    steps: list[StepView]
    extra: list[tuple[str, str]]
    source_lines: list[str]
    problem: str = ""

    @property
    def file(self) -> str:
        """The fixture's file as the suite names it: ``fixtures/rummy/x.yaml`` wherever the book is made."""
        path = Path(self.scenario.file).resolve()
        root = fixtures_dir().resolve()
        return f"fixtures/{path.relative_to(root).as_posix()}" if path.is_relative_to(root) else self.scenario.file

    @property
    def id(self) -> str:
        """The fixture id."""
        return self.scenario.id


@dataclass
class GameView:
    """One game at one rule version: its clauses in order and the fixtures covering each."""

    spec: specs.GameSpec
    clauses: list[specs.Clause]
    covering: dict[str, list[Scenario]] = field(default_factory=dict)
    mutants: MutantScores | None = None  # from ``docs --mutants``; None: the book shows no mutants

    @property
    def key(self) -> str:
        """``rummy-1.1.0``."""
        return game_key(self.spec)

    def score(self, clause_id: str) -> ClauseScore:
        """The generated mutants a clause counts (none when no mutant reached it)."""
        return self.mutants.clauses.get(clause_id, ClauseScore()) if self.mutants else ClauseScore()

    @property
    def survived(self) -> int:
        """The generated mutants of this game's engine that nothing found."""
        return self.mutants.survived.get(self.spec.game, 0) if self.mutants else 0

    def languages(self, paragraph: str = "title") -> str:
        """The languages the rule document gives ``paragraph`` in, from its fingerprints: ``Vietnamese``."""
        found = ((self.spec.data.get("sources") or {}).get("paragraphs") or {}).get(paragraph) or {}
        names = [LANGUAGES.get(code, code) for code in found]
        return " and ".join(filter(None, [", ".join(names[:-1]), names[-1]])) if names else "English"

    def document(self) -> str:
        """The rule document in words: ``the President rules 1.1.0 (in Vietnamese)``."""
        return f"the {self.spec.game.replace('-', ' ').title()} rules {self.spec.rule_version} (in {self.languages()})"

    def paragraph(self, source: str) -> str:
        """Where a clause comes from, in words: ``paragraph P-1.2 of the President rules 1.1.0 (in Vietnamese)``."""
        return (f"paragraph {source} of the {self.spec.game.replace('-', ' ').title()} rules "
                f"{self.spec.rule_version} (in {self.languages(source)})")

    def options(self) -> list[dict[str, Any]]:
        """Each option with its default and its range, in words."""
        rows = []
        for name, option in self.spec.data["options"].items():
            if "enum" in option:
                allowed = ", ".join(show(v) for v in option["enum"])
            elif option.get("type") == "boolean":
                allowed = "true, false"
            else:
                allowed = _range(option.get("minimum"), option.get("maximum"), str(option.get("type", "")))
            rows.append({"name": name, "default": show(option.get("default")), "allowed": allowed,
                         "meaning": str(option.get("meaning", "")).strip(), "source": option.get("source", "")})
        return rows

    def actions(self) -> list[dict[str, Any]]:
        """The action vocabulary: each kind, its phases and its meaning."""
        return [{"name": name, "phases": ", ".join(action.get("phases", [])),
                 "meaning": str(action.get("meaning", "")).strip()}
                for name, action in self.spec.data["actions"].items()]

    def reasons(self) -> list[dict[str, str]]:
        """Every reason code this game may refuse with: the common ones, then its own."""
        common = specs.common_reason_meanings()
        return ([{"code": c, "meaning": str(m).strip(), "scope": "every game"} for c, m in common.items()]
                + [{"code": c, "meaning": str(m).strip(), "scope": self.spec.game}
                   for c, m in self.spec.data["reasons"].items()])


def _range(low: Any, high: Any, kind: str) -> str:
    """An option's range in words: ``1 to 10``, ``at least 1``, or its type when unbounded."""
    if low is not None and high is not None:
        return f"{kind} {low} to {high}"
    if low is not None:
        return f"{kind} ≥ {low}"
    if high is not None:
        return f"{kind} ≤ {high}"
    return kind


@dataclass
class EdgeCase:
    """One refused action of the suite."""

    fixture: Scenario
    step: StepView


@dataclass
class Book:
    """Everything the book shows."""

    games: list[GameView]
    fixtures: list[FixtureView]

    def edge_cases(self) -> list[EdgeCase]:
        """Every refused action, fixture by fixture."""
        return [EdgeCase(f.scenario, s) for f in self.fixtures for s in f.steps if s.refused]

    def interpretations(self) -> list[tuple[GameView, specs.Clause]]:
        """Every interpretation of every game, in rule-document order."""
        return [(g, c) for g in self.games for c in g.clauses if c.basis == "interpretation"]


def build(scenarios: list[Scenario], sources: dict[str, list[str]], replayer: Replayer | None = None,
          mutants: MutantScores | None = None) -> Book:
    """The book of the spec and ``scenarios`` (``sources``: each fixture file's lines; ``mutants``: their scores)."""
    replayer = replayer or Replayer()
    games = [GameView(spec, sorted(spec.clauses.values(), key=lambda c: source_order(c.source)), mutants=mutants)
             for spec in specs.game_specs()]
    by_spec: dict[tuple[str, str], list[Scenario]] = defaultdict(list)
    fixtures = []
    for scenario in sorted(scenarios, key=lambda s: (s.game, s.id)):
        spec = scenario_spec(scenario)
        by_spec[(spec.game, spec.rule_version)].append(scenario)
        fixtures.append(fixture_view(scenario, spec, sources.get(scenario.file, []), replayer))
    for game in games:
        for scenario in by_spec[(game.spec.game, game.spec.rule_version)]:
            for clause_id in scenario.clauses:
                game.covering.setdefault(clause_id, []).append(scenario)
    return Book(games, fixtures)


def fixture_view(scenario: Scenario, spec: specs.GameSpec, source: list[str], replayer: Replayer) -> FixtureView:
    """A fixture told step by step, each position drawn."""
    replayed = replayer.replay(scenario, spec)
    layouts: list[tuple[str, list[str], Position | None]] = [
        ("The layout" if not scenario.later_layouts else "Round 1", layout_lines(scenario.layout), replayed.start)]
    for i, later in enumerate(scenario.later_layouts, start=2):
        # A later round's cards are drawn straight from its layout (the engine deals it only then).
        layouts.append((f"Round {i}", layout_lines(later), position(spec, later)))
    steps, before = [], replayed.start
    for step in scenario.steps:
        after = replayed.after.get(step.index)
        steps.append(step_view(spec, step, after, moved_cards(step, before, after)))
        before = after or before
    extra = [(f.name.replace("_", " "), show(getattr(scenario, f.name))) for f in dataclasses.fields(scenario)
             if f.name not in _SHOWN and getattr(scenario, f.name) not in (None, "", [], {}, ())]
    return FixtureView(scenario, spec, options_line(spec, scenario), layouts, steps, extra, source, replayed.problem)


def step_view(spec: specs.GameSpec, step: Step, after: Position | None, moved: frozenset[str] = frozenset()) -> StepView:
    """One step: the action in words, accepted or refused and why, the checks, the position after it."""
    return StepView(step.index + 1, step.line, action_sentence(spec, step), step.expect == "refused",
                    refusal(spec, step), check_sentences(step), after, moved)


def moved_cards(step: Step, before: Position | None, after: Position | None) -> frozenset[str]:
    """The cards an accepted action moved: those it names, and those new in the actor's hand (a draw names none)."""
    if step.action is None or step.expect == "refused" or after is None:
        return frozenset()
    named = {normalise(v) for v in _values(step.action) if is_card(v)}
    hand = f"Seat {step.seat}'s hand"
    held_before = [z for z in (before.zones if before else []) if z.label.startswith(hand)]
    held_after = {c for z in after.zones if z.label.startswith(hand) for c in z.cards}
    drawn = held_after - {c for z in held_before for c in z.cards} if held_before else set()
    return frozenset(named | drawn)


def _values(value: Any) -> list[Any]:
    """Every scalar inside an action."""
    if isinstance(value, dict):
        return [v for item in value.values() for v in _values(item)]
    if isinstance(value, list):
        return [v for item in value for v in _values(item)]
    return [value]

