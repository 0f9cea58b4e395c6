"""Measurement (not a test): the reference's players judged on rebuilt positions, as a fixture's layout gives them (no history).

``players`` judges every decision with the history the seat saw; a decision fixture starting from a
layout has none, and some checks judge more there (Gin Rummy hard's no-history rule). This plays
seeds ``--first``..``--last`` of each game, level and seat count on the reference, rebuilds one
decision in ``--every`` as a layout, asks the same level on it with an empty history and judges the
choice against every position clause of the level. Prints, per game and level, the positions
judged and the clauses broken, with one example of each. Run from the repository root:
``nice python3 benchmarks/bench_rebuilt_positions.py [--first 1 --last 5] [--game gin-rummy] [--level hard]``.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from harness.adapters.player_view import History, build_view  # noqa: E402
from harness.findings.games import TERMINAL_PHASES, facts  # noqa: E402
from harness.findings.layouts import position_layout  # noqa: E402
from harness.findings.rules import broken  # noqa: E402
from harness.players.check import decision_seed, player_counts, series  # noqa: E402
from harness.spec.cards import show  # noqa: E402
from harness.spec.gamespec import LEVELS  # noqa: E402
from reference_engine import ReferenceEngine  # noqa: E402


def judged(engine: Any, game: str, level: str, count: int, seed: int, every: int,
           broken_here: Counter[str], examples: dict[str, str]) -> int:
    """One seeded game played by ``level``; every ``every``-th position rebuilt and judged. Returns how many."""
    game_facts = facts(game)
    spec = game_facts.spec
    setup = {"game": game, "rule_version": spec.rule_version, "options": series(spec), "seed": seed, "players": count}
    table, history, index, judged_here = engine.start(setup), History(game), 0, 0
    while True:
        state = table.state()
        if state.get("phase") in TERMINAL_PHASES or state.get("to_act") is None:
            return judged_here
        seat = state["to_act"]
        view = build_view(spec, setup["options"], seat, level, decision_seed(seed, index), table.observation(seat),
                          history, table.legal_actions())
        layout = position_layout(game_facts, state) if index % every == 0 else None
        if layout is not None:
            rebuilt = engine.start({"game": game, "rule_version": spec.rule_version, "options": setup["options"],
                                    "layout": layout, "later_layouts": []})
            fresh = build_view(spec, setup["options"], seat, level, decision_seed(seed, index),
                               rebuilt.observation(seat), History(game), rebuilt.legal_actions())
            choice = engine.choose(fresh)
            kept = broken(spec, fresh, choice)
            judged_here += 1
            if kept is not None:
                broken_here[kept[0]] += 1
                examples.setdefault(kept[0], f"seed {seed}, {count} seats, decision {index + 1}: hand "
                                             f"{fresh['observation']['hands'][seat]}, chose {show(choice)}: {kept[1]}")
        choice = engine.choose(view)
        table.apply(seat, choice)
        history.record(seat, choice, state)
        index += 1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--first", type=int, default=1)
    parser.add_argument("--last", type=int, default=5)
    parser.add_argument("--every", type=int, default=1, help="rebuild one decision in this many (default 1: all)")
    parser.add_argument("--game", action="append")
    parser.add_argument("--level", action="append")
    args = parser.parse_args()
    engine, total = ReferenceEngine(), 0
    for game in args.game or ["president", "rummy", "gin-rummy"]:
        for level in args.level or LEVELS:
            broken_here: Counter[str] = Counter()
            examples: dict[str, str] = {}
            positions = sum(judged(engine, game, level, count, seed, args.every, broken_here, examples)
                            for count in player_counts(facts(game).spec) for seed in range(args.first, args.last + 1))
            total += sum(broken_here.values())
            print(f"{game} {level}: {positions} rebuilt positions judged, {sum(broken_here.values())} broken"
                  + "".join(f"\n  {clause}: {n}, e.g. {examples[clause]}" for clause, n in broken_here.items()),
                  flush=True)
    print(f"broken on rebuilt positions: {total}")
    return 1 if total else 0


if __name__ == "__main__":
    sys.exit(main())
