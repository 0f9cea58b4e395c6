"""Invariants every correct engine keeps, checked on its own answers: no reference engine needed.

Each check returns the problems it found (an empty list when the invariant holds); ``Checker``
turns them into ``Violation`` exceptions while a game is played. The checks read only the state
view the spec defines, so they work on any engine behind any adapter.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any, Callable

from harness.adapters.engine import Engine, Game
from harness.adapters.remote_game import padded
from harness.findings.games import TERMINAL_PHASES, GameFacts, cards_at
from harness.findings.layouts import position_layout, twin_layout
from harness.findings.model import Divergence, Setup, Violation
from harness.spec.cards import ALL_CARDS

# Every invariant a Violation names (``--known`` may name one to look past).
INVARIANTS = frozenset({"cards", "turn", "scores", "refusal", "accepted", "legal-accepted", "hidden", "deterministic",
                        "engine-error"})


def card_problems(facts: GameFacts, view: dict[str, Any]) -> list[str]:
    """All 52 cards, each in exactly one place; sizes agree with the lists."""
    places = [place for pattern in facts.card_places for place in cards_at(view, pattern)]
    placed = [card for _, cards in places if isinstance(cards, list) for card in cards]
    problems = []
    # the usual case, checked at once: card lists only, holding the 52 cards once each
    if not (len(placed) == len(ALL_CARDS) and all(isinstance(cards, list) for _, cards in places)
            and ALL_CARDS.issuperset(placed) and len(set(placed)) == len(ALL_CARDS)):
        seen: Counter[str] = Counter()
        for path, cards in places:
            if not isinstance(cards, list):
                problems.append(f"{_path(path)} is {cards!r}, not a card list")
                continue
            for card in cards:
                if card not in ALL_CARDS:
                    problems.append(f"{_path(path)} holds {card!r}, which is not a card")
                seen[card] += 1
        twice = sorted(c for c, n in seen.items() if n > 1)
        missing = sorted(ALL_CARDS - set(seen))
        if twice:
            problems.append(f"cards in two places: {', '.join(twice)}")
        if missing:
            problems.append(f"cards in no place (lost): {', '.join(missing)}")
    hands, sizes = view.get("hands"), view.get("hand_sizes")
    if isinstance(hands, list) and isinstance(sizes, list):
        if len(hands) != len(sizes):
            problems.append(f"{len(hands)} hands but {len(sizes)} hand_sizes")
        problems += [f"hand_sizes[{i}] is {n}, but hands[{i}] holds {len(h)} cards"
                     for i, (h, n) in enumerate(zip(hands, sizes)) if isinstance(h, list) and n != len(h)]
    if isinstance(view.get("stock"), list) and view.get("stock_size") != len(view["stock"]):
        problems.append(f"stock_size is {view.get('stock_size')}, but the stock holds {len(view['stock'])} cards")
    return problems


def turn_problems(facts: GameFacts, view: dict[str, Any], legal: list[dict[str, Any]]) -> list[str]:
    """The phase exists, the seat to act fits it, and the legal actions fit both."""
    phase, to_act = view.get("phase"), view.get("to_act")
    players = len(view.get("hands") or [])
    problems = []
    if phase not in facts.phases:
        problems.append(f"phase {phase!r} is not a {facts.game} phase ({', '.join(sorted(facts.phases))})")
    terminal = phase in TERMINAL_PHASES
    if terminal and to_act is not None:
        problems.append(f"phase {phase} but seat {to_act} is to act; nobody acts in {phase}")
    if not terminal and (type(to_act) is not int or not 0 <= to_act < players):
        problems.append(f"phase {phase} needs a seat to act in 0..{players - 1}, but to_act is {to_act!r}")
    if terminal and legal:
        problems.append(f"phase {phase}, yet {len(legal)} legal action(s) are listed")
    if not terminal and not legal:
        problems.append(f"phase {phase} with seat {to_act} to act, yet no legal action is listed")
    allowed = facts.action_phases
    for action in legal:
        kind = next((k for k in action if k in allowed), None)
        if kind is None:
            problems.append(f"legal action {json.dumps(action)} is outside the {facts.game} vocabulary")
        elif phase not in allowed[kind]:
            problems.append(f"legal action {json.dumps(action)} listed in phase {phase}; "
                            f"{kind} exists only in {', '.join(sorted(allowed[kind]))}")
    for key in ("finished", "passed"):
        if isinstance(view.get(key), list) and to_act in view[key] and not terminal:
            problems.append(f"seat {to_act} is to act but is in {key} {view[key]}")
    if (view.get("game_result") is not None) != (phase == "game-over"):
        problems.append(f"game_result is {'set' if view.get('game_result') is not None else 'null'} in phase {phase}")
    return problems


def score_problems(before: dict[str, Any], after: dict[str, Any]) -> list[str]:
    """Scores move only with a new round result, by exactly what that result hands out."""
    old, new = before.get("round_results") or [], after.get("round_results") or []
    if len(new) < len(old) or new[:len(old)] != old:
        return ["round_results changed a finished round's result"]
    players = len(after.get("scores") or [])
    owed = [0] * players
    problems = []
    for result in new[len(old):]:
        points, winner = result.get("points"), result.get("winner")
        if isinstance(points, list):  # every place scores (President)
            expected = list(range(1, players + 1))
            if sorted(points) != expected:
                problems.append(f"round points {points}: the places must score {players} down to 1, "
                                f"{players * (players + 1) // 2} in all")
            for seat, value in enumerate(points[:players]):
                owed[seat] += value
        elif winner is None:  # a drawn hand scores nothing (Gin Rummy)
            if points:
                problems.append(f"a result without a winner scores {points} points")
        elif type(winner) is int and 0 <= winner < players:  # one scorer (Rummy round, Gin hand)
            owed[winner] += int(points or 0)
            values = result.get("hand_values")
            if isinstance(values, list) and points != sum(values) - values[winner]:
                problems.append(f"the winner (seat {winner}) scores {points}, but the other hands are worth "
                                f"{sum(values) - values[winner]} ({values})")
        else:
            problems.append(f"round result with winner {winner!r}, not a seat")
    gained = [a - b for a, b in zip(after.get("scores") or [], before.get("scores") or [])]
    if gained != owed and not problems:
        problems.append(f"scores went from {before.get('scores')} to {after.get('scores')}, "
                        f"but the new round results hand out {owed}")
    return problems


def _path(path: tuple[Any, ...]) -> str:
    """A view path for people: ``hands[1]``."""
    return "".join(f"[{p}]" if isinstance(p, int) else (f".{p}" if i else p) for i, p in enumerate(path))


class Replayer:
    """Reaches the current position again, for trying actions off the main line."""

    def __init__(self, engine: Engine, setup: Setup, clones: bool = False) -> None:
        self.engine, self.setup, self.clones = engine, setup, clones
        self.accepted: list[tuple[int, dict[str, Any]]] = []

    def record(self, seat: int, action: dict[str, Any]) -> None:
        """Remember an accepted move."""
        self.accepted.append((seat, action))

    def fork(self, game: Game, view: dict[str, Any]) -> Game:
        """A game at the position ``view`` of ``game``: its ``clone()`` if the engine declares one, else a replay."""
        if self.cloning(game):
            return game.clone()  # type: ignore[attr-defined, no-any-return]
        return self.replay(view)

    def cloning(self, game: Game) -> bool:
        """Whether ``game`` is copied by ``clone()``: declared (the clone feature) and there."""
        return self.clones and callable(getattr(game, "clone", None))

    def replay(self, view: dict[str, Any]) -> Game:
        """A new game replaying the setup and the accepted moves, checked to reach ``view``."""
        twin = self.engine.start(self.setup.as_dict())
        prefetch = getattr(twin, "prefetch", None)  # a remote engine answers the whole replay in one go
        if prefetch is not None:
            calls = [("apply", (seat, action)) for seat, action in self.accepted] + [("state", ())]
            answers = iter(padded(prefetch(calls), len(calls)))
            apply = lambda seat, action: raised(next(answers))  # noqa: E731
            state = lambda: raised(next(answers))  # noqa: E731
        else:
            apply, state = twin.apply, twin.state
        for i, (seat, action) in enumerate(self.accepted):
            reason = apply(seat, action)
            if reason is not None:
                raise Violation("deterministic", f"replaying the game, move {i + 1} (seat {seat} "
                                                 f"{json.dumps(action)}) was refused ({reason}) though it was accepted "
                                                 "the first time: the engine must be a function of setup and moves")
        if state() != view:
            raise Violation("deterministic", "replaying the same setup and moves reached another state view: the "
                                             "engine must be a function of setup and moves")
        return twin


def raised(answer: Any) -> Any:
    """A prefetched answer, raised when it is the engine's error."""
    if isinstance(answer, Exception):
        raise answer
    return answer


def unaccepted_legal(replayer: Replayer, game: Game, view: dict[str, Any], actions: list[dict[str, Any]],
                     seat: int) -> list[str]:
    """Listed legal actions that the engine then refuses, each tried on its own fork."""
    problems = []
    on_copies = getattr(game, "apply_on_copies", None)  # a remote engine: every copy in one batch
    if replayer.cloning(game) and on_copies is not None:
        reasons = iter(on_copies(seat, actions))
    else:
        reasons = (replayer.fork(game, view).apply(seat, action) for action in actions)
    for action in actions:
        reason = raised(next(reasons))
        if reason is not None:
            problems.append(f"seat {seat} {json.dumps(action)} is listed as legal but refused ({reason})")
    return problems


def hidden_problems(facts: GameFacts, engine: Engine, setup: Setup, view: dict[str, Any], seat: int,
                    rng: random.Random) -> list[str]:
    """Two positions differing only in cards ``seat`` cannot see look the same to ``seat``."""
    twins = twin_layouts(facts, view, seat, rng)
    return twin_problems(engine, setup.as_dict(), twins, seat, view.get("to_act") == seat) if twins else []


def twin_layouts(facts: GameFacts, view: dict[str, Any], seat: int,
                 rng: random.Random) -> tuple[dict[str, Any], dict[str, Any]] | None:
    """The position ``view`` as a layout and a twin of it with the cards ``seat`` cannot see moved; None
    when no layout expresses the position or no hidden card can move."""
    layout = position_layout(facts, view)
    twin = None if layout is None else twin_layout(facts, layout, view, seat, rng)
    return None if layout is None or twin is None else (layout, twin)


def twin_problems(engine: Engine, setup: dict[str, Any], twins: tuple[dict[str, Any], dict[str, Any]], seat: int,
                  to_act: bool) -> list[str]:
    """Both twins started: ``seat`` sees the same in each (and, ``to_act``, has the same legal actions)."""
    seen, choices = [], []
    for placed in twins:  # one after the other: a remote engine plays one game at a time
        game = engine.start({"game": setup["game"], "rule_version": setup["rule_version"],  # a seeded game's too
                             "options": dict(setup["options"]), "layout": placed, "later_layouts": []})
        prefetch = getattr(game, "prefetch", None)  # a remote engine: the start and both questions in one go
        if prefetch is not None:
            observation, legal = (raised(a) for a in padded(prefetch([("observation", (seat,)),
                                                                       ("legal_actions", ())]), 2))
        else:
            observation, legal = game.observation(seat), game.legal_actions()
        seen.append(observation)
        choices.append(sorted(json.dumps(a, sort_keys=True) for a in legal))
    if seen[0] != seen[1]:
        keys = sorted(k for k in set(seen[0]) | set(seen[1]) if seen[0].get(k) != seen[1].get(k))
        return [f"seat {seat}'s observation changes when only cards it cannot see move: "
                f"{', '.join(keys)} differ"]
    if to_act and choices[0] != choices[1]:
        return [f"seat {seat}'s legal actions change when only cards it cannot see move"]
    return []


class Checker:
    """Runs the invariants on one game as it is played; raises ``Violation`` on the first broken one.

    On an engine holding one game at a time (a remote one) the hidden-card twins would end the
    game under test; there they wait (``pending``) until the game is over or has failed, and
    ``settle`` runs them then, charging a failure to the move it was found at.
    """

    def __init__(self, facts: GameFacts, engine: Engine, setup: Setup, clones: bool = False,
                 positions: bool = True) -> None:
        self.facts, self.engine, self.setup = facts, engine, setup
        self.positions = positions  # the twins are mid-game layouts: only for an engine that declares them
        self.replayer = Replayer(engine, setup, clones)
        self.defers = bool(getattr(engine, "holds_one_game", False))
        self.pending: list[tuple[int, tuple[dict[str, Any], dict[str, Any]], int, bool]] = []
        self._setup: dict[str, Any] | None = None

    def position(self, view: dict[str, Any], legal: list[dict[str, Any]]) -> None:
        """The checks of one position: cards and turn."""
        _raise("cards", "not all 52 cards are accounted for", card_problems(self.facts, view))
        _raise("turn", "the phase, the seat to act and the legal actions disagree", turn_problems(self.facts, view, legal))

    def move(self, before: dict[str, Any], after: dict[str, Any], seat: int, action: dict[str, Any],
             reason: str | None) -> None:
        """The checks of one move: an unchanged view on refusal, score accounting on acceptance."""
        if reason is not None:
            if after != before:
                changed = sorted(k for k in set(before) | set(after) if before.get(k) != after.get(k))
                raise Violation("refusal", f"seat {seat} {json.dumps(action)} was refused ({reason}) but the "
                                           "state view changed", [f"changed: {', '.join(changed)}"])
            return
        if after == before:  # every action of these games moves something: a card, the turn, a pass
            raise Violation("accepted", f"seat {seat} {json.dumps(action)} was accepted but the state view did "
                                        "not change; an accepted action is a move")
        self.replayer.record(seat, action)
        _raise("scores", "the scores do not follow the round results", score_problems(before, after))

    def deep(self, game: Game, view: dict[str, Any], legal: list[dict[str, Any]], choose: Callable[[int], int],
             rng: random.Random, limit: int | None = 3, at: int = 0) -> Game:
        """The costly checks: listed actions accepted (``limit`` of them drawn, None: every one),
        hidden cards unseen.

        Returns the game to go on with. ``at``: the moves played so far, to which a twin check put
        off until ``settle`` is charged.
        """
        to_act = view.get("to_act")
        if type(to_act) is int and legal:
            picked = legal if limit is None else [legal[choose(len(legal))] for _ in range(min(limit, len(legal)))]
            _raise("legal-accepted", "a listed legal action is refused",
                   unaccepted_legal(self.replayer, game, view, picked, to_act))
        seats = len(view.get("hands") or [])
        if seats and self.positions:
            seat = choose(seats)
            twins = twin_layouts(self.facts, view, seat, rng)
            if twins is not None and self.defers:
                self.pending.append((at, twins, seat, to_act == seat))
            elif twins is not None:
                _raise("hidden", "an observation reveals hidden cards", self._twins(twins, seat, to_act == seat))
        # A copy leaves the game as it was (the twins of a remote engine wait); without clone() the
        # game goes on from a replay, which also checks that the engine is a function of its moves.
        return game if self.replayer.cloning(game) else self.replayer.replay(view)

    def settled(self, play: Callable[[], None], moves: list[Any]) -> None:
        """``play()``, then the twins put off until its end (also when it failed): the first of them
        to fail is raised instead, found first, with ``moves`` cut back to when it was put off."""
        try:
            play()
        except (Divergence, Violation):
            self._settle(moves)
            raise
        self._settle(moves)

    def _settle(self, moves: list[Any]) -> None:
        """Run the twins put off until now, in order; raise the first failure, ``moves`` cut back."""
        pending, self.pending = self.pending, []
        for at, twins, seat, to_act in pending:
            try:
                _raise("hidden", "an observation reveals hidden cards", self._twins(twins, seat, to_act))
            except Exception as failure:
                del moves[at:]
                guarded(lambda: raised(failure))

    def _twins(self, twins: tuple[dict[str, Any], dict[str, Any]], seat: int, to_act: bool) -> list[str]:
        """``twin_problems`` on this game's setup (made once: it is the same for every check)."""
        if self._setup is None:
            self._setup = self.setup.as_dict()
        return twin_problems(self.engine, self._setup, twins, seat, to_act)


def _raise(invariant: str, message: str, problems: list[str]) -> None:
    """Raise a ``Violation`` when there are problems."""
    if problems:
        raise Violation(invariant, message, problems)


def guarded(check: Callable[[], Any]) -> Any:
    """Run an invariant check; the engine raising inside it is a violation, not a crash of the fuzzer."""
    try:
        return check()
    except (Violation, Divergence):
        raise
    except Exception as error:
        raise Violation("engine-error", f"the engine raised during an invariant check: "
                                        f"{type(error).__name__}: {error}") from None
