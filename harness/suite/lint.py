"""The semantic lint of one parsed fixture: every problem at its path, and the scenario when there is none."""

from __future__ import annotations

from typing import Any

from harness.spec import gamespec as specs
from harness.spec.cards import is_card, normalise
from harness.spec.names import did_you_mean
from harness.spec.semver import RangeError, parse_range
from harness.suite import decide
from harness.suite.checkpoints import INCLUDES, as_view, canonical_view, normalise_cards
from harness.suite.layouts import (
    KIND_WORDS,
    card_slots,
    complete_layout,
    layout_kind,
    players_of,
    rest_piles,
)
from harness.suite.model import JsonPath, LintError, Scenario, Step, json_path
from harness.suite.patterns import names_meld_by_cards, pattern_validator
from harness.suite.schema_words import deepest, schema_message
from harness.suite.yamlsafe import Document, quote


class Linter:
    """Checks one parsed fixture and builds its scenario."""

    def __init__(self, name: str, document: Document) -> None:
        self.name, self.document = name, document
        self.errors: list[LintError] = []
        self.players = 0
        self.whole = True  # whether the fixture follows its schema (else a check may meet a part of the wrong shape)

    def error(self, path: JsonPath, message: str) -> None:
        """Record a problem at ``path``, once."""
        line, column = self.document.position(path)
        error = LintError(self.name, line, column, json_path(path), message)
        if error not in self.errors:
            self.errors.append(error)

    def has_error_at(self, path: JsonPath) -> bool:
        """Whether a problem is recorded at ``path`` already (a second check of it would say it again)."""
        return json_path(path) in {e.path for e in self.errors}

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
        """Lint the whole document, every independent check at once; a scenario only when there is no error."""
        data = self.document.data
        if not isinstance(data, dict):
            self.error((), "a fixture is a mapping with id, title, game, rule_versions, clauses, basis, layout and steps")
            return None, self.errors
        self.whole = self.schema_errors(specs.validator("fixture.schema.json"), data, ())
        spec = self.spec_of(data)
        if spec is None:  # without the game's file nothing else can be checked
            return None, self.errors
        scenario = self.checked(lambda: self.check_all(spec, data))
        return (scenario if not self.errors else None), self.errors

    def checked(self, check: Any) -> Any:
        """``check()``; on a fixture the schema refused, a part of the wrong shape skips the rest of that check
        (its schema error says what is wrong) instead of hiding every other error."""
        try:
            return check()
        except (TypeError, KeyError, AttributeError, ValueError, IndexError):
            if self.whole:
                raise
            return None

    def spec_of(self, data: dict[str, Any]) -> specs.GameSpec | None:
        """The game file the fixture is checked against: its range's newest, else the game's newest
        (after saying what is wrong with the range)."""
        game, versions = str(data.get("game")), data.get("rule_versions")
        known = [s for s in specs.game_specs() if s.game == game]
        if not known:
            return None  # the schema said which games there are
        if not isinstance(versions, str):
            return known[-1]
        try:
            parse_range(versions)
        except RangeError as error:
            self.error(("rule_versions",), str(error))
            return known[-1]
        candidates = specs.specs_in_range(game, versions)
        if not candidates:
            self.error(("rule_versions",), f"range {quote(versions)} matches no {game} rule version "
                                           f"in the spec (known: {', '.join(s.rule_version for s in known)})")
            return known[-1]
        return candidates[-1]

    def check_all(self, spec: specs.GameSpec, data: dict[str, Any]) -> Scenario | None:
        """Every check of a fixture whose game file is known, each on its own part."""
        self.checked(lambda: self.check_options(spec, data.get("options", {})))
        self.checked(lambda: self.check_clauses(spec, data))
        self.players = self.checked(lambda: players_of(data["layout"])) or 0
        layout = self.checked(lambda: self.check_layout(spec, data["layout"], ("layout",), first=True))
        layouts: list[Any] = data["later_layouts"] if isinstance(data.get("later_layouts"), list) else []
        later = [self.checked(lambda: self.check_layout(spec, item, ("later_layouts", i), first=False))
                 for i, item in enumerate(layouts)]
        steps: list[Any] = data["steps"] if isinstance(data.get("steps"), list) else []
        checked_steps = [self.checked(lambda: self.check_step(spec, step, i, self.players)) for i, step in enumerate(steps)]
        self.checked(lambda: self.check_step_clauses(data, steps))
        if self.errors or layout is None or None in later:
            return None
        return self.scenario(spec, data, layout, later, checked_steps)

    def check_step_clauses(self, data: dict[str, Any], steps: list[Any]) -> None:
        """A step names only clauses of the fixture."""
        for i, step in enumerate(steps):
            for j, clause_id in enumerate(step.get("clauses", [])):
                if clause_id not in data["clauses"]:
                    self.error(("steps", i, "clauses", j), f"{clause_id!r} is not among the fixture's clauses; "
                                                           "add it to clauses or name another")

    def scenario(self, spec: specs.GameSpec, data: dict[str, Any], layout: dict[str, Any],
                 later: list[Any], steps: list[Any]) -> Scenario:
        """The scenario of a clean fixture."""
        return Scenario(
            id=data["id"], title=data["title"], game=data["game"], rule_versions=data["rule_versions"],
            options=dict(data.get("options", {})), clauses=tuple(data["clauses"]), basis=data["basis"],
            layout=layout, later_layouts=tuple(item for item in later if item is not None),
            steps=tuple(s for s in steps if s is not None), file=self.name,
            line=self.document.position(("id",))[0], column=self.document.position(("id",))[1],
            description=data.get("description", ""), needs=tuple(data.get("needs", ())))

    def check_options(self, spec: specs.GameSpec, options: dict[str, Any]) -> None:
        """Options must exist in the game file and have its type."""
        declared = spec.data["options"]
        for name, value in options.items():
            path = ("options", name)
            if name not in declared:
                self.error(path, f"unknown option {quote(name)} for {spec.game}{did_you_mean(name, declared)}; "
                                 f"known: {', '.join(sorted(declared))}")
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
                self.error(("clauses", i), f"unknown clause {quote(clause_id)} for {spec.game} {spec.rule_version}"
                                           f"{did_you_mean(str(clause_id), spec.clauses)}; "
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
        rest = layout.get("rest")  # where the cards left out go: the kit's word, not the engine's
        layout = {key: value for key, value in layout.items() if key != "rest"}
        clean = self.rest_fits(spec, rest, prefix, layout_kind(layout, first))
        clean = self.schema_errors(spec.layout_validator, layout, prefix) and clean
        players = spec.data["players"]
        seats = players_of(layout)
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
                self.error(prefix + (key,), f"a {KIND_WORDS[kind]} gives only {', '.join(allowed)} "
                                            f"(spec/games/{spec.path.name}, conventions.layout_keys.{kind}); remove {key!r}")
                clean = False
        properties = spec.data["layout"]["schema"].get("properties", {})
        for key in ("first", "dealer"):  # a seat the game file gives no default for is never left to a guess
            if key in properties and "default" not in properties[key] and first and layout.get(key) is None:
                self.error(prefix, f"the first layout must name {key!r}: the game file gives it no default")
                clean = False
        seen: dict[str, JsonPath] = {}
        for path, value in card_slots(layout, spec.data["layout"]["card_fields"]):
            where = prefix + path
            if not is_card(value):
                if not self.has_error_at(where):  # the layout's schema may have said it
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
        return complete_layout(spec, {**layout, "rest": rest} if rest else layout, set(seen), kind)

    def rest_fits(self, spec: specs.GameSpec, rest: Any, prefix: JsonPath, kind: str) -> bool:
        """A layout's ``rest``, if any, names one of the game's piles that a layout of its kind gives."""
        piles = [pile for pile in rest_piles(spec) if pile in spec.data["conventions"]["layout_keys"][kind]]
        if rest is None or rest in piles:
            return True
        self.error(prefix + ("rest",), f"rest names the pile the cards a {KIND_WORDS[kind]} leaves out go to: "
                                       + (f"one of {', '.join(piles)} (default {spec.data['layout']['fill']})"
                                          if kind != "deck" else "a deck keeps every card, so give no rest"))
        return False

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
                self.error(where, f"unknown reason code {quote(code)}{did_you_mean(str(code), spec.reasons)}; the "
                                  f"closed list is in spec/reasons.yaml and spec/games/{spec.path.name}")
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
            decide.lint(self, spec, step["decide"], prefix + ("decide",))
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
            decide=decide.canonical(spec, step.get("decide")))

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
                self.error(path + (key,), f"{quote(key)} is not part of the {spec.game} state view"
                                          f"{did_you_mean(str(key), spec.state_fields)}; "
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
