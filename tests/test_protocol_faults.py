"""The catalogue of faulty engines, stdio and HTTP, each run from the command line with both reports.

For every fake: the scenarios it breaks are `error` with the exact message, every other fixture
keeps its true outcome (the in-process one), the JSON lines and the JUnit report parse (a strict
XML parser), and no process is left behind.
"""

from __future__ import annotations

import json
import os
import shlex
import sys
import time
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from http_fakes import fake_http

from harness.adapters import subprocess_engine
from harness.cli import main
from harness.run.plan import planned_calls, without_repeats
from harness.run.runner import Runner
from harness.suite.fixtures import load_paths
from harness.suite.model import Scenario
from reference_engine import ReferenceEngine

TESTS = Path(__file__).parent
SCENARIOS = TESTS / "data" / "scenarios"
FAKES = TESTS / "data" / "protocol_fakes"
RESTARTED = "; the engine was stopped and is restarted for the next scenario"
SILENT = "\n(the engine wrote nothing on stderr)"
NEW_SESSION = "; the next scenario starts a new session with a new handshake"
STRAY = ("protocol error: the engine wrote 'debug: scenario done' after its last answer: answer each request with "
         "exactly one line, and write logs to stderr" + RESTARTED + SILENT)
HTTP_ADVICE = "answer every POST with 200 and one JSON object as the body"


@pytest.fixture(autouse=True)
def _importable_in_children(monkeypatch: pytest.MonkeyPatch) -> None:
    """The fakes import the kit: make it importable even when it is not installed."""
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(filter(None, [str(TESTS.parent), os.environ.get("PYTHONPATH")])))


@pytest.fixture(scope="module")
def scenarios() -> list[Scenario]:
    loaded = load_paths([SCENARIOS])
    assert not loaded.errors
    return loaded.scenarios


def last_seqs(scenarios: list[Scenario]) -> list[int]:
    """The seq of each scenario's last request, pipelined without batches: a start, then its plan without repeats."""
    seqs, seq = [], 0
    for scenario in scenarios:
        seq += 1 + len(without_repeats(planned_calls(scenario))[0])
        seqs.append(seq)
    return seqs


def children() -> set[int]:
    """This process's children, running or not yet reaped."""
    found = set()
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == os.getpid():
            found.add(int(stat.parent.name))
    return found


def run_reports(tmp_path: Path, capsys: pytest.CaptureFixture[str], *engine: str) -> tuple[int, dict[str, Any], str]:
    """`run` with both reports: the exit code, each fixture's record from the JSON lines, and stderr."""
    before = children()
    json_path, junit_path = tmp_path / "run.jsonl", tmp_path / "run.xml"
    code = main(["run", str(SCENARIOS), *engine, "--json", str(json_path), "--junit", str(junit_path)])
    err = capsys.readouterr().err
    header, *records = [json.loads(line) for line in json_path.read_text(encoding="utf-8").splitlines()]
    assert header["engine"]["name"] == "cardverse-reference"
    cases = ET.parse(junit_path).getroot().iter("testcase")
    junit = {case.get("name"): [child.tag for child in case if child.tag != "properties"] for case in cases}
    by_id = {record["id"]: record for record in records}
    assert {name: tags for name, tags in junit.items()} == {
        id_: ({"error": ["error"], "fail": ["failure"], "skip": ["skipped"]}.get(r["outcome"], [])) for id_, r in by_id.items()}
    assert children() <= before, "an engine process was left behind"
    return code, by_id, err


def true_outcomes(scenarios: list[Scenario]) -> dict[str, str]:
    runner = Runner(ReferenceEngine())
    return {s.id: runner.run(s).outcome for s in scenarios}


def check(scenarios: list[Scenario], code: int, records: dict[str, Any], faulty: dict[int, str]) -> None:
    """The faulty scenarios (by index) are errors with these messages; the others keep their true outcome."""
    truth = true_outcomes(scenarios)
    for index, scenario in enumerate(scenarios):
        record = records[scenario.id]
        if index in faulty:
            assert (record["outcome"], record["message"]) == ("error", faulty[index]), scenario.id
        else:
            assert record["outcome"] == truth[scenario.id], (scenario.id, record.get("message"))
    assert code == (1 if faulty else 0)


def _deep_quote(seq: int) -> str:
    data = b'{"seq": %d, "result": ' % seq + b"[" * 120
    return f"{data[:120].decode()!r}..."


# --- stdio ------------------------------------------------------------------------------------

STDIO: dict[str, Any] = {
    # name: (fake, its argument from the scenarios' last seqs, faulty index -> message)
    "stray line after a scenario": ("trailing", lambda last: last[0], {0: STRAY}),
    "stray line after the last scenario": ("trailing", lambda last: last[2], {2: STRAY}),
    "duplicate answer": ("duplicate", lambda last: last[0], {0: lambda last: (
        f"protocol error: the engine answered seq {last[0]} a second time, after its last answer: answer each "
        "request exactly once" + RESTARTED + SILENT)}),
    "deeply nested answer": ("deep", lambda last: 3, {0: (
        "step 2 (line 16): the engine raised in apply(): AdapterError: protocol error: the answer to apply (seq 3) "
        f"is not JSON (nested too deeply to parse): {_deep_quote(3)}; write exactly one JSON object per line on "
        "stdout, and any log on stderr" + RESTARTED + SILENT)}),
    "later state view off schema": ("lunch_break", None, {1: (
        "step 3 (line 20): the state view does not follow the spec's state_view schema")}),
    "crash": ("crash", lambda last: 3, {0: (
        "step 2 (line 16): the engine raised in apply(): AdapterError: protocol error: the engine exited with code 3 "
        "instead of sending the answer to apply (seq 3); run it by hand with the request to see why" + RESTARTED +
        "\nthe engine's stderr ends with:\n| about to crash on purpose at seq 3")}),
    "garbage": ("garbage", lambda last: 3, {0: (
        "step 2 (line 16): the engine raised in apply(): AdapterError: protocol error: the answer to apply (seq 3) "
        "is not JSON (Expecting value: line 1 column 1 (char 0)): 'hello from the engine, this is not JSON'; write "
        "exactly one JSON object per line on stdout, and any log on stderr" + RESTARTED + SILENT)}),
    "wrong seq": ("wrong_seq", lambda last: 3, {0: (
        "step 2 (line 16): the engine raised in apply(): AdapterError: protocol error: the answer to apply (seq 3) "
        "carries seq 103: every answer echoes its request's seq, one answer per request, in order" + RESTARTED +
        SILENT)}),
    "off schema": ("off_schema", lambda last: 3, {0: (
        "step 2 (line 16): the engine raised in apply(): AdapterError: protocol error: the answer to apply (seq 3) "
        "does not follow spec/schemas/protocol/apply-response.json: $.accepted: 'yes' is not of type 'boolean'; "
        "see spec/protocol.md" + RESTARTED + SILENT)}),
    "engine error": ("engine_error", lambda last: 3, {0: (
        "step 2 (line 16): the engine raised in apply(): EngineError: the engine answered apply with an error: "
        "KeyError: 'meld index'")}),
}


@pytest.mark.parametrize("case", STDIO)
def test_a_faulty_stdio_engine_errors_exactly_its_scenarios(
        case: str, scenarios: list[Scenario], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    name, argument, faulty = STDIO[case]
    last = last_seqs(scenarios)
    command = [sys.executable, str(FAKES / f"{name}.py")] + ([str(argument(last))] if argument else [])
    code, records, _ = run_reports(tmp_path, capsys, "--engine-cmd", shlex.join(command))
    check(scenarios, code, records, {i: m(last) if callable(m) else m for i, m in faulty.items()})


def test_a_garbage_answer_to_stop_is_a_warning_and_the_verdict_stands(
        scenarios: list[Scenario], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    command = shlex.join([sys.executable, str(FAKES / "stop_garbage.py")])
    code, records, err = run_reports(tmp_path, capsys, "--engine-cmd", command)
    check(scenarios, code, records, {})
    assert err == ("warning: the answer to stop is not JSON (Expecting value: line 1 column 1 (char 0)): 'bye!'; "
                   "write exactly one JSON object per line on stdout, and any log on stderr; the results above stand\n")


# --- HTTP -------------------------------------------------------------------------------------

def _http(url: str, what: str) -> str:
    return f"the engine raised while starting: AdapterError: protocol error: {url} {what}"


HTTP: dict[str, Any] = {
    # kind: the message for the second scenario (the fake's third POST: hello, then a batch per scenario)
    "bad_status": lambda url: _http(url, "did not answer with HTTP/1.1 for the answer to batch (seq 18) "
                                         f"(BadStatusLine: HTTP/1.1 OK\r\n); {HTTP_ADVICE}, on a connection kept "
                                         "alive" + NEW_SESSION),
    "not_http": lambda url: _http(url, "did not answer with HTTP/1.1 for the answer to batch (seq 18) "
                                       f"(BadStatusLine: hello from the engine\r\n); {HTTP_ADVICE}, on a connection "
                                       "kept alive" + NEW_SESSION),
    "close": lambda url: _http(url, "did not answer with HTTP/1.1 for the answer to batch (seq 18) "
                                    "(RemoteDisconnected: Remote end closed connection without response); "
                                    f"{HTTP_ADVICE}, on a connection kept alive" + NEW_SESSION),
    "status_500": lambda url: _http(url, "answered HTTP 500 (Internal Server Error) instead of sending the answer to "
                                         f"batch (seq 18): 'Internal Server Error'; {HTTP_ADVICE}" + NEW_SESSION),
    "extra_bytes": lambda url: _http(url, "sent more bytes than its Content-Length (1822) says with the answer to "
                                          f"batch (seq 18); {HTTP_ADVICE}, and nothing after it" + NEW_SESSION),
    "trickle": lambda url: ("the engine raised while starting: AdapterError: protocol error: the answer to batch "
                            f"(seq 18) did not come from {url} within 2 s: the server hangs or is too slow (raise "
                            "--timeout if it is only slow)" + NEW_SESSION),
    "short_body": lambda url: ("the engine raised while starting: AdapterError: protocol error: the answer to batch "
                               f"(seq 18) did not come from {url} within 2 s: the server hangs or is too slow (raise "
                               "--timeout if it is only slow)" + NEW_SESSION),
    "garbage": lambda url: ("the engine raised while starting: AdapterError: protocol error: the answer to batch "
                            "(seq 18) is not JSON (Expecting value: line 1 column 1 (char 0)): 'this is not JSON'; "
                            f"{HTTP_ADVICE}" + NEW_SESSION),
    "deep": lambda url: ("the engine raised while starting: AdapterError: protocol error: the answer to batch "
                         f"(seq 18) is not JSON (nested too deeply to parse): {_deep_quote(18)}; {HTTP_ADVICE}"
                         + NEW_SESSION),
    "slow_close": None,  # not a fault: HTTP/1.0, the body after a pause, the connection closed; all pass
}


@pytest.mark.parametrize("kind", HTTP)
def test_a_faulty_http_engine_errors_exactly_its_scenarios(
        kind: str, scenarios: list[Scenario], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with fake_http(kind, at=3) as url:
        started = time.monotonic()
        code, records, _ = run_reports(tmp_path, capsys, "--engine-url", url, "--timeout", "2")
        elapsed = time.monotonic() - started
    message = HTTP[kind]
    check(scenarios, code, records, {1: message(url)} if message else {})
    assert elapsed < 8, "the deadline is for the whole request: a trickle must not hold it past --timeout"


def test_a_garbage_answer_to_stop_over_http_is_a_warning_and_the_verdict_stands(
        scenarios: list[Scenario], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with fake_http("garbage", cmd="stop") as url:
        code, records, err = run_reports(tmp_path, capsys, "--engine-url", url)
    check(scenarios, code, records, {})
    assert err == ("warning: the answer to stop is not JSON (Expecting value: line 1 column 1 (char 0)): "
                   f"'this is not JSON'; {HTTP_ADVICE}; the results above stand\n")


def test_one_scenario_at_a_time_a_stray_line_is_still_its_own(scenarios: list[Scenario]) -> None:
    # Runner.run, as the pytest plugin calls it: each scenario is fenced before its result is given
    last = last_seqs(scenarios)
    with subprocess_engine([sys.executable, str(FAKES / "trailing.py"), str(last[0])]) as engine:
        runner = Runner(engine)
        assert [(r.outcome, r.message) for r in map(runner.run, scenarios)] == [
            ("error", STRAY), ("pass", ""), ("pass", "")]
        assert engine.channel.starts == 2  # type: ignore[attr-defined]
