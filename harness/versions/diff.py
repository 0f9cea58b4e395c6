"""What changed between two rule versions of a game, and which fixtures that touches."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from harness.spec import gamespec as specs
from harness.spec.semver import in_range
from harness.suite.model import Scenario
from harness.spec.paths import shown_path

CLAUSE_FIELDS = ("rule", "basis", "source", "refusable", "question")
OPTION_FIELDS = ("type", "default", "minimum", "maximum", "values")


@dataclass
class Change:
    """One thing added, removed or changed, with the old and new value of each changed field."""

    name: str
    kind: str  # added, removed, changed
    fields: dict[str, tuple[Any, Any]] = field(default_factory=dict)

    def record(self) -> dict[str, Any]:
        """As JSON."""
        record: dict[str, Any] = {"name": self.name, "kind": self.kind}
        if self.fields:
            record["fields"] = {k: {"old": old, "new": new} for k, (old, new) in self.fields.items()}
        return record


@dataclass
class Affected:
    """A fixture touched by the change, and why."""

    id: str
    file: str
    line: int
    why: list[str]

    def record(self) -> dict[str, Any]:
        """As JSON."""
        return {"id": self.id, "file": shown_path(self.file), "line": self.line, "why": self.why}


@dataclass
class GameDiff:
    """Two game files compared, and the fixtures affected."""

    old: specs.GameSpec
    new: specs.GameSpec
    sections: dict[str, list[Change]]
    only_old: list[Affected]
    only_new: list[Affected]
    revisit: list[Affected]

    @property
    def needs_code(self) -> list[str]:
        """What changes beyond data, so that an engine playing the old version needs code for the new one.

        Data is what the reference engine reads from the game file: the players, the options'
        defaults and ranges, the numbers. A clause whose text (or basis) changes, a clause, option,
        action, reason code or state-view key added or removed is logic; a clause's paragraph
        number alone is not, nor a rule restating a number the data changed.
        """
        restating = set(self.new.clauses) - set(specs.changed_clauses(self.old, self.new))  # a number of the data
        logic = [c.name for c in self.sections["clauses"] if c.kind != "changed" or (
            set(c.fields) - {"source"} and c.name not in restating)]
        logic += [f"option {c.name}" for c in self.sections["options"]
                  if c.kind != "changed" or set(c.fields) - {"default", "minimum", "maximum"}]
        logic += [f"{name} {c.name}" for name in ("actions", "reasons", "state_view") for c in self.sections[name]]
        logic += [f"number {c.name}" for c in self.sections["numbers"] if c.kind != "changed"]
        return logic

    @property
    def empty(self) -> bool:
        """Whether the two rule versions say the same thing."""
        return not any(self.sections.values())

    def record(self) -> dict[str, Any]:
        """The whole diff as one JSON object."""
        return {
            "game": self.new.game, "old": self.old.rule_version, "new": self.new.rule_version,
            "old_file": shown_path(self.old.path), "new_file": shown_path(self.new.path),
            **{name: [c.record() for c in changes] for name, changes in self.sections.items()},
            "needs_code": self.needs_code,
            "fixtures": {"only_old": [a.record() for a in self.only_old],
                         "only_new": [a.record() for a in self.only_new],
                         "revisit": [a.record() for a in self.revisit]},
        }


def _keyed(old: dict[str, Any], new: dict[str, Any], fields: tuple[str, ...] | None) -> list[Change]:
    """Entries added, removed and (with ``fields``) changed between two mappings of name -> entry."""
    changes = [Change(name, "added") for name in new if name not in old]
    changes += [Change(name, "removed") for name in old if name not in new]
    for name in old:
        if name in new and fields is not None:
            a, b = old[name], new[name]
            delta = {f: (a.get(f), b.get(f)) for f in fields if a.get(f) != b.get(f)}
            if delta:
                changes.append(Change(name, "changed", delta))
    return changes


def _values(old: dict[str, Any], new: dict[str, Any]) -> list[Change]:
    """Plain values added, removed and changed between two mappings of name -> value."""
    changes = _keyed(old, new, None)
    return changes + [Change(name, "changed", {"value": (old[name], new[name])})
                      for name in old if name in new and old[name] != new[name]]


def compare(old: specs.GameSpec, new: specs.GameSpec, scenarios: list[Scenario]) -> GameDiff:
    """The differences between two game files of one game, and the fixtures they touch."""
    clause_data = ({c["id"]: c for c in old.data["clauses"]}, {c["id"]: c for c in new.data["clauses"]})
    sections = {
        "clauses": _keyed(*clause_data, CLAUSE_FIELDS),
        "options": _keyed(old.data["options"], new.data["options"], OPTION_FIELDS),
        "actions": _keyed(old.data["actions"], new.data["actions"], None),
        "reasons": _keyed(old.data["reasons"], new.data["reasons"], None),
        "state_view": _keyed(old.data["state_view"]["fields"], new.data["state_view"]["fields"], None),
        "players": _values({"players": old.data["players"]}, {"players": new.data["players"]}),
        "numbers": _values(old.data.get("numbers") or {}, new.data.get("numbers") or {}),
    }
    touched = {c.name: c for c in sections["clauses"] if c.kind in ("changed", "removed")}
    defaults = [c for c in sections["options"] if c.kind == "changed" and "default" in c.fields]
    only_old, only_new, revisit = [], [], []
    for scenario in scenarios:
        if scenario.game != new.game:
            continue
        covers = in_range(old.rule_version, scenario.rule_versions), in_range(new.rule_version, scenario.rule_versions)
        place = (scenario.id, scenario.file, scenario.line)
        if covers == (True, False):
            only_old.append(Affected(*place, [f"its range {scenario.rule_versions} covers {old.rule_version} only"]))
        elif covers == (False, True):
            only_new.append(Affected(*place, [f"its range {scenario.rule_versions} covers {new.rule_version} only"]))
        elif covers == (True, True):
            why = [f"covers {cid}, {touched[cid].kind} in {new.rule_version}" for cid in scenario.clauses
                   if cid in touched]
            why += _relies_on_default(scenario, defaults, old, new)
            if why:
                revisit.append(Affected(*place, why))
    return GameDiff(old, new, sections, only_old, only_new, revisit)


def _relies_on_default(scenario: Scenario, defaults: list[Change], old: specs.GameSpec,
                       new: specs.GameSpec) -> list[str]:
    """Why the fixture may see a changed default: it leaves the option unset and covers a clause of its paragraph.

    Every fixture leaving an option unset gets the new default, but only those covering a clause
    of the option's source paragraph (or naming the option in their rule) are likely to notice.
    """
    why = []
    for change in defaults:
        if change.name in scenario.options:
            continue
        paragraph = new.data["options"][change.name].get("source")
        related = [cid for cid in scenario.clauses if cid in new.clauses and (
            new.clauses[cid].source == paragraph or change.name in new.clauses[cid].rule)]
        if related:
            was, now = change.fields["default"]
            why.append(f"leaves {change.name} at its default ({was} in {old.rule_version}, {now} in "
                       f"{new.rule_version}) and covers {', '.join(related)}")
    return why


def _show(value: Any) -> str:
    """A field value on one line."""
    text = " ".join(str(value).split()) if isinstance(value, str) else repr(value)
    return text


def format_diff(diff: GameDiff) -> str:
    """The diff for people: each section, then the fixtures and what to do with them."""
    lines = [f"{diff.new.game} {diff.old.rule_version} -> {diff.new.rule_version} "
             f"({shown_path(diff.old.path)} -> {shown_path(diff.new.path)})"]
    titles = {"clauses": "clauses", "options": "options", "actions": "actions", "reasons": "reason codes",
              "state_view": "state-view keys", "players": "players", "numbers": "numbers"}
    for name, changes in diff.sections.items():
        for change in changes:
            label = f"{titles[name]} {change.kind}: {change.name}"
            if name == "clauses" and change.kind != "removed":
                clause = diff.new.clauses[change.name]
                label += f" ({clause.source})"
            lines.append(label)
            for key, (old, new) in change.fields.items():
                lines.append(f"  {key}: {_show(old)}")
                lines.append(f"  {' ' * len(key)}  -> {_show(new)}")
    if diff.empty:
        lines.append("no difference in clauses, options, actions, reason codes, state-view keys, players or numbers")
    elif diff.needs_code:
        lines.append(f"needs code (an engine playing {diff.old.rule_version} plays {diff.new.rule_version} only with "
                     f"new code for these; the reference engine refuses {diff.new.rule_version} until it has it): "
                     + ", ".join(diff.needs_code))
    else:
        lines.append(f"data only (players, options' defaults and ranges, numbers): the reference engine plays "
                     f"{diff.new.rule_version} from its game file as it is")
    for title, group, advice in (
            (f"fixtures for {diff.old.rule_version} only", diff.only_old, ""),
            (f"fixtures for {diff.new.rule_version} only", diff.only_new, ""),
            ("fixtures to revisit (they cover both versions)", diff.revisit,
             f"check each against the {diff.new.rule_version} text: narrow its rule_versions (e.g. "
             f"\"<{diff.new.rule_version}\") and write one for {diff.new.rule_version}, or set the option it "
             "relies on")):
        if group:
            lines.append(f"{title}:")
            for affected in group:
                lines.append(f"  {affected.id} ({affected.file}:{affected.line}): {'; '.join(affected.why)}")
            if advice:
                lines.append(f"  -> {advice}")
    return "\n".join(lines)
