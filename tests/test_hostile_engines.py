"""Faulty stdio engines, each wrong in one way, under every command that starts one: no traceback, nothing left running."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from faulty_stdio_engine import MODES

HERE = Path(__file__).parent
ENV = {**os.environ, "PYTHONPATH": os.pathsep.join([str(HERE.parent), str(HERE)]), "CI": "1"}
COMMANDS = {
    "run": ["run", "--game", "rummy"],
    "fuzz": ["fuzz", "--game", "rummy", "--examples", "5"],
    "properties": ["properties", "--game", "rummy", "--examples", "5"],
    "smoke": ["smoke"],
    "perft": ["perft", "--game", "rummy", "--seed", "1", "--depth", "3"],
    "players": ["players", "--game", "rummy", "--games", "1", "--level", "easy"],
}
# The faults that could leave a process behind are tried under every command; those that cost a
# timeout at each restart under fuzz alone; the rest under run and fuzz.
EVERYWHERE = {"exits-at-once", "crashes-mid-run", "starts-a-child", "ignores-sigterm"}
SLOW = {"hangs-at-hello", "hangs-mid-run", "closes-stdout", "half-line", "wrong-seq"}


def alive(pid_file: Path) -> list[int]:
    """The processes the faulty engine started that still run (a zombie has ended)."""
    left = []
    for pid in map(int, pid_file.read_text().split()) if pid_file.exists() else []:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().split()[2]
        except FileNotFoundError:
            continue
        if state != "Z":
            left.append(pid)
    return left


def engine(mode: str, pid_file: Path) -> list[str]:
    return ["--engine-cmd", f"{sys.executable} {HERE / 'faulty_stdio_engine.py'} {mode} {pid_file}"]


CASES = [(mode, name) for mode in MODES for name in COMMANDS
         if mode in EVERYWHERE or name == "fuzz" or (name == "run" and mode not in SLOW)]


@pytest.mark.parametrize(("mode", "command"), CASES)
def test_a_faulty_engine_ends_the_command_cleanly(tmp_path: Path, mode: str, command: str) -> None:
    pid_file = tmp_path / "pids"
    done = subprocess.run([sys.executable, "-m", "harness", *COMMANDS[command], "--timeout", "1", *engine(mode, pid_file)],
                          env=ENV, capture_output=True, text=True, timeout=180, cwd=tmp_path)
    shown = done.stdout + done.stderr
    assert "Traceback" not in shown, shown[-2000:]
    assert done.returncode in (0, 1, 2, 3), shown[-2000:]
    if mode in ("exits-at-once", "garbage-hello", "hangs-at-hello"):  # never answered hello: one short message
        assert done.returncode != 0 and len(shown.splitlines()) < 20, shown
    time.sleep(0.2)  # the kill of a group reaches its last member a moment later
    assert not alive(pid_file)


@pytest.mark.parametrize("number", [signal.SIGTERM, signal.SIGHUP])
def test_sigterm_and_sighup_stop_a_command_as_ctrl_c_does_and_end_its_engines(tmp_path: Path, number: int) -> None:
    pid_file = tmp_path / "pids"
    process = subprocess.Popen([sys.executable, "-m", "harness", "fuzz", "--examples", "100000",
                                *engine("starts-a-child", pid_file)], env=ENV, cwd=tmp_path,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    while len(pid_file.read_text().split() if pid_file.exists() else []) < 2 and time.monotonic() < deadline:
        time.sleep(0.05)  # the engine and its child have started
    time.sleep(0.5)
    process.send_signal(number)
    out, err = process.communicate(timeout=60)
    assert process.returncode == 130, err
    assert "Traceback" not in out + err and err.strip().splitlines()[-1].startswith("interrupted")
    time.sleep(0.2)
    assert not alive(pid_file)


def test_where_ctrl_c_is_ignored_sigterm_still_ends_the_process_at_once() -> None:
    code = ("import signal, time\n"
            "from harness.host.stopping import stopped_like_ctrl_c\n"
            "signal.signal(signal.SIGINT, signal.SIG_IGN)\n"  # a pool worker's: its parent ends it
            "with stopped_like_ctrl_c():\n"
            "    signal.raise_signal(signal.SIGTERM)\n"
            "    time.sleep(5)\n"
            "print('not ended')\n")
    done = subprocess.run([sys.executable, "-c", code], env=ENV, capture_output=True, text=True, timeout=60)
    assert done.returncode == -signal.SIGTERM and "not ended" not in done.stdout, done
