"""Lines of record files judged one after another: each an ``Outcome``, with its record when it could be read."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from harness.audit.computer_seats import judge_seats
from harness.audit.judge import Parsed, audit_record
from harness.audit.report import Outcome
from harness.records.record import Record, RecordError, parse_record
from harness.records.stream import GROUP, Broken, Line


def _read(item: Line | Broken) -> Record | Outcome:
    """The record on a line, or the outcome of a line that cannot be read."""
    if isinstance(item, Broken):
        return Outcome(item.source, item.number, "unreadable", message=item.message, kind=item.kind, stops=item.stops)
    try:
        return parse_record(item.text)
    except RecordError as error:
        return Outcome(item.source, item.number, "unreadable", message=str(error), kind=error.kind)


def _judged(item: Line | Broken, record: Record | Outcome, reference: Any,
            parsed: Parsed, seats: bool) -> tuple[Outcome, Record | None]:
    """The outcome of a line ``_read`` gave ``record`` for, and the record when it follows the format."""
    if isinstance(record, Outcome):
        return record, None
    game, name = record.spec.game, record.data.get("id")
    try:
        audited = audit_record(record, reference, parsed)
        if audited.clean and seats:  # the seats it marks as computer players, against their level's position clauses
            audited = audited._replace(disagreement=judge_seats(record, reference))
    except Exception as error:  # the model itself failed: never a verdict on the server, never a traceback
        return Outcome(item.source, item.number, "unreadable", game, name, message=(
            f"the reference engine raised {type(error).__name__}: {error} on this record; report it with this "
            "line (it is the kit's bug, or a deal the reference cannot start)"), kind="reference-error"), record
    outcome = "clean" if audited.clean else "disagree"
    why = record.data.get("unfinished", False)
    return Outcome(item.source, item.number, outcome, game, name, audited.hands, audited.moves, audited.disagreement,
                   unfinished=why if isinstance(why, str) else "stopped" if why else ""), record


def judge_all(items: Iterable[Line | Broken], reference: Any,
              seats: bool = True) -> Iterator[tuple[Outcome, Record | None]]:
    """Every line's outcome, in order, each line judged before the next is read; each action parsed once for them all.

    ``seats``: also judge the seats a record marks as computer players against their level (False: the rules only).
    """
    return judge_groups(([item] for item in items), reference, seats)


def judge_groups(groups: Iterable[list[Line | Broken]], reference: Any,
                 seats: bool = True) -> Iterator[tuple[Outcome, Record | None]]:
    """``judge_all`` of the lines of ``groups`` (``harness.records.stream.groups``), up to ``GROUP`` of a group
    parsed before they are judged."""
    parsed = Parsed()
    for group in groups:
        for first in range(0, len(group), GROUP):
            part = group[first:first + GROUP]
            for item, record in zip(part, list(map(_read, part))):
                yield _judged(item, record, reference, parsed, seats)
