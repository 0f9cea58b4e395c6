"""The first moves of a later round: a fresh deal laid out as round 2 or later of its match.

A game from round 1's deal seldom gets past its first round within fuzz's step limit, and an
exchange or a lead after one, a score carried into a round, a match decided in its third round
are where mistakes of a match live. Here a fresh deal becomes round 2 to 4 (a President series
at most its last round), with running scores below the target as earlier rounds could have left
them (President: the points of a finishing order repeated; Gin Rummy: the hands won too). The
engine plays it on; the expected answers still come from the reference.
"""

from __future__ import annotations

import random
from typing import Any

from hypothesis import strategies as st

from harness.findings.games import GameFacts
from harness.fuzzing.actions import Draw

ROUNDS = st.integers(0, 2)  # round 2, 3 or 4 (shrinking to 2)
SALTS = st.integers(0, 2**16 - 1)  # the running scores from one draw: a seat's score alone says nothing new


def later_round(data: Draw, facts: GameFacts, deal: dict[str, Any], options: dict[str, Any]) -> dict[str, Any] | None:
    """``deal`` (a fresh deal's layout) as the start of a later round, or None when its match has one round only."""
    players = len(deal["hands"])
    round_ = 2 + data.draw(ROUNDS, label="later-round")
    rng = random.Random(data.draw(SALTS, label="running-scores"))
    layout = dict(deal)
    if facts.game == "president":
        rounds = int(options.get("rounds", 1))
        if rounds < 2:
            return None
        round_ = min(round_, rounds)
        order = rng.sample(range(players), players)  # each earlier round ended in this finishing order
        layout["scores"] = [0] * players
        for place, seat in enumerate(order):
            layout["scores"][seat] = (round_ - 1) * (players - place)
        layout["round"] = round_
        return layout
    target = int(options["target"])
    layout["scores"] = [rng.randrange(target) for _ in range(players)]
    layout["round"] = round_
    if facts.game == "gin-rummy":
        won = rng.randrange(round_)
        layout["hands_won"] = [won, round_ - 1 - won]
    return layout
