"""The protocol itself: its schemas, the messages checked both ways, and `serve` giving the in-process results."""

from __future__ import annotations

import io
import json
import os
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import fake_engines as fakes
import jsonschema
import pytest

from harness.adapters import AdapterError, EngineError, subprocess_engine
from harness.adapters.engine import Engine
from harness.adapters.http import http_engine
from harness.adapters.protocol import (
    PROTOCOL_VERSION,
    check_answer,
    check_hello,
    decode,
    encode,
    request,
    schema_problem,
)
from harness.run.runner import FixtureResult, Runner
from harness.serve.http import http_server
from harness.serve.serve import HANDLERS, ProtocolServer, serve_stdio
from harness.spec.paths import fixtures_dir, spec_dir
from harness.suite.fixtures import load_paths
from harness.suite.model import Scenario
from reference_engine import ReferenceEngine

TESTS = Path(__file__).parent
SCENARIOS = TESTS / "data" / "scenarios"
SERVE = [sys.executable, "-m", "harness", "serve"]
PROTOCOL_SCHEMAS = sorted((spec_dir() / "schemas" / "protocol").glob("*.json"))


@pytest.fixture(autouse=True)
def _importable_in_children(monkeypatch: pytest.MonkeyPatch) -> None:
    """`serve` in a child imports the kit, and this module for served(): even when the kit is not installed."""
    paths = [str(TESTS.parent), str(TESTS), os.environ.get("PYTHONPATH")]
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(filter(None, paths)))


@pytest.fixture(scope="module")
def suite() -> list[Scenario]:
    loaded = load_paths([SCENARIOS, fixtures_dir()])
    assert not loaded.errors
    return loaded.scenarios


@pytest.fixture
def http_url() -> Iterator[str]:
    server = http_server(ReferenceEngine())
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()
    server.server_close()
    thread.join()


def outcomes(engine: Engine, scenarios: list[Scenario]) -> list[tuple[str, str, str, list[str]]]:
    runner = Runner(engine)
    return [_key(runner.run(s)) for s in scenarios]


def _key(result: FixtureResult) -> tuple[str, str, str, list[str]]:
    return result.scenario.id, result.outcome, result.message, result.details


# --- the schemas ------------------------------------------------------------------------------

@pytest.mark.parametrize("path", PROTOCOL_SCHEMAS, ids=lambda p: p.name)
def test_every_protocol_schema_is_a_valid_draft_2020_12_schema(path: Path) -> None:
    jsonschema.Draft202012Validator.check_schema(json.loads(path.read_text(encoding="utf-8")))


def test_every_command_has_a_request_and_a_response_schema() -> None:
    names = {p.name for p in PROTOCOL_SCHEMAS}
    for cmd in HANDLERS:
        assert {f"{cmd}-request.json", f"{cmd}-response.json"} <= names
    assert "error-response.json" in names


def test_the_protocol_document_shows_messages_that_follow_the_schemas() -> None:
    text = (spec_dir() / "protocol.md").read_text(encoding="utf-8")
    assert '{"cmd": "hello", "protocol": 1}' in text
    assert request("hello", 0) == {"cmd": "hello", "protocol": PROTOCOL_VERSION}
    assert schema_problem("apply-request", {"seq": 3, "cmd": "apply", "seat": 0, "action": {"play": ["5D"]}}) is None
    assert schema_problem("apply-response", {"seq": 4, "accepted": False, "reason": "equal-rank"}) is None
    assert '{"seq": 20, "cmd": "batch", "requests": [{"seq": 21, "cmd": "start", ...}' in " ".join(text.split())
    assert schema_problem("batch-request", {"seq": 20, "cmd": "batch", "requests": [
        {"seq": 21, "cmd": "start"}, {"seq": 22, "cmd": "legal_actions"}]}) is None
    assert schema_problem("batch-response", {"seq": 20, "answers": [{"seq": 21, "result": None}]}) is None
    assert schema_problem("fork-response", {"seq": 5, "result": {"game": 1}}) is None


# --- answers checked on arrival ---------------------------------------------------------------

@pytest.mark.parametrize(("answer", "problem"), [
    ({"seq": 3, "accepted": "yes"},
     "the answer to apply (seq 3) does not follow spec/schemas/protocol/apply-response.json: "
     "$.accepted: 'yes' is not of type 'boolean'; see spec/protocol.md"),
    ({"seq": 3, "accepted": False},
     "the answer to apply (seq 3) does not follow spec/schemas/protocol/apply-response.json: "
     "$: 'reason' is a required property; see spec/protocol.md"),
    ({"seq": 3, "accepted": True, "note": "fine"},
     "the answer to apply (seq 3) does not follow spec/schemas/protocol/apply-response.json: "
     "$: Additional properties are not allowed ('note' was unexpected); see spec/protocol.md"),
    ({"seq": 4, "accepted": True},
     "the answer to apply (seq 3) carries seq 4: every answer echoes its request's seq, one answer per request, "
     "in order"),
    ([1, 2], "the answer to apply (seq 3) is list, not a JSON object; see spec/protocol.md"),
])
def test_a_malformed_answer_is_a_protocol_error(answer: Any, problem: str) -> None:
    with pytest.raises(AdapterError) as caught:
        check_answer("apply", 3, answer, "the answer to apply (seq 3)")
    assert str(caught.value) == f"protocol error: {problem}"


def test_an_error_answer_is_an_engine_error_not_a_protocol_error() -> None:
    with pytest.raises(EngineError, match=r"^the engine answered state with an error: no game$"):
        check_answer("state", 7, {"seq": 7, "error": "no game"}, "the answer to state (seq 7)")


def test_another_protocol_version_is_named_with_what_to_do() -> None:
    with pytest.raises(AdapterError) as caught:
        check_hello({"protocol": 2, "name": "x", "version": "1", "games": {}})
    assert str(caught.value) == ("protocol error: the engine speaks protocol 2; this kit speaks protocol 1: update "
                                 "the adapter to version 1 (see spec/protocol.md) or use a kit that speaks its version")


@pytest.mark.parametrize("text", [
    '{"seq": 1, "result": {"phase": "play", "hands": [["AC", "2D"], null], "x": -0.5, "big": 123456789012345678901234567890}}',
    '{"seq": 1, "result": "caf\u00e9 \\u00e9 \\"quoted\\""}',
    '{"seq": 1, "a": 1, "a": 2}',  # a key twice: the last one counts, as json.loads has it
    ' {"seq": 1}\r',
    '{"seq": 1, "x": NaN, "y": "\\ud83d\\ude00"}',  # what only the standard decoder takes: taken as before
    '[1e400]',
])
def test_a_message_decodes_as_json_loads_has_it(text: str) -> None:
    decoded = decode(text.encode("utf-8"), "the answer")
    assert json.dumps(decoded) == json.dumps(json.loads(text))


@pytest.mark.parametrize("text", ['{"seq": 1, "y": "\\ud800"}', '{"seq": 1, "y": "a\\udfffb"}', '{"seq": 1, "y": "\\udc00\\ud800"}'])
def test_a_lone_surrogate_is_refused_as_no_output_can_hold_it(text: str) -> None:
    with pytest.raises(AdapterError, match=r"a string holds a lone surrogate escape \(\\ud800 to \\udfff without its pair\)"):
        decode(text.encode("utf-8"), "the answer")


def test_a_message_encodes_as_one_line_of_compact_utf8_json() -> None:
    message = {"seq": 2, "cmd": "apply", "seat": 0, "action": {"meld": ["QH", "KH", "AH"]}, "note": "café\n", "n": None}
    assert encode(message) == (json.dumps(message, ensure_ascii=False, separators=(",", ":")) + "\n").encode("utf-8")


@pytest.mark.parametrize(("data", "why"), [
    (b"hello", "Expecting value: line 1 column 1 (char 0)"),
    (b'{"seq": 1} {"seq": 2}', "Extra data: line 1 column 12 (char 11)"),
    (b'{"seq": "\xff"}', "'utf-8' codec can't decode byte 0xff in position 9: invalid start byte"),
    (b"[" * 100_000 + b"]" * 100_000, "nested too deeply to parse"),
])
def test_what_is_not_json_is_worded_by_the_standard_decoder(data: bytes, why: str) -> None:
    with pytest.raises(AdapterError) as caught:
        decode(data, "the answer")
    assert str(caught.value).startswith(f"protocol error: the answer is not JSON ({why}): ")


def test_the_harness_refuses_to_send_an_invalid_request() -> None:
    with pytest.raises(AdapterError, match="the harness built an invalid apply request"):
        request("apply", 1, seat=-1, action={"pass": True})


# --- the server ---------------------------------------------------------------------------------

def test_the_server_answers_bad_requests_with_errors_and_carries_on() -> None:
    lines = [{"cmd": "hello", "protocol": 1}, {"seq": 1, "cmd": "fly"}, {"seq": 2, "cmd": "apply", "seat": 0},
             {"seq": 3, "cmd": "state"}, {"seq": 4, "cmd": "stop"}, {"seq": 5, "cmd": "state"}]
    stdin = io.BytesIO(b"".join(encode(m) for m in lines[:1]) + b"not json\n" + b"".join(encode(m) for m in lines[1:]))
    stdout = io.BytesIO()
    assert serve_stdio(ReferenceEngine(), stdin, stdout) == 0
    hello, garbage, fly, apply, state, stop = map(json.loads, stdout.getvalue().splitlines())
    assert hello["protocol"] == 1 and hello["name"] == "cardverse-reference"
    assert garbage["error"].startswith("protocol error: the request is not JSON")
    assert fly == {"seq": 1, "error": "protocol error: unknown cmd 'fly'; expected one of hello, batch, start, "
                                      "legal_actions, apply, state, observation, fork, perft, stop, choose, choose_seat"}
    assert apply == {"seq": 2, "error": "protocol error: spec/schemas/protocol/apply-request.json: "
                                        "$: 'action' is a required property"}
    assert state == {"seq": 3, "error": "RuntimeError: no game in progress: send start first"}
    assert stop == {"seq": 4, "result": None}  # and nothing after stop: the server has exited its loop


def test_an_engine_exception_is_an_error_answer() -> None:
    server = ProtocolServer(fakes.StartRaises())
    server.handle({"cmd": "hello", "protocol": 1})
    answer = server.handle({"seq": 1, "cmd": "start", "setup": {"game": "rummy", "rule_version": "1.1.0", "options": {},
                                                               "layout": {}, "later_layouts": []}})
    assert answer == {"seq": 1, "error": "ValueError: cannot deal"}


# --- the same results three ways ------------------------------------------------------------

def test_serve_over_stdio_gives_the_in_process_results(suite: list[Scenario]) -> None:
    with subprocess_engine(SERVE) as remote:
        assert outcomes(remote, suite) == outcomes(ReferenceEngine(), suite)
        assert remote.channel.starts == 1  # type: ignore[attr-defined]


def test_a_pipelined_run_over_stdio_gives_the_in_process_results(suite: list[Scenario]) -> None:
    # run_all prepares scenarios ahead; a live game (a computer player's decision) must be played
    # out before the next start ends it
    assert any(step.decide for s in suite for step in s.steps)
    with subprocess_engine(SERVE) as remote:
        piped = [_key(r) for r in Runner(remote).run_all(suite)]
    assert piped == [_key(r) for r in Runner(ReferenceEngine()).run_all(suite)]


def test_serve_over_http_gives_the_in_process_results(suite: list[Scenario], http_url: str) -> None:
    with http_engine(http_url) as remote:
        assert outcomes(remote, suite) == outcomes(ReferenceEngine(), suite)


@pytest.mark.parametrize("broken", ["AcceptsEverything", "WrongScores", "MissesALegalAction", "NonCanonicalActions",
                                    "UnknownReason", "RefusalChangesState", "StateMissesKeys"])
def test_a_broken_engine_served_gives_the_same_failures(
        broken: str, suite: list[Scenario], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CARDVERSE_FAKE", broken)
    scenarios = [s for s in suite if s.id.startswith("harness.")]
    expected = outcomes(fakes.make(getattr(fakes, broken)), scenarios)
    assert any(outcome != "pass" for _, outcome, _, _ in expected)
    with subprocess_engine([*SERVE, "--engine", "test_protocol:served"]) as remote:
        assert outcomes(remote, scenarios) == expected


def served() -> Engine:
    """The factory `serve` runs in the child: the fake engine named by CARDVERSE_FAKE."""
    return fakes.make(getattr(fakes, os.environ["CARDVERSE_FAKE"]))
