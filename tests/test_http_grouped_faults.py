"""HTTP engines taking several scenarios' batches per POST (jsonl), faulty: each fault is still charged to its scenario.

Every fake fails at one batch, whether that batch is POSTed alone or with others. Run grouped (the
fake declares jsonl) and ungrouped (it does not), the suite gets the same verdicts, word for word:
a bad answer line is its own batch's fault; a POST failing as a whole is resolved by asking each
of its batches again in a POST of its own, so that only the faulty one is an error.
"""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import fake_engines as fakes
import pytest
from http_fakes import fake_http_server

from harness.adapters.http import http_engine
from harness.run.grouped import GROUP
from harness.run.runner import Runner
from harness.suite.fixtures import load_paths
from harness.suite.model import Scenario
from reference_engine import ReferenceEngine

SCENARIOS = Path(__file__).parent / "data" / "scenarios"
NEW_SESSION = "; the next scenario starts a new session with a new handshake"
HTTP_ADVICE = "answer every POST with 200 and one JSON object as the body"
STARTING = "the engine raised while starting: AdapterError: protocol error: "


@pytest.fixture(scope="module")
def scenarios() -> list[Scenario]:
    loaded = load_paths([SCENARIOS])
    assert not loaded.errors
    suite = loaded.scenarios * 5  # two POSTs: a full group, then the rest
    assert GROUP < len(suite) < 2 * GROUP
    return suite


@pytest.fixture(scope="module")
def truth(scenarios: list[Scenario]) -> list[tuple[str, str]]:
    return [(r.outcome, r.message) for r in map(Runner(ReferenceEngine()).run, scenarios)]


def _transport(what: str) -> Any:
    return lambda url, seq: f"{STARTING}{url} {what.format(seq=seq)}{NEW_SESSION}"


def _late(url: str, seq: int) -> str:
    return (f"{STARTING}the answer to batch (seq {seq}) did not come from {url} within 2 s: the server hangs or is "
            "too slow (raise --timeout if it is only slow)" + NEW_SESSION)


def _not_json(shown: str, why: str = "Expecting value: line 1 column 1 (char 0)") -> Any:
    return lambda url, seq: (f"{STARTING}the answer to batch (seq {seq}) is not JSON ({why}): {shown}; {HTTP_ADVICE}"
                             + NEW_SESSION)


CASES: dict[str, Any] = {
    # kind: the faulty scenario's message, from the fake's URL and its batch's seq
    # the POST fails as a whole: its batches are asked again one per POST
    "status_500": _transport("answered HTTP 500 (Internal Server Error) instead of sending the answer to batch "
                             f"(seq {{seq}}): 'Internal Server Error'; {HTTP_ADVICE}"),
    "close": _transport("did not answer with HTTP/1.1 for the answer to batch (seq {seq}) (RemoteDisconnected: "
                        f"Remote end closed connection without response); {HTTP_ADVICE}, on a connection kept alive"),
    "bad_status": _transport("did not answer with HTTP/1.1 for the answer to batch (seq {seq}) (BadStatusLine: "
                             f"HTTP/1.1 OK\r\n); {HTTP_ADVICE}, on a connection kept alive"),
    "extra_bytes": _transport("sent more bytes than its Content-Length (LENGTH) says with the answer to batch "
                              f"(seq {{seq}}); {HTTP_ADVICE}, and nothing after it"),
    "trickle": _late,
    "garbage": _not_json("'this is not JSON'"),  # the whole body
    "missing_line": _not_json("''"),  # a line too few: whose is it?
    # one line is wrong: its own batch's fault, the batches after it are asked again
    "garbage_line": _not_json("'this is not JSON'"),
    "wrong_seq_line": lambda url, seq: (f"{STARTING}the answer to batch (seq {seq}) carries seq {seq + 100}: every "
                                        "answer echoes its request's seq, one answer per request, in order"
                                        + NEW_SESSION),
}


def run(scenarios: list[Scenario], kind: str, seq: int, jsonl: bool) -> tuple[list[tuple[str, str]], str, int]:
    """The verdicts against a fake failing at batch ``seq``, its URL, and how many POSTs carried several batches."""
    with fake_http_server(kind, seq=seq, jsonl=jsonl) as server:
        url = f"http://127.0.0.1:{server.server_address[1]}/"
        with http_engine(url, timeout=2) as engine:
            verdicts = [(r.outcome, r.message) for r in Runner(engine).run_all(scenarios)]
            assert engine.pipelines_batches is jsonl
        return verdicts, url, server.lined


PLACES = {"inside a group": 1, "a group's last": GROUP - 1, "the last": -1}
# Every fault at every place, but a trickle (two timeouts a run) only once.
FAULTS = [pytest.param(kind, index, id=f"{kind}-{place}") for kind in CASES for place, index in PLACES.items()
          if kind != "trickle" or index == 1]


@pytest.mark.parametrize("kind, index", FAULTS)
def test_a_fault_in_a_grouped_post_errors_exactly_its_scenario(
        kind: str, index: int, scenarios: list[Scenario], truth: list[tuple[str, str]]) -> None:
    index %= len(scenarios)
    seq = fakes.batch_seqs(scenarios)[index]
    started = time.monotonic()
    grouped, url, lined = run(scenarios, kind, seq, jsonl=True)
    elapsed = time.monotonic() - started
    alone, alone_url, alone_lined = run(scenarios, kind, seq, jsonl=False)
    assert lined >= 2 and alone_lined == 0  # both groups went in one POST each, and no POST did without jsonl
    assert [(o, m.replace(url, "URL")) for o, m in grouped] == [(o, m.replace(alone_url, "URL")) for o, m in alone]
    outcome, message = grouped[index]
    expected = CASES[kind](url, seq)
    if "LENGTH" in expected:
        expected = re.escape(expected).replace("LENGTH", r"\d+")
        assert re.fullmatch(expected, message), message
    else:
        assert message == expected
    assert [verdict for i, verdict in enumerate(grouped) if i != index] == truth[:index] + truth[index + 1:]
    assert outcome == "error"
    assert elapsed < 8, "a trickle holds a POST no longer than --timeout, twice: grouped, then alone"


def test_a_group_that_fails_once_is_one_error_naming_the_retry(scenarios: list[Scenario],
                                                               truth: list[tuple[str, str]]) -> None:
    # the second POST (the first group) is refused once: asked again one per POST, every batch answers, so the
    # fault struck once and the group's first scenario is charged with it; the others keep their verdicts
    with fake_http_server("status_500", at=2, jsonl=True) as server:
        url = f"http://127.0.0.1:{server.server_address[1]}/"
        with http_engine(url) as engine:
            verdicts = [(r.outcome, r.message) for r in Runner(engine).run_all(scenarios)]
        assert verdicts[1:] == truth[1:]
        assert verdicts[0] == ("error", f"{STARTING.replace('AdapterError', 'AnsweredAgain')}{url} answered HTTP 500 (Internal Server Error) instead of sending "
                               f"the answer to batch (seq 9) and the {GROUP - 1} after it: 'Internal Server Error'; "
                               f"{HTTP_ADVICE}; asked again, each of the {GROUP} scenarios alone, the engine answered "
                               "every one: it failed once and not again, which is a fault of its own (this scenario, "
                               "the call's first, is charged with it); an engine answers every call the first time")
        assert server.lined == 2  # the first group, then the rest: each in one POST
        # hello, the group, a new hello and each of its batches alone, the rest together, stop
        assert server.posts == 1 + 1 + 1 + GROUP + 1 + 1


@pytest.mark.parametrize("kind", ["garbage_line", "status_500"])
def test_an_engine_with_jsonl_but_no_batch_gets_a_scenario_per_post(kind: str, scenarios: list[Scenario]) -> None:
    # each scenario's requests in one POST, pipelined; a fault in it is that scenario's, as one request per POST
    verdicts = []
    for jsonl in (True, False):
        with fake_http_server(kind, seq=3, jsonl=jsonl) as server:
            server.session.declares["batch"] = False
            url = f"http://127.0.0.1:{server.server_address[1]}/"
            with http_engine(url) as engine:
                verdicts.append([(r.outcome, r.message.replace(url, "URL")) for r in Runner(engine).run_all(scenarios)])
                assert not engine.batches and engine.pipelining is jsonl and not engine.pipelines_batches
            assert server.lined == (len(scenarios) if jsonl else 0)
    grouped, alone = verdicts
    assert [outcome for outcome, _ in grouped] == ["error"] + ["pass"] * (len(scenarios) - 1)
    if kind == "garbage_line":  # the line is pinned on its request, as its own POST would be
        assert grouped[0][1].startswith("step 2 (line 16): the engine raised in apply(): AdapterError: protocol "
                                        "error: the answer to apply (seq 3) is not JSON")
        assert grouped == alone
    else:  # the POST of the whole scenario failed
        assert grouped[0][1].startswith("the engine raised while starting: AdapterError: protocol error: URL "
                                        "answered HTTP 500 (Internal Server Error) instead of sending the answer to "
                                        "start (seq 1) and the ")
