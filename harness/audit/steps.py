"""A fixture's failing step charged to the clauses the reference's clause trace names for what differs there
(``reference_engine.clauses.trace``), within the fixture's clauses: as fuzz charges a divergence
(``fuzzing.blame``) and audit a record's first wrong move (``traced``).

The fixture is played on the reference up to the failing step with the trace on, then the step once more:

* the answer to the step's action (accepted, refused, the reason): the clauses that refused or admitted it;
* a value of a view: the clauses that decided a differing path at the step, else at the latest step before
  it (or the deal) whose notes name that path;
* the legal list: the clauses that refuse or admit each action in dispute, tried on the reference, then
  those that shaped the list of their kinds;
* an error at a step: as its action's answer, then whatever the step noted; an error while starting: what
  admitted the layout (``legal``), else nothing, for the layout is not what the fixture checks.

When the trace names none of the fixture's clauses, the verdict says so (None) and the failure stays charged
to the step's own ``clauses``, else the fixture's (``FixtureResult.charged``).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from harness.findings.clauses import meeting
from harness.run.play import Play
from harness.run.verdicts import Differs, FixtureResult
from harness.spec import gamespec as specs
from harness.suite.model import Scenario, Step
from harness.suite.patterns import meld_index, names_meld_by_cards

if TYPE_CHECKING:
    from reference_engine.clauses.trace import Notes

TRIED = 8  # actions in dispute of a legal list tried on the reference with the trace on
NO_RULE_AT_START = ("never-started", "protocol", "timeout")  # errors of the transport, before any rule was asked


def charge(result: FixtureResult, scenario: Scenario) -> FixtureResult:
    """``result``, a failure or error charged at its step as ``blamed`` says (then read ``result.charged``):
    the one charge of ``run``, the pytest plugin and the mutation score."""
    if result.outcome in ("fail", "error"):
        result.blamed = blamed(result, scenario)
    return result


def blamed(result: FixtureResult, scenario: Scenario) -> tuple[str, ...] | None:
    """The clauses of ``scenario`` the trace charges ``result`` (a failure or an error) to; None: it names none."""
    if result.outcome not in ("fail", "error"):
        return None
    if result.step is None:
        if result.outcome != "error":
            return None
        if result.error_kind in NO_RULE_AT_START or result.rule_version is None:
            return ()  # the engine never took the setup: no rule of the fixture was asked
    spec = next((s for s in specs.specs_in_range(scenario.game, scenario.rule_versions)
                 if s.rule_version == result.rule_version), None)
    if spec is None:
        return None
    try:
        traced = _traced(scenario, spec, result.step, result.differs)
    except Exception:  # noqa: BLE001 - the reference cannot play this fixture (a game it lacks): no trace
        return () if result.step is None else None
    within = tuple(c for c in dict.fromkeys(traced) if c in scenario.clauses)
    if result.step is None:
        return within
    return within or None


def _traced(scenario: Scenario, spec: specs.GameSpec, step: Step | None, differs: Differs | None) -> list[str]:
    """The clauses the trace notes for what differs at ``step`` (None: the start), in the order the rules applied."""
    from reference_engine import create

    setup = Play(scenario, spec).setup()
    reference = create()
    if step is None:
        with _recording() as notes:
            reference.start(setup)
        return meeting(notes, ["legal"])
    before = [s for s in scenario.steps[:step.index] if s.action is not None]
    game, earlier = _replayed(reference, setup, before)
    what = differs.what if differs is not None else "error"
    if what in ("apply", "error"):
        if step.action is None:
            return [] if what == "apply" else [c for notes in earlier[-1:] for c, _ in notes]
        with _recording() as notes:
            game.apply(step.seat, _resolved(game, step.action))
        found = meeting(notes, ["refused"]) + meeting(notes, ["legal"])
        return found + ([c for c, _ in notes] if what == "error" else [])
    if step.action is not None:
        with _recording() as notes:
            game.apply(step.seat, _resolved(game, step.action))
        earlier.append(notes)
        before.append(step)
    assert differs is not None
    if what == "legal":
        return _legal(reference, setup, before, game, spec, differs)
    for notes in reversed(earlier):  # the step's own notes, then the latest before it that decided the path
        found = meeting([n for n in notes if n[1]], list(differs.paths))
        if found:
            return found
    return []


def _legal(reference: Any, setup: dict[str, Any], before: list[Step], game: Any, spec: specs.GameSpec,
           differs: Differs) -> list[str]:
    """Why the reference refuses or admits each action in dispute, then what shaped the list of their kinds."""
    seat = game.state().get("to_act")
    found: list[str] = []
    for action in differs.actions[:TRIED]:
        tried, _ = _replayed(reference, setup, before)
        with _recording() as notes:
            tried.apply(seat, action)
        found += meeting(notes, ["refused"]) + meeting(notes, ["legal"])
    with _recording() as notes:
        game.legal_actions()
    kinds = dict.fromkeys(spec.action_kind(a) for a in differs.actions)
    return found + meeting(notes, [f"legal.{k}" for k in kinds if k] or ["legal"])


def _replayed(reference: Any, setup: dict[str, Any], steps: list[Step]) -> tuple[Any, list[Notes]]:
    """The reference's game after the deal and ``steps``' actions, with the notes of each (the deal's first)."""
    with _recording() as notes:
        game = reference.start(setup)
    recorded = [notes]
    for step in steps:
        with _recording() as notes:
            game.apply(step.seat, _resolved(game, step.action or {}))
        recorded.append(notes)
    return game, recorded


def _resolved(game: Any, action: dict[str, Any]) -> dict[str, Any]:
    """A lay-off naming its meld by cards with the index of that meld on the reference's table."""
    if not names_meld_by_cards(action):
        return action
    index = meld_index(game.state().get("melds"), action["onto"])
    return {**action, "onto": index}


@contextmanager
def _recording() -> Iterator[Notes]:
    """The trace's notes of the ``with`` block."""
    from reference_engine.clauses.trace import recording

    with recording() as notes:
        yield notes
