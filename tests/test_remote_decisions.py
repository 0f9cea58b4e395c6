"""Decisions over the protocol: planned ahead, asked together, and judged exactly as in process."""

from __future__ import annotations

import os
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import fake_players as fakes
import pytest

from harness.adapters import subprocess_engine
from harness.adapters.http import http_engine
from harness.adapters.remote import RemoteEngine
from harness.run.decisions import has_decisions
from harness.run.runner import Runner
from harness.serve.http import http_server
from harness.spec.paths import fixtures_dir
from harness.suite.fixtures import load_paths
from harness.suite.model import Scenario
from reference_engine import ReferenceEngine

TESTS = Path(__file__).parent


class LaysOff(fakes.PlayersEngine):
    """Lays off whenever it can (the easy player never does)."""

    def pick(self, view: dict[str, Any]) -> dict[str, Any]:
        return next((a for a in view["legal"] if "layoff" in a), view["legal"][0])


class Fails(fakes.PlayersEngine):
    """Its player raises on a Gin Rummy view: the engine answers choose with an error."""

    def pick(self, view: dict[str, Any]) -> dict[str, Any]:
        if view["game"] == "gin-rummy":
            raise KeyError("no gin player today")
        return super().pick(view)


ENGINES = {"reference": ReferenceEngine, "wrong tie break": fakes.WrongTieBreak, "illegal": fakes.PicksIllegal,
           "lays off": LaysOff, "choose fails": Fails, "bots in the game (seat)": fakes.SeatBots}


@pytest.fixture(scope="module")
def decisions() -> list[Scenario]:
    loaded = load_paths([fixtures_dir()])
    assert not loaded.errors
    return [scenario for scenario in loaded.scenarios if has_decisions(scenario)]


@contextmanager
def served(engine: Any) -> Iterator[RemoteEngine]:
    """``engine`` behind ``serve --http`` in a thread, and a remote engine talking to it."""
    server = http_server(engine)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        with http_engine(f"http://127.0.0.1:{server.server_address[1]}/") as remote:
            yield remote
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


def verdicts(engine: Any, scenarios: list[Scenario]) -> list[tuple[str, str, str, list[str], list[str]]]:
    return [(r.scenario.id, r.outcome, r.message, r.details, r.unchecked) for r in Runner(engine).run_all(scenarios)]


@contextmanager
def served_stdio(factory: Any) -> Iterator[RemoteEngine]:
    """``serve --engine factory`` as a child process (it answers batches: several scenarios go per write)."""
    with subprocess_engine([sys.executable, "-m", "harness", "serve", "--engine",
                            f"{factory.__module__}:{factory.__qualname__}"]) as remote:
        yield remote


@pytest.fixture(autouse=True)
def _importable_in_children(monkeypatch: pytest.MonkeyPatch) -> None:
    """The fake engines (here and in fake_players) importable by ``serve --engine``."""
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(filter(None, [str(TESTS), str(TESTS.parent),
                                                                    os.environ.get("PYTHONPATH")])))


@pytest.mark.parametrize("transport", ["http", "stdio"])
@pytest.mark.parametrize("name", ENGINES)
def test_every_decision_is_judged_over_the_protocol_as_in_process(
        name: str, transport: str, decisions: list[Scenario]) -> None:
    local = verdicts(ENGINES[name](), decisions)
    with (served(ENGINES[name]()) if transport == "http" else served_stdio(ENGINES[name])) as remote:
        # an engine's failure reaches the harness as an error answer, and is reported as one
        assert [(i, o, m.replace("EngineError: the engine answered choose with an error: ", ""), d, u)
                for i, o, m, d, u in verdicts(remote, decisions)] == local
    assert name == "reference" or any(outcome != "pass" for _, outcome, *_ in local), "the fake breaks nothing"


def test_a_scenario_with_one_decision_is_two_messages_the_plan_and_the_choice(decisions: list[Scenario]) -> None:
    scenario = next(s for s in decisions if s.id == "gin-rummy.players.easy-draws-stock")
    with served(ReferenceEngine()) as remote:
        sent: list[dict[str, Any]] = []
        exchange = remote.channel.exchange
        remote.channel.exchange = lambda message, what: sent.append(message) or exchange(message, what)  # type: ignore[method-assign]
        assert Runner(remote).run(scenario).outcome == "pass"  # the legal actions asked twice are asked once
    assert [[inner["cmd"] for inner in m.get("requests", [m])] for m in sent] == [
        ["hello"], ["start", "legal_actions", "state", "observation", "observation"], ["choose"], ["stop"]]
