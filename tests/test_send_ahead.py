"""Writes sent ahead over stdio: the engine finds the next write waiting, and nothing is lost when a session ends."""

from __future__ import annotations

import os
import signal
import socket
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from harness.adapters import AdapterError, EngineError, subprocess_engine
from harness.adapters.http import http_engine
from harness.adapters.remote import RemoteEngine
from harness.adapters.remote_game import as_requests
from harness.run.plan import Planned
from harness.run.runner import Runner
from harness.serve.http import http_server
from harness.suite.fixtures import load_paths
from reference_engine import ReferenceEngine

TESTS = Path(__file__).parent
SERVE = [sys.executable, "-m", "harness", "serve"]
Exchanges = list[list[tuple[str, dict[str, Any]]]]


@pytest.fixture(autouse=True)
def _importable_in_children(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(filter(None, [str(TESTS.parent), os.environ.get("PYTHONPATH")])))


def writes() -> tuple[Exchanges, Exchanges]:
    """Two writes of scenario exchanges (a start and its plan each), as the grouped runs send them."""
    loaded = load_paths([TESTS / "data" / "scenarios"])
    runner = Runner(ReferenceEngine())
    exchanges = []
    for scenario in loaded.scenarios:
        play = runner.ready(scenario).play
        assert play is not None
        exchanges.append([("start", {"setup": play.setup()}), *as_requests(Planned(scenario, 0).requests)])
    assert len(exchanges) >= 2
    return exchanges, list(reversed(exchanges))


def answered(results: list[tuple[list[Any], str | None]]) -> list[list[Any]]:
    """The answers without their seqs (which differ between sessions), or the error text."""
    return [[str(o) if isinstance(o, Exception) else {k: v for k, v in o.items() if k != "seq"} for o in outcomes]
            for outcomes, _ in results]


def answered_in_turn(exchanges: Exchanges) -> list[list[Any]]:
    """The answers a fresh engine gives ``exchanges`` sent the usual way."""
    with subprocess_engine(SERVE) as engine:
        return answered(engine.call_exchanges(exchanges))


@contextmanager
def sent_ahead(first: Exchanges, second: Exchanges, stopped: bool = False) -> Iterator[RemoteEngine]:
    """A fresh engine with both writes sent ahead, none read yet (``stopped``: by an engine stopped before
    they were sent, so none is answered before the test acts, however loaded the machine)."""
    with subprocess_engine(SERVE) as engine:
        engine.describe()
        if stopped:
            os.kill(engine.channel.process.pid, signal.SIGSTOP)  # type: ignore[attr-defined]
        assert engine.send_ahead(first) and engine.send_ahead(second)
        yield engine


def test_writes_sent_ahead_are_answered_as_if_sent_in_turn() -> None:
    first, second = writes()
    in_turn = [answered_in_turn(first), answered_in_turn(second)]
    with sent_ahead(first, second) as engine:
        ahead = [answered(engine.call_exchanges(first)), answered(engine.call_exchanges(second))]
        assert engine.channel.starts == 1  # type: ignore[attr-defined]
    assert ahead == in_turn
    assert all("error" not in str(outcome) for write in ahead for outcomes in write for outcome in outcomes)


def test_a_write_sent_ahead_into_a_session_that_ends_is_sent_again_in_the_next() -> None:
    first, second = writes()
    in_turn = answered_in_turn(second)
    with sent_ahead(first, second, stopped=True) as engine:
        engine.channel.process.kill()  # type: ignore[attr-defined]
        broken = engine.call_exchanges(first)
        assert isinstance(broken[0][0][-1], AdapterError) and "killed by SIGKILL" in str(broken[0][0][-1])
        assert answered(engine.call_exchanges(second)) == in_turn  # written again, to the restarted engine
        assert engine.channel.starts == 2  # type: ignore[attr-defined]


@pytest.mark.parametrize("transport", ["stdio", "http"])
def test_a_write_sent_ahead_and_never_read_ends_its_session_quietly(transport: str) -> None:
    """A run stopped early leaves answers nobody reads: the next request must not take them for its own."""
    first, second = writes()
    in_turn = answered_in_turn(second)
    sessions, opened = (sent_ahead, "starts") if transport == "stdio" else (http_sent_ahead, "connections")
    with sessions(first, second) as engine:
        with pytest.raises(EngineError, match="no game in progress"):  # a new session: nothing started in it
            engine.call("state")
        assert getattr(engine.channel, opened) == 2
        assert engine.send_ahead(second)
        assert answered(engine.call_exchanges(second)) == in_turn


@contextmanager
def http_sent_ahead(first: Exchanges, second: Exchanges, broken: bool = False) -> Iterator[RemoteEngine]:
    """A session with serve --http (in a thread) with both writes sent ahead, none read yet: the first is POSTed,
    the second waits for its answer. ``broken``: the connection breaks before the first is POSTed."""
    server = http_server(ReferenceEngine())
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        with http_engine(f"http://127.0.0.1:{server.server_address[1]}") as engine:
            engine.describe()
            if broken:
                engine.channel.connection.sock.sock.shutdown(socket.SHUT_RDWR)  # type: ignore[attr-defined]
            assert engine.send_ahead(first) and engine.send_ahead(second)
            yield engine
    finally:
        server.shutdown()
        server.server_close()


def test_http_writes_sent_ahead_are_answered_as_if_sent_in_turn() -> None:
    first, second = writes()
    in_turn = [answered_in_turn(first), answered_in_turn(second)]
    with http_sent_ahead(first, second) as engine:
        channel: Any = engine.channel
        assert channel.posted[0] and channel.posted[0][0]["seq"] < channel.ahead[1][0]["seq"]  # the first on the wire
        ahead = [answered(engine.call_exchanges(first))]
        assert channel.posted and channel.posted[0] is channel.ahead[0]  # the second POSTed once the first was read
        ahead.append(answered(engine.call_exchanges(second)))
        assert channel.connections == 1 and not channel.ahead and channel.posted is None
    assert ahead == in_turn


def test_http_a_write_sent_ahead_to_a_server_gone_is_sent_again_alone() -> None:
    """A POST sent ahead that fails as a whole is nobody's fault yet: each of its batches is asked again alone;
    all answered, the fault struck once, and the first is charged with it (an answer got by asking again hides nothing)."""
    first, second = writes()
    with http_sent_ahead(first, second, broken=True) as engine:
        results = engine.call_exchanges(first)
        assert engine.channel.connections == 2  # type: ignore[attr-defined]
        assert answered(engine.call_exchanges(second)) == answered_in_turn(second)  # sent again in the new session
    [charged], *rest = answered(results)
    assert "Broken pipe" in charged and f"each of the {len(first)} scenarios alone, the engine answered every one" in charged
    assert rest == answered_in_turn(first)[1:]


def test_http_a_run_stopped_with_a_write_sent_ahead_unread_closes_without_taking_its_answer() -> None:
    first, second = writes()
    with http_sent_ahead(first, second) as engine:
        assert engine.close() is None
        assert not engine.channel.is_open()
