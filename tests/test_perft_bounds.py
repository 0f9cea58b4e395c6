"""perft within bounds: its arguments checked (exit 2), every engine fault an error naming it (exit 1), never a
traceback, and the sizes an engine's answers may reach bounded (a legal list, the positions a level holds)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from harness.cli import main
from harness.perft import remote
from harness.perft.commands import MAX_DEPTH
from harness.perft.tree import MAX_LEGAL

TESTS = Path(__file__).parent
SEEDED = ["perft", "--game", "rummy", "--seed", "1"]


@pytest.fixture(autouse=True)
def _kit_on_path(monkeypatch: pytest.MonkeyPatch) -> None:
    """The fake engine imports the kit."""
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(filter(None, [str(TESTS.parent), os.environ.get("PYTHONPATH")])))


def hostile(mode: str) -> list[str]:
    return ["--engine-cmd", f"{sys.executable} {TESTS / 'hostile_perft_engine.py'} {mode}"]


@pytest.mark.parametrize(("argv", "said"), [
    ([*SEEDED, "--depth", "1000000000"], f"--depth N: give the depth to count to, 1 to {MAX_DEPTH} (e.g. --depth 4)"),
    ([*SEEDED, "--depth", "0"], f"--depth N: give the depth to count to, 1 to {MAX_DEPTH} (e.g. --depth 4)"),
    (["perft", "--game", "rummy", "--seed", str(2**64), "--depth", "1"],
     f"--seed {2**64}: a seed is an integer from 0 to 2^64-1"),
    (["perft", "--game", "rummy", "--seed", "-1", "--depth", "1"], "--seed -1: a seed is an integer from 0 to 2^64-1"),
    ([*SEEDED, "--depth", "1", "--engine-cmd", ""],
     "--engine-cmd is empty: give your engine, e.g. --engine-cmd 'node engine.js'"),
    ([*SEEDED, "--depth", "1", "--engine-url", " "],
     "--engine-url is empty: give your engine, e.g. --engine-url http://127.0.0.1:8080/"),
])
def test_bad_arguments_are_usage_errors(argv: list[str], said: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert said in captured.err.splitlines() and "Traceback" not in captured.out + captured.err


def test_run_refuses_an_empty_engine_command_too(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["run", "--engine-cmd", ""]) == 2
    assert "--engine-cmd is empty" in capsys.readouterr().err


@pytest.mark.parametrize(("mode", "said"), [
    ("wide", f"error: legal_actions() at the start lists 50,000 actions, past the kit's bound of {MAX_LEGAL:,}: list "
             "each legal action once"),
    ("surrogate-error", "a string holds a lone surrogate escape (\\ud800 to \\udfff without its pair), which is no "
                        "character"),
    ("surrogate-action", "a string holds a lone surrogate escape (\\ud800 to \\udfff without its pair), which is no "
                         "character"),
    ("stray", "protocol error: the engine wrote '{\"debug\": \"thinking\"}' after its last answer"),
    ("exits", "protocol error: the engine exited with code 3"),
    ("no-list", "$.result: 7 is not of type 'array'"),
])
@pytest.mark.parametrize("depth", ["1", "3"])
def test_every_engine_fault_is_an_error(mode: str, said: str, depth: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main([*SEEDED, "--depth", depth, *hostile(mode)]) == 1
    captured = capsys.readouterr()
    errors = [line for line in captured.out.splitlines() if line.startswith("error: ")]
    assert len(errors) == 1 and said in errors[0], captured.out
    assert "Traceback" not in captured.out + captured.err


def test_a_level_too_wide_to_hold_is_an_error(monkeypatch: pytest.MonkeyPatch,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(remote, "MAX_LEVEL", 10)  # rummy seed 1 holds 15 positions at depth 2
    assert main([*SEEDED, "--depth", "4", *hostile("plain")]) == 1
    out = capsys.readouterr().out
    assert ("error: depth 2 would hold 15 positions at once, past the kit's bound of 10: count to a "
            "smaller depth, or declare perft in hello so that the engine counts itself (spec/protocol.md)") in out
