"""Reports are written whatever the engine sends, each apart from the others; the ratchet keeps errors apart."""

from __future__ import annotations

import io
import json
import os
import shlex
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any
from xml.etree import ElementTree as ET

import pytest

from harness.cli import main
from harness.host.text import console_text
from harness.reports.console import write_each
from harness.reports.ratchet import load_expected
from harness.reports.safetext import json_safe, xml_text
from reference_engine import ReferenceEngine

TESTS = Path(__file__).parent
ROOT = TESTS.parent
SCENARIOS = str(TESTS / "data" / "scenarios")
CRASH_AT_HELLO = shlex.join([sys.executable, "-c", "import sys; sys.exit(3)"])
HOSTILE = "bad \ud800 text \x1b[31mred\x1b[0m bell\x07 nul\x00 end"


class HostileGame:
    """Raises on every action with text no report format takes as it is."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner

    def apply(self, seat: int, action: dict[str, Any]) -> str | None:
        raise RuntimeError(HOSTILE)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)


class HostileEngine(ReferenceEngine):
    def describe(self) -> dict[str, Any]:
        return {**super().describe(), "name": "hostile \udcff\x1b[1m"}

    def start(self, setup: dict[str, Any]) -> Any:
        return HostileGame(super().start(setup))


def hostile() -> HostileEngine:
    return HostileEngine()


class HostileOnce(ReferenceEngine):
    """Raises with hostile text on one action only (the refused meld of harness.meld-and-refuse)."""

    def start(self, setup: dict[str, Any]) -> Any:
        game = super().start(setup)
        apply = game.apply

        def hostile_apply(seat: int, action: dict[str, Any]) -> str | None:
            if action == {"meld": ["2C", "3D", "4S"]}:
                raise RuntimeError(HOSTILE)
            return apply(seat, action)

        game.apply = hostile_apply
        return game


def hostile_once() -> HostileOnce:
    return HostileOnce()


class SlowEngine(ReferenceEngine):
    def start(self, setup: dict[str, Any]) -> Any:
        time.sleep(0.05)
        return super().start(setup)


def slow() -> SlowEngine:
    return SlowEngine()


@pytest.fixture(autouse=True)
def _tests_importable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(TESTS))


def test_the_safe_forms_of_a_hostile_string() -> None:
    assert json_safe({"m": [HOSTILE]}) == {"m": ["bad \ufffd text \x1b[31mred\x1b[0m bell\x07 nul\x00 end"]}
    assert xml_text(HOSTILE) == "bad \ufffd text red bell\\x07 nul\\x00 end"
    assert console_text(HOSTILE) == "bad \ufffd text red bell\\x07 nul\\x00 end"
    assert xml_text("tab\tnew\nline \ufffe") == "tab\tnew\nline \\xfffe"


def test_both_reports_are_written_and_parse_whatever_the_engine_sends(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    report, junit = tmp_path / "run.jsonl", tmp_path / "run.xml"
    code = main(["run", SCENARIOS, "--engine", "test_report_safety:hostile", "--json", str(report),
                 "--junit", str(junit)])
    out = capsys.readouterr().out
    assert code == 1
    assert "RuntimeError: bad \ufffd text red bell\\x07 nul\\x00 end" in out
    lines = [json.loads(line) for line in report.read_text(encoding="utf-8").splitlines()]
    assert lines[0]["engine"]["name"] == "hostile \ufffd\x1b[1m"
    errors = [r for r in lines[1:] if r["outcome"] == "error"]
    assert errors and all(r["message"].endswith(
        "the engine raised in apply(): RuntimeError: bad \ufffd text \x1b[31mred\x1b[0m bell\x07 nul\x00 end")
        for r in errors)
    root = ET.fromstring(junit.read_bytes())  # expat: strict XML 1.0, a control character is fatal
    assert root.get("name") == "cardverse-conformance against hostile \ufffd"
    messages = [e.get("message", "") for e in root.iter("error")]
    assert messages and all(m.endswith("RuntimeError: bad \ufffd text red bell\\x07 nul\\x00 end") for m in messages)


def test_a_report_path_that_cannot_be_written_is_a_usage_error_before_the_run(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["run", SCENARIOS, "--engine", "no.such.module:create", "--json", str(tmp_path / "no" / "run.jsonl"),
                 "--junit", str(tmp_path)])
    captured = capsys.readouterr()
    assert code == 2 and captured.out == ""
    assert captured.err.splitlines() == [
        f"--json {tmp_path / 'no' / 'run.jsonl'}: the folder {tmp_path / 'no'} does not exist; "
        "create it or give another path",
        f"--junit {tmp_path}: is a folder; give a file name",
    ]


def test_a_report_that_fails_to_write_does_not_cost_the_others(tmp_path: Path) -> None:
    written = tmp_path / "second.txt"

    def broken() -> None:
        raise OSError(28, "No space left on device")

    err = io.StringIO()
    assert write_each({"the JSON lines report a.jsonl": broken,
                       "the JUnit report b.xml": lambda: written.write_text("ok")}, err) == [
        "the JSON lines report a.jsonl"]
    assert written.read_text() == "ok"
    assert err.getvalue() == ("could not write the JSON lines report a.jsonl: [Errno 28] No space left on device; "
                              "the other reports were written\n")


def test_a_known_rule_failure_that_now_errors_is_an_error_and_fails_the_run(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    known, report = tmp_path / "known.yaml", tmp_path / "run.jsonl"
    known.write_text("harness.meld-and-refuse: 'fail: accepts any meld'\n", encoding="utf-8")
    code = main(["run", SCENARIOS, "--id", "harness.meld-and-refuse", "--engine", "test_report_safety:hostile",
                 "--expect-fail", str(known), "--json", str(report)])
    out = capsys.readouterr().out
    assert code == 1
    assert "ERROR harness.meld-and-refuse (" in out
    assert ("ERROR harness.meld-and-refuse: listed as a known rule failure (fail: accepts any meld), but the engine "
            "now ends it in an error: an error is never taken for a known failure") in out
    assert f"known failures ({known}): 0 still failing (xfail), 0 fixed (XPASS)" in out
    record = json.loads(report.read_text(encoding="utf-8").splitlines()[1])
    assert record["outcome"] == "error" and "actual" not in record


def test_a_known_error_that_still_errors_stays_xfail(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    known = tmp_path / "known.yaml"
    known.write_text("harness.meld-and-refuse: 'error: raises on apply (ticket 4)'\n", encoding="utf-8")
    code = main(["run", SCENARIOS, "--id", "harness.meld-and-refuse", "--engine", "test_report_safety:hostile",
                 "--expect-fail", str(known)])
    assert code == 0
    assert f"known failures ({known}): 1 still failing (xfail), 0 fixed (XPASS)" in capsys.readouterr().out


def test_the_known_failures_file_is_written_whatever_the_engine_said(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    known = tmp_path / "known.yaml"
    assert main(["run", SCENARIOS, "--engine", "test_report_safety:hostile_once", "--write-expect-fail",
                 str(known)]) == 0
    assert "wrote 1 known failure(s)" in capsys.readouterr().out
    assert load_expected(known) == {"harness.meld-and-refuse": "error: step 3 (line 20): the engine raised in "
                                    "apply(): RuntimeError: bad \ufffd text \x1b[31mred\x1b[0m bell\x07 nul\x00 end"}


def test_write_expect_fail_refuses_a_run_where_the_engine_never_started(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    known = tmp_path / "known.yaml"
    code = main(["run", SCENARIOS, "--engine-cmd", CRASH_AT_HELLO, "--write-expect-fail", str(known)])
    err = capsys.readouterr().err.splitlines()
    assert code == 3 and not known.exists()  # the run stopped at once: no baseline of an engine never seen
    assert err[0] == "error: the engine never started: it exited with code 3 instead of sending the answer to hello"
    assert err[-1] == "no report asked for (--json, --junit); known failures not written"


def test_write_expect_fail_refuses_a_run_where_every_fixture_errors(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    known = tmp_path / "known.yaml"
    assert main(["run", SCENARIOS, "--engine", "fake_engines:StartRaises", "--write-expect-fail", str(known)]) == 1
    assert (f"refusing to write {known}: every one of the 3 fixture(s) run ended in an engine error, the first: the "
            "engine raised while starting: ValueError: cannot deal; nothing") in capsys.readouterr().out
    assert not known.exists()


def test_write_expect_fail_refuses_an_engine_that_cannot_describe_itself(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    known = tmp_path / "known.yaml"
    assert main(["run", SCENARIOS, "--engine", "fake_engines:DescribeRaises", "--write-expect-fail", str(known)]) == 3
    err = capsys.readouterr().err
    assert "error: the engine never started: describe() raised OSError: no such engine\n" in err
    assert err.endswith("no report asked for (--json, --junit); known failures not written\n")
    assert not known.exists()


def _interrupt(args: list[str], tmp_path: Path, wait_for: str | None) -> tuple[subprocess.CompletedProcess[str], float]:
    """Run the CLI in a subprocess, send SIGINT once ``wait_for`` is on stdout (None: after 2 s); the result and the
    seconds from the signal to the exit."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(TESTS), str(ROOT)]), "PYTHONUNBUFFERED": "1"}
    process = subprocess.Popen([sys.executable, "-m", "harness", *args], cwd=tmp_path, env=env, text=True,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert process.stdout is not None
    seen = []
    if wait_for is None:
        time.sleep(2)
    else:
        for line in process.stdout:
            seen.append(line)
            if wait_for in line:
                break
    sent = time.monotonic()
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=30)
    took = time.monotonic() - sent
    return subprocess.CompletedProcess(process.args, process.returncode, "".join(seen) + out, err), took


def test_ctrl_c_writes_the_reports_so_far_marked_incomplete_and_exits_130(tmp_path: Path) -> None:
    done, took = _interrupt(["run", "--engine", "test_report_safety:slow", "-v", "--json", "run.jsonl",
                             "--junit", "run.xml"], tmp_path, "PASS ")
    assert done.returncode == 130, done.stderr
    assert done.stderr == ""  # no traceback
    last = done.stdout.splitlines()[-1]
    ran = sum(1 for line in done.stdout.splitlines() if line.startswith(("PASS ", "FAIL ", "ERROR", "SKIP ")))
    assert last.startswith(f"interrupted (Ctrl-C) after {ran} of ")
    assert last.endswith("fixtures: reports written and marked incomplete: run.jsonl, run.xml")
    lines = [json.loads(line) for line in (tmp_path / "run.jsonl").read_text(encoding="utf-8").splitlines()]
    assert lines[0]["incomplete"].startswith(f"interrupted (Ctrl-C) after {ran} of ")
    assert len(lines) == ran + 1
    root = ET.fromstring((tmp_path / "run.xml").read_bytes())
    assert [p.get("value") for p in root.iter("property") if p.get("name") == "incomplete"][0] == lines[0]["incomplete"]
    assert sum(1 for _ in root.iter("testcase")) == ran


def test_ctrl_c_ends_a_hanging_remote_engine_at_once(tmp_path: Path) -> None:
    hang = shlex.join([sys.executable, str(TESTS / "data" / "protocol_fakes" / "hang.py"), "1"])
    done, took = _interrupt(["run", SCENARIOS, "--engine-cmd", hang, "--timeout", "60", "--json", "run.jsonl"],
                            tmp_path, None)
    assert done.returncode == 130, done.stderr
    assert took < 10  # far below the 60 s the hung request would otherwise hold the run
    last = done.stdout.splitlines()[-1]
    if last != "interrupted (Ctrl-C) before any fixture ran: no report written":  # a loaded machine: still at hello
        assert last.startswith("interrupted (Ctrl-C) after 0 of 3 fixtures: reports written")
        assert json.loads((tmp_path / "run.jsonl").read_text(encoding="utf-8").splitlines()[0])["incomplete"]


def test_ctrl_c_during_the_handshake_exits_130_without_a_traceback(tmp_path: Path) -> None:
    marker = f"silent-engine-{os.getpid()}-{time.monotonic_ns()}"
    silent = shlex.join([sys.executable, "-c", f"import time; time.sleep(3600)  # {marker}"])  # never answers hello
    done, took = _interrupt(["run", SCENARIOS, "--engine-cmd", silent, "--timeout", "60"], tmp_path, None)
    assert (done.returncode, done.stderr) == (130, "")
    assert took < 10
    assert done.stdout.splitlines() == ["interrupted (Ctrl-C) before any fixture ran: no report written"]
    left = [p for p in Path("/proc").glob("[0-9]*") if marker.encode() in _cmdline(p)]
    assert left == []  # the engine was ended, not left behind


def _cmdline(process: Path) -> bytes:
    try:
        return (process / "cmdline").read_bytes()
    except OSError:
        return b""
