"""Fixture files in, normalised scenarios out: schema, semantic lint, layout completion.

Every problem in every file is collected in one pass and reported as
``file:line:col: $.json.path: message``; nothing here raises on bad input.
"""

from __future__ import annotations

import copy
import os
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from harness import load_ahead
from harness import spec as specs
from harness.cards import ALL_CARDS, FILL_ORDER, is_card, normalise
from harness.checkpoints import INCLUDES, as_view, canonical_view, normalise_cards, walk
from harness.discovery import PathError, discover, display_path, fixture_files
from harness.patterns import names_meld_by_cards, pattern_validator
from harness.players import decisions
from harness.scenario_cache import ScenarioCache
from harness.schema_words import deepest, schema_message
from harness.semver import RangeError, parse_range
from harness.yamlsafe import Document, YamlError, load, quote, read_bounded

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
    reasons: tuple[str, ...] = ()  # every acceptable code (reason is the first)
    clauses: tuple[str, ...] = ()  # the clauses this step checks (a failure here is charged to them)
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
    needs: tuple[str, ...] = ()  # features named by the fixture, beyond those its layouts need

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
    path_errors: list[PathError] = field(default_factory=list)


class Loader:
    """Loads and lints fixture files one at a time, so that a run can start on the first.

    Iterating yields the clean scenarios in file order; ``errors`` collects every lint error
    (each also passed to ``on_error`` as it is found). Only the ids seen are kept, for the
    duplicate check, so memory does not grow with the scenarios.
    """

    def __init__(self, paths: Iterable[str | os.PathLike[str]], cache: ScenarioCache | None = None,
                 on_error: Callable[[LintError], object] | None = None) -> None:
        self.files, self.path_errors = discover(paths)
        self.cache, self.on_error = cache, on_error
        self.errors: list[LintError] = []
        self.ids: dict[str, str] = {}
        self.done = 0
        self._folders: dict[Path, str] = {}

    def __iter__(self) -> Iterator[Scenario]:
        try:
            yield from self._load_all()
        finally:
            if self.cache is not None:
                self.cache.flush()

    def _name(self, path: Path) -> str:
        """``display_path(path)``, working out each folder's part once (relpath is slow on 50,000 files)."""
        folder = self._folders.get(path.parent)
        if folder is None:
            folder = self._folders[path.parent] = display_path(path.parent)
        return path.name if folder == "." else os.path.join(folder, path.name)

    def _loaded(self) -> Iterator[tuple[Scenario | None, list[LintError]]]:
        """Each file's scenario (if clean) and errors, in order: from a loader process on a large suite."""
        names = [self._name(path) for path in self.files]
        if not load_ahead.wanted(len(self.files)):
            yield from (load_file(path, self.cache, name) for path, name in zip(self.files, names))
            return
        # not zip(names, ...): it would leave the loader suspended before its last cache writes
        for index, (record, errors) in enumerate(load_ahead.loaded(self.files, names, self.cache)):
            name = names[index]
            scenario = _from_record(record, name) if record is not None else None
            if record is not None and scenario is None:  # never dropped in silence
                errors = [LintError(name, 1, 1, "$", "the loader process sent a scenario this one cannot read; "
                                                     "please report this kit bug (CARDVERSE_NO_CACHE=1 may help)")]
            yield scenario, errors

    def _load_all(self) -> Iterator[Scenario]:
        """Each file in turn: its errors recorded, its scenario yielded when it is clean and new."""
        for scenario, errors in self._loaded():
            self.done += 1
            if scenario is not None and scenario.id in self.ids:
                errors = [LintError(scenario.file, scenario.line, scenario.column, "$.id",
                                    f"duplicate fixture id {scenario.id!r}, also in {self.ids[scenario.id]}; "
                                    "give one of them a new id")]
                scenario = None
            for error in errors:
                self.errors.append(error)
                if self.on_error is not None:
                    self.on_error(error)
            if scenario is not None:
                self.ids[scenario.id] = scenario.file
                yield scenario


def load_paths(paths: Iterable[str | os.PathLike[str]], cache: ScenarioCache | None = None) -> LoadResult:
    """Load and lint every fixture under ``paths``; duplicate ids are errors."""
    loader = Loader(paths, cache)
    scenarios = list(loader)
    return LoadResult(scenarios, loader.errors, len(loader.files), loader.path_errors)


def load_file(path: Path, cache: ScenarioCache | None = None,
              name: str | None = None) -> tuple[Scenario | None, list[LintError]]:
    """One fixture file, shown as ``name`` (its path from here): the scenario if it is clean, its errors; never raises."""
    name = name or display_path(path)
    try:
        data = read_bounded(path)
    except YamlError as error:
        return None, [LintError(name, error.line, error.column, "$", error.message)]
    except OSError as error:
        return None, [LintError(name, 1, 1, "$", f"cannot read the file ({error.strerror}); check the path and its permissions")]
    key = cache.key(data) if cache is not None else ""
    if cache is not None:
        record = cache.get(key)
        if record is not None:
            scenario = _from_record(record, name)
            if scenario is not None:
                return scenario, []
    scenario, errors = lint_bytes(name, data)
    if cache is not None and scenario is not None:
        cache.put(key, _to_record(scenario))
    return scenario, errors


def lint_bytes(name: str, data: bytes) -> tuple[Scenario | None, list[LintError]]:
    """Parse and lint a file's bytes; positions of every value are worked out only when there is an error."""
    scenario, errors = _lint(name, data, "top")
    if errors:
        scenario, errors = _lint(name, data, "all")
    return scenario, sorted(errors, key=lambda e: (e.line, e.column))


def _lint(name: str, data: bytes, marks: str) -> tuple[Scenario | None, list[LintError]]:
    """One pass: parse with ``marks``, then lint."""
    try:
        document = load(data, marks)
    except YamlError as error:
        return None, [LintError(name, error.line, error.column, json_path(error.path), error.message)]
    try:
        return _Linter(name, document).run()
    except Exception as error:  # a linter bug must cost one file, not the batch
        return None, [LintError(name, 1, 1, "$", f"the linter failed on this file ({type(error).__name__}: "
                                                 f"{quote(str(error))}); please report it with the file")]


_SCENARIO_FIELDS = tuple(f.name for f in fields(Scenario))
_STEP_FIELDS = tuple(f.name for f in fields(Step))


def _to_record(scenario: Scenario) -> dict[str, Any]:
    """A scenario as plain data for the cache (its file name is the reader's, so it is left out)."""
    record = {name: getattr(scenario, name) for name in _SCENARIO_FIELDS if name != "file"}
    record["steps"] = [{name: getattr(step, name) for name in _STEP_FIELDS} for step in scenario.steps]
    return record


def _from_record(record: Any, name: str) -> Scenario | None:
    """A cached scenario, or None when the record does not fit today's classes."""
    try:
        steps = tuple(Step(**step) for step in record["steps"])
        return Scenario(**{**record, "steps": steps, "file": name})
    except (TypeError, KeyError):
        return None


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
        for error in map(deepest, validator.iter_errors(value)):
            clean = False
            path = prefix + tuple(error.absolute_path)
            if error.validator == "additionalProperties" and isinstance(error.instance, dict):
                # point at the unexpected key itself, not at the mapping holding it
                allowed = error.schema.get("properties", {})
                extra = [key for key in error.instance if key not in allowed]
                path += tuple(extra[:1])
            self.error(path, schema_message(error))
        return clean

    def run(self) -> tuple[Scenario | None, list[LintError]]:
        """Lint the whole document; a scenario only when there is no error."""
        data = self.document.data
        if not isinstance(data, dict):
            self.error((), "a fixture is a mapping with id, title, game, rule_versions, clauses, basis, layout and steps")
            return None, self.errors
        if not self.schema_errors(specs.validator("fixture.schema.json"), data, ()):
            return None, self.errors
        try:
            parse_range(data["rule_versions"])
        except RangeError as error:
            self.error(("rule_versions",), str(error))
            return None, self.errors
        candidates = specs.specs_in_range(data["game"], data["rule_versions"])
        if not candidates:
            known = ", ".join(s.rule_version for s in specs.game_specs() if s.game == data["game"]) or "none"
            self.error(("rule_versions",), f"range {quote(data['rule_versions'])} matches no {data['game']} rule version "
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
        for i, step in enumerate(data["steps"]):
            for j, clause_id in enumerate(step.get("clauses", [])):
                if clause_id not in data["clauses"]:
                    self.error(("steps", i, "clauses", j), f"{clause_id!r} is not among the fixture's clauses; "
                                                           "add it to clauses or name another")
        if self.errors or layout is None or None in later:
            return None, self.errors
        scenario = Scenario(
            id=data["id"], title=data["title"], game=data["game"], rule_versions=data["rule_versions"],
            options=dict(data.get("options", {})), clauses=tuple(data["clauses"]), basis=data["basis"],
            layout=layout, later_layouts=tuple(item for item in later if item is not None),
            steps=tuple(s for s in steps if s is not None), file=self.name,
            line=self.document.position(("id",))[0], column=self.document.position(("id",))[1],
            description=data.get("description", ""), needs=tuple(data.get("needs", ())))
        return scenario, self.errors

    def check_options(self, spec: specs.GameSpec, options: dict[str, Any]) -> None:
        """Options must exist in the game file and have its type."""
        declared = spec.data["options"]
        for name, value in options.items():
            path = ("options", name)
            if name not in declared:
                self.error(path, f"unknown option {quote(name)} for {spec.game}; known: {', '.join(sorted(declared))}")
                continue
            option = declared[name]
            is_bool = isinstance(value, bool)
            if (option["type"] == "boolean") != is_bool:
                self.error(path, f"option {name!r} takes a{'' if option['type'] == 'integer' else ' '}"
                                 f"{'n integer' if option['type'] == 'integer' else 'true or false'}, not {quote(value)}")
            elif not is_bool and not option.get("minimum", value) <= value <= option.get("maximum", value):
                self.error(path, f"option {name!r} must lie in [{option.get('minimum', '')}, {option.get('maximum', '')}]")

    def check_clauses(self, spec: specs.GameSpec, data: dict[str, Any]) -> None:
        """Clause ids must exist in the game file; the basis must match them."""
        interpretations = 0
        for i, clause_id in enumerate(data["clauses"]):
            clause = spec.clauses.get(clause_id)
            if clause is None:
                self.error(("clauses", i), f"unknown clause {quote(clause_id)} for {spec.game} {spec.rule_version}; "
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
        if "seed" in layout:
            return self.check_seeded_layout(spec, layout, prefix, first)
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
        kind = layout_kind(layout, first)
        allowed = spec.data["conventions"]["layout_keys"][kind]
        for key in layout:
            if key in ("first", "dealer") and kind == "later":
                self.error(prefix + (key,), f"a later layout must not name {key!r}: the rules decide it")
                clean = False
            elif key not in allowed:
                self.error(prefix + (key,), f"a {_KIND_WORDS[kind]} gives only {', '.join(allowed)} "
                                            f"(spec/games/{spec.path.name}, conventions.layout_keys.{kind}); remove {key!r}")
                clean = False
        properties = spec.data["layout"]["schema"].get("properties", {})
        for key in ("first", "dealer"):
            if key in properties:
                if first and layout.get(key) is None:
                    self.error(prefix, f"the first layout must name {key!r}: no fixture depends on an unstated convention")
                    clean = False
        seen: dict[str, JsonPath] = {}
        for path, value in _card_slots(layout, spec.data["layout"]["card_fields"]):
            where = prefix + path
            if not is_card(value):
                self.error(where, f"{quote(value)} is not a card: rank A23456789TJQK then suit CDHS, e.g. QH or TD")
                clean = False
                continue
            card = normalise(value)
            if card in seen:
                self.error(where, f"card {card} appears twice (also at {json_path(prefix + seen[card])})")
                clean = False
            seen[card] = path
        if not clean:
            return None
        return complete_layout(spec, layout, set(seen), kind)

    def check_seeded_layout(self, spec: specs.GameSpec, layout: dict[str, Any], prefix: JsonPath,
                            first: bool) -> dict[str, Any] | None:
        """A seeded deal, ``{seed, players}``: the engine deals it (spec/seeded-deal.md)."""
        before = len(self.errors)
        players = spec.data["players"]
        if not first:
            self.error(prefix + ("seed",), "only the first layout may be a seed; the seed deals the later rounds too")
        for key in layout:
            if key not in ("seed", "players"):
                self.error(prefix + (key,), f"a seeded layout gives only seed and players; remove {key!r}")
        seed, seats = layout.get("seed"), layout.get("players")
        if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 2**53:
            self.error(prefix + ("seed",), f"{seed!r} is not a seed: an integer from 0 to 2^53-1 "
                                           "(larger ones are not exact in every JSON reader)")
        if not isinstance(seats, int) or isinstance(seats, bool) or not players["min"] <= seats <= players["max"]:
            self.error(prefix + ("players",), f"a seeded layout needs players, {players['min']} to {players['max']} "
                                              f"for {spec.game}")
        if len(self.errors) > before:
            return None
        return {"seed": seed, "players": seats}

    def check_step(self, spec: specs.GameSpec, step: dict[str, Any], index: int, players: int) -> Step | None:
        """An action in the vocabulary, a known reason, known state keys."""
        prefix: JsonPath = ("steps", index)
        before = len(self.errors)
        seat = step.get("seat")
        if seat is not None and players and seat >= players:
            self.error(prefix + ("seat",), f"seat {seat} does not exist: the layout has {players} players (seats 0..{players - 1})")
        given = step.get("reason")
        malformed_on_purpose = "malformed-action" in (given if isinstance(given, list) else [given])
        action = step.get("action")
        if action is not None and not malformed_on_purpose:
            self.check_action(spec, action, prefix + ("action",))
        reason = step.get("reason")
        codes = tuple(reason) if isinstance(reason, list) else (reason,) if reason is not None else ()
        for i, code in enumerate(codes):
            if code not in spec.reasons:
                where = prefix + (("reason", i) if isinstance(reason, list) else ("reason",))
                self.error(where, f"unknown reason code {quote(code)}; the closed list is in spec/reasons.yaml "
                                  f"and spec/games/{spec.path.name}")
        for key in ("state",):
            if key in step:
                self.check_state_keys(spec, step[key], prefix + (key,))
        if "observe" in step:  # a seat not at the table is an onlooker (conventions.absent_seat)
            self.check_state_keys(spec, step["observe"]["state"], prefix + ("observe", "state"))
        legal = step.get("legal", {})
        for key in ("exactly", "includes", "excludes"):
            for i, item in enumerate(legal.get(key, [])):
                self.check_action(spec, item, prefix + ("legal", key, i), pattern=key != "exactly")
        if "decide" in step:
            decisions.lint(self, spec, step["decide"], prefix + ("decide",))
        if len(self.errors) > before:
            return None
        order = spec.card_order
        return Step(
            index=index, line=self.document.position(prefix)[0], seat=seat,
            action=order.canonical(action) if action is not None else None,
            expect=step.get("expect", "accepted") if action is not None else None,
            reason=codes[0] if codes else None, reasons=codes, state=canonical_view(spec, step.get("state")),
            legal={k: (order.canonical(v) if k != "count" else v) for k, v in legal.items()} or None,
            observe=({"seat": step["observe"]["seat"], "state": canonical_view(spec, step["observe"]["state"])}
                     if "observe" in step else None),
            note=step.get("note"), clauses=tuple(step.get("clauses", ())),
            decide=decisions.canonical(spec, step.get("decide")))

    def check_action(self, spec: specs.GameSpec, action: dict[str, Any], path: JsonPath, pattern: bool = False) -> None:
        """The action belongs to the vocabulary and fits its schema (a pattern may leave keys out;
        a lay-off may name its target meld by its cards)."""
        kind = spec.action_kind(action)
        if kind is None:
            vocabulary = ", ".join(sorted(spec.data["actions"]))
            self.error(path, f"action outside the {spec.game} vocabulary: expected one of {vocabulary}")
            return
        if names_meld_by_cards(action):
            for i, card in enumerate(action["onto"]):
                if not is_card(card):
                    self.error(path + ("onto", i), f"{card!r} is not a card: onto names a meld by its cards, or its index")
            action = {**action, "onto": 0}
        validator = pattern_validator(spec, kind) if pattern else spec.action_validators[kind]
        self.schema_errors(validator, action, path)

    def check_state_keys(self, spec: specs.GameSpec, view: dict[str, Any], path: JsonPath) -> None:
        """A checkpoint names only keys of the state view, each with a value the view's schema allows."""
        for key in view:
            if key not in spec.state_fields:
                self.error(path + (key,), f"{quote(key)} is not part of the {spec.game} state view; "
                                          f"known: {', '.join(sorted(spec.state_fields))}")
        # card aliases (10D) are written canonically, seat-keyed mappings ({1: [...]}) read as the lists
        # they stand for; errors are then put back at the paths of the file
        keys: dict[JsonPath, list[Any]] = {}
        shaped = as_view(normalise_cards(view), (), keys)
        for error in map(deepest, spec.checkpoint_validator.iter_errors(shaped)):
            inner: JsonPath = ()
            for part in error.absolute_path:
                if inner in keys and isinstance(part, int):
                    inner += (keys[inner][part],) if keys[inner] != INCLUDES else ("includes", part)
                else:
                    inner += (part,)
            self.error(path + inner, schema_message(error))


_KIND_WORDS = {"position": "layout", "deck": "layout with a deck", "later": "later layout"}


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
        for path, value in walk(layout, tuple(pattern.split(".")), ()):
            if isinstance(value, list):
                for i, item in enumerate(value):
                    yield path + (i,), item


def layout_kind(layout: dict[str, Any], first: bool = True) -> str:
    """Which of the game file's ``conventions.layout_keys`` a layout has: position, deck or later."""
    if not first:
        return "later"
    return "deck" if "deck" in layout else "position"


def complete_layout(spec: specs.GameSpec, layout: dict[str, Any], placed: set[str],
                    kind: str | None = None) -> dict[str, Any]:
    """Exactly the keys ``conventions.layout_keys`` lists for its kind (schema defaults filled in),
    and every card placed (fill order, at ``fill``; at the bottom of the deck when a deck is given).
    """
    kind = kind or layout_kind(layout)
    properties = spec.data["layout"]["schema"].get("properties", {})
    keys = spec.data["conventions"]["layout_keys"][kind]
    complete = {key: normalise_cards(value) for key, value in layout.items() if key in keys}
    for key in keys:
        if key not in complete:
            complete[key] = copy.deepcopy(properties.get(key, {}).get("default"))
    fill = "deck" if kind == "deck" else spec.data["layout"]["fill"]
    rest = [card for card in FILL_ORDER if card not in placed]
    complete[fill] = list(complete.get(fill) or []) + rest
    assert len(placed) + len(rest) == len(ALL_CARDS)
    return complete
