"""The cache can be wrong and nothing changes: every damaged entry is dropped and its file parsed again."""

from __future__ import annotations

import json
import marshal
import os
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from harness.suite.model import from_record

HERE = Path(__file__).parent
SUITE = str(HERE.parent / "fixtures" / "rummy")


def verdicts(tmp_path: Path, cache: Path | None, name: str) -> list[tuple[str, str, str]]:
    """(id, outcome, message) of each fixture of a run, with the cache in ``cache`` (None: no cache)."""
    env = {**os.environ, "PYTHONPATH": str(HERE.parent), "CI": "1"}
    env.pop("CARDVERSE_NO_CACHE", None)
    if cache is None:
        env["CARDVERSE_NO_CACHE"] = "1"
    else:
        env["CARDVERSE_CACHE_DIR"] = str(cache)
    report = tmp_path / f"{name}.jsonl"
    done = subprocess.run([sys.executable, "-m", "harness", "run", SUITE, "--engine", "fake_engines:accepts_everything",
                           "--json", str(report)], env={**env, "PYTHONPATH": env["PYTHONPATH"] + os.pathsep + str(HERE)},
                          capture_output=True, text=True, timeout=300)
    assert "Traceback" not in done.stderr + done.stdout, done.stderr[-2000:]
    records = [json.loads(line) for line in report.read_text(encoding="utf-8").splitlines()[1:]]
    return [(r["id"], r["outcome"], r.get("message", "")) for r in records]


def damaged(kind: str, key: str, value: bytes, others: list[bytes]) -> bytes:
    """One kind of damage to one entry."""
    if kind == "int":
        return marshal.dumps(7)
    if kind == "empty-dict":
        return marshal.dumps({})
    if kind == "code":
        return marshal.dumps(compile("__import__('os').getpid()", "x", "eval"))
    if kind == "other-key":
        return next(o for o in others if o != value)
    if kind == "huge-header":
        return b"[" + (2**31 - 1).to_bytes(4, "little")
    if kind == "truncated":
        return value[: len(value) // 2]
    return value[:16] + bytes(b ^ 0x55 for b in value[16:])  # flipped: same length, checksum no longer matches


KINDS = ["int", "empty-dict", "code", "other-key", "huge-header", "truncated", "flipped"]


@pytest.fixture(scope="module")
def baseline(tmp_path_factory: pytest.TempPathFactory) -> list[tuple[str, str, str]]:
    return verdicts(tmp_path_factory.mktemp("plain"), None, "plain")


@pytest.mark.parametrize("kind", KINDS)
def test_any_damage_to_the_cache_leaves_the_verdicts_unchanged(
        tmp_path: Path, baseline: list[tuple[str, str, str]], kind: str) -> None:
    cache = tmp_path / "cache"
    assert verdicts(tmp_path, cache, "fill") == baseline
    db = sqlite3.connect(cache / "scenarios.sqlite")
    rows = db.execute("SELECT key, value FROM entries").fetchall()
    assert len(rows) > 10
    values = [value for _, value in rows]
    for key, value in rows:
        db.execute("UPDATE entries SET value = ? WHERE key = ?", (damaged(kind, key, value, values), key))
    db.commit()
    db.close()
    assert verdicts(tmp_path, cache, "damaged") == baseline


def test_an_entry_of_the_wrong_shape_is_not_a_scenario() -> None:
    good: dict[str, Any] = {"id": "x", "title": "t", "game": "rummy", "rule_versions": ">=1.0.0", "options": {},
                            "clauses": ["c"], "basis": "text", "layout": {}, "later_layouts": [], "line": 1,
                            "steps": [{"index": 0, "line": 2}]}
    assert from_record(good, "f.yaml") is not None
    for bad in (7, {}, [], {**good, "clauses": 3}, {**good, "steps": [{"index": "0", "line": 2}]},
                {**good, "extra": 1}, {**good, "steps": [7]}, {**good, "clauses": [1]}, {**good, "layout": []}):
        assert from_record(bad, "f.yaml") is None, bad
