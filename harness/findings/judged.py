"""A computer player's choice judged against its level's position clauses, and a broken one as a fixture.

The checks are the game files' (``check:`` of each position clause, harness/findings/rules/). A
broken clause is shrunk to the shortest history that still shows it: the position some moves
earlier in the same round rebuilt as a layout, the moves since as steps, then the decision. Its
expectation comes from the clause's check, not from a player: ``exactly`` the one legal action
that keeps the clause when there is one, else ``never`` every legal action that breaks it.
"""

from __future__ import annotations

import hashlib
import json
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from harness.adapters.player_view import History
from harness.findings.games import GameFacts
from harness.findings.layouts import position_layout
from harness.findings.verify import verify_fixture
from harness.findings.writer import fixture_text
from harness.host.files import write_inside
from harness.findings.rules import checks_of
from harness.spec.cards import action_key


@dataclass
class Trail:
    """The current round's decisions so far: the state before each, the seat and the action taken."""

    round: Any = None
    steps: list[tuple[dict[str, Any], int, dict[str, Any]]] = field(default_factory=list)

    def at(self, state: dict[str, Any]) -> None:
        """A new round starts the trail again."""
        if state.get("round") != self.round:
            self.round, self.steps = state.get("round"), []

    def took(self, state: dict[str, Any], seat: int, action: dict[str, Any]) -> None:
        """Note an accepted action and the state it was taken in."""
        self.steps.append((state, seat, action))


@dataclass(frozen=True)
class Broken:
    """A position clause a choice broke: the clause, why, and the decision's view and choice."""

    clause: str
    why: str
    view: dict[str, Any]
    choice: dict[str, Any]


def expectation(facts: GameFacts, clause: str, view: dict[str, Any]) -> dict[str, Any]:
    """What the clause's check allows here: ``exactly`` the one action that keeps it (for easy, fully determined:
    the one that keeps every clause of the level), else ``never`` every legal action that breaks it."""
    checks = dict(checks_of(facts.spec, view["level"]))
    order = facts.spec.card_order
    legal = [order.canonical(a) for a in view["legal"]]
    kept = [a for a in legal if checks[clause](view, a) is None]
    if view["level"] == "easy":
        whole = [a for a in kept if all(check(view, a) is None for check in checks.values())]
        kept = whole if len(whole) == 1 else kept
    if len(kept) == 1:
        return {"exactly": kept[0]}
    return {"never": [a for a in legal if a not in kept]}


def shortened(facts: GameFacts, trail: Trail, start: int, view: dict[str, Any]) -> dict[str, Any]:
    """The view with only the history of the trail's moves from ``start`` on (a fixture's layout starts there)."""
    history = History(facts.game)
    for state, seat, action in trail.steps[start:]:
        history.record(seat, action, state)
    return {**view, "history": history.seen_by(view["seat"], int(view["observation"].get("round", 1)))}


def fixture_data(facts: GameFacts, setup: dict[str, Any], trail: Trail, start: int, state: dict[str, Any],
                 broken: Broken, origin: str) -> dict[str, Any] | None:
    """The fixture of ``broken`` from the trail's position ``start`` on (its moves as steps); None if no layout."""
    first = trail.steps[start][0] if start < len(trail.steps) else state
    layout = position_layout(facts, first)
    if layout is None:
        return None
    spec, view = facts.spec, shortened(facts, trail, start, broken.view)
    steps: list[dict[str, Any]] = [{"seat": seat, "action": action} for _, seat, action in trail.steps[start:]]
    decide = {"level": view["level"], "seed": view["seed"], **expectation(facts, broken.clause, view)}
    steps.append({"decide": decide, "note": f"The {view['level']} player chose {action_key(broken.choice)}: {broken.why}."})
    major = int(spec.rule_version.split(".")[0])
    digest = hashlib.sha1(json.dumps([layout, steps], sort_keys=True).encode()).hexdigest()[:8]
    data: dict[str, Any] = {
        "id": f"{spec.game}.players.{broken.clause.split('.', 1)[1]}-seed{setup['seed']}-{digest}",
        "title": f"The {view['level']} player keeps {broken.clause} ({len(steps) - 1} moves of history)",
        "description": f"Written by {origin}: the check of {broken.clause} (from its rule text, "
                       "harness/findings/rules/) says what the player may choose here. Review, then move into fixtures/.",
        "game": spec.game, "rule_versions": f">={spec.rule_version} <{major + 1}.0.0",
    }
    options = {k: v for k, v in (setup.get("options") or {}).items() if spec.option_defaults.get(k) != v}
    if options:
        data["options"] = options
    data.update({"clauses": [broken.clause], "basis": spec.clauses[broken.clause].basis, "layout": layout,
                 "steps": steps})
    return data


def shrunk_fixture(facts: GameFacts, setup: dict[str, Any], trail: Trail, state: dict[str, Any], broken: Broken,
                   engine: Any, reference: Any, folder: Path, origin: str,
                   tried: Callable[[int], None] | None = None) -> tuple[Path | None, str]:
    """The fixture with the fewest moves of history that fails on ``engine`` and passes on the reference,
    written into ``folder``; else None, with why."""
    last = "no position of the round can be written as a layout"
    with tempfile.TemporaryDirectory(prefix="cardverse-players-") as scratch:
        for start in range(len(trail.steps), -1, -1):  # the latest position first: the shortest history
            data = fixture_data(facts, setup, trail, start, state, broken, origin)
            if data is None:
                continue
            if tried:
                tried(len(trail.steps) - start)
            path = write_inside(Path(scratch), "try.yaml", fixture_text(data))
            verdict = verify_fixture(path, engine, reference)
            if verdict.ok:
                return write_inside(folder, f"{data['id']}.yaml", fixture_text(data)), ""
            last = verdict.summary()
    return None, f"no shorter history showed it as a fixture (the last try: {last})"
