"""Many engines fuzzed by the same games at once: the mutants command's shared campaign.

Each generated game is played on the reference once and, in lockstep, on every engine of the
herd not yet found out; an engine whose answers differ is found (at that game) and leaves the
herd. The games are drawn as ``fuzz`` draws them (same setups, same choice of actions, without the
costly deep checks), and the drawing and the reference's answers are shared by the whole herd.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import Any

from harness.adapters.engine import Engine
from harness.findings.clauses import divergence_clause
from harness.findings.games import TERMINAL_PHASES, GameFacts
from harness.findings.games import facts as game_facts
from harness.findings.model import Divergence, Setup, Violation
from harness.fuzzing.actions import Draw, choose_action, draw_style
from harness.fuzzing.blame import charge
from harness.fuzzing.campaign import FuzzOptions, budget_of, quick, run_examples
from harness.fuzzing.lockstep import Lockstep, Side
from harness.fuzzing.setups import draw_setup


class Done(Exception):
    """Every engine of the herd is found: no more games."""


@dataclass(frozen=True)
class Found:
    """When an engine of the herd was found out."""

    examples: int  # the games played until then, that one included
    moves: int  # the moves of that game before the difference
    seconds: float
    failure: str  # what differed
    clause: str = ""  # the clause the difference is charged to (an invariant: its name)


class SharedReference:
    """The reference side of every lockstep of a game: each answer computed once a turn."""

    def __init__(self, engine: Engine, setup: Setup, index: Any) -> None:
        self.side = Side("reference engine", engine, setup, index)
        self.engine = engine
        self.cache: dict[str, Any] = {}

    @property
    def game(self) -> Any:
        """The reference's game (``Lockstep.reference_answer`` clones it)."""
        return self.side.game

    def _once(self, key: str, compute: Any) -> Any:
        if key not in self.cache:
            self.cache[key] = compute()
        return json.loads(json.dumps(self.cache[key]))  # a copy: a lockstep may keep or change what it gets

    def legal(self) -> list[dict[str, Any]]:
        """The reference's legal actions this turn."""
        return self._once("legal", self.side.legal)  # type: ignore[no-any-return]

    def state(self) -> dict[str, Any]:
        """The reference's state view this turn."""
        return self._once("state", self.side.state)  # type: ignore[no-any-return]

    def observation(self, seat: int) -> dict[str, Any]:
        """A seat's observation this turn."""
        return self._once(f"observation {seat}", lambda: self.side.observation(seat))  # type: ignore[no-any-return]

    def move(self, seat: int, action: dict[str, Any]) -> None:
        """Play the turn's action on the reference: a new turn, whose answers are asked afresh."""
        self.cache = {"apply": (seat, action, self.side.apply(seat, action))}

    def apply(self, seat: int, action: dict[str, Any]) -> str | None:
        """The reference's answer to the turn's action (played once, by ``move``)."""
        played_seat, played, reason = self.cache["apply"]
        assert (played_seat, played) == (seat, action), "a lockstep of the herd played another action"
        return reason  # type: ignore[no-any-return]


def fuzz_herd(engines: dict[str, Engine], options: FuzzOptions, reference: Engine | None = None) -> dict[str, Found | None]:
    """Fuzz every engine of ``engines`` (all of one game) with the same games; when each was found."""
    if reference is None:
        from reference_engine import create

        reference = create()
    facts = game_facts(options.game, options.rule_version)
    game = reference.describe()["games"][facts.game]
    found: dict[str, Found | None] = {name: None for name in engines}
    started = time.perf_counter()
    examples = 0

    def one_game(hypothesis_data: Draw) -> None:
        nonlocal examples
        data = quick(hypothesis_data)  # the draws without Hypothesis' per-draw bookkeeping
        examples += 1
        alive = [name for name, f in found.items() if f is None]
        setup, _ = draw_setup(data, facts, reference, set(game.get("options", [])), game.get("option_ranges"),
                              seeded=True)  # the reference deals seeds: so must every mutant
        moves: list[Any] = []
        shared = SharedReference(reference, setup, lambda: len(moves))
        herd: dict[str, Lockstep] = {}

        def out(name: str, failure: Divergence | Violation) -> None:
            charge(facts, reference, setup, herd[name].moves if name in herd else [], failure)
            found[name] = Found(examples, len(herd[name].moves) if name in herd else 0, time.perf_counter() - started,
                                str(failure), charged_to(facts, failure))
            herd.pop(name, None)

        for name in alive:
            try:
                # No invariant checks: they run only on views equal to the reference's, which keeps them.
                herd[name] = Lockstep(facts, engines[name], reference, setup, invariants=False, reference_side=shared)
            except (Divergence, Violation) as failure:
                out(name, failure)
        _play(data, facts, shared, herd, moves, options.max_steps, setup.players, out)
        if not any(f is None for f in found.values()):
            # Every engine is found. Raised once the game is over: the draws of a game depend on
            # the draws alone (Hypothesis replays this game and must see the same draws).
            raise Done

    try:
        run_examples(one_game, budget_of(options), FuzzOptions(options.game, shrink=False), options.seed)
    except Done:
        pass
    return found


def charged_to(facts: GameFacts, failure: Divergence | Violation) -> str:
    """The clause a difference is charged to, as a fixture written from it would name it (an invariant: its name)."""
    return divergence_clause(facts, failure) if isinstance(failure, Divergence) else f"invariant {failure.invariant}"


def _play(data: Draw, facts: GameFacts, shared: SharedReference, herd: dict[str, Lockstep], moves: list[Any],
          max_steps: int, players: int, out: Any) -> None:
    """One game on the herd, as ``Lockstep.play`` plays it (without deep checks); played to its end
    on the reference even when the herd is empty, so the game is a function of the draws."""
    expected = shared.state()
    actual: dict[str, dict[str, Any]] = {}
    for name, lock in list(herd.items()):
        try:
            actual[name] = lock.tested.state()
            lock.compare_deal(expected, actual[name])
            lock.compare_views(expected, actual[name], None)
        except (Divergence, Violation) as failure:
            out(name, failure)
    style = draw_style(data)  # drawn as Lockstep.play draws it
    for _ in range(max_steps):
        for name, lock in list(herd.items()):
            try:
                lock.compare_legal(actual[name])
            except (Divergence, Violation) as failure:
                out(name, failure)
        if expected.get("phase") in TERMINAL_PHASES or expected.get("to_act") is None:
            return
        legal = shared.legal()
        seat, action = choose_action(data, facts, expected, legal, players, style)
        shared.move(seat, action)  # the reference moves on even when the herd is empty
        for name, lock in list(herd.items()):
            try:
                _, actual[name] = lock.step(seat, action, expected, actual[name])
            except (Divergence, Violation) as failure:
                out(name, failure)
        expected = shared.state()
        moves.append((seat, action))

