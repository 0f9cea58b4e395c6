"""The clause trace: which spec clauses the rules applied, and which values each decided.

The rules modules call ``note(clause, *fields)`` where a rule decides something: ``fields`` are
dotted paths of the state view (``scores``, ``round_results.winner``), ``refused`` (the rule
refused the action), ``legal`` (it admitted it) or ``legal.<kind>`` (it shaped the list of the
legal actions of that kind); no field means the rule shaped a value used for whatever it decides.
Outside ``recording()`` a note is one context-variable read, so play nobody traces pays next to
nothing.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

Note = tuple[str, tuple[str, ...]]

# The notes of the recording in progress in this context (thread, task), None when nobody records.
_NOTES: ContextVar[list[Note] | None] = ContextVar("clause_notes", default=None)


def note(clause: str, *fields: str) -> None:
    """Record that the rule ``clause`` decided ``fields``, if a recording is in progress."""
    notes = _NOTES.get()
    if notes is not None:
        notes.append((clause, fields))


def recording_now() -> bool:
    """Whether notes are kept: a note that costs work to decide is decided only then."""
    return _NOTES.get() is not None


@contextmanager
def recording() -> Iterator[list[Note]]:
    """The notes made inside the ``with`` block, in the order the rules applied."""
    notes: list[Note] = []
    token = _NOTES.set(notes)
    try:
        yield notes
    finally:
        _NOTES.reset(token)
