"""Ctrl-C in the commands that had no way out of their own: exit 130, one line on stderr (or the command's own
line), never a traceback, and what was done so far kept (perft's leaves counted, in --json marked interrupted).

audit's Ctrl-C is in test_hostile_records.py; run's in test_runner's and the page tests'.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from harness.cli import main

ROOT = Path(__file__).resolve().parent.parent


def started(argv: list[str]) -> subprocess.Popen[bytes]:
    env = {**os.environ, "PYTHONUNBUFFERED": "1",
           "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    return subprocess.Popen([sys.executable, "-m", "harness", *argv], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env=env)


def interrupted(process: subprocess.Popen[bytes]) -> tuple[str, str]:
    """SIGINT sent, the process waited for: its stdout and stderr, after checking it exited 130 with no traceback."""
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=120)
    assert process.returncode == 130, (out, err)
    assert b"Traceback" not in out + err and b"never retrieved" not in err
    return out.decode(), err.decode()


def test_docs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    def pressed(*args: object) -> int:
        raise KeyboardInterrupt

    monkeypatch.setattr("harness.book.site.write_book", pressed)
    assert main(["docs", "--out", str(tmp_path / "book")]) == 130
    captured = capsys.readouterr()
    assert captured.err == "docs: interrupted (Ctrl-C)\n" and captured.out == ""


def test_serve_on_stdio() -> None:
    process = started(["serve"])
    assert process.stdin is not None and process.stdout is not None
    process.stdin.write(b'{"cmd": "hello", "protocol": 1}\n')
    process.stdin.flush()
    assert process.stdout.readline().startswith(b'{"protocol":1,')  # answered: it waits for the next line
    _, err = interrupted(process)
    assert err == "serve: interrupted (Ctrl-C)\n"


def test_perft_keeps_the_leaves_it_counted(tmp_path: Path) -> None:
    report = tmp_path / "perft.jsonl"
    process = started(["perft", "--game", "rummy", "--seed", "1", "--depth", "12", "--json", str(report)])
    assert process.stdout is not None
    assert process.stdout.readline() == b"rummy seed 1, 2 players\n"  # counting: depth 12 takes a minute or more
    out, err = interrupted(process)
    said = [line for line in out.splitlines() if line.startswith("interrupted")]
    assert len(said) == 1 and said[0].endswith(" leaves counted toward depth 12: no depth's count is complete; "
                                               "count to a smaller depth first")
    [line] = map(json.loads, report.read_text(encoding="utf-8").splitlines())
    assert line["depth"] == 12 and line["interrupted"] is True and line["leaves_counted"] >= 0


def test_a_page_while_it_loads() -> None:
    from test_engine_page import require_browser

    require_browser()
    silent = socket.socket()  # takes the connection, never answers: the page loads until the timeout
    silent.bind(("127.0.0.1", 0))
    silent.listen(8)
    try:
        url = f"http://127.0.0.1:{silent.getsockname()[1]}/index.html"
        process = started(["run", "--game", "president", "--engine-page", url, "--timeout", "30"])
        connection, _ = silent.accept()  # Chromium is up and asks for the page
        out, err = interrupted(process)
        connection.close()
    finally:
        silent.close()
    assert "interrupted (Ctrl-C)" in out + err
