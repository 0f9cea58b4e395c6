"""Gin Rummy speed, side by side in one run: random hands per second, 10-card deadwood, the 11-card discard.

Peers (optional, never needed by the kit; `pip install open-spiel rlcard`):
- OpenSpiel: `pyspiel.load_game("gin_rummy")` played with uniformly random legal actions and chance
  outcomes; `pyspiel.gin_rummy.GinRummyUtils(13, 4, 10).min_deadwood` for the solver (C++).
- RLCard: `rlcard.make("gin-rummy")` with two `RandomAgent`s; `melding.get_best_meld_clusters` and
  `utils.get_deadwood_count` for the solver (pure Python).
A peer that is not installed is skipped with a message.

    python3 benchmarks/bench_gin_rummy.py [--seconds 5] [--solver-hands 20000] [--seed 1]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from reference_engine.gin_rummy import deadwood  # noqa: E402
from reference_engine.gin_rummy import game as gin_rummy  # noqa: E402
from reference_engine.gamefiles.rules import rules_of  # noqa: E402

OPTIONS = rules_of(gin_rummy.GAME, gin_rummy.RULE_VERSION, gin_rummy.RULE_VERSION).read_options({})


def timed_hands(play_one: Callable[[], int], seconds: float) -> tuple[float, float]:
    """(hands per second, steps per second) playing hands for about ``seconds``."""
    hands = steps = 0
    started = time.perf_counter()
    while True:
        steps += play_one()
        hands += 1
        elapsed = time.perf_counter() - started
        if elapsed >= seconds:
            return hands / elapsed, steps / elapsed


def ours_hands(seconds: float, seed: int) -> tuple[float, float]:
    """The reference engine: seeded matches, uniformly random legal actions, hand after hand."""
    rng = random.Random(seed)
    game = gin_rummy.start({"game": "gin-rummy", "rule_version": "1.0.0", "options": OPTIONS,
                            "seed": seed, "players": 2})

    def play_one() -> int:
        nonlocal game
        if game.phase == "game-over":
            game = gin_rummy.start({"game": "gin-rummy", "rule_version": "1.0.0", "options": OPTIONS,
                                    "seed": rng.getrandbits(32), "players": 2})
        results = len(game.round_results)
        steps = 0
        while len(game.round_results) == results:
            actions = game.legal_actions()
            game.apply(game.to_act, actions[int(rng.random() * len(actions))])  # type: ignore[arg-type]
            steps += 1
        return steps

    return timed_hands(play_one, seconds)


def openspiel_hands(seconds: float, seed: int) -> tuple[float, float] | str:
    """OpenSpiel's gin_rummy, uniformly random, chance outcomes by their probabilities."""
    try:
        import pyspiel
    except ImportError:
        return "skipped: OpenSpiel is not installed (pip install open-spiel)"
    game = pyspiel.load_game("gin_rummy")
    rng = random.Random(seed)

    def play_one() -> int:
        state = game.new_initial_state()
        steps = 0
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[int(rng.random() * len(outcomes))][0])  # uniform: the deck
            else:
                actions = state.legal_actions()
                state.apply_action(actions[int(rng.random() * len(actions))])
                steps += 1
        return steps

    return timed_hands(play_one, seconds)


def rlcard_hands(seconds: float, seed: int) -> tuple[float, float] | str:
    """RLCard's gin-rummy environment with two random agents."""
    try:
        import rlcard
        from rlcard.agents import RandomAgent
    except ImportError:
        return "skipped: RLCard is not installed (pip install rlcard)"
    env = rlcard.make("gin-rummy", config={"seed": seed})
    env.set_agents([RandomAgent(num_actions=env.num_actions) for _ in range(env.num_players)])

    def play_one() -> int:
        trajectories, _ = env.run(is_training=False)
        return sum(len(t) // 2 for t in trajectories)

    return timed_hands(play_one, seconds)


def solver_rates(hands: list[list[int]]) -> dict[str, Any]:
    """Microseconds per 10-card minimum-deadwood solve, and agreement with ours, for each solver."""
    masks = [sum(1 << c for c in hand) for hand in hands]
    out: dict[str, Any] = {}
    deadwood._MEMO.clear()
    deadwood._MEMO[0] = 0
    started = time.perf_counter()
    ours = [deadwood.min_deadwood(m) for m in masks]
    out["ours"] = (time.perf_counter() - started) / len(masks) * 1e6, None
    started = time.perf_counter()
    for m in masks:  # no memo carried from one hand to the next
        deadwood._MEMO.clear()
        deadwood._MEMO[0] = 0
        deadwood.min_deadwood(m)
    out["ours, cold memo"] = (time.perf_counter() - started) / len(masks) * 1e6, None
    try:
        import pyspiel
        utils = pyspiel.gin_rummy.GinRummyUtils(13, 4, 10)
        started = time.perf_counter()
        theirs = [utils.min_deadwood(hand) for hand in hands]
        out["OpenSpiel (C++)"] = (time.perf_counter() - started) / len(hands) * 1e6, _agree(ours, theirs)
    except ImportError:
        out["OpenSpiel (C++)"] = "skipped: OpenSpiel is not installed"
    try:
        from rlcard.games.gin_rummy.utils import melding
        from rlcard.games.gin_rummy.utils import utils as rl_utils
        cards = [[rl_utils.card_from_card_id(c) for c in hand] for hand in hands]  # same suit-major ids

        def rl_min(hand: list[Any]) -> int:
            clusters = melding.get_best_meld_clusters(hand)
            if not clusters:
                return sum(rl_utils.get_deadwood_value(c) for c in hand)
            return rl_utils.get_deadwood_count(hand, clusters[0])

        started = time.perf_counter()
        theirs = [rl_min(hand) for hand in cards]
        out["RLCard (Python)"] = (time.perf_counter() - started) / len(cards) * 1e6, _agree(ours, theirs)
    except ImportError:
        out["RLCard (Python)"] = "skipped: RLCard is not installed"
    return out


def discard_rates(hands: list[list[int]]) -> dict[str, Any]:
    """Microseconds per 11-card question (least deadwood after the best discard), for each solver."""
    masks = [sum(1 << c for c in hand) for hand in hands]
    out: dict[str, Any] = {}
    deadwood.least_after_discard(masks[0])  # builds its per-suit tables once, at first use
    started = time.perf_counter()
    ours = [deadwood.least_after_discard(m) for m in masks]  # no memo: every hand from scratch
    out["ours"] = (time.perf_counter() - started) / len(masks) * 1e6, None
    try:
        import pyspiel
        utils = pyspiel.gin_rummy.GinRummyUtils(13, 4, 10)
        started = time.perf_counter()
        theirs = [utils.min_deadwood(hand) for hand in hands]  # on 11 cards: after the best discard
        out["OpenSpiel (C++)"] = (time.perf_counter() - started) / len(hands) * 1e6, _agree(ours, theirs)
    except ImportError:
        out["OpenSpiel (C++)"] = "skipped: OpenSpiel is not installed"
    return out


def report_discards(solves: dict[str, Any]) -> None:
    """Print each solver's time on the 11-card question and the ratio against the goal."""
    for name, value in solves.items():
        if isinstance(value, str):
            print(f"  {name:18} {value}")
        else:
            print(f"  {name:18} {value[0]:8.2f} us/hand" + (f"  ({value[1]})" if value[1] else ""))
    openspiel = solves["OpenSpiel (C++)"]
    if not isinstance(openspiel, str):
        ratio = solves["ours"][0] / openspiel[0]
        print(f"  ours / OpenSpiel time: {ratio:.2f}x  (goal <= 2: {'met' if ratio <= 2 else 'NOT met'})")


def _agree(ours: list[int], theirs: list[int]) -> str:
    """How many hands two solvers score alike."""
    same = sum(a == b for a, b in zip(ours, theirs))
    return f"agrees on {same}/{len(ours)}"


def report_solves(solves: dict[str, Any]) -> None:
    """Print each solver's time and the ratios against the goals."""
    for name, value in solves.items():
        if isinstance(value, str):
            print(f"  {name:18} {value}")
        else:
            print(f"  {name:18} {value[0]:8.2f} us/solve" + (f"  ({value[1]})" if value[1] else ""))
    ours_us = float(solves["ours, cold memo"][0])
    openspiel, rlcard_solve = solves["OpenSpiel (C++)"], solves["RLCard (Python)"]
    if not isinstance(openspiel, str):
        ratio = ours_us / openspiel[0]
        print(f"  ours (cold) / OpenSpiel time: {ratio:.2f}x  (goal <= 5: {'met' if ratio <= 5 else 'NOT met'})")
    if not isinstance(rlcard_solve, str):
        ratio = rlcard_solve[0] / ours_us
        print(f"  RLCard / ours (cold) time: {ratio:.1f}x  (goal >= 3: {'met' if ratio >= 3 else 'NOT met'})")


def main() -> int:
    """Run both benchmarks and print the ratios against the goals."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="time per engine for random hands")
    parser.add_argument("--solver-hands", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    print(f"Random hands (uniformly random legal actions, {args.seconds:g} s each)")
    ours = ours_hands(args.seconds, args.seed)
    print(f"  {'ours':10} {ours[0]:9.1f} hands/s {ours[1]:11.0f} steps/s")
    peers = {"OpenSpiel": openspiel_hands(args.seconds, args.seed), "RLCard": rlcard_hands(args.seconds, args.seed)}
    for name, rate in peers.items():
        print(f"  {name:10} " + (rate if isinstance(rate, str) else f"{rate[0]:9.1f} hands/s {rate[1]:11.0f} steps/s"))
    for name, rate in peers.items():
        if not isinstance(rate, str):
            ratio = ours[0] / rate[0]
            print(f"  ours / {name}: {ratio:.2f}x hands/s  (goal >= 3: {'met' if ratio >= 3 else 'NOT met'})")

    rng = random.Random(args.seed)
    for size, measure, report in ((10, solver_rates, report_solves), (11, discard_rates, report_discards)):
        samples = {
            "random hands": [rng.sample(range(52), size) for _ in range(args.solver_hands)],
            # dense: four adjacent ranks, where sets and runs overlap and the search branches most
            "dense hands": [rng.sample([s * 13 + r for r in range(low, low + 4) for s in range(4)], size)
                            for low in (rng.randint(0, 9) for _ in range(args.solver_hands))],
        }
        question = "minimum deadwood" if size == 10 else "least deadwood after the best discard"
        for label, hands in samples.items():
            print(f"\n{size}-card {question} ({args.solver_hands} {label})")
            report(measure(hands))
    return 0


if __name__ == "__main__":
    sys.exit(main())
