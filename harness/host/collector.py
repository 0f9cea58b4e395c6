"""The cycle collector paused for work that makes many objects and no cycles (a perft level, a batch's answers)."""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterator


@contextlib.contextmanager
def collector_paused() -> Iterator[None]:
    """The cycle collector off while the block runs (reference counting frees everything without cycles), on after.

    A perft level holds some 10^5 answers, and serve some 10^4 copies of a game: each collection went
    through all of them again, which took a third to a half of the time of a level's walk.
    """
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()
