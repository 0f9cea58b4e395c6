"""Audit reads anything, line by line, within bounds: each hostile line is one finding at its FILE:LINE, the lines
after it are judged, no traceback, and peak memory stays under 300 MB on bombs of every kind.

Each case runs ``audit`` in a process of its own (its peak RSS read from ``wait4``), on a hostile
line followed by one good record, which must still be judged clean. Reading that stops early (a
compressed file cut short, a line that never ends, Ctrl-C) still writes the report, marked incomplete.
"""

from __future__ import annotations

import gzip
import json
import os
import signal
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from harness.audit.sample import seeded_game
from harness.records.stream import MAX_LINE
from reference_engine import ReferenceEngine

ROOT = Path(__file__).resolve().parent.parent
PEAK_MB = 300
GOOD = json.dumps(seeded_game(ReferenceEngine(), "president", 1, ["easy"] * 4)).encode() + b"\n"


def zstd(data: Callable[[], bytes], times: int) -> bytes:
    """``times`` copies of ``data()``, zstd-compressed as one stream."""
    zstandard = pytest.importorskip("zstandard")
    compressor = zstandard.ZstdCompressor(level=10).compressobj()
    chunk = data()
    return b"".join([*(compressor.compress(chunk) for _ in range(times)), compressor.flush()])


def gzipped(chunk: bytes, times: int) -> bytes:
    """``times`` copies of ``chunk``, as gzip members one after another (one member compressed once)."""
    return gzip.compress(chunk, 9) * times


MiB = 1 << 20
# name: (the file's bytes, or a path to read, the first line's kind, whether the good record after it is judged)
CASES: dict[str, tuple[Callable[[], bytes | str], str, bool]] = {
    "deep array": (lambda: b"[" * 100_000 + b"]" * 100_000 + b"\n" + GOOD, "not-json", True),
    "deep object": (lambda: b'{"a":' * 100_000 + b"1" + b"}" * 100_000 + b"\n" + GOOD, "not-json", True),
    "deep inside a record": (lambda: GOOD.replace(b'"play"', b'"play", "x": ' + b"[" * 50_000 + b"]" * 50_000, 1)
                             + GOOD, "not-json", True),
    "lone surrogate": (lambda: GOOD.replace(b'"president"', b'"presid\\ud800ent"', 1) + GOOD, "not-json", True),
    "lone low surrogate in an action": (lambda: GOOD.replace(b'"play"', b'"pl\\udfffay"', 1) + GOOD, "not-json", True),
    "not UTF-8": (lambda: b"\xff\xfe\x00\n" + GOOD, "not-json", True),
    "5,000-digit integer": (lambda: GOOD.replace(b'"seed": 1', b'"seed": ' + b"9" * 5000, 1) + GOOD, "not-json", True),
    "line over the limit": (lambda: b'{"a": "' + b"x" * (MAX_LINE + MiB) + b'"}\n' + GOOD, "too-long", True),
    "gzip of zeros": (lambda: gzipped(b"\0" * (4 * MiB), 200) + gzip.compress(b"\n" + GOOD), "too-long", True),
    "zstd of zeros": (lambda: zstd(lambda: b"0" * MiB, 800) + zstd(lambda: b"\n" + GOOD, 1), "too-long", True),
    "zstd of newlines": (lambda: zstd(lambda: b"\n" * MiB, 1024) + zstd(lambda: b"[]\n" + GOOD, 1), "invalid", True),
    "gzip of newlines": (lambda: gzipped(b"\n" * (4 * MiB), 100) + gzip.compress(b"[]\n" + GOOD), "invalid", True),
    "/dev/zero": (lambda: "/dev/zero", "too-long", False),
    "gzip cut short": (lambda: gzip.compress(GOOD * 3)[:-100], "cut-short", False),
}


# The audit is started from a small Python of its own: Linux keeps a process's peak RSS across exec, so a child
# forked straight from this test's process (a pytest worker of some hundreds of MB) would report the worker's peak.
LAUNCHER = """import os, sys
pid = os.fork()
if pid == 0:
    os.execv(sys.executable, [sys.executable, *sys.argv[2:]])
_, status, usage = os.wait4(pid, 0)
with open(sys.argv[1], "w") as peak:
    peak.write(str(usage.ru_maxrss))
sys.exit(os.waitstatus_to_exitcode(status))
"""


def audit(path: str, report: Path) -> tuple[int, str, int]:
    """``audit path --json report`` in a process of its own: its exit code, output, and peak RSS in MB."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    peak = report.with_suffix(".peak")
    with open(report.with_suffix(".out"), "w+b") as out:
        process = subprocess.run([sys.executable, "-c", LAUNCHER, str(peak), "-m", "harness", "audit", path,
                                  "--json", str(report)], stdout=out, stderr=subprocess.STDOUT, env=env)
        out.seek(0)
        return process.returncode, out.read().decode("utf-8", "replace"), int(peak.read_text()) // 1024


def summary_and_lines(report: Path) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    _, *lines, last = map(json.loads, report.read_text(encoding="utf-8").splitlines())
    return last["summary"], lines


@pytest.mark.parametrize("case", CASES)
def test_a_hostile_line_is_one_finding_and_the_audit_goes_on(case: str, tmp_path: Path) -> None:
    made, kind, judged_after = CASES[case]
    data = made()
    path = data if isinstance(data, str) else str(tmp_path / "records")
    if not isinstance(data, str):
        Path(path).write_bytes(data)
    report = tmp_path / "report.jsonl"
    code, output, peak = audit(path, report)
    assert "Traceback" not in output and code == 1, output
    assert peak < PEAK_MB, f"{case}: peak RSS {peak} MB"
    summary, lines = summary_and_lines(report)
    first = lines[0]
    assert first["outcome"] == "unreadable" and first["kind"] == kind, first
    assert f"{path}:{first['line']}: " in output  # at its FILE:LINE
    assert summary["unreadable"] == 1
    assert summary["clean"] == (1 if judged_after else 0)
    assert summary["complete"] is judged_after  # reading that stopped early is said


def test_line_numbers_count_every_blank_line(tmp_path: Path) -> None:
    path = tmp_path / "records.jsonl"
    path.write_bytes(b"\n" * 70_000 + b"  \n" + b"\n\n[]\n" + GOOD + b"\n\n\n" + b"{}\n")
    code, output, _ = audit(str(path), tmp_path / "report.jsonl")
    assert code == 1
    assert f"{path}:70004: " in output and f"{path}:70009: " in output


def test_ctrl_c_keeps_the_report_marked_interrupted(tmp_path: Path) -> None:
    report = tmp_path / "report.jsonl"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    process = subprocess.Popen([sys.executable, "-m", "harness", "audit", "-", "--json", str(report)],
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    assert process.stdin is not None and process.stdout is not None
    process.stdin.write(GOOD + b"[]\n")
    process.stdin.flush()
    assert process.stdout.readline().startswith(b"-:2: ")  # the bad line is reported: the good one was judged
    process.send_signal(signal.SIGINT)  # while it waits for more
    out, err = process.communicate(timeout=60)
    assert process.returncode == 130
    assert err.decode().splitlines() == ["audit: interrupted (Ctrl-C); the report above covers the records judged "
                                         "before it"]
    assert b"incomplete: interrupted (Ctrl-C)" in out
    summary, lines = summary_and_lines(report)
    assert summary["interrupted"] is True and summary["complete"] is False and summary["clean"] == 1
    assert [line["outcome"] for line in lines] == ["clean", "unreadable"]


def test_a_closed_standard_output_keeps_the_report_marked_incomplete(tmp_path: Path) -> None:
    path, report = tmp_path / "records.jsonl", tmp_path / "report.jsonl"
    path.write_bytes(b"[]\n" * 20_000 + GOOD)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    process = subprocess.Popen([sys.executable, "-m", "harness", "audit", str(path), "--json", str(report)],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    assert process.stdout is not None and process.stderr is not None
    assert process.stdout.readline().startswith(f"{path}:1: ".encode())
    process.stdout.close()  # as `| head -1` does
    err = process.stderr.read()
    assert process.wait(timeout=60) == 1 and b"Traceback" not in err and b"Exception ignored" not in err
    summary, lines = summary_and_lines(report)
    assert summary["output_closed"] is True and summary["complete"] is False
    assert summary["unreadable"] == len(lines) < 20_001
