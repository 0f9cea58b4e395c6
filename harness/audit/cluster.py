"""Audit on a Dask cluster (``harness.host.cluster``): batches of record lines judged on workers, in file order.

The lines are read here and sent in batches; each batch's outcomes are yielded in file order, so
the report is the one a single process writes.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Iterator
from itertools import islice
from typing import Any

from harness.adapters.rule_versions import Played, played_here, playing_as
from harness.audit.campaign import judge_groups
from harness.audit.report import Outcome
from harness.host.cluster import ordered
from harness.records.record import Record, parse_record
from harness.records.stream import Broken, Line

BATCH = 400  # lines a task judges: big enough that sending them costs little beside judging them


def judge_batch(items: list[Line | Broken], played: Played, seats: bool = True) -> list[Outcome]:
    """On a worker: each line's outcome (the records stay there; a disagreement's is parsed again here), the
    command's game files known (a record of a draft)."""
    from reference_engine import create

    with playing_as(played):
        reference = create()
        return [outcome for outcome, _ in judge_groups([items], reference, seats)]


def judge_on(client: Any, items: Iterable[Line | Broken], seats: bool = True) -> Iterator[tuple[Outcome, Record | None]]:
    """Every line's outcome, in order, judged on the client's workers (``seats``: as ``campaign.judge_all``)."""
    lines = iter(items)
    sent: deque[list[Line | Broken]] = deque()  # the batches in flight, in order: each outcome's line
    played = played_here()

    def batches() -> Iterator[tuple[list[Line | Broken], Played, bool]]:
        for batch in iter(lambda: list(islice(lines, BATCH)), []):
            sent.append(batch)
            yield batch, played, seats

    for outcomes in ordered(client, judge_batch, batches()):
        for outcome, item in zip(outcomes, sent.popleft()):
            record = parse_record(item.text) if outcome.disagreement is not None and isinstance(item, Line) else None
            yield outcome, record
