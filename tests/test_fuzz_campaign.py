"""Fuzz and properties that keep going: several findings, known differences, engines that raise,
the legal-action order, the seeded deal, option ranges and Ctrl-C."""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import fake_engines as fakes
import pytest

from harness.findings.games import facts
from harness.findings.model import Divergence, Violation
from harness.fuzzing import COMMANDS, add_commands
from harness.fuzzing.campaign import FuzzOptions, difference_key, fuzz
from harness.fuzzing.properties import check_properties
from harness.mutants.catalogue import BY_ID, GAME_MODULES
from harness.mutants.variants import VariantEngine, build
from reference_engine import ReferenceEngine

ROOT = Path(__file__).parents[1]


def parse(*argv: str) -> argparse.Namespace:
    """The Namespace the CLI would build for the fuzzing commands."""
    parser = argparse.ArgumentParser()
    add_commands(parser.add_subparsers(dest="command", required=True))
    return parser.parse_args(argv)


def two_mistakes() -> VariantEngine:
    """Rummy with two mistakes of two clauses: the taken card may be discarded, the winner scores its own hand."""
    edits = BY_ID["rummy.discard-taken-allowed"].edits + BY_ID["rummy.winner-counts-own-hand"].edits
    return VariantEngine("rummy", build(GAME_MODULES["rummy"], edits, "two mistakes"), "two mistakes")


class StartRaises(ReferenceEngine):
    def start(self, setup: dict[str, Any]) -> Any:
        if "seed" in setup:  # deals seeded games, but no layout
            return super().start(setup)
        raise ValueError("cannot deal")


class DealsAnotherSeed(ReferenceEngine):
    def start(self, setup: dict[str, Any]) -> Any:
        return super().start({**setup, "seed": setup["seed"] + 1} if "seed" in setup else setup)


class DealsAnotherSeedUndeclared(DealsAnotherSeed):
    def describe(self) -> dict[str, Any]:
        described = super().describe()
        for game in described["games"].values():
            game["features"] = {**game.get("features", {}), "seeded_deal": False}
        return described


class ReversedOrder(fakes.WrappedGame):
    def legal_actions(self) -> list[dict[str, Any]]:
        return super().legal_actions()[::-1]


class KnockLimitFiveToTen(ReferenceEngine):
    """Gin Rummy with knock_limit 5..10 only: anything else raises."""

    def describe(self) -> dict[str, Any]:
        described = super().describe()
        described["games"]["gin-rummy"]["option_ranges"] = {"knock_limit": {"minimum": 5, "maximum": 10},
                                                            "gin_bonus": {"values": [25]}}
        return described

    def start(self, setup: dict[str, Any]) -> Any:
        options = setup.get("options") or {}
        if setup["game"] == "gin-rummy" and (not 5 <= options.get("knock_limit", 10) <= 10
                                             or options.get("gin_bonus", 25) != 25):
            raise ValueError(f"unsupported options {options}")
        return super().start(setup)


class KnockLimitUndeclared(KnockLimitFiveToTen):
    def describe(self) -> dict[str, Any]:
        return ReferenceEngine.describe(self)


def test_max_findings_collects_distinct_differences_and_known_ones_are_looked_past() -> None:
    result = fuzz(two_mistakes(), FuzzOptions("rummy", examples=40, max_findings=3, shrink_seconds=2.0))
    keys = [difference_key(facts("rummy"), f.failure) for f in result.findings]
    # Each charged to its mutant's clause: the winner's own hand counts only after an empty stock.
    assert sorted(keys) == ["rummy.empty-stock-scoring", "rummy.no-discard-of-taken-card"]
    assert result.examples >= 40  # the third was looked for in the rest of the budget
    assert keys[0] == "rummy.empty-stock-scoring" and result.looked_past[keys[0]] >= 1  # seen again, not reported again
    again = fuzz(two_mistakes(), FuzzOptions("rummy", examples=30, known=frozenset({keys[0]}), shrink_seconds=2.0))
    assert [difference_key(facts("rummy"), f.failure) for f in again.findings] == [keys[1]]
    assert again.looked_past[keys[0]] >= 1


def test_the_fuzz_command_prints_each_finding_and_the_known_ones(capsys: pytest.CaptureFixture[str]) -> None:
    args = parse("fuzz", "--engine", "test_fuzz_campaign:two_mistakes", "--game", "rummy", "--examples", "40",
                 "--max-findings", "2", "--known", "rummy.ace-high-ignored-typo")
    assert COMMANDS["fuzz"](args) == 2
    err = capsys.readouterr().err
    assert err.startswith("--known rummy.ace-high-ignored-typo: neither a clause id (`cardverse-conformance coverage` "
                          "lists them) nor an invariant (accepted, cards, deterministic, engine-error, hidden, ")
    args = parse("fuzz", "--engine", "test_fuzz_campaign:two_mistakes", "--game", "rummy", "--examples", "40",
                 "--max-findings", "2", "--known", "hidden")
    assert COMMANDS["fuzz"](args) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("rummy: ") and out[0].endswith(": 2 distinct findings")
    assert [line for line in out if line.startswith("  finding ")][0].startswith("  finding 1/2, after ")


def test_an_engine_raising_in_start_is_a_finding_not_a_traceback() -> None:
    result = fuzz(StartRaises(), FuzzOptions("president", examples=5))
    failure = result.finding.failure  # type: ignore[union-attr]
    assert isinstance(failure, Divergence) and failure.kind == "error"
    assert failure.message == "the engine raised in start(): ValueError: cannot deal"
    assert result.finding.moves == []  # type: ignore[union-attr]
    props = check_properties(StartRaises(), FuzzOptions("president", examples=5)).finding
    assert props is not None and isinstance(props.failure, Violation)
    assert str(props.failure) == "engine-error: the engine raised in start(): ValueError: cannot deal"


def test_legal_actions_in_another_order_are_an_error_naming_the_first_misplaced() -> None:
    result = fuzz(fakes.make(ReversedOrder), FuzzOptions("gin-rummy", examples=5))
    failure = result.finding.failure  # type: ignore[union-attr]
    assert isinstance(failure, Divergence) and failure.kind == "legal"
    assert str(failure) == ("the legal actions are not listed in the canonical order\n"
                            '  first misplaced: {"pass": true} listed at position 1, where the canonical order has '
                            '{"draw": "discard"}\n'
                            "  list them in the order the game file states (its engine conventions)")
    assert failure.check == {"legal": {"exactly": [{"draw": "discard"}, {"pass": True}]}}


def test_a_seeded_deal_unlike_the_reference_fails_the_run(capsys: pytest.CaptureFixture[str]) -> None:
    args = parse("fuzz", "--engine", "test_fuzz_campaign:DealsAnotherSeed", "--game", "rummy", "--examples", "3")
    assert COMMANDS["fuzz"](args) == 1
    out = capsys.readouterr().out
    assert "  the engine deals seed 0 (2 players) differently from the game file's `deal`\n    discard: reference " in out
    assert "\n    hands: reference [[" in out
    assert ("fix the deal (spec/README.md, seeded deals) or declare \"seeded_deal\": false in describe() "
            "features") in out
    undeclared = fuzz(DealsAnotherSeedUndeclared(), FuzzOptions("rummy", examples=3))
    assert undeclared.findings == []


def test_options_stay_in_the_declared_ranges() -> None:
    assert fuzz(KnockLimitFiveToTen(), FuzzOptions("gin-rummy", examples=25, max_steps=3)).findings == []
    undeclared = fuzz(KnockLimitUndeclared(), FuzzOptions("gin-rummy", examples=25, max_steps=3)).finding
    assert undeclared is not None and "unsupported options" in str(undeclared.failure)  # the test can fail


def _started(command: list[str], ready: str, tmp_path: Path) -> tuple[subprocess.Popen[str], list[str], threading.Thread]:
    """``command`` running (stdout to ``tmp_path/stdout``), once ``ready`` appeared on its stderr;
    what it writes there, and the thread reading it."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "tests"), str(ROOT)])}
    env.pop("CI", None)
    # SIGINT back to its default: a test runner's workers (or a background shell) may ignore it,
    # and a child inherits that, so Ctrl-C would never reach the command.
    process = subprocess.Popen(command, stdout=(tmp_path / "stdout").open("w"), stderr=subprocess.PIPE, text=True,
                               env=env, cwd=tmp_path, preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    seen: list[str] = []
    event = threading.Event()

    def read() -> None:
        assert process.stderr is not None
        for chunk in iter(lambda: process.stderr.read(1), ""):  # type: ignore[union-attr]
            seen.append(chunk)
            if ready in "".join(seen[-200:]):
                event.set()
        event.set()

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    assert event.wait(120), "the command never got going"
    return process, seen, reader


@pytest.mark.parametrize("command, ready", [
    (["fuzz", "--engine", "test_fuzz_campaign:two_mistakes", "--game", "rummy", "--max-findings", "9"], "example 3/"),
    (["properties", "--game", "president"], "properties president: 3/"),
    (["mutants", "--mutant", "president.*", "--jobs", "2"], "mutant 1/"),
])
def test_ctrl_c_stops_at_once_keeps_the_findings_and_exits_130(command: list[str], ready: str, tmp_path: Path) -> None:
    out = tmp_path / "found"
    extra = ["--out", str(out)] if command[0] == "fuzz" else []
    process, seen, reader = _started([sys.executable, "-m", "harness", *command, *extra, "--examples", "100000",
                              "--progress", "on"], ready, tmp_path)
    try:
        time.sleep(0.5)
        process.send_signal(signal.SIGINT)
        sent = time.monotonic()
        process.wait(timeout=30)
        waited = time.monotonic() - sent
        reader.join(10)
        stdout = (tmp_path / "stdout").read_text()
    finally:
        if process.poll() is None:  # never leave it running, whatever went wrong
            process.kill()
            process.wait()
    assert process.returncode == 130, stdout
    lines = [line for line in "".join(seen).replace("\x1b[K", "").replace("\r", "\n").splitlines() if line]
    assert lines[-1].startswith("interrupted: stopped at Ctrl-C, the ")  # then what was ended
    assert "Traceback" not in "".join(seen)
    assert waited < 5  # within a second on an idle machine; CI machines are slower
    if command[0] == "fuzz":
        assert "(interrupted)" in stdout.splitlines()[0]
        assert list(out.glob("rummy.fuzz.*.yaml")), stdout  # the findings so far were kept


def test_a_herd_finds_each_mutant_and_never_the_reference_among_them() -> None:
    from harness.mutants.catalogue import engine
    from harness.mutants.herd import fuzz_herd
    from reference_engine import create

    herd = {"reference": create(), "president.points-off-by-one": engine("president.points-off-by-one"),
            "president.equal-rank-allowed": engine("president.equal-rank-allowed")}
    found = fuzz_herd(herd, FuzzOptions("president", examples=4))
    assert found["reference"] is None  # the shared answers are the reference's own: no false difference
    equal = found["president.equal-rank-allowed"]
    assert equal is not None and equal.failure.startswith("the legal actions differ\n  not legal, but listed: ")
    points = found["president.points-off-by-one"]
    assert points is not None and points.failure.startswith("the state view differs after the move\n  game_result: ")


@pytest.fixture
def sigint_handled() -> Any:
    """SIGINT raising KeyboardInterrupt, as in a terminal: a shell's background job starts with it ignored."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, previous)


def test_a_ctrl_c_swallowed_inside_a_gc_callback_comes_out_at_the_next_check(sigint_handled: None) -> None:
    import threading

    from harness.fuzzing.interrupts import check, kept_interrupts

    if threading.current_thread() is not threading.main_thread():
        pytest.skip("signal handlers can only be set in the main thread")
    with kept_interrupts():
        try:
            signal.raise_signal(signal.SIGINT)
        except KeyboardInterrupt:
            pass  # what Python does to an exception raised in a garbage-collector callback
        with pytest.raises(KeyboardInterrupt):
            check()
    check()  # the request ends with the command


def test_a_swallowed_ctrl_c_is_not_printed_as_an_ignored_exception(sigint_handled: None, capsys: pytest.CaptureFixture[str]) -> None:
    import gc
    import threading

    from harness.fuzzing.interrupts import check, kept_interrupts

    if threading.current_thread() is not threading.main_thread():
        pytest.skip("signal handlers can only be set in the main thread")

    def callback(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            gc.callbacks.remove(callback)
            signal.raise_signal(signal.SIGINT)  # arrives inside the callback, as under Hypothesis

    with kept_interrupts():
        gc.callbacks.append(callback)
        gc.collect()
        with pytest.raises(KeyboardInterrupt):
            check()
    assert "KeyboardInterrupt" not in capsys.readouterr().err
