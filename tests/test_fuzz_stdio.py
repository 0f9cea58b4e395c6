"""Fuzz and properties over stdio find what they find in process: the same failure, charged to
the same move and check, though a step's calls go out in one batch and the hidden-card twins
wait until the game is over (a remote engine holds one game at a time)."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import fake_engines as fakes
import pytest

from harness.findings.model import Divergence, Finding, Violation
from harness.fuzzing.campaign import FuzzOptions, FuzzResult, fuzz
from harness.fuzzing.properties import check_properties
from reference_engine import create

pytestmark = pytest.mark.skipif(not (Path(__file__).parents[1] / "harness" / "adapters").is_dir(),
                                reason="no protocol adapters")


class ObservationOffAfterAMove(fakes.WrappedGame):
    """Once an action is applied, seat 1's observation is a round ahead."""

    def observation(self, seat: int) -> dict[str, Any]:
        view = super().observation(seat)
        if self.calls and seat == 1:
            view["round"] += 1
        return view


class DropsTheLastActionAfterAMove(fakes.WrappedGame):
    """Once an action is applied, the last legal action is not listed."""

    def legal_actions(self) -> list[dict[str, Any]]:
        actions = super().legal_actions()
        return actions[:-1] if self.calls else actions


class LeaksHiddenHands(fakes.WrappedGame):
    """Every seat's observation is the full state view."""

    def observation(self, seat: int) -> dict[str, Any]:
        return self.inner.state()  # type: ignore[no-any-return]


# The factories ``serve --engine test_fuzz_stdio:NAME`` runs; in process the test calls them too.
def accepts_everything() -> Any:
    return fakes.make(fakes.AcceptsEverything)


def refusal_changes_state() -> Any:
    return fakes.make(fakes.RefusalChangesState)


def observation_off() -> Any:
    return fakes.make(ObservationOffAfterAMove)


def drops_last_action() -> Any:
    return fakes.make(DropsTheLastActionAfterAMove)


def leaks_hidden_hands() -> Any:
    return fakes.make(LeaksHiddenHands)


def lists_then_refuses() -> Any:
    return fakes.make(fakes.ListsThenRefuses)


@contextmanager
def served(name: str, monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    """The fake ``name`` behind ``cardverse-conformance serve``, over stdio."""
    from harness.adapters import subprocess_engine

    monkeypatch.setenv("PYTHONPATH", str(Path(__file__).parent))
    with subprocess_engine([sys.executable, "-m", "harness", "serve", "--engine", f"test_fuzz_stdio:{name}"]) as engine:
        yield engine


def both(name: str, run: Any, monkeypatch: pytest.MonkeyPatch) -> tuple[Finding, Finding]:
    """The finding of ``run(engine)`` in process and over stdio."""
    local: FuzzResult = run(globals()[name]())
    with served(name, monkeypatch) as engine:
        remote: FuzzResult = run(engine)
    assert local.finding is not None and remote.finding is not None, (local.finding, remote.finding)
    return local.finding, remote.finding


def same(local: Finding, remote: Finding) -> None:
    """The two findings are the same game, failing the same way."""
    assert (remote.setup, remote.moves) == (local.setup, local.moves)
    assert type(remote.failure) is type(local.failure)
    assert vars(remote.failure) == vars(local.failure)


def diverging(name: str, game: str, monkeypatch: pytest.MonkeyPatch) -> tuple[Divergence, Any]:
    """The divergence fuzz finds on the fake ``name`` over stdio (the same as in process), and the
    reference game at the position before it."""
    local, remote = both(name, lambda engine: fuzz(engine, FuzzOptions(game, examples=10, shrink=False)), monkeypatch)
    same(local, remote)
    failure = remote.failure
    assert isinstance(failure, Divergence) and failure.index == len(remote.moves)
    reference = create().start(remote.setup.as_dict())
    for move in remote.moves:
        reference.apply(move.seat, move.action)
    return failure, reference


# One fake engine per kind of divergence, each wrong only once an action is applied: the failure
# comes from a step's batch (the answer to apply, the views after it, the next legal actions).
def test_an_accepted_refusal_over_stdio_is_charged_to_its_move(monkeypatch: pytest.MonkeyPatch) -> None:
    failure, reference = diverging("accepts_everything", "rummy", monkeypatch)
    assert failure.kind == "apply" and failure.move is not None
    seat, action = failure.move.seat, failure.move.action
    reason = reference.apply(seat, action)
    assert reason is not None and failure.move.reason == reason
    assert failure.message == f"seat {seat} {json.dumps(action)}: the reference refused ({reason}), the engine accepted"


def test_a_wrong_state_view_over_stdio_is_charged_to_the_move_and_its_state_check(
        monkeypatch: pytest.MonkeyPatch) -> None:
    failure, reference = diverging("refusal_changes_state", "gin-rummy", monkeypatch)
    assert failure.kind == "state" and failure.move is not None and failure.move.reason is not None
    assert reference.apply(failure.move.seat, failure.move.action) == failure.move.reason
    stock = reference.state()["stock_size"]
    assert (failure.message, failure.details) == ("the state view differs after the move",
                                                  [f"stock_size: reference {stock}, engine {stock - 1}"])
    assert failure.check == {"state": {"stock_size": stock}}


def test_a_wrong_observation_over_stdio_is_charged_to_the_move_and_the_seat(monkeypatch: pytest.MonkeyPatch) -> None:
    failure, reference = diverging("observation_off", "president", monkeypatch)
    assert failure.kind == "observation" and failure.move is not None
    reference.apply(failure.move.seat, failure.move.action)
    round_ = reference.observation(1)["round"]
    assert (failure.message, failure.details) == ("seat 1's observation differs after the move",
                                                  [f"round: reference {round_}, engine {round_ + 1}"])
    assert failure.check == {"observe": {"seat": 1, "state": {"round": round_}}}


def test_a_missing_legal_action_over_stdio_is_charged_to_the_position_after_the_move(
        monkeypatch: pytest.MonkeyPatch) -> None:
    failure, reference = diverging("drops_last_action", "rummy", monkeypatch)
    missing = reference.legal_actions()[-1]
    assert failure.kind == "legal" and failure.move is None and failure.index >= 1
    assert (failure.message, failure.details) == ("the legal actions differ", [f"missing: {json.dumps(missing)}"])
    assert failure.check == {"legal": {"includes": [missing]}}


def test_a_leaked_hand_over_stdio_is_found_by_the_twins_at_the_move_it_was_looked_at(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # over stdio the twins wait until the game is over; the violation is still charged to the move
    # at which they were set up, so the finding is the game the in-process run reports
    local, remote = both("leaks_hidden_hands", lambda engine: check_properties(
        engine, FuzzOptions("president", examples=10, shrink=False)), monkeypatch)
    same(local, remote)
    failure = remote.failure
    assert isinstance(failure, Violation) and failure.invariant == "hidden"
    assert failure.details[0].endswith("observation changes when only cards it cannot see move: hands differ")


def test_a_listed_action_refused_over_stdio_is_found_on_the_copies(monkeypatch: pytest.MonkeyPatch) -> None:
    local, remote = both("lists_then_refuses", lambda engine: check_properties(
        engine, FuzzOptions("rummy", examples=10, shrink=False)), monkeypatch)
    same(local, remote)
    failure = remote.failure
    assert isinstance(failure, Violation) and failure.invariant == "legal-accepted"
    assert all(d.endswith("is listed as legal but refused (wrong-phase)") for d in failure.details)


class LeaksThenLosesACard(LeaksHiddenHands):
    """Leaks every hand; ten actions after the first refusal, seat 0's first card also vanishes from
    the view (never in Hypothesis' first game, all legal actions and no deep check)."""

    refused_at = 0

    def apply(self, seat: int, action: dict[str, Any]) -> str | None:
        reason = super().apply(seat, action)
        self.refused_at = self.refused_at or (self.calls if reason else 0)
        return reason

    def state(self) -> dict[str, Any]:
        view = super().state()
        if self.refused_at and self.calls >= self.refused_at + 10 and view["hands"][0]:
            view["hands"] = [view["hands"][0][1:], *view["hands"][1:]]
            view["hand_sizes"] = [view["hand_sizes"][0] - 1, *view["hand_sizes"][1:]]
        return view


def leaks_then_loses_a_card() -> Any:
    return fakes.make(LeaksThenLosesACard)


def test_a_check_put_off_fails_before_a_later_failure_and_is_the_one_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    # over stdio the twins that see the leak wait; the lost card is found later in the same game,
    # and the waiting twins run first: the leak, found first in process, is the finding both ways
    local, remote = both("leaks_then_loses_a_card", lambda engine: check_properties(
        engine, FuzzOptions("president", examples=10, shrink=False)), monkeypatch)
    same(local, remote)
    assert isinstance(remote.failure, Violation) and remote.failure.invariant == "hidden"


class NoMidGamePositions(fakes.FakeEngine):
    """Deals any layout, but raises when started on a President trick already led by a twin (a position
    fuzz generates leaves the seat to act to the engine, a twin names it)."""

    def start(self, setup: dict[str, Any]) -> Any:
        layout = setup.get("layout", {})
        if layout.get("trick") and layout.get("to_act") is not None:
            raise ValueError("no mid-game positions")
        return super().start(setup)


def no_mid_game_positions() -> Any:
    return NoMidGamePositions()


@pytest.mark.parametrize("run", [fuzz, check_properties])
def test_an_engine_raising_in_the_twins_over_stdio_is_charged_where_they_were_set_up(
        run: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    local, remote = both("no_mid_game_positions", lambda engine: run(
        engine, FuzzOptions("president", examples=10, shrink=False)), monkeypatch)
    assert (remote.setup, remote.moves) == (local.setup, local.moves)
    assert isinstance(local.failure, Violation) and isinstance(remote.failure, Violation)
    assert local.failure.invariant == remote.failure.invariant == "engine-error"
    assert local.failure.message == "the engine raised during an invariant check: ValueError: no mid-game positions"
    assert remote.failure.message.startswith("the engine raised during an invariant check: EngineError: ")
    assert remote.failure.message.endswith("ValueError: no mid-game positions")


def test_the_reference_side_of_a_step_is_computed_while_the_remote_engine_answers() -> None:
    # Each step's batch goes out first; the reference's own apply, views and legal actions are
    # made while the engine works on it, and asked from there: every reference call is made once.
    from harness.adapters import subprocess_engine
    from harness.fuzzing import lockstep

    made: list[str] = []
    precompute = lockstep.Side.precompute

    def counted(side: Any, calls: list[tuple[str, tuple[Any, ...]]]) -> None:
        made.extend(name for name, _ in calls)
        precompute(side, calls)

    with subprocess_engine([sys.executable, "-m", "harness", "serve"]) as engine:
        lockstep.Side.precompute = counted  # type: ignore[method-assign]
        try:
            result = fuzz(engine, FuzzOptions("president", examples=3))
        finally:
            lockstep.Side.precompute = precompute  # type: ignore[method-assign]
    assert result.finding is None
    assert made.count("apply") == result.steps > 0  # one precomputed apply a step, none made twice
