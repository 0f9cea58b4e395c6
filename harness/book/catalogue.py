"""Every fixture in one line, with what the fixture index filters on: game, clauses, basis, refusals, levels."""

from __future__ import annotations

from dataclasses import dataclass

from harness.book.model import Book, FixtureView, game_key



@dataclass(frozen=True)
class FixtureLine:
    """One fixture as the index lists it."""

    id: str
    title: str
    game: str
    key: str  # rummy-1.1.0: the game and rule version whose pages it belongs to
    version: str
    clauses: tuple[str, ...]
    basis: str
    refused: bool
    reasons: tuple[str, ...]  # the reason codes its refused steps accept
    levels: tuple[str, ...]  # the player levels its decision steps ask
    cards: tuple[str, ...]  # every card drawn in its starting positions, in the order drawn

    @property
    def outcome(self) -> str:
        """``refused`` when some step must be refused, else ``accepted``."""
        return "refused" if self.refused else "accepted"


def fixture_line(f: FixtureView) -> FixtureLine:
    """The line of one fixture."""
    s = f.scenario
    reasons = {code for step in s.steps if step.expect == "refused" for code in (step.reasons or (step.reason,)) if code}
    levels = {str(step.decide["level"]) for step in s.steps if step.decide and step.decide.get("level")}
    cards: dict[str, None] = {}
    for _, _, drawn in f.layouts:
        for zone in drawn.zones if drawn else ():
            cards.update(dict.fromkeys(zone.cards))
    return FixtureLine(s.id, s.title, s.game, game_key(f.spec), f.spec.rule_version, tuple(s.clauses), s.basis,
                       s.refuses, tuple(sorted(reasons)), tuple(sorted(levels)), tuple(cards))


def fixture_lines(book: Book) -> list[FixtureLine]:
    """Every fixture of the book, by game then id."""
    return [fixture_line(f) for f in book.fixtures]
