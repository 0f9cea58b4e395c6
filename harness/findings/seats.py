"""Seats as a server sees them: a seat plays its player's choice, and now and then tries another listed action.

A person at a table does not always play as a computer player would: now and then they take an
action the server offers that no sensible player picks (the card just taken from the pile
discarded again, a run round the Ace the server lists, a play of another count), or try one the
rules give them that the server does not offer (a knock at the limit). Such a seat is what shows
an engine that wrongly offers, accepts or refuses an action the reference players never choose. The try is drawn from the game's seed and the decision's number only, and from the listed
actions in canonical order (not the engine's order, which a record does not hold), so the same
game on two engines tries the same thing wherever they list the same actions.
"""

from __future__ import annotations

import json
import random
from typing import Any

TRY_EVERY = 5  # about one decision in five, a seat tries a listed action its player did not choose


def seat_choice(choice: dict[str, Any], legal: list[dict[str, Any]], seed: int, decision: int,
                try_every: int = TRY_EVERY, unlisted: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """The action the seat takes: the player's ``choice``, or now and then another of ``legal`` (both canonical).

    ``unlisted``: actions the seat knows the rules allow that the server does not list; a try takes
    one of those first, as a player would try the move they know is theirs.
    """
    if not try_every or len(legal) + len(unlisted or []) < 2:
        return choice
    draw = random.Random(seed * 1_000_003 + decision)
    if draw.randrange(try_every):
        return choice
    others = sorted(canonical_text(a) for a in unlisted or []) or sorted(canonical_text(a) for a in legal if a != choice)
    return json.loads(draw.choice(others)) if others else choice


def canonical_text(action: dict[str, Any]) -> str:
    """An action as text with its keys sorted: the order seats see the listed actions in."""
    return json.dumps(action, sort_keys=True)
