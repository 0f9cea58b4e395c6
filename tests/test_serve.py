"""`serve` against hostile input: bounded lines and nesting, hello first, batches, forks, and HTTP clients that stall."""

from __future__ import annotations

import http.client
import io
import json
import os
import socket
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from harness.adapters import subprocess_engine
from harness.adapters.http import http_engine
from harness.adapters.protocol import MAX_LINE, encode, nesting
from harness.run.runner import Runner
from harness.serve.http import http_server
from harness.serve.serve import ProtocolServer, serve_stdio
from harness.suite.fixtures import load_paths
from reference_engine import ReferenceEngine

TESTS = Path(__file__).parent
SCENARIOS = TESTS / "data" / "scenarios"
HELLO = {"cmd": "hello", "protocol": 1}
SETUP = {"game": "president", "rule_version": "1.1.0", "options": {"revolution": True},
         "seed": 7, "players": 3}


@pytest.fixture(autouse=True)
def _importable_in_children(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(filter(None, [str(TESTS.parent), os.environ.get("PYTHONPATH")])))


def served(*lines: bytes) -> list[dict[str, Any]]:
    """The answers `serve` gives on stdio to these raw lines."""
    stdout = io.BytesIO()
    assert serve_stdio(ReferenceEngine(), io.BytesIO(b"".join(lines)), stdout) == 0
    return [json.loads(line) for line in stdout.getvalue().splitlines()]


JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.text(alphabet='[]{}"\\ab:,'),
                    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(alphabet='[]{}"\\ab'), inner,
                                                                                 max_size=4), max_leaves=30)


def depth(value: Any) -> int:
    """How deep lists and objects nest in ``value``, parsed."""
    if isinstance(value, list):
        return 1 + max(map(depth, value), default=0)
    if isinstance(value, dict):
        return 1 + max(map(depth, value.values()), default=0)
    return 0


@given(JSON)
def test_nesting_counted_without_parsing_is_the_parsed_depth_whatever_brackets_strings_hold(value: Any) -> None:
    for text in (json.dumps(value), json.dumps(value, separators=(",", ":")), json.dumps(value, ensure_ascii=False)):
        assert nesting(text.encode(), 64) == min(depth(value), 65)


def test_a_deeply_nested_line_gets_an_error_answer_and_the_server_goes_on() -> None:
    deep = b'{"seq": 1, "cmd": "apply", "seat": 0, "action": ' + b"[" * 5000 + b"]" * 5000 + b"}\n"
    hello, nested, stop = served(encode(HELLO), deep, encode({"seq": 2, "cmd": "stop"}))
    assert hello["protocol"] == 1
    assert nested["error"] == "protocol error: the request is nested deeper than 64 levels"  # not repeated
    assert stop == {"seq": 2, "result": None}


def test_a_ten_mebibyte_line_gets_one_error_answer() -> None:
    huge = b'{"seq": 1, "cmd": "state", "x": "' + b"x" * (10 * MAX_LINE) + b'"}\n'
    answers = served(encode(HELLO), huge, encode({"seq": 2, "cmd": "stop"}))
    assert answers[1:] == [{"error": f"protocol error: a request is longer than {MAX_LINE} bytes"},
                           {"seq": 2, "result": None}]


def test_requests_before_hello_are_refused() -> None:
    early, hello, late = served(encode({"seq": 1, "cmd": "start", "setup": SETUP}), encode(HELLO),
                                encode({"seq": 2, "cmd": "start", "setup": SETUP}))
    assert early == {"seq": 1, "error": 'protocol error: start before hello: a session starts with {"cmd": "hello", '
                                        '"protocol": 1} (spec/protocol.md)'}
    assert hello["batch"] is True and late == {"seq": 2, "result": None}


def test_a_batch_is_answered_request_by_request() -> None:
    server = ProtocolServer(ReferenceEngine())
    server.handle(HELLO)
    answer = server.handle({"seq": 9, "cmd": "batch", "requests": [
        {"seq": 1, "cmd": "start", "setup": SETUP}, {"seq": 2, "cmd": "apply", "seat": 0},
        {"seq": 3, "cmd": "state"}]})
    start, apply, state = answer["answers"]
    assert answer["seq"] == 9 and start == {"seq": 1, "result": None}
    assert apply == {"seq": 2, "error": "protocol error: spec/schemas/protocol/apply-request.json: "
                                        "$: 'action' is a required property"}
    assert state["seq"] == 3 and state["result"]["phase"] == "play"


def test_a_batch_of_what_cannot_be_batched_is_refused_whole() -> None:
    server = ProtocolServer(ReferenceEngine())
    server.handle(HELLO)
    assert server.handle({"seq": 9, "cmd": "batch", "requests": [{"seq": 1, "cmd": "stop"}]}) == {
        "seq": 9, "error": "protocol error: spec/schemas/protocol/batch-request.json: $.requests[0].cmd: 'stop' is "
                           "not one of ['start', 'legal_actions', 'apply', 'state', 'observation', 'fork', 'choose', "
                           "'choose_seat', 'perft']"}


def test_a_fork_goes_on_apart_from_its_original() -> None:
    with subprocess_engine([sys.executable, "-m", "harness", "serve"]) as remote:
        game = remote.start(SETUP)
        before = game.state()
        copy = game.clone()
        action = copy.legal_actions()[0]
        assert copy.apply(before["to_act"], action) is None
        assert copy.state() != before and game.state() == before
        second = copy.clone()
        assert second.number == 2 and second.state() == copy.state()
        remote.start(SETUP)
        with pytest.raises(Exception, match="this game is gone"):
            copy.state()


@pytest.fixture
def http_url() -> Iterator[str]:
    server = http_server(ReferenceEngine())
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()
    server.server_close()
    thread.join()


def _raw(url: str, data: bytes) -> socket.socket:
    port = int(url.rsplit(":", 1)[1].strip("/"))
    sock = socket.create_connection(("127.0.0.1", port))
    sock.sendall(data)
    return sock


def test_stalled_http_clients_do_not_hold_up_another(http_url: str, capfd: pytest.CaptureFixture[str]) -> None:
    idle = _raw(http_url, b"")
    short = _raw(http_url, b"POST / HTTP/1.1\r\nContent-Length: 100\r\n\r\n{\"cmd\"")
    negative = _raw(http_url, b"POST / HTTP/1.1\r\nContent-Length: -1\r\n\r\n")
    try:
        negative.settimeout(5)
        answer = b"".join(iter(lambda: negative.recv(4096), b""))  # to the end: the server closes the connection
        assert answer.startswith(b"HTTP/1.1 400 ")
        assert answer.endswith(b'{"error":"protocol error: Content-Length \'-1\' is not a number of bytes"}\n')
        scenarios = load_paths([SCENARIOS]).scenarios
        with http_engine(http_url, timeout=5) as remote:
            started = time.monotonic()
            assert [r.outcome for r in Runner(remote).run_all(scenarios)] == ["pass"] * 3
            assert time.monotonic() - started < 4  # not waiting for the stalled clients' deadlines
            assert remote.channel.connections == 1  # type: ignore[attr-defined]
    finally:
        for sock in (idle, short, negative):
            sock.close()
    assert capfd.readouterr().err == ""  # no handler traceback


def test_an_http_client_waiting_for_100_continue_gets_it_at_once(http_url: str) -> None:
    body = json.dumps(HELLO).encode()
    sock = _raw(http_url, b"POST / HTTP/1.1\r\nExpect: 100-continue\r\nContent-Length: %d\r\n\r\n" % len(body))
    try:
        sock.settimeout(2)  # curl waits one second for it, then sends the body anyway
        assert sock.recv(100) == b"HTTP/1.1 100 Continue\r\n\r\n"
        sock.sendall(body)
        answer = sock.recv(4096)
        assert answer.startswith(b"HTTP/1.1 200 OK\r\n") and b'"protocol":1' in answer  # headers and body at once
    finally:
        sock.close()


def test_an_http_connection_is_a_session_and_starts_with_hello(http_url: str) -> None:
    port = int(http_url.rsplit(":", 1)[1].strip("/"))
    first, second = http.client.HTTPConnection("127.0.0.1", port), http.client.HTTPConnection("127.0.0.1", port)
    for connection, message in ((first, HELLO), (first, {"seq": 1, "cmd": "start", "setup": SETUP}),
                                (second, {"seq": 1, "cmd": "state"})):
        connection.request("POST", "/", body=json.dumps(message), headers={"Content-Type": "application/json"})
        answer = json.loads(connection.getresponse().read())
    assert answer == {"seq": 1, "error": 'protocol error: state before hello: a session starts with {"cmd": '
                                         '"hello", "protocol": 1} (spec/protocol.md)'}
    first.close()
    second.close()


def test_an_http_post_of_json_lines_is_answered_line_for_line(http_url: str) -> None:
    port = int(http_url.rsplit(":", 1)[1].strip("/"))
    connection = http.client.HTTPConnection("127.0.0.1", port)
    body = b"".join(map(encode, [HELLO, {"seq": 1, "cmd": "start", "setup": SETUP}])) + b"\nnot JSON\n" + \
        encode({"seq": 2, "cmd": "state"}).rstrip(b"\n")  # a blank line is skipped; the last may lack its newline
    connection.request("POST", "/", body=body, headers={"Content-Type": "application/jsonl"})
    response = connection.getresponse()
    assert response.getheader("Content-Type") == "application/jsonl"
    hello, started, garbage, state = [json.loads(line) for line in response.read().split(b"\n")[:-1]]
    assert hello["batch"] is True and hello["jsonl"] is True and started == {"seq": 1, "result": None}
    assert garbage["error"].startswith("protocol error: the request is not JSON") and state["seq"] == 2
    connection.close()
    assert "jsonl" not in served(encode(HELLO))[0]  # stdio: every stream is lines already


class _SharingGames:
    """The reference engine, its games' clone() handing out the game itself: a fork that shares, not copies."""

    def __init__(self) -> None:
        self.engine = ReferenceEngine()

    def describe(self) -> dict[str, Any]:
        return self.engine.describe()

    def start(self, setup: dict[str, Any]) -> Any:
        game = self.engine.start(setup)
        game.clone = lambda: game  # type: ignore[attr-defined]
        return game


def sharing() -> Any:
    """The factory `serve` runs in the child for the test below."""
    return _SharingGames()


@pytest.mark.parametrize(("factory", "line"), [
    ("reference_engine:create", "ok    rummy: fork: the copy played {draw: stock}, the original is as it was"),
    ("test_serve:sharing", "FAIL  rummy: fork: an action on the copy changed the original: fork must copy the game, "
                           "not share it"),
])
def test_smoke_checks_a_fork(factory: str, line: str, monkeypatch: pytest.MonkeyPatch) -> None:
    from harness.serve.smoke import Smoke
    from harness.spec import gamespec as specs

    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(TESTS.parent), str(TESTS)]))
    out = io.StringIO()
    with subprocess_engine([sys.executable, "-m", "harness", "serve", "--engine", factory]) as remote:
        smoke = Smoke(remote, out)
        remote.describe()
        smoke.check("rummy: fork", smoke.fork, specs.specs_in_range("rummy", "1.1.0")[-1])
    assert out.getvalue() == line + "\n"


@pytest.mark.parametrize("broken", [False, True], ids=["jsonl", "jsonl declared, each POST read as one message"])
def test_smoke_checks_batches_together_over_http(broken: bool, http_url: str, monkeypatch: pytest.MonkeyPatch,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    from harness.cli import main

    if broken:
        monkeypatch.setattr("harness.serve.http.JSONL", "application/x-unknown")
    assert main(["smoke", "--engine-url", http_url]) == (1 if broken else 0)
    lines = [line for line in capsys.readouterr().out.splitlines() if ": batches together" in line]
    assert lines == [(f"FAIL  {game}: batches together: two batches sent together were answered only when sent "
                      "again one by one: answer each line of a POST of JSON lines with one line, in order "
                      "(spec/protocol.md)") if broken else f"ok    {game}: batches together: two batches sent "
                     "together, each answered" for game in ("gin-rummy", "president", "rummy")]


def test_smoke_checks_a_batch_when_one_is_declared(capsys: pytest.CaptureFixture[str]) -> None:
    from harness.cli import main

    assert main(["smoke", "--engine-cmd", f"{sys.executable} -m harness serve"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line for line in lines if ": batch:" in line] == [
        f"ok    {game}: batch: start, state and legal_actions answered in one batch"
        for game in ("gin-rummy", "president", "rummy")]
