"""The adapters against engines that misbehave in known ways: each exact error, a restart, a complete report.

The fakes in data/protocol_fakes/ are the reference engine behind the protocol, breaking one
thing at one request (the harness numbers requests across restarts, so each breaks once). The
harness scenarios need: start (seq 1), legal_actions (2), apply (3) for the first one.
"""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, HTTPServer
from pathlib import Path
from typing import Any

import pytest

from harness.adapters import AdapterError, subprocess_engine
from harness.adapters.http import http_engine
from harness.adapters.remote import RemoteEngine
from harness.cli import main
from harness.run.runner import Runner
from harness.suite.fixtures import load_paths
from harness.suite.model import Scenario

TESTS = Path(__file__).parent
SCENARIOS = TESTS / "data" / "scenarios"
FAKES = TESTS / "data" / "protocol_fakes"
AT_APPLY = "step 2 (line 16): the engine raised in apply(): AdapterError: protocol error: "
RESTARTED = "; the engine was stopped and is restarted for the next scenario"
SILENT = "\n(the engine wrote nothing on stderr)"


@pytest.fixture(autouse=True)
def _importable_in_children(monkeypatch: pytest.MonkeyPatch) -> None:
    """The fakes import the kit: make it importable even when it is not installed."""
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(filter(None, [str(TESTS.parent), os.environ.get("PYTHONPATH")])))


@pytest.fixture(scope="module")
def scenarios() -> list[Scenario]:
    loaded = load_paths([SCENARIOS])
    assert not loaded.errors
    return loaded.scenarios


def fake(name: str, *args: str, timeout: float = 10.0) -> RemoteEngine:
    return subprocess_engine([sys.executable, str(FAKES / f"{name}.py"), *args], timeout=timeout)


def run_all(engine: RemoteEngine, scenarios: list[Scenario]) -> list[tuple[str, str]]:
    """Every scenario's outcome and message; the engine closed after, whatever happened."""
    with engine:
        runner = Runner(engine)
        return [(r.outcome, r.message) for r in map(runner.run, scenarios)]


def assert_reaped(pid: int) -> None:
    """The process was waited for (it is no child of ours any more): no zombie left."""
    with pytest.raises(ChildProcessError):
        os.waitpid(pid, os.WNOHANG)


def _state(pid: int) -> str:
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]


@pytest.mark.parametrize(("name", "args", "error"), [
    ("crash", ["3"], "the engine exited with code 3 instead of sending the answer to apply (seq 3); run it by hand "
                     "with the request to see why" + RESTARTED +
                     "\nthe engine's stderr ends with:\n| about to crash on purpose at seq 3"),
    ("hang", ["3"], "the answer to apply (seq 3) did not come within 1 s: the engine hangs or is too slow "
                    "(raise --timeout if it is only slow)" + RESTARTED +
                    "\nthe engine's stderr ends with:\n| hanging on purpose at seq 3"),
    ("garbage", ["3"], "the answer to apply (seq 3) is not JSON (Expecting value: line 1 column 1 (char 0)): "
                       "'hello from the engine, this is not JSON'; write exactly one JSON object per line on stdout, "
                       "and any log on stderr" + RESTARTED + SILENT),
    ("endless", ["3"], "the answer to apply (seq 3) is longer than 1048576 bytes and still has no newline: an answer "
                       "is one JSON object on one line; write logs to stderr" + RESTARTED + SILENT),
    ("wrong_seq", ["3"], "the answer to apply (seq 3) carries seq 103: every answer echoes its request's seq, one "
                         "answer per request, in order" + RESTARTED + SILENT),
    ("off_schema", ["3"], "the answer to apply (seq 3) does not follow spec/schemas/protocol/apply-response.json: "
                          "$.accepted: 'yes' is not of type 'boolean'; see spec/protocol.md" + RESTARTED + SILENT),
])
def test_a_broken_answer_errors_that_scenario_and_the_restarted_engine_runs_the_rest(
        name: str, args: list[str], error: str, scenarios: list[Scenario]) -> None:
    engine = fake(name, *args, timeout=1.0 if name == "hang" else 10.0)
    results = run_all(engine, scenarios)
    assert results == [("error", AT_APPLY + error), ("pass", ""), ("pass", "")]
    assert engine.channel.starts == 2  # type: ignore[attr-defined]


def test_an_engine_error_answer_is_an_error_without_a_restart(scenarios: list[Scenario]) -> None:
    engine = fake("engine_error", "3")
    assert run_all(engine, scenarios) == [
        ("error", "step 2 (line 16): the engine raised in apply(): EngineError: the engine answered apply with an "
                  "error: KeyError: 'meld index'"), ("pass", ""), ("pass", "")]
    assert engine.channel.starts == 1  # type: ignore[attr-defined]


def test_another_protocol_version_errors_every_scenario_with_both_versions(scenarios: list[Scenario]) -> None:
    message = ("the engine cannot describe itself: describe() raised AdapterError: protocol error: the engine speaks "
               "protocol 2; this kit speaks protocol 1: update the adapter to version 1 (see spec/protocol.md) or use "
               "a kit that speaks its version" + RESTARTED + SILENT)
    assert run_all(fake("other_version"), scenarios) == [("error", message)] * 3


def test_non_canonical_legal_actions_are_caught_as_in_process(scenarios: list[Scenario]) -> None:
    outcome, message = run_all(fake("noncanonical"), scenarios)[0]
    assert outcome == "error"
    assert message.startswith("step 2 (line 16): legal_actions() listed {meld: [7♥, 6♥, 5♥]}, which is not in "
                              "canonical form ({meld: [5♥, 6♥, 7♥]})")


def test_an_engine_spamming_stderr_never_blocks(scenarios: list[Scenario]) -> None:
    # 200 KiB of stderr per answer: more than a pipe holds, so an undrained stderr would hang it
    assert run_all(fake("stderr_spam"), scenarios) == [("pass", "")] * 3


def test_the_stderr_tail_is_the_last_twenty_lines(scenarios: list[Scenario]) -> None:
    outcome, message = run_all(fake("stderr_spam", "3"), scenarios)[0]
    tail = message.split("\nthe engine's stderr ends with:\n")[1].splitlines()
    assert outcome == "error" and len(tail) == 20
    assert tail[-1] == "| about to crash on purpose at seq 3"
    assert tail[-2].startswith("| 2047 spam ")


def test_a_program_that_does_not_exist_is_named(scenarios: list[Scenario]) -> None:
    outcome, message = run_all(subprocess_engine("no-such-engine-program --x"), scenarios)[0]
    assert outcome == "error"
    assert message.startswith("the engine cannot describe itself: describe() raised AdapterError: protocol error: "
                              "cannot start the engine command 'no-such-engine-program --x' ([Errno 2] No such file "
                              "or directory")
    assert message.endswith("); check --engine-cmd: the program must exist, be executable and be on PATH")


def test_no_process_outlives_a_hang_not_even_a_grandchild(tmp_path: Path, scenarios: list[Scenario]) -> None:
    pid_file = tmp_path / "child.pid"
    engine = fake("forks", "3", str(pid_file), timeout=0.5)
    runner = Runner(engine)
    first = engine.channel.pid  # type: ignore[attr-defined]
    assert runner.run(scenarios[0]).outcome == "error"
    grandchild = int(pid_file.read_text())
    assert_reaped(first)
    engine.close()
    assert engine.channel.pid is None  # type: ignore[attr-defined]
    # killed with its process group: not running (a zombie only until init reaps it)
    assert not Path(f"/proc/{grandchild}").exists() or _state(grandchild) == "Z"


def test_closing_reaps_the_process(scenarios: list[Scenario]) -> None:
    engine = fake("crash", "0")
    Runner(engine).run(scenarios[1])
    pid = engine.channel.pid  # type: ignore[attr-defined]
    engine.close()
    engine.close()  # twice is fine
    assert_reaped(pid)


def test_the_cli_writes_a_complete_report_through_a_crash(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    report = tmp_path / "run.jsonl"
    command = shlex.join([sys.executable, str(FAKES / "crash.py"), "3"])
    assert main(["run", str(SCENARIOS), "--engine-cmd", command, "--json", str(report)]) == 1
    out = capsys.readouterr().out
    assert "ERROR harness.going-out-scores" in out and "protocol error: the engine exited with code 3" in out
    header, *records = map(json.loads, report.read_text(encoding="utf-8").splitlines())
    assert header["engine"] == {"name": "cardverse-reference", "version": "0.1.0"}
    assert [(r["id"], r["outcome"]) for r in records] == [
        ("harness.going-out-scores", "error"), ("harness.meld-and-refuse", "pass"), ("harness.needs-ace-high", "pass")]


def test_engine_options_are_exclusive_and_timeouts_positive(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["run", str(SCENARIOS), "--engine-cmd", "x", "--engine-url", "http://127.0.0.1:1/"])
    assert "not allowed with argument" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["run", str(SCENARIOS), "--engine-cmd", "x", "--timeout", "0"])
    assert "'0' is not a positive number of seconds" in capsys.readouterr().err
    assert main(["run", str(SCENARIOS), "--engine-url", "ftp://x"]) == 2
    assert "give an http:// or https:// URL" in capsys.readouterr().err


# --- HTTP -------------------------------------------------------------------------------------

class _Broken(BaseHTTPRequestHandler):
    """Shakes hands, then answers every other POST with HTTP 500."""

    def do_POST(self) -> None:  # noqa: N802
        message = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        if message["cmd"] == "hello":
            body = json.dumps({"protocol": 1, "name": "broken", "version": "0",
                               "games": {"rummy": {"rule_versions": ["1.1.0"], "options": ["ace_high"]}}}).encode()
            self.send_response(200)
        else:
            body = b"Internal Server Error: NullPointerException"
            self.send_response(500)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: Any) -> None:
        pass


@pytest.fixture
def broken_url() -> Iterator[str]:
    server = HTTPServer(("127.0.0.1", 0), _Broken)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()
    server.server_close()


def test_an_http_error_status_is_a_protocol_error(broken_url: str, scenarios: list[Scenario]) -> None:
    outcome, message = run_all(http_engine(broken_url), scenarios)[0]
    assert outcome == "error"
    assert message == ("the engine raised while starting: AdapterError: protocol error: "
                       f"{broken_url} answered HTTP 500 (Internal Server Error) instead of sending the answer to start "
                       "(seq 1): 'Internal Server Error: NullPointerException'; answer every POST with 200 and one JSON object "
                       "as the body; the next scenario starts a new session with a new handshake")


def test_an_unreachable_url_says_so(scenarios: list[Scenario]) -> None:
    server = HTTPServer(("127.0.0.1", 0), _Broken)
    port = server.server_address[1]
    server.server_close()  # a port nobody listens on
    outcome, message = run_all(http_engine(f"http://127.0.0.1:{port}/"), scenarios)[0]
    assert outcome == "error"
    assert message.startswith(f"the engine cannot describe itself: describe() raised AdapterError: protocol error: "
                              f"cannot reach http://127.0.0.1:{port}/ (")
    assert message.endswith(") for the answer to hello: is the server running, and is the URL right?"
                            "; the next scenario starts a new session with a new handshake")


def test_a_game_from_before_a_restart_is_gone(scenarios: list[Scenario]) -> None:
    with fake("crash", "2") as engine:
        game = engine.start(_setup(scenarios[0]))
        with pytest.raises(AdapterError, match="exited with code 3"):
            game.legal_actions()
        with pytest.raises(AdapterError, match="^protocol error: this game is gone: the engine was restarted"):
            game.state()
        assert engine.start(_setup(scenarios[0])).state()["phase"] == "draw"


def _setup(scenario: Scenario) -> dict[str, Any]:
    from harness.run.play import Play
    from harness.spec import gamespec as specs

    return Play(scenario, specs.specs_in_range(scenario.game, scenario.rule_versions)[-1]).setup()


def test_close_kills_an_engine_that_stops_answering() -> None:
    engine = fake("hang", "1", timeout=0.5)  # answers hello, then never answers stop (seq 1)
    engine.describe()
    pid = engine.channel.pid  # type: ignore[attr-defined]
    engine.close()
    assert_reaped(pid)


# --- smoke ------------------------------------------------------------------------------------

def smoke_lines(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, list[str]]:
    code = main(["smoke", *args])
    return code, capsys.readouterr().out.splitlines()


def test_smoke_passes_the_reference_served_over_http_from_the_command_line(
        capsys: pytest.CaptureFixture[str]) -> None:
    server = subprocess.Popen([sys.executable, "-m", "harness", "serve", "--http", "0"], stderr=subprocess.PIPE,
                              text=True)
    try:
        assert server.stderr is not None
        banner = server.stderr.readline()
        url = banner.split(" on ")[1].split()[0]
        assert url.startswith("http://127.0.0.1:")
        code, lines = smoke_lines(capsys, "--engine-url", url)
    finally:
        server.terminate()
        server.wait()
        assert server.stderr is not None
        server.stderr.close()
    assert code == 0, lines
    assert lines[0] == "ok    handshake: protocol 1, cardverse-reference 0.1.0, games: gin-rummy, president, rummy"
    assert lines[-1] == f"smoke: the engine speaks the protocol; next: cardverse-conformance run --engine-url {url}"


def test_smoke_names_another_protocol_version(capsys: pytest.CaptureFixture[str]) -> None:
    code, lines = smoke_lines(capsys, "--engine-cmd", shlex.join([sys.executable, str(FAKES / "other_version.py")]))
    assert code == 3  # no handshake: the engine never started, as for every command
    assert lines[0] == ("FAIL  handshake: AdapterError: protocol error: the engine speaks protocol 2; this kit speaks "
                        "protocol 1: update the adapter to version 1 (see spec/protocol.md) or use a kit that speaks "
                        "its version" + RESTARTED)
    assert lines[-1] == "smoke: 1 problem(s); fix them before reading rule failures, then run this again"


def test_smoke_names_a_non_canonical_action_and_how_to_order_it(capsys: pytest.CaptureFixture[str]) -> None:
    code, lines = smoke_lines(capsys, "--engine-cmd", shlex.join([sys.executable, str(FAKES / "noncanonical.py")]))
    assert code == 1
    assert [line for line in lines if line.startswith("FAIL")] == [
        "FAIL  president: legal actions: {play: [3♦, 3♣]} is not in canonical form ({play: [3♣, 3♦]}): sort card "
        "lists in the card order 3456789TJQKA2 then suits C D H S (spec/README.md, Actions)"]


def test_smoke_reports_a_crash_and_goes_on_with_the_next_game(capsys: pytest.CaptureFixture[str]) -> None:
    code, lines = smoke_lines(capsys, "--engine-cmd", shlex.join([sys.executable, str(FAKES / "crash.py"), "1"]))
    assert code == 1
    assert lines[1].startswith("ok    gin-rummy: declaration")
    assert lines[2] == ("FAIL  gin-rummy: start: AdapterError: protocol error: the engine exited with code 3 instead of "
                        "sending the answer to start (seq 1); run it by hand with the request to see why" + RESTARTED)
    assert lines[3:5] == ["      the engine's stderr ends with:", "      | about to crash on purpose at seq 1"]
    assert "ok    president: start: a 3-seat position started" in lines
