"""The clause trace: which spec clauses the rules applied, and which values each decided.

The rules modules call ``note(clause, *fields)`` where a rule decides something: ``fields`` are
dotted paths of the state view (``scores``, ``round_results.winner``), ``refused`` (the rule
refused the action), ``legal`` (it admitted it) or ``legal.<kind>`` (it shaped the list of the
legal actions of that kind); no field means the rule shaped a value used for whatever it decides.
A note may also say what the rule demands of those values, ``holds``: a test of another engine's
answers at the same step (its state view's keys, with ``legal`` its legal actions and ``apply``
its answer to the move), true when they keep the rule, None when they say nothing of it; so a
difference is charged to a rule the other engine breaks, not to one beside it that decided the
same field. Outside ``recording()`` a note is one context-variable read, so play nobody traces
pays next to nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

Note = tuple[str, tuple[str, ...]]
Holds = Callable[[dict[str, Any]], "bool | None"]  # None: the answers say nothing of the rule


class Notes(list[Note]):
    """The notes of a recording in the order the rules applied; ``holds`` the tests some gave, by position."""

    def __init__(self) -> None:
        super().__init__()
        self.holds: dict[int, Holds] = {}


# The notes of the recording in progress in this context (thread, task), None when nobody records.
_NOTES: ContextVar[Notes | None] = ContextVar("clause_notes", default=None)


def note(clause: str, *fields: str, holds: Holds | None = None) -> None:
    """Record that the rule ``clause`` decided ``fields`` (and what it demands of them), if a recording is in progress."""
    notes = _NOTES.get()
    if notes is not None:
        if holds is not None:
            notes.holds[len(notes)] = holds
        notes.append((clause, fields))


def recording_now() -> bool:
    """Whether notes are kept: a note that costs work to decide is decided only then."""
    return _NOTES.get() is not None


@contextmanager
def recording() -> Iterator[Notes]:
    """The notes made inside the ``with`` block, in the order the rules applied."""
    notes = Notes()
    token = _NOTES.set(notes)
    try:
        yield notes
    finally:
        _NOTES.reset(token)
