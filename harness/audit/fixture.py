"""A disagreement as a fixture to review: the position before the move as a layout, the move, the rules' answer.

Written as fuzz writes its findings (``fuzzing.writer``): the expectations come from the reference
engine playing the fixture's own position, and the description says so.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from harness.audit.judge import Disagreement
from harness.findings.games import facts as game_facts
from harness.findings.layouts import position_layout
from harness.findings.model import Divergence, Finding, Move, Setup
from harness.findings.judged import fixture_data as player_data
from harness.findings.writer import fixture_data, fixture_text
from harness.host.files import write_inside
from harness.records.record import Record
from harness.run.runner import Runner
from harness.suite.fixtures import load_paths

DESCRIPTION = ("Written by `cardverse-conformance audit` from the record at {where}: {words}\n"
               "The expectations are the reference engine's in this position, not the rule text: check them "
               "against the clause, then move the file into fixtures/.\n")
# What a fixture checks after the move, per kind of disagreement (a decision needs only the answer).
CHECKS = {"decision": (), "round-end": ("phase", "round_results"), "result": ("round_results", "scores"),
          "scores": ("scores",), "game-result": ("phase", "game_result"), "state": (),
          "next-turn": ("to_act",)}


class NoFixture(Exception):
    """The disagreement cannot be written as a fixture (its position has no layout); the message says why."""


@dataclass(frozen=True)
class Written:
    """A fixture written, and whether it lints and passes on the reference."""

    path: Path
    problem: str | None  # None: lints clean and passes on the reference

    def words(self) -> str:
        """One line for the report."""
        return f"wrote {self.path}" + (f" ({self.problem})" if self.problem else " (lints, passes on the reference)")


def write_disagreement(record: Record, found: Disagreement, where: str, folder: Path, reference: Any) -> Written:
    """The fixture reproducing ``found`` in ``folder``, checked to lint and pass on ``reference``."""
    facts = game_facts(record.spec.game, record.spec.rule_version)
    if found.kind == "player":
        return _player_fixture(record, found, where, folder, reference)
    if found.position is None or (found.action is None and found.offered is None):
        raise NoFixture("it is not at a move")
    if found.opens_round and found.reference_reason == "not-your-turn":
        raise NoFixture(f"the seat to open round {found.round} is decided in the passage from the round before, "
                        "which a layout of this position leaves out; replay the record with `play --replay`")
    layout = position_layout(facts, found.position)
    if layout is None:
        raise NoFixture(f"a {facts.game} layout cannot start in phase {found.position.get('phase')!r}")
    setup = Setup(record.spec.game, record.spec.rule_version, dict(record.setup["options"]), layout)
    if found.offered is not None:  # the list offered before the move: the rules' list, checked in the position
        failure = Divergence("legal", 0, found.words(), check={"legal": _offered_check(found)})
    else:
        assert found.action is not None  # checked above: a disagreement with no list offered is at a move
        check = _expected(setup, found, reference) if CHECKS[found.kind] or found.kind == "state" else {}
        failure = Divergence("apply" if not check else "state", 0, found.words(),
                             move=Move(found.seat or 0, found.action, found.reference_reason), check=check)
    data = fixture_data(Finding(setup, [], failure))
    digest = hashlib.sha1(json.dumps([where, data["steps"]], sort_keys=True).encode()).hexdigest()[:10]
    data["id"] = f"{facts.game}.audit.{found.kind}-{digest}"
    data["title"] = f"Audit found: {found.words()}"[:200]
    data["description"] = DESCRIPTION.format(where=where, words=found.words())
    data["clauses"] = [found.clause]
    data["basis"] = facts.spec.clauses[found.clause].basis
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{data['id']}.yaml"
    path.write_text(fixture_text(data), encoding="utf-8")
    return Written(path, _problem(path, reference))


def _player_fixture(record: Record, found: Disagreement, where: str, folder: Path, reference: Any) -> Written:
    """A computer-player seat's decision that broke a position clause: the round from its first position a
    layout holds, its moves as steps, then the decision, expected as the clause's check allows."""
    facts = game_facts(record.spec.game)
    broken, trail = found.player
    assert found.position is not None, "a player disagreement is at a move"
    for start in range(len(trail.steps) + 1):  # the whole round's history: what the seat saw
        data = player_data(facts, record.setup, trail, start, found.position, broken, "`cardverse-conformance audit`")
        if data is not None:
            break
    else:
        raise NoFixture(f"no position of round {found.round} can be written as a {facts.game} layout")
    data["id"] = data["id"].replace(".players.", ".audit.player-", 1)
    data["description"] = DESCRIPTION.format(where=where, words=found.words()).replace(
        "The expectations are the reference engine's in this position, not the rule text",
        "The expectation is what the clause's check (from its rule text) allows")
    path = write_inside(folder, f"{data['id']}.yaml", fixture_text(data))
    return Written(path, _problem(path, reference))


def _expected(setup: Setup, found: Disagreement, reference: Any) -> dict[str, Any]:
    """The state keys to check after the move, as the reference shows them from the fixture's position."""
    game = reference.start(setup.as_dict())
    game.apply(found.seat, found.action)
    state = game.state()
    keys = CHECKS[found.kind] or found.check
    return {"state": {key: state[key] for key in keys if key in state}}


def _offered_check(found: Disagreement) -> dict[str, Any]:
    """A ``legal`` check of what the server's list got wrong: the actions it left out and those it added, or
    the rules' whole list when only the order differs."""
    offered = found.offered
    assert offered is not None
    if offered.extra or offered.missing:
        return {key: list(actions) for key, actions in (("includes", offered.missing), ("excludes", offered.extra))
                if actions}
    return {"exactly": list(offered.rules)}


def _problem(path: Path, reference: Any) -> str | None:
    """Why the written fixture does not do its job on the reference, or None."""
    loaded = load_paths([path])
    if loaded.errors or not loaded.scenarios:
        return f"does not lint: {loaded.errors[0] if loaded.errors else 'no scenario'}"
    result = Runner(reference).run(loaded.scenarios[0])
    return None if result.outcome == "pass" else f"{result.outcome} on the reference: {result.message}"
