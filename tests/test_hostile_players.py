"""Faulty computer players fail as players: a clear line, a non-zero exit, no traceback, no process left behind."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

HERE = Path(__file__).parent
ENV = {**os.environ, "PYTHONPATH": os.pathsep.join([str(HERE.parent), str(HERE)]), "CI": "1"}


def harness(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "harness", *args], env=ENV, capture_output=True, text=True,
                          timeout=timeout, cwd=HERE.parent)


def alive(pid_file: Path) -> list[int]:
    """The engine processes the faulty engine started that still run (a zombie has ended)."""
    left = []
    for pid in map(int, pid_file.read_text().split()):
        try:
            state = Path(f"/proc/{pid}/stat").read_text().split()[2]
        except FileNotFoundError:
            continue
        if state != "Z":
            left.append(pid)
    return left


@pytest.mark.parametrize("mode", ["garbage", "notjson", "error", "illegal", "crash", "hang"])
@pytest.mark.parametrize("command", ["ladder", "play"])
def test_a_faulty_player_is_a_clear_line_and_a_nonzero_exit(tmp_path: Path, command: str, mode: str) -> None:
    pid_file = tmp_path / "pids"
    engine = ["--timeout", "1", "--engine-cmd", f"{sys.executable} {HERE / 'faulty_player_engine.py'} {mode} {pid_file}"]
    args = (["ladder", "engine:easy", "easy", "--game", "rummy", "--cap", "2"] if command == "ladder"
            else ["play", "--game", "rummy", "--delay", "0"])
    done = harness(*args, *engine)
    assert done.returncode == 1, done.stderr
    assert "Traceback" not in done.stderr + done.stdout
    line = done.stderr.strip().splitlines()[0]
    assert "seat 0" in line and "easy player" in line and "move 1" in line, line
    said = {"garbage": "'garbage'", "notjson": "not JSON", "error": "boom", "illegal": "{discard: ZZ}",
            "crash": "exited with code 3", "hang": "engine error"}[mode]
    assert said in done.stderr
    assert not alive(pid_file)


@pytest.mark.parametrize("command", ["ladder", "play", "players"])
def test_a_players_text_reaches_the_terminal_without_its_escapes(tmp_path: Path, command: str) -> None:
    pid_file = tmp_path / "pids"
    engine = ["--engine-cmd", f"{sys.executable} {HERE / 'faulty_player_engine.py'} escapes {pid_file}"]
    args = {"ladder": ["ladder", "engine:easy", "easy", "--game", "rummy", "--cap", "2"],
            "play": ["play", "--game", "rummy", "--delay", "0"],
            "players": ["players", "--game", "rummy", "--games", "2"]}[command]
    done = harness(*args, *engine)
    shown = done.stdout + done.stderr
    assert done.returncode == 1, shown
    assert "boom" in shown and "Traceback" not in shown
    assert not set(shown) & {"\x1b", "\x07", "\r"}, repr(shown[-400:])
    assert "\\x07" in shown  # shown, not obeyed
    assert not alive(pid_file)


@pytest.mark.parametrize("name", ["ladder", "players", "play"])
def test_ctrl_c_exits_130_with_one_line_and_keeps_the_partial_json(tmp_path: Path, name: str) -> None:
    out = tmp_path / "out.json"
    args = {"ladder": ["ladder", "easy", "easy", "--game", "rummy", "--cap", "5000", "-j", "2", "--elo1", "0.5",
                       "--alpha", "0.001", "--beta", "0.001", "--json", str(out)],
            "players": ["players", "--games", "500"],
            "play": ["play", "--game", "rummy", "--delay", "0.2", "--json", str(out)]}[name]
    process = subprocess.Popen([sys.executable, "-m", "harness", *args], env=ENV, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, cwd=HERE.parent)
    time.sleep(3)
    process.send_signal(signal.SIGINT)
    _, err = process.communicate(timeout=60)
    assert process.returncode == 130, err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1 and "interrupted" in err
    if name == "ladder":
        assert json.loads(out.read_text())["interrupted"] is True
    if name == "play":
        record = json.loads(out.read_text())  # one record (spec/records.md): the moves so far, the game unfinished
        assert record["unfinished"] == "interrupted" and sum(len(r["moves"]) for r in record["rounds"]) >= 1


def test_an_engine_killed_under_the_ladder_is_an_engine_error(tmp_path: Path) -> None:
    pid_file = tmp_path / "pids"
    engine = f"{sys.executable} {HERE / 'faulty_player_engine.py'} none {pid_file}"  # none: a good player
    process = subprocess.Popen([sys.executable, "-m", "harness", "ladder", "engine:easy", "easy", "--game", "rummy",
                                "--cap", "5000", "--elo0", "0", "--elo1", "0.5",  # equal players: a long test
                                "--engine-cmd", engine], env=ENV, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, cwd=HERE.parent)
    for _ in range(100):
        time.sleep(0.2)
        if pid_file.exists() and len(pid_file.read_text().split()) >= 3:  # the ladder's own, past the two checks
            break
    os.kill(int(pid_file.read_text().split()[-1]), signal.SIGKILL)
    _, err = process.communicate(timeout=60)
    assert process.returncode == 1 and "Traceback" not in err and "an engine error" in err, err
    assert not alive(pid_file)
