"""How many generated positions are consistent (positions.consistent), per game: ``python benchmarks/bench_positions.py [N]``.

Draws N setups per game as fuzz does (every one a mid-game position when the game has them) and
prints, per game, the positions drawn, those inconsistent, the first problems, and the time.
"""

from __future__ import annotations

import sys
import time
from collections import Counter
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from harness.findings.games import facts as game_facts
from harness.findings.layouts import deal_layout
from harness.fuzzing.positions import draw_position
from harness.fuzzing.positions.consistent import problems
from harness.fuzzing.setups import draw_option, seeded_view
from reference_engine import create


def measure(game: str, count: int) -> tuple[int, Counter[str], float]:
    """``count`` positions of ``game`` drawn and checked: how many were drawn, the problems counted, seconds."""
    facts, engine = game_facts(game), create()
    drawn, seen = 0, Counter[str]()

    @settings(max_examples=count, deadline=None, database=None, suppress_health_check=list(HealthCheck))
    @given(st.data())
    def one(data: Any) -> None:
        nonlocal drawn
        low, high = facts.players
        options = {name: draw_option(data, name, option) for name, option in facts.spec.data["options"].items()}
        base = {"game": game, "rule_version": facts.spec.rule_version, "options": options,
                "players": data.draw(st.integers(low, high)), "seed": data.draw(st.integers(0, 2**32 - 1))}
        layout = draw_position(data, facts, deal_layout(facts, seeded_view(engine, base)), options)
        if layout is not None:
            drawn += 1
            seen.update(p.split(":")[0][:90] for p in problems(facts, layout, engine, options))

    started = time.perf_counter()
    one()
    return drawn, seen, time.perf_counter() - started


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000
    for game in ("rummy", "gin-rummy", "president"):
        drawn, seen, seconds = measure(game, count)
        print(f"{game}: {drawn} positions drawn, {sum(seen.values())} problem(s) in {seconds:.1f} s")
        for problem, n in seen.most_common(5):
            print(f"  {n}x {problem}")


if __name__ == "__main__":
    main()
