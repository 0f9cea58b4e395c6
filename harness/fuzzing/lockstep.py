"""One game played on two engines at once, compared at every step.

The reference engine decides nothing here except which actions are worth trying; what is
compared is everything the spec lets a fixture check: the legal actions, accept or refuse with
the reason, the state view and every seat's observation. The first difference ends the game
with a ``Divergence`` that says what a fixture step must assert to reproduce it.
"""

from __future__ import annotations

import json
import random
from typing import Any, Callable

from hypothesis import strategies as st

from harness.adapters.engine import Engine, Game
from harness.adapters.remote_game import padded
from harness.findings.games import TERMINAL_PHASES, GameFacts
from harness.findings.model import Divergence, Move, Setup
from harness.fuzzing.actions import Draw, choose_action, draw_style
from harness.fuzzing.invariants import Checker, guarded, raised
from harness.fuzzing.reach import GameReach
from harness.fuzzing.seeded_rounds import dealt, misdealt, shuffled_decks
from harness.spec.cards import action_key


class Side:
    """One engine's game, with every call guarded: an exception is a divergence, never a crash.

    ``plan`` asks a remote game (one with ``prefetch``) the calls a step is about to make in one
    batch; each call then takes its answer from the plan, so the same call is charged the same
    answer or error as when it was made alone.
    """

    def __init__(self, name: str, engine: Engine, setup: Setup, index: Callable[[], int]) -> None:
        self.name, self.index, self.engine = name, index, engine
        self.planned: dict[str, Any] = {}
        self.game = self.call("start()", engine.start, setup.as_dict())

    @property
    def game(self) -> Game:
        """The game played; another one (a replay) drops the answers planned for this one."""
        return self._game

    @game.setter
    def game(self, game: Game) -> None:
        self._game, self.planned = game, {}

    def plan(self, calls: list[tuple[str, tuple[Any, ...]]], meanwhile: Callable[[], None] | None = None) -> None:
        """Prefetch ``calls`` (method name, arguments) when the game can; nothing otherwise.
        ``meanwhile`` (the reference's side of the same calls) runs while the engine answers."""
        prefetch = getattr(self._game, "prefetch", None)
        if prefetch is None:
            return
        try:
            answers = list(prefetch(calls, meanwhile) if meanwhile is not None else prefetch(calls))
        except Exception as error:  # the start sent with them failed: every call answers with it
            answers = [error]
        # answers stop at a protocol failure: the calls after it get that failure, as they would alone
        self.planned = dict(zip((_call_key(name, args) for name, args in calls), padded(answers, len(calls))))

    def precompute(self, calls: list[tuple[str, tuple[Any, ...]]]) -> None:
        """Make ``calls`` now, in order, each answer (or what it raised) kept for when it is asked:
        an in-process game's work done while a remote engine answers the same calls."""
        for name, args in calls:
            try:
                answer = getattr(self._game, name)(*args)
            except Exception as error:  # raised again, and judged, when the call is asked
                answer = error
            self.planned[_call_key(name, args)] = answer

    def ask(self, what: str, name: str, *args: Any) -> Any:
        """The game's ``name(*args)``: its planned answer if there is one, else asked now."""
        if self.planned:
            key = _call_key(name, args)
            if key in self.planned:
                return self.call(what, raised, self.planned.pop(key))
        return self.call(what, getattr(self._game, name), *args)

    def call(self, what: str, function: Callable[..., Any], *args: Any) -> Any:
        """Call the engine; an exception becomes an error divergence."""
        try:
            return function(*args)
        except Divergence:
            raise
        except Exception as error:
            raise Divergence("error", self.index(), f"the {self.name} raised in {what}: "
                                                    f"{type(error).__name__}: {error}") from None

    def legal(self) -> list[dict[str, Any]]:
        """The legal actions, checked to be a list of mappings."""
        actions = self.ask("legal_actions()", "legal_actions")
        if not isinstance(actions, list) or not all(isinstance(a, dict) for a in actions):
            raise Divergence("error", self.index(), f"the {self.name}'s legal_actions() is not a list of actions")
        return actions

    def apply(self, seat: int, action: dict[str, Any]) -> str | None:
        """Apply; the answer is None or a reason code string."""
        reason = self.ask("apply()", "apply", seat, action)
        if reason is not None and not isinstance(reason, str):
            raise Divergence("error", self.index(), f"the {self.name}'s apply() returned {reason!r}")
        return reason  # type: ignore[no-any-return]

    def state(self) -> dict[str, Any]:
        """The state view."""
        return self.ask("state()", "state")  # type: ignore[no-any-return]

    def observation(self, seat: int) -> dict[str, Any]:
        """One seat's observation."""
        return self.ask(f"observation({seat})", "observation", seat)  # type: ignore[no-any-return]


def _call_key(name: str, args: tuple[Any, ...]) -> str:
    """A planned call's identity: its method and arguments (a step plans and asks with the same
    objects, so their repr is enough, and a tenth of the cost of JSON)."""
    return f"{name}{args!r}"


def views_after(players: int) -> list[tuple[str, tuple[Any, ...]]]:
    """The calls a step makes after its action, in order: the state view, every seat's
    observation, the next legal actions (none depends on another's answer)."""
    return [("state", ()), *[("observation", (seat,)) for seat in range(players)], ("legal_actions", ())]


class Lockstep:
    """Plays one setup on the engine under test and the reference, step by step."""

    def __init__(self, facts: GameFacts, engine: Engine, reference: Engine, setup: Setup,
                 invariants: bool = True, clones: bool = False, reference_side: Any = None,
                 positions: bool = True, illegal_only: bool = False) -> None:
        self.facts, self.setup = facts, setup
        self.illegal_only = illegal_only  # the engine declares reasons: illegal, so any refusal is that code
        self.moves: list[Move] = []
        self.steps = 0
        self.reached = GameReach()  # how far the game went, by the reference's views
        # A shared reference side (``herd``) answers many locksteps from one reference game.
        self.reference = reference_side or Side("reference engine", reference, setup, lambda: len(self.moves))
        self.tested = Side("engine", engine, setup, lambda: len(self.moves))
        self.checker = Checker(facts, engine, setup, clones, positions) if invariants else None

    def play(self, data: Draw, max_steps: int) -> None:
        """Play until the game stops, ``max_steps`` moves, or the first divergence (or a check put
        off until then that fails: it was found first, so it is the one raised)."""
        if self.checker is None:
            self._play(data, max_steps)
        else:
            self.checker.settled(lambda: self._play(data, max_steps), self.moves)

    def _play(self, data: Draw, max_steps: int) -> None:
        self.tested.plan(views_after(self.setup.players))
        expected, actual = self.reference.state(), self.tested.state()
        self.reached.see(expected)
        self.compare_deal(expected, actual)
        self.compare_views(expected, actual, None)
        style = draw_style(data)  # a style per game: melders and discarders, closers
        rng = random.Random(style.twin_seed)
        for _ in range(max_steps):
            if expected.get("phase") in TERMINAL_PHASES or expected.get("to_act") is None:
                self.compare_legal(actual)
                return
            legal = self.compare_legal(actual)
            # 9, not 0: a shrunk game keeps only the deep checks its failure needs
            if self.checker and data.draw(st.integers(0, 9), label="deep") == 9:
                checker = self.checker
                self.tested.game = guarded(lambda: checker.deep(
                    self.tested.game, actual, legal, lambda n: data.draw(st.integers(0, n - 1), label="pick"), rng,
                    at=len(self.moves)))
            seat, action = choose_action(data, self.facts, expected, legal, self.setup.players, style)
            expected, actual = self.step(seat, action, expected, actual)

    def compare_legal(self, actual: dict[str, Any]) -> list[dict[str, Any]]:
        """Both engines list the same legal actions; the engine's list (checked against its view
        ``actual``) is returned."""
        wanted = self.reference.legal()
        listed = _during(None, {"legal": {"count": len(wanted)}}, self.tested.legal)
        want, have = {action_key(a): a for a in wanted}, {action_key(a): a for a in listed}
        if want == have and len(listed) == len(have) and listed != wanted:
            index = next(i for i, (a, b) in enumerate(zip(listed, wanted)) if a != b)
            raise Divergence("legal", len(self.moves), "the legal actions are not listed in the canonical order",
                             [f"first misplaced: {json.dumps(listed[index])} listed at position {index + 1}, "
                              f"where the canonical order has {json.dumps(wanted[index])}",
                              "list them in the order the game file states (its engine conventions)"],
                             check={"legal": {"exactly": wanted}}, actual={"legal": listed})
        if want != have or len(listed) != len(have):
            missing = [a for k, a in want.items() if k not in have]
            extra = [a for k, a in have.items() if k not in want]
            check: dict[str, Any] = {}
            if missing:
                check["includes"] = missing
            if extra:
                check["excludes"] = extra
            if not check:  # the same actions, one listed twice
                check["count"] = len(wanted)
            refused = self.reference_answer(self.reference.state()["to_act"], extra[0]) if extra else None
            raise Divergence("legal", len(self.moves), "the legal actions differ",
                             [f"missing: {json.dumps(a)}" for a in missing] + [f"not legal, but listed: {json.dumps(a)}"
                                                                              for a in extra]
                             or [f"{len(listed)} listed, {len(have)} distinct"], check={"legal": check},
                             refused=refused, actual={"legal": listed})
        if self.checker:
            checker = self.checker
            guarded(lambda: checker.position(actual, listed))
        return listed

    def reference_answer(self, seat: Any, action: dict[str, Any]) -> Move | None:
        """How the reference answers ``action`` here, tried on a replay of the game so far."""
        if type(seat) is not int:
            return None
        clone = getattr(self.reference.game, "clone", None)
        if callable(clone):
            game = clone()
        else:  # a reference without clone(): replay the game so far
            game = self.reference.engine.start(self.setup.as_dict())
            for move in self.moves:
                game.apply(move.seat, move.action)
        return Move(seat, action, game.apply(seat, action))

    def step(self, seat: int, action: dict[str, Any], expected: dict[str, Any],
             actual: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
        """Apply one action on both and compare; the new views."""
        calls = [("apply", (seat, action)), *views_after(self.setup.players)]
        precompute = getattr(self.reference, "precompute", None)  # a herd's shared reference answers alone
        self.tested.plan(calls, (lambda: precompute(calls)) if precompute is not None else None)
        want = self.reference.apply(seat, action)
        move = Move(seat, action, want)
        got = _during(move, {}, self.tested.apply, seat, action)
        self.steps += 1
        if want != got and not (self.illegal_only and want is not None and got == "illegal"):
            said = lambda r: "accepted" if r is None else f"refused ({r})"  # noqa: E731
            raise Divergence("apply", len(self.moves), f"seat {seat} {json.dumps(action)}: the reference "
                                                       f"{said(want)}, the engine {said(got)}", move=move,
                             actual={"apply": got})
        after_expected = self.reference.state()
        self.reached.see(after_expected, expected, action if want is None else None)
        after_actual = _during(move, {"state": {"phase": after_expected.get("phase")}}, self.tested.state)
        if after_expected.get("round") != expected.get("round"):
            self.compare_deal(after_expected, after_actual, move)
        self.compare_views(after_expected, after_actual, move)
        if self.checker:
            checker = self.checker
            guarded(lambda: checker.move(actual, after_actual, seat, action, got))
        self.moves.append(move)
        return after_expected, after_actual

    def compare_deal(self, expected: dict[str, Any], actual: Any, move: Move | None = None) -> None:
        """In a seeded game, at the start of a round: the engine dealt it as the spec deals the seed
        (worked out apart from either engine), before anything else of its view is compared."""
        seed = self.setup.seed
        if seed is None or type(expected.get("round")) is not int:
            return
        number = expected["round"]
        if not isinstance(actual, dict) or actual.get("round") != number:
            return  # the engine is not at that round's start: when a round ends is no deal's mistake
        # dealt from the first seat or by the dealer the engine says: a wrong one is not the deal's mistake
        seat = actual.get({"rummy": "first", "gin-rummy": "dealer"}.get(self.facts.game, ""))
        seat = seat if type(seat) is int and 0 <= seat < self.setup.players else None
        deal = dealt(self.facts.game, shuffled_decks(seed, number)[-1], self.setup.players, number, seat)
        wrong = misdealt(self.facts.game, actual, deal, expected)
        if wrong:
            if move is not None:  # the move that ended the round is part of the replay that shows the deal
                self.moves.append(move)
            # a finding with no check: a fixture cannot show it (fixtures have no seeds), its replay can
            raise Divergence("deal", len(self.moves),
                             f"the engine deals round {number} of seed {seed} ({self.setup.players} players) differently "
                             "from the game file's `deal` (spec/seeded-deal.md)",
                             wrong + ["each round shuffles a fresh fill-order deck with the game's one generator "
                                      "(a later round continues its sequence); fix the deal, or declare "
                                      "\"seeded_deal\": false in describe() features"])

    def compare_views(self, expected: dict[str, Any], actual: dict[str, Any], move: Move | None) -> None:
        """The state views are equal, and so is every seat's observation."""
        where = "after the move" if move else "at the start"
        if actual != expected:
            keys = _differing(expected, actual)
            raise Divergence("state", len(self.moves), f"the state view differs {where}",
                             [f"{k}: reference {json.dumps(expected.get(k))}, engine {json.dumps(actual.get(k))}"
                              for k in keys], move=move, check={"state": {k: expected[k] for k in keys if k in expected}},
                             actual=_values(actual, keys))
        for seat in range(self.setup.players):
            want = self.reference.observation(seat)
            have = _during(move, {"observe": {"seat": seat, "state": {"phase": want.get("phase")}}},
                           self.tested.observation, seat)
            if want != have:
                keys = _differing(want, have)
                raise Divergence("observation", len(self.moves), f"seat {seat}'s observation differs {where}",
                                 [f"{k}: reference {json.dumps(want.get(k))}, engine {json.dumps(have.get(k))}"
                                  for k in keys], move=move,
                                 check={"observe": {"seat": seat, "state": {k: want[k] for k in keys if k in want}}},
                                 actual=_values(have, keys))


def _differing(expected: dict[str, Any], actual: Any) -> list[str]:
    """The top-level keys whose values differ."""
    if not isinstance(actual, dict):
        return sorted(expected)
    return sorted(k for k in set(expected) | set(actual) if expected.get(k) != actual.get(k))


def _values(view: Any, keys: list[str]) -> dict[str, Any]:
    """The engine's values of ``keys`` (none when its view is not a mapping)."""
    return {k: view[k] for k in keys if k in view} if isinstance(view, dict) else {}


def _during(move: Move | None, check: dict[str, Any], function: Callable[..., Any], *args: Any) -> Any:
    """Call the engine under test; an error divergence learns the move and the check that reaches it."""
    try:
        return function(*args)
    except Divergence as divergence:
        divergence.move = divergence.move or move
        divergence.check = divergence.check or check
        raise
