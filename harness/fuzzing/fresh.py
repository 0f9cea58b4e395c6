"""Hypothesis without its mutator: every game of a campaign a new one, on a deal of its own.

After each game it generates, Hypothesis (6.1xx) plays up to five more that copy a part of the
game into another place with the same label (``ConjectureRunner.generate_mutations_from``): a way
to get equal values in a test's arguments. A campaign's draws already salt their picks so that
replayed choices choose other actions (``actions.pick``); what the mutator kept was the start of
the game, so the copies played the same deal again: a President campaign at seed 4 drew 39
distinct deal seeds in 212 games. ``without_mutations`` turns it off while a campaign runs, so
every game Hypothesis plays is generated afresh (shrinking is unchanged). A Hypothesis without
the hook runs unchanged.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from hypothesis.internal.conjecture.engine import ConjectureRunner

HOOK = "generate_mutations_from"  # what the generate phase calls after each new game


def hooked() -> bool:
    """Whether this Hypothesis has the hook, so its mutator can be turned off."""
    return callable(getattr(ConjectureRunner, HOOK, None))


@contextmanager
def without_mutations() -> Iterator[None]:
    """Inside: Hypothesis generates every game afresh, none as a copy of parts of another."""
    if not hooked():
        yield
        return
    original: Any = getattr(ConjectureRunner, HOOK)
    setattr(ConjectureRunner, HOOK, lambda runner, data: None)
    try:
        yield
    finally:
        setattr(ConjectureRunner, HOOK, original)
