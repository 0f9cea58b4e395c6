"""Fixture files in, normalised scenarios out: schema, semantic lint, layout completion.

Every problem in every file is collected in one pass and reported as
``file:line:col: $.json.path: message``; nothing here raises on bad input.
"""

from __future__ import annotations

import copy
import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from harness import spec as specs
from harness.cards import ALL_CARDS, FILL_ORDER, is_card, normalise
from harness.players import decisions
from harness.yamlsafe import Document, YamlError, load

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
    legal: dict[str, Any] | None = None
    observe: dict[str, Any] | None = None
    note: str | None = None
    decide: dict[str, Any] | None = None  # a computer player's decision to judge (harness.players.decisions)


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


def fixture_files(paths: Iterable[str | os.PathLike[str]]) -> Iterator[Path]:
    """The ``.yaml``/``.yml`` files under ``paths``, sorted, each once."""
    seen: set[Path] = set()
    for root in paths:
        root = Path(root)
        found = [root] if root.is_file() else sorted(
            p for p in root.rglob("*") if p.suffix in (".yaml", ".yml") and p.is_file())
        for path in found:
            if path not in seen:
                seen.add(path)
                yield path


def load_paths(paths: Iterable[str | os.PathLike[str]]) -> LoadResult:
    """Load and lint every fixture under ``paths``; duplicate ids are errors."""
    result = LoadResult()
    first_seen: dict[str, Scenario] = {}
    for path in fixture_files(paths):
        result.files += 1
        scenario, errors = load_file(path)
        result.errors.extend(errors)
        if scenario is None:
            continue
        if scenario.id in first_seen:
            result.errors.append(LintError(scenario.file, scenario.line, scenario.column, "$.id",
                                           f"duplicate fixture id {scenario.id!r}, also in {first_seen[scenario.id].file}; "
                                           "give one of them a new id"))
            continue
        first_seen[scenario.id] = scenario
        result.scenarios.append(scenario)
    return result


def display_path(path: Path) -> str:
    """``path`` relative to the working directory when it is inside it."""
    try:
        return os.path.relpath(path)
    except ValueError:  # another drive on Windows
        return str(path)


def load_file(path: Path) -> tuple[Scenario | None, list[LintError]]:
    """One fixture file: the scenario if it is clean, and its errors."""
    name = display_path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        return None, [LintError(name, 1, 1, "$", f"cannot read the file: {error}")]
    try:
        document = load(text)
    except YamlError as error:
        return None, [LintError(name, error.line, error.column, json_path(error.path), error.message)]
    scenario, errors = _Linter(name, document).run()
    return scenario, sorted(errors, key=lambda e: (e.line, e.column))


class _Linter:
    """Checks one parsed fixture and builds its scenario."""

    def __init__(self, name: str, document: Document) -> None:
        self.name, self.document = name, document
        self.errors: list[LintError] = []
        self.players = 0

    def error(self, path: JsonPath, message: str) -> None:
        """Record a problem at ``path``."""
        line, column = self.document.position(path)
        self.errors.append(LintError(self.name, line, column, json_path(path), message))

    def schema_errors(self, validator: Any, value: Any, prefix: JsonPath) -> bool:
        """Record every schema error of ``value``; whether there was none."""
        clean = True
        for error in validator.iter_errors(value):
            clean = False
            path = prefix + tuple(error.absolute_path)
            if error.validator == "additionalProperties" and isinstance(error.instance, dict):
                # point at the unexpected key itself, not at the mapping holding it
                allowed = error.schema.get("properties", {})
                extra = [key for key in error.instance if key not in allowed]
                path += tuple(extra[:1])
            self.error(path, _schema_message(error))
        return clean

    def run(self) -> tuple[Scenario | None, list[LintError]]:
        """Lint the whole document; a scenario only when there is no error."""
        data = self.document.data
        if not isinstance(data, dict):
            self.error((), "a fixture is a mapping with id, title, game, rule_versions, clauses, basis, layout and steps")
            return None, self.errors
        if not self.schema_errors(specs.validator("fixture.schema.json"), data, ()):
            return None, self.errors
        candidates = specs.specs_in_range(data["game"], data["rule_versions"])
        if not candidates:
            known = ", ".join(s.rule_version for s in specs.game_specs() if s.game == data["game"]) or "none"
            self.error(("rule_versions",), f"range {data['rule_versions']!r} matches no {data['game']} rule version "
                                           f"in the spec (known: {known})")
            return None, self.errors
        spec = candidates[-1]
        self.check_options(spec, data.get("options", {}))
        self.check_clauses(spec, data)
        self.players = _players_of(data["layout"])
        layout = self.check_layout(spec, data["layout"], ("layout",), first=True)
        later = [self.check_layout(spec, item, ("later_layouts", i), first=False)
                 for i, item in enumerate(data.get("later_layouts", []))]
        steps = [self.check_step(spec, step, i, self.players) for i, step in enumerate(data["steps"])]
        if self.errors or layout is None or None in later:
            return None, self.errors
        scenario = Scenario(
            id=data["id"], title=data["title"], game=data["game"], rule_versions=data["rule_versions"],
            options=dict(data.get("options", {})), clauses=tuple(data["clauses"]), basis=data["basis"],
            layout=layout, later_layouts=tuple(item for item in later if item is not None),
            steps=tuple(s for s in steps if s is not None), file=self.name,
            line=self.document.position(("id",))[0], column=self.document.position(("id",))[1],
            description=data.get("description", ""))
        return scenario, self.errors

    def check_options(self, spec: specs.GameSpec, options: dict[str, Any]) -> None:
        """Options must exist in the game file and have its type."""
        declared = spec.data["options"]
        for name, value in options.items():
            path = ("options", name)
            if name not in declared:
                self.error(path, f"unknown option {name!r} for {spec.game}; known: {', '.join(sorted(declared))}")
                continue
            option = declared[name]
            is_bool = isinstance(value, bool)
            if (option["type"] == "boolean") != is_bool:
                self.error(path, f"option {name!r} takes a{'' if option['type'] == 'integer' else ' '}"
                                 f"{'n integer' if option['type'] == 'integer' else 'true or false'}, not {value!r}")
            elif not is_bool and not option.get("minimum", value) <= value <= option.get("maximum", value):
                self.error(path, f"option {name!r} must lie in [{option.get('minimum', '')}, {option.get('maximum', '')}]")

    def check_clauses(self, spec: specs.GameSpec, data: dict[str, Any]) -> None:
        """Clause ids must exist in the game file; the basis must match them."""
        interpretations = 0
        for i, clause_id in enumerate(data["clauses"]):
            clause = spec.clauses.get(clause_id)
            if clause is None:
                self.error(("clauses", i), f"unknown clause {clause_id!r} for {spec.game} {spec.rule_version}; "
                                           "see `cardverse-conformance coverage` for the list")
            elif clause.basis == "interpretation":
                interpretations += 1
        if interpretations and data["basis"] == "text":
            self.error(("basis",), "basis must be interpretation: the fixture covers an interpretation clause")
        if not interpretations and data["basis"] == "interpretation" and len(self.errors) == 0:
            self.error(("basis",), "basis must be text: none of the clauses covered is an interpretation")

    def check_layout(self, spec: specs.GameSpec, layout: dict[str, Any], prefix: JsonPath,
                     first: bool) -> dict[str, Any] | None:
        """Schema, real cards, no card twice, seat count; the completed layout."""
        clean = self.schema_errors(spec.layout_validator, layout, prefix)
        players = spec.data["players"]
        seats = _players_of(layout)
        if "deck" in layout and ("hands" in layout or not isinstance(layout.get("players"), int)):
            self.error(prefix, "a layout gives either hands, or a deck to deal with the number of players")
            clean = False
        if clean and not players["min"] <= seats <= players["max"]:
            self.error(prefix + ("hands",), f"{seats} players: {spec.game} is for {players['min']} to {players['max']} players")
            clean = False
        if clean and not first and seats != self.players:
            self.error(prefix + ("hands",), f"{seats} hands, but the first layout has {self.players}: "
                                            "the players stay the same through a game")
            clean = False
        properties = spec.data["layout"]["schema"].get("properties", {})
        for key in ("first", "dealer"):
            if key in properties:
                if first and layout.get(key) is None:
                    self.error(prefix, f"the first layout must name {key!r}: no fixture depends on an unstated convention")
                    clean = False
                elif not first and layout.get(key) is not None:
                    self.error(prefix + (key,), f"a later layout must not name {key!r}: the rules decide it")
                    clean = False
        seen: dict[str, JsonPath] = {}
        for path, value in _card_slots(layout, spec.data["layout"]["card_fields"]):
            where = prefix + path
            if not is_card(value):
                self.error(where, f"{value!r} is not a card: rank A23456789TJQK then suit CDHS, e.g. QH or TD")
                clean = False
                continue
            card = normalise(value)
            if card in seen:
                self.error(where, f"card {card} appears twice (also at {json_path(prefix + seen[card])})")
                clean = False
            seen[card] = path
        if not clean:
            return None
        return complete_layout(spec, layout, set(seen))

    def check_step(self, spec: specs.GameSpec, step: dict[str, Any], index: int, players: int) -> Step | None:
        """An action in the vocabulary, a known reason, known state keys."""
        prefix: JsonPath = ("steps", index)
        before = len(self.errors)
        seat = step.get("seat")
        if seat is not None and players and seat >= players:
            self.error(prefix + ("seat",), f"seat {seat} does not exist: the layout has {players} players (seats 0..{players - 1})")
        malformed_on_purpose = step.get("reason") == "malformed-action"
        action = step.get("action")
        if action is not None and not malformed_on_purpose:
            self.check_action(spec, action, prefix + ("action",))
        reason = step.get("reason")
        if reason is not None and reason not in spec.reasons:
            self.error(prefix + ("reason",), f"unknown reason code {reason!r}; the closed list is in spec/reasons.yaml "
                                             f"and spec/games/{spec.path.name}")
        for key in ("state",):
            if key in step:
                self.check_state_keys(spec, step[key], prefix + (key,))
        if "observe" in step:
            if players and step["observe"]["seat"] >= players:
                self.error(prefix + ("observe", "seat"), f"seat {step['observe']['seat']} does not exist")
            self.check_state_keys(spec, step["observe"]["state"], prefix + ("observe", "state"))
        legal = step.get("legal", {})
        for key in ("exactly", "includes", "excludes"):
            for i, item in enumerate(legal.get(key, [])):
                self.check_action(spec, item, prefix + ("legal", key, i))
        if "decide" in step:
            decisions.lint(self, spec, step["decide"], prefix + ("decide",))
        if len(self.errors) > before:
            return None
        order = spec.card_order
        return Step(
            index=index, line=self.document.position(prefix)[0], seat=seat,
            action=order.canonical(action) if action is not None else None,
            expect=step.get("expect", "accepted") if action is not None else None,
            reason=reason, state=_canonical_view(spec, step.get("state")),
            legal={k: (order.canonical(v) if k != "count" else v) for k, v in legal.items()} or None,
            observe=({"seat": step["observe"]["seat"], "state": _canonical_view(spec, step["observe"]["state"])}
                     if "observe" in step else None),
            note=step.get("note"), decide=decisions.canonical(spec, step.get("decide")))

    def check_action(self, spec: specs.GameSpec, action: dict[str, Any], path: JsonPath) -> None:
        """The action belongs to the vocabulary and fits its schema."""
        kind = spec.action_kind(action)
        if kind is None:
            vocabulary = ", ".join(sorted(spec.data["actions"]))
            self.error(path, f"action outside the {spec.game} vocabulary: expected one of {vocabulary}")
            return
        self.schema_errors(spec.action_validators[kind], action, path)

    def check_state_keys(self, spec: specs.GameSpec, view: dict[str, Any], path: JsonPath) -> None:
        """A checkpoint names only keys of the state view."""
        for key in view:
            if key not in spec.state_fields:
                self.error(path + (key,), f"{key!r} is not part of the {spec.game} state view; "
                                          f"known: {', '.join(sorted(spec.state_fields))}")


def _players_of(layout: dict[str, Any]) -> int:
    """The number of seats a layout has: its hands, or ``players`` when it gives a deck."""
    players = layout.get("players")
    if isinstance(players, int) and not isinstance(players, bool):
        return players
    hands = layout.get("hands")
    return len(hands) if isinstance(hands, list) else 0


def _card_slots(layout: dict[str, Any], card_fields: list[str]) -> Iterator[tuple[JsonPath, Any]]:
    """Every (path, value) of the layout's card lists, by the game file's ``card_fields``."""
    for pattern in card_fields:
        for path, value in _walk(layout, tuple(pattern.split(".")), ()):
            if isinstance(value, list):
                for i, item in enumerate(value):
                    yield path + (i,), item


def _walk(value: Any, pattern: tuple[str, ...], path: JsonPath) -> Iterator[tuple[JsonPath, Any]]:
    """Values matching a dotted pattern; ``*`` is every item of a list or mapping."""
    if not pattern:
        yield path, value
        return
    head, rest = pattern[0], pattern[1:]
    if head == "*":
        items: Iterable[tuple[Any, Any]] = (
            enumerate(value) if isinstance(value, list) else value.items() if isinstance(value, dict) else ())
        for key, item in items:
            yield from _walk(item, rest, path + (key,))
    elif isinstance(value, dict) and head in value:
        yield from _walk(value[head], rest, path + (head,))


def _canonical_view(spec: specs.GameSpec, view: dict[str, Any] | None) -> dict[str, Any] | None:
    """A checkpoint with its card sets in canonical order (piles keep theirs)."""
    if view is None:
        return None
    view = copy.deepcopy(view)
    order = spec.card_order
    for pattern in spec.data["state_view"]["card_sets"]:
        parts = tuple(pattern.split("."))
        for path, value in list(_walk(view, parts, ())):
            if isinstance(value, list) and all(is_card(c) for c in value):
                set_at(view, path, order.sort(value))
    return _normalise_cards(view)


def set_at(root: Any, path: JsonPath, value: Any) -> None:
    """Replace the value at ``path``."""
    for part in path[:-1]:
        root = root[part]
    root[path[-1]] = value


def _normalise_cards(value: Any) -> Any:
    """Card aliases (``10D``) written canonically everywhere in a checkpoint."""
    if isinstance(value, dict):
        return {k: _normalise_cards(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_normalise_cards(v) for v in value]
    return normalise(value) if isinstance(value, str) and is_card(value) else value


def complete_layout(spec: specs.GameSpec, layout: dict[str, Any], placed: set[str]) -> dict[str, Any]:
    """Every key present (schema defaults) and every card placed (fill order, at ``fill``).

    A layout that gives a deck to deal gets the left-out cards at the bottom of that deck.
    """
    properties = spec.data["layout"]["schema"].get("properties", {})
    complete = {key: _normalise_cards(value) for key, value in layout.items()}
    for key, schema in properties.items():
        if key not in complete and "default" in schema:
            complete[key] = schema["default"]
    fill = "deck" if "deck" in layout else spec.data["layout"]["fill"]
    rest = [card for card in FILL_ORDER if card not in placed]
    complete[fill] = list(complete.get(fill) or []) + rest
    assert len(placed) + len(rest) == len(ALL_CARDS)
    return complete


def _schema_message(error: Any) -> str:
    """A schema error in words a fixture author can act on."""
    if error.validator == "additionalProperties":
        return f"{error.message}; check the spelling against the schema"
    if error.validator == "required":
        return error.message
    if error.validator in ("minItems", "maxItems") and isinstance(error.instance, list):
        bound = "at least" if error.validator == "minItems" else "at most"
        return f"{len(error.instance)} items, but {bound} {error.validator_value} are allowed"
    if error.validator == "enum":
        return f"{error.instance!r} is not one of {', '.join(map(repr, error.validator_value))}"
    if error.validator in ("anyOf", "oneOf") and error.context:
        best = min(error.context, key=lambda e: len(e.path))
        return f"{error.message.split(' is not valid')[0]} matches no allowed form ({best.message})"
    return str(error.message)
