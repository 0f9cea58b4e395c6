"""The published perft positions reach every phase of a match, and their counts are counted again from the rule text.

The counts of spec/perft/ are the reference's; tests/perft_by_hand.py counts the positions again with
legal lists written from the rules alone (no code of the reference), as far as it writes the rules
out (it stops at an exchange or a turn past Gin Rummy's offer). Each position of a phase is counted so
to at least its second depth, most to their last.
"""

from __future__ import annotations

import pytest
from perft_by_hand import Beyond, perft

from harness.perft.vectors import vectors

# The positions of issue 44, by game and phase; each counted by hand to at least the depth given.
PHASES = {
    "rummy": {"layoff-onto-extended-run-3p": ("lay-off", 8), "last-move-ace-high-target-30": ("last move, options", 8),
              "round-3-start-4p": ("later round", 7)},
    "gin-rummy": {"layoff-phase": ("lay-off", 3), "layoff-ends-the-match": ("last move, options", 3),
                  "hand-3-offer-gin-on-the-upcard": ("later round", 2)},
    "president": {"revolution-after-a-pass-4p": ("revolution after a pass", 12),
                  "last-trick-of-a-series": ("last trick", 7), "round-2-start-5p": ("later round", 8),
                  "round-end-to-exchange-5p-no-revolution": ("exchange, options", 9)},
}


def counted_by_hand(setup: dict, published: tuple[int, ...]) -> list[int]:
    """perft by hand to the deepest published depth this file's rules reach."""
    counted: list[int] = []
    for depth in range(1, len(published) + 1):
        try:
            counted = perft(setup, depth)
        except Beyond:
            break
    return counted


@pytest.mark.parametrize("game, name", [(g, n) for g, names in PHASES.items() for n in names])
def test_each_phase_position_is_counted_again_from_the_rule_text(game: str, name: str) -> None:
    (vector,) = [v for v in vectors(game) if v.name == name]
    counted = counted_by_hand(vector.setup, vector.counts)
    assert len(counted) >= PHASES[game][name][1], f"{name}: counted by hand to depth {len(counted)} only"
    assert counted == list(vector.counts[:len(counted)])


def test_the_hand_count_tells_a_wrong_list_from_a_right_one() -> None:
    """The count by hand is no copy of the numbers: a position with a card moved counts otherwise."""
    (vector,) = [v for v in vectors("president") if v.name == "revolution-after-a-pass-4p"]
    setup = {**vector.setup, "layout": {**vector.setup["layout"], "passed": []}}  # seat 1 may answer now
    assert perft(setup, 3) != list(vector.counts[:3])


def test_the_hand_count_agrees_with_the_first_published_depths_of_the_earlier_positions() -> None:
    """Every layout position published before (not the seeded ones: the deal is the seeded-deal tests'), to depth 2."""
    for game in PHASES:
        for vector in vectors(game):
            if "layout" in vector.setup and vector.name not in PHASES[game]:
                try:
                    counted = perft(vector.setup, min(2, len(vector.counts)))
                except Beyond:
                    continue
                assert counted == list(vector.counts[:len(counted)]), vector.name
