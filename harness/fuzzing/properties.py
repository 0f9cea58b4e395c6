"""The invariants on one engine alone: random games on its own deals, every step checked.

No reference engine is asked anything: the engine deals (a seeded setup), lists its legal
actions and answers; ``invariants`` judges those answers against what must hold for any
correct engine. A broken invariant is shrunk by Hypothesis to a short game.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from hypothesis import strategies as st

from harness.adapters.engine import Engine
from harness.findings.games import TERMINAL_PHASES, GameFacts
from harness.findings.games import facts as game_facts
from harness.findings.model import Divergence, Move, Setup, Violation
from harness.fuzzing.actions import Draw, choose_action, draw_style
from harness.fuzzing.campaign import (
    FuzzOptions,
    FuzzResult,
    declared,
    feature,
    run_campaign,
)
from harness.fuzzing.invariants import Checker, guarded
from harness.fuzzing.lockstep import Side


class Solo:
    """One game on one engine, every position and move checked, the costly checks one step in ``deep``."""

    def __init__(self, facts: GameFacts, engine: Engine, setup: Setup, clones: bool = False,
                 positions: bool = True) -> None:
        self.facts, self.setup = facts, setup
        self.moves: list[Move] = []
        self.checker = Checker(facts, engine, setup, clones, positions)
        try:
            self.side = Side("engine", engine, setup, lambda: len(self.moves))
        except Divergence as error:  # start() raised
            raise Violation("engine-error", error.message, error.details) from None

    @property
    def steps(self) -> int:
        """Moves played so far."""
        return len(self.moves)

    def play(self, data: Draw, max_steps: int, deep: int = 4) -> None:
        """Play until the game stops or ``max_steps`` moves; raise ``Violation`` on a broken invariant."""
        try:  # the checks put off until the game is over (a remote engine's twins) run last
            self.checker.settled(lambda: self._play(data, max_steps, deep), self.moves)
        except Divergence as error:  # the engine raised or answered out of contract
            raise Violation("engine-error", error.message, error.details) from None

    def _play(self, data: Draw, max_steps: int, deep: int) -> None:
        self.side.plan([("state", ()), ("legal_actions", ())])  # a remote engine: one batch a step
        view = self.side.state()
        style = draw_style(data)
        rng = random.Random(style.twin_seed)
        checker = self.checker
        for _ in range(max_steps + 1):
            legal = self.side.legal()
            checker.position(view, legal)
            if view.get("phase") in TERMINAL_PHASES or view.get("to_act") is None or len(self.moves) >= max_steps:
                return
            if data.draw(st.integers(0, deep - 1), label="deep") == deep - 1:  # shrinks to no deep check
                # the engine raising in a check's copies or twins is a violation, not a crash
                self.side.game = guarded(lambda: checker.deep(
                    self.side.game, view, legal, lambda n: data.draw(st.integers(0, n - 1), label="pick"), rng,
                    limit=None, at=len(self.moves)))
            seat, action = choose_action(data, self.facts, view, legal, self.setup.players, style)
            self.side.plan([("apply", (seat, action)), ("state", ()), ("legal_actions", ())])
            reason = self.side.apply(seat, action)
            after = self.side.state()
            checker.move(view, after, seat, action, reason)
            self.moves.append(Move(seat, action, reason))
            view = after


def check_properties(engine: Engine, options: FuzzOptions,
                     progress: Callable[[int, int], None] | None = None) -> FuzzResult:
    """Random games on ``engine`` alone; the result holds the shrunk violation, if any."""
    facts = game_facts(options.game, options.rule_version)
    game = declared(engine, facts)
    # Its own deals when it has the seeded deal, else the reference's deals as explicit layouts.
    if feature(game, "seeded_deal"):
        deals = engine
    else:
        from reference_engine import create

        deals = create()
    clones = feature(game, "clone")
    return run_campaign(options, facts, deals=deals, game=game,
                        start_play=lambda setup: Solo(facts, engine, setup, clones, feature(game, "positions")),
                        failures=(Violation,),
                        progress=progress)