"""Faulty engines that answer batches, run several scenarios per write: each fault is still charged to its scenario."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

import fake_engines as fakes
import pytest

from harness.adapters import subprocess_engine
from harness.run.grouped import GROUP
from harness.run.runner import Runner
from harness.suite.fixtures import load_paths
from harness.suite.model import Scenario
from reference_engine import ReferenceEngine

TESTS = Path(__file__).parent
FAKES = TESTS / "data" / "protocol_fakes"
RESTARTED = "; the engine was stopped and is restarted for the next scenario"
SILENT = "\n(the engine wrote nothing on stderr)"
STRAY = ("protocol error: the engine wrote 'debug: scenario done' after its last answer: answer each request with "
         "exactly one line, and write logs to stderr" + RESTARTED + SILENT)


@pytest.fixture(autouse=True)
def _batches(monkeypatch: pytest.MonkeyPatch) -> None:
    """The fakes import the kit, and declare batches."""
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(filter(None, [str(TESTS.parent), os.environ.get("PYTHONPATH")])))
    monkeypatch.setenv("FAKE_BATCH", "1")


@pytest.fixture(scope="module")
def scenarios() -> list[Scenario]:
    loaded = load_paths([TESTS / "data" / "scenarios"])
    assert not loaded.errors
    suite = loaded.scenarios * 5  # two groups: a fault after a group's last answer shows in the next one's
    assert GROUP < len(suite) < 2 * GROUP
    return suite


def crashed(seq: int) -> str:
    return ("the engine raised while starting: AdapterError: protocol error: the engine exited with code 3 instead "
            f"of sending the answer to batch (seq {seq}); run it by hand with the request to see why" + RESTARTED +
            f"\nthe engine's stderr ends with:\n| about to crash on purpose at seq {seq}")


CASES: dict[str, Any] = {
    # name: (fake, the scenario whose batch it breaks, that scenario's message from its batch's seq)
    "stray line after the first scenario": ("trailing", 0, lambda seq: STRAY),
    "stray line after a group's last scenario": ("trailing", GROUP - 1, lambda seq: STRAY),
    "stray line after the last scenario": ("trailing", -1, lambda seq: STRAY),
    "duplicate answer": ("duplicate", 3, lambda seq: (
        f"protocol error: the engine answered seq {seq} a second time, after its last answer: answer each request "
        "exactly once" + RESTARTED + SILENT)),
    "crash": ("crash", 1, crashed),
    "garbage": ("garbage", 1, lambda seq: (
        f"the engine raised while starting: AdapterError: protocol error: the answer to batch (seq {seq}) is not "
        "JSON (Expecting value: line 1 column 1 (char 0)): 'hello from the engine, this is not JSON'; write exactly "
        "one JSON object per line on stdout, and any log on stderr" + RESTARTED + SILENT)),
}


@pytest.mark.parametrize("case", CASES)
def test_a_fault_in_a_group_errors_exactly_its_scenario(case: str, scenarios: list[Scenario]) -> None:
    fake, index, message = CASES[case]
    index %= len(scenarios)
    seq = fakes.batch_seqs(scenarios)[index]
    truth = [(r.outcome, r.message) for r in map(Runner(ReferenceEngine()).run, scenarios)]
    with subprocess_engine([sys.executable, str(FAKES / f"{fake}.py"), str(seq)]) as engine:
        runner = Runner(engine)
        assert engine.pipelines_batches
        results = [(r.outcome, r.message) for r in runner.run_all(scenarios)]
        assert engine.channel.starts == (1 if index == len(scenarios) - 1 else 2)  # type: ignore[attr-defined]
    assert results == [("error", message(seq)) if i == index else truth[i] for i in range(len(scenarios))]
