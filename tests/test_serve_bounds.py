"""serve is bounded by its input: short error answers, bodies of bad lines refused whole, a bad line costs only its answer."""

from __future__ import annotations

import http.client
import json
import threading

from harness.adapters.protocol import encode
from harness.serve.http import http_server
from harness.serve.serve import HANDLERS, ProtocolServer, answer_body, answer_line, decoded, names_a_command
from reference_engine import create

HELLO = b'{"cmd": "hello", "protocol": 1}'
START = encode({"seq": 1, "cmd": "start", "setup": {"game": "rummy", "rule_version": "1.1.0", "options": {},
                                                     "seed": 1, "players": 2}}).rstrip(b"\n")
GOOD = b'{"seq": 2, "cmd": "legal_actions"}'
BAD = [b"x", b"{not json", b'{"seq": 3, "cmd": "sta\rte"}', b'{"seq": 4, "cmd": "state", "game": "one"}',
       b'{"seq": 5, "cmd": "' + b"n" * 5000 + b'"}', b"[" * 100 + b"]" * 100, b'{"seq": 6, "cmd": "start", "setup": {}}',
       b'{"seq": 7, "cmd": ["state"]}', b'{"seq": 8, "cmd": {"state": 1}}', b'{"seq": 9, "cmd": "state", "x": "\xff"}',
       b'{"seq": 10, "cmd": "state", "x": NaN}', b'{"seq": 11, "cmd": "state"} {}']


def test_an_error_answer_is_short_and_does_not_repeat_the_request() -> None:
    server = ProtocolServer(create())
    answer_line(server, HELLO)
    for line in BAD:
        error = answer_line(server, line)["error"]
        assert len(error) < 400 and "nnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnn" not in error, error


def test_a_bad_line_costs_only_its_own_answer_and_the_good_after_it_are_answered_as_alone() -> None:
    lines = [HELLO, START, GOOD]
    for bad in BAD:
        lines += [bad, START, GOOD]
    alone = ProtocolServer(create())
    expected = [answer_line(alone, line) for line in lines]
    answered, body = answer_body(ProtocolServer(create()), b"\n".join(lines) + b"\n")
    assert answered
    assert [json.loads(line) for line in body.splitlines()] == expected


def test_the_quick_look_that_counts_a_bodys_refusals_never_takes_a_refused_line_for_a_request() -> None:
    lines = [HELLO, START, GOOD, b' {"seq": 3, "cmd": "state", "x": [[1, {"y": "caf\\u00e9"}]]}\r',
             '{"seq": 4, "cmd": "state", "x": "café"}'.encode(), b'{"cmd": "state", "cmd": "nope"}',
             b'{"cmd": "nope", "cmd": "state"}', b'{"seq": 5, "cmd": "state", "x": "\\ud800"}', *BAD]
    for line in lines:
        message, problem = decoded(line)
        cmd = message.get("cmd") if problem is None and isinstance(message, dict) else None
        request = isinstance(cmd, str) and cmd in HANDLERS
        assert names_a_command(line) is False or request, line  # a yes is always right; a no leaves it to decoding
    assert all(names_a_command(line) for line in lines[:4])  # ASCII requests: known at a glance


def test_a_body_of_tiny_bad_lines_is_refused_whole_in_a_short_answer_and_nothing_runs() -> None:
    server = ProtocolServer(create())
    body = HELLO + b"\n" + START + b"\n" + b"x\n" * (1 << 20)  # 2 MiB
    answered, answer = answer_body(server, body)
    assert not answered and len(answer) < 500 and b"nothing was run" in answer
    assert not server.greeted and not server.games


def test_a_few_bad_lines_in_a_small_body_are_answered_line_for_line() -> None:
    answered, answer = answer_body(ProtocolServer(create()), HELLO + b"\nx\nx\n" + GOOD + b"\n")
    assert answered and len(answer.splitlines()) == 4


def test_serve_http_refuses_a_body_of_tiny_bad_lines_with_400() -> None:
    server = http_server(create())
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        connection = http.client.HTTPConnection("127.0.0.1", server.server_address[1], timeout=60)
        body = b"x\n" * (1 << 20)
        connection.request("POST", "/", body, {"Content-Type": "application/jsonl"})
        answer = connection.getresponse()
        data = answer.read()
        assert answer.status == 400 and len(data) <= 5 * len(body) and b"not requests" in data
    finally:
        server.shutdown()
        server.server_close()
