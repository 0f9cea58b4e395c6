"""The book's "what changed" pages: each rule version of a game against the one before it, with the fixtures that show it."""

from __future__ import annotations

from dataclasses import dataclass
from itertools import pairwise

from harness.spec import gamespec as specs
from harness.suite.model import Scenario
from harness.versions.diff import GameDiff, compare


@dataclass
class VersionChange:
    """One game from one rule version to the next: what changed, and the fixtures on each side."""

    diff: GameDiff

    @property
    def key(self) -> str:
        """The page's name: ``rummy-1.1.0-to-1.2.0``."""
        return f"{self.diff.new.game}-{self.diff.old.rule_version}-to-{self.diff.new.rule_version}"

    @property
    def title(self) -> str:
        """``rummy 1.1.0 to 1.2.0``."""
        return f"{self.diff.new.game} {self.diff.old.rule_version} to {self.diff.new.rule_version}"

    @property
    def changes(self) -> list[tuple[str, str, list[tuple[str, str, str]]]]:
        """Each change in words: (what, name, [(field, old, new)])."""
        words = {"clauses": "clause", "options": "option", "actions": "action", "reasons": "reason code",
                 "state_view": "state-view key", "players": "players", "numbers": "number"}
        return [(f"{words[section]} {change.kind}", change.name,
                 [(key, _shown(was), _shown(now)) for key, (was, now) in change.fields.items()])
                for section, found in self.diff.sections.items() for change in found]


def version_changes(scenarios: list[Scenario]) -> list[VersionChange]:
    """Every game's consecutive rule versions, compared, with the fixtures of ``scenarios``."""
    by_game: dict[str, list[specs.GameSpec]] = {}
    for spec in specs.game_specs():
        by_game.setdefault(spec.game, []).append(spec)
    return [VersionChange(compare(old, new, scenarios)) for versions in by_game.values()
            for old, new in pairwise(versions)]


def _shown(value: object) -> str:
    """A field's value on one line."""
    return " ".join(value.split()) if isinstance(value, str) else str(value)
