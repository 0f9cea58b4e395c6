"""Record files read a read at a time (harness/records/stream.py): the same lines as read one by one, a pipe's as they come."""

from __future__ import annotations

import gzip
import io
import os
import threading
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from harness.audit.campaign import judge_all, judge_groups
from harness.records import stream
from harness.records.stream import GROUP, Broken, Line, groups, lines
from reference_engine import create


def one_by_one(data: bytes) -> list[tuple[int, str, str]]:
    """The lines of ``data`` as a reader of one line at a time gives them: blank ones skipped, each counted."""
    read: list[tuple[int, str, str]] = []
    for number, raw in enumerate(io.BytesIO(data), start=1):
        if raw.isspace():
            continue
        try:
            read.append((number, "line", raw.removesuffix(b"\n").decode("utf-8")))
        except UnicodeDecodeError as error:
            read.append((number, "not-json", f"not UTF-8 text ({error.reason} at byte {error.start})"))
    return read


def shown(items: Any) -> list[tuple[int, str, str]]:
    """Each line read, as ``one_by_one`` shows it."""
    return [(i.number, "line", i.text) if isinstance(i, Line) else (i.number, i.kind, i.message) for i in items]


@settings(max_examples=300, deadline=None)
@given(data=st.lists(st.sampled_from([b"\n", b"{}", b"ab", b" ", b"\r", b"\t", b"\xc3\xa9", b"\xff", b"\x0b"]),
                     max_size=40).map(b"".join),
       buffer=st.integers(min_value=1, max_value=9), most=st.integers(min_value=1, max_value=4), packed=st.booleans())
def test_lines_read_a_read_at_a_time_are_the_lines_read_one_by_one(data: bytes, buffer: int, most: int,
                                                                   packed: bool) -> None:
    source = gzip.compress(data) if packed else data
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(stream, "BUFFER", buffer)  # lines longer than a read, and several in one
        assert shown(lines(["-"], io.BytesIO(source))) == one_by_one(data)
        read = list(groups(["-"], io.BytesIO(source), most))
        assert all(read) and [item for group in read for item in group] == list(lines(["-"], io.BytesIO(source)))


def test_a_pipe_s_lines_are_judged_as_they_come() -> None:
    # a server piping its log in: the first record is judged while the pipe is still open, not once a read is full
    line = (b'{"record": "cardverse-game/1", "game": "president", "rule_version": "1.1.0", "seed": 1, '
            b'"recorded": [], "unfinished": true, "seats": [{}, {}, {}], "rounds": [{"moves": []}]}\n')
    out, into = os.pipe()
    judged: list[Any] = []
    with os.fdopen(out, "rb") as reading, os.fdopen(into, "wb") as writing:
        writing.write(line)
        writing.flush()
        judging = judge_groups(groups(["-"], reading), create())
        reader = threading.Thread(target=lambda: judged.append(next(judging)), daemon=True)
        reader.start()
        reader.join(timeout=30)
        assert judged and judged[0][0].outcome == "clean" and judged[0][0].line == 1
        writing.write(line)
        writing.close()
        assert [(o.line, o.outcome) for o, _ in judging] == [(2, "clean")]


def test_lines_judged_in_groups_are_judged_as_one_by_one(tmp_path: Any) -> None:
    from harness.audit.sample import seeded_game

    engine = create()
    games = [seeded_game(engine, "president", seed, ["easy"] * 4) for seed in range(3)]
    broken = ['{"record": ', "", '{"record": "cardverse-game/1"}']
    text = "\n".join([__import__("json").dumps(g) for g in games] * (GROUP // 3 + 1) + broken) + "\n"
    path = tmp_path / "games.jsonl"
    path.write_text(text, encoding="utf-8")
    alone = [(o.line, o.outcome, o.kind, o.message) for o, _ in judge_all(lines([str(path)]), engine)]
    grouped = [(o.line, o.outcome, o.kind, o.message) for o, _ in judge_groups(groups([str(path)]), engine)]
    assert grouped == alone and len(alone) == 3 * (GROUP // 3 + 1) + 2
    assert [kind for _, _, kind, _ in alone[-2:]] == ["not-json", "invalid"]
    assert isinstance(next(iter(groups([str(tmp_path / "none.jsonl")])))[0], Broken)
