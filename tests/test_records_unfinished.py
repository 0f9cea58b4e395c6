"""Unfinished games are records too: `play --json` keeps a game stopped by the move cap, Ctrl-C or a dying
engine as a record marked unfinished (and why), and `audit` judges its moves and reports the stop."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

HERE = Path(__file__).parent

# An engine whose games never end: it refuses every discard it lists, so the player asks again and again.
ENDLESS = '''
from reference_engine import create as reference

class Game:
    def __init__(self, game):
        self.game = game
    def __getattr__(self, name):
        return getattr(self.game, name)
    def apply(self, seat, action):
        return "wrong-phase" if "discard" in action else self.game.apply(seat, action)

class Engine:
    def __init__(self):
        self.engine = reference()
    def __getattr__(self, name):
        return getattr(self.engine, name)
    def start(self, setup):
        return Game(self.engine.start(setup))

def create():
    return Engine()
'''

# A stdio engine (the reference behind serve) killed outright at its 40th request, a few moves into the game.
DYING = '''
import os, signal, sys
from harness.serve.serve import ProtocolServer, answer_line
from reference_engine import ReferenceEngine
import json

server = ProtocolServer(ReferenceEngine())
for count, line in enumerate(sys.stdin.buffer, 1):
    if count == 40:
        os.kill(os.getpid(), signal.SIGKILL)
    sys.stdout.write(json.dumps(answer_line(server, line)) + "\\n")
    sys.stdout.flush()
'''


def harness(*args: str, folder: Path) -> subprocess.CompletedProcess[str]:
    """The CLI in a child process, with ``folder`` (where the test's engines are) on its path."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(HERE.parent), str(folder)]), "CI": "1"}
    return subprocess.run([sys.executable, "-m", "harness", *args], env=env, capture_output=True, text=True,
                          timeout=300, cwd=HERE.parent)


def record_of(path: Path) -> dict[str, object]:
    """The one record in ``path``, which is whole: no ``.part`` file is left beside it."""
    assert not path.with_name(path.name + ".part").exists()
    lines = path.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 1
    return json.loads(lines[0])  # type: ignore[no-any-return]


def test_a_game_at_the_move_cap_is_kept_and_audit_reports_the_cap_apart(tmp_path: Path) -> None:
    (tmp_path / "endless.py").write_text(ENDLESS, encoding="utf-8")
    out = tmp_path / "x.jsonl"
    done = harness("play", "--game", "gin-rummy", "--seed", "1", "--delay", "0", "--json", str(out),
                   "--engine", "endless:create", folder=tmp_path)
    assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr
    assert "is not over after" in done.stderr and "unfinished (move-cap)" in done.stderr
    record = record_of(out)
    assert record["unfinished"] == "move-cap" and "game_result" not in record
    moves = [m for r in record["rounds"] for m in r["moves"]]  # type: ignore[attr-defined]
    assert sum("refused" in m for m in moves) > 100  # the refusals the engine went on with are in it
    audited = harness("audit", str(out), "--json", str(tmp_path / "audit.jsonl"), folder=tmp_path)
    assert audited.returncode == 1, audited.stdout + audited.stderr
    said = audited.stdout.splitlines()
    assert "DISAGREES at move" in said[0] and "the server refused it (wrong-phase); the rules: accepted it" in said[0]
    assert said[1].startswith(f"{out}:1: gin-rummy DID NOT END (move-cap): ")
    assert "  1 games did not end (move-cap 1): a finding apart from the rules' disagreements" in said
    summary = json.loads((tmp_path / "audit.jsonl").read_text().splitlines()[-1])["summary"]
    assert summary["disagree"] == 1 and summary["unended"] == 1 and summary["unfinished"] == {"move-cap": 1}


def test_a_game_whose_engine_is_killed_is_kept_and_audited(tmp_path: Path) -> None:
    script = tmp_path / "dying.py"
    script.write_text(DYING, encoding="utf-8")
    out = tmp_path / "x.jsonl"
    done = harness("play", "--game", "gin-rummy", "--seed", "2", "--delay", "0", "--json", str(out),
                   "--engine-cmd", f"{sys.executable} {script}", folder=tmp_path)
    assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr
    assert "unfinished (engine-died)" in done.stderr
    record = record_of(out)
    played = sum(len(r["moves"]) for r in record["rounds"])  # type: ignore[attr-defined]
    assert record["unfinished"] == "engine-died" and played >= 3
    audited = harness("audit", str(out), folder=tmp_path)
    assert audited.returncode == 1
    assert audited.stdout.startswith(f"{out}:1: gin-rummy DID NOT END (engine-died): the engine under it died or "
                                     f"broke after {played} moves, in round 1; the moves it has follow the rules")
    assert f"audit: 1 games, 1 hands, {played} moves: 1 clean, 0 disagree" in audited.stdout


def test_a_game_stopped_by_ctrl_c_is_kept_whole_and_audits_clean(tmp_path: Path) -> None:
    out = tmp_path / "x.jsonl"
    env = {**os.environ, "PYTHONPATH": str(HERE.parent), "CI": "1"}
    process = subprocess.Popen([sys.executable, "-m", "harness", "play", "--game", "rummy", "--delay", "0.05",
                                "--json", str(out)], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True, cwd=HERE.parent)
    assert process.stdout is not None
    for _ in range(20):  # a few moves in: the deal's lines, then a move a line
        process.stdout.readline()
    time.sleep(0.3)
    process.send_signal(signal.SIGINT)
    _, err = process.communicate(timeout=60)
    assert process.returncode == 130 and "Traceback" not in err, err
    assert "unfinished (interrupted)" in err
    record = record_of(out)
    assert record["unfinished"] == "interrupted"
    assert sum(len(r["moves"]) for r in record["rounds"]) >= 1  # type: ignore[attr-defined]
    audited = harness("audit", str(out), folder=tmp_path)
    assert audited.returncode == 0, audited.stdout  # stopped by its operator: the moves are judged, no finding
    assert ": 1 clean, 0 disagree" in audited.stdout and "  unfinished, no finding: interrupted 1" in audited.stdout
    assert "DID NOT END" not in audited.stdout


def test_the_record_writer_leaves_no_half_record_under_the_final_name(tmp_path: Path) -> None:
    # a process killed while writing leaves FILE.part, never FILE: what a reader finds under FILE is whole
    out = tmp_path / "x.jsonl"
    code = textwrap.dedent(f"""
        import os, signal
        from harness.records.writer import RecordWriter
        with RecordWriter({str(out)!r}) as writer:
            writer.write('{{"a": 1}}')
            os.kill(os.getpid(), signal.SIGKILL)
    """)
    subprocess.run([sys.executable, "-c", code], env={**os.environ, "PYTHONPATH": str(HERE.parent)}, timeout=60)
    assert not out.exists() and (tmp_path / "x.jsonl.part").read_text() == '{"a": 1}\n'


def test_a_ladders_game_a_player_broke_or_ctrl_c_stopped_is_a_record(tmp_path: Path) -> None:
    out = tmp_path / "l.jsonl"
    engine = f"{sys.executable} {HERE / 'faulty_player_engine.py'} illegal {tmp_path / 'pids'}"
    done = harness("ladder", "engine:easy", "easy", "--game", "rummy", "--cap", "4", "-j", "1", "--records", str(out),
                   "--engine-cmd", engine, folder=HERE)
    assert done.returncode == 1 and "which is not legal" in done.stderr, done.stderr
    assert record_of(out)["unfinished"] == "player-failed"
    audited = harness("audit", str(out), folder=tmp_path)
    assert audited.returncode == 1 and "DID NOT END (player-failed): a seat's player chose an illegal action" in audited.stdout


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_ladders_games_ctrl_c_stopped_are_records(tmp_path: Path, jobs: int) -> None:
    out = tmp_path / "stopped.jsonl"
    env = {**os.environ, "PYTHONPATH": str(HERE.parent), "CI": "1"}
    process = subprocess.Popen([sys.executable, "-m", "harness", "ladder", "easy", "easy", "--game", "rummy", "--cap",
                                "100000", "-j", str(jobs), "--elo0", "0", "--elo1", "0.5", "--alpha", "0.001", "--beta",
                                "0.001", "--records", str(out)], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True, cwd=HERE.parent)
    part = out.with_name(out.name + ".part")
    for _ in range(600):  # until the first deals are written (a plain file is flushed a record at a time)
        time.sleep(0.1)
        if part.exists() and part.stat().st_size > 0:
            break
    time.sleep(0.5)
    process.send_signal(signal.SIGINT)  # the parent only, as the workers ignore it: the kit passes it on
    _, err = process.communicate(timeout=60)
    assert process.returncode == 130 and "interrupted" in err, err
    records = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    stopped = [r.get("unfinished") for r in records].count("interrupted")
    # a ladder plays one round a deal (true, or over); the game each worker was playing is kept, interrupted
    # (a worker stopped between two games of a deal has none in progress)
    assert 1 <= stopped <= jobs and records[-1]["unfinished"] in ("interrupted", None, True), records[-1]
    assert len({r["id"] for r in records}) == len(records)  # no game written twice
    audited = harness("audit", str(out), folder=tmp_path)
    assert audited.returncode == 0 and f"  unfinished, no finding: interrupted {stopped}" in audited.stdout, audited.stdout


def test_a_fuzz_game_whose_engine_died_is_a_record(tmp_path: Path) -> None:
    out = tmp_path / "f.jsonl"
    engine = f"{sys.executable} {HERE / 'faulty_stdio_engine.py'} crashes-mid-run {tmp_path / 'pids'}"
    done = harness("fuzz", "--game", "gin-rummy", "--examples", "5", "--seed", "1", "--records", str(out),
                   "--engine-cmd", engine, folder=HERE)
    assert done.returncode == 1, done.stdout + done.stderr
    records = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert records and records[0]["unfinished"] == "engine-died"
    audited = harness("audit", str(out), folder=tmp_path)
    assert audited.returncode == 1 and "DID NOT END (engine-died)" in audited.stdout
