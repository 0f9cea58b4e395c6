"""The perft request (protocol 1.1): serve counts as the reference does, the command divides on the engine's own
counts down to the same finding as a level at a time, and each lie a counting engine can tell is caught and named."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

from harness.adapters import subprocess_engine
from harness.cli import main
from harness.perft.counted import CountingTree
from harness.perft.locate import tree
from harness.perft.remote import RemoteTree
from harness.perft.tree import LocalTree, where
from harness.perft.vectors import vectors
from harness.serve.serve import ProtocolServer
from harness.spec.cards import show
from reference_engine import create

SERVE = [sys.executable, "-m", "harness", "serve"]
LIAR = [sys.executable, str(Path(__file__).parent / "lying_counter.py")]
HELLO = {"cmd": "hello", "protocol": 1}


def test_serve_counts_and_divides_as_the_reference_and_leaves_its_games_alone() -> None:
    vector = vectors("president")[0]
    server = ProtocolServer(create())
    assert server.handle(HELLO)["perft"] is True
    server.handle({"seq": 1, "cmd": "start", "setup": vector.setup})
    before = server.handle({"seq": 2, "cmd": "state"})["result"]
    counted = server.handle({"seq": 3, "cmd": "perft", "fork": 0, "depth": 3})["result"]
    reference = LocalTree(create(), vector.setup)
    assert counted["counts"] == reference.counts(3) == list(vector.counts[:3])
    assert [(entry["action"], entry["nodes"]) for entry in counted["divide"]] == reference.divide(3)
    assert server.handle({"seq": 4, "cmd": "state"})["result"] == before
    from_setup = server.handle({"seq": 5, "cmd": "perft", "setup": vector.setup, "depth": 2})["result"]
    assert from_setup["counts"] == list(vector.counts[:2])
    assert server.handle({"seq": 6, "cmd": "state"})["result"] == before  # a setup counted is not started


def test_serve_without_perft_neither_declares_nor_answers_it() -> None:
    server = ProtocolServer(create(), {"perft": False})
    assert server.handle(HELLO)["perft"] is False
    answer = server.handle({"seq": 1, "cmd": "perft", "setup": vectors("rummy")[0].setup, "depth": 1})
    assert "--no-perft" in answer["error"]


def test_a_perft_request_names_a_game_or_a_setup() -> None:
    server = ProtocolServer(create())
    server.handle(HELLO)
    assert "perft-request.json" in server.handle({"seq": 1, "cmd": "perft", "depth": 2})["error"]


def test_over_stdio_the_engines_own_counts_are_the_vectors() -> None:
    with subprocess_engine(SERVE) as engine:
        for game in ("gin-rummy", "president", "rummy"):
            vector = vectors(game)[0]
            walker = tree(engine, vector.setup)
            assert isinstance(walker, CountingTree)
            depth = min(5, len(vector.counts))
            assert tuple(walker.counts(depth)) == vector.counts[:depth], vector.name
    with subprocess_engine([*SERVE, "--no-perft"]) as engine:
        assert type(tree(engine, vectors("rummy")[0].setup)) is RemoteTree


def test_the_command_finds_the_same_position_with_and_without_the_engines_counts(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    found = {}
    for how, switch in (("perft declared", []), ("a level at a time", ["--no-perft"])):
        command = [*SERVE, "--engine", "harness.mutants:president_equal_rank_allowed", *switch]
        argv = ["perft", "--game", "president", "--seed", "2", "--players", "4", "--depth", "4",
                "--out", str(tmp_path / how), "--engine-cmd", " ".join(command)]
        assert main(argv) == 1
        out = capsys.readouterr().out
        assert "DIFFERS: the reference counts" in out and "not legal, but listed: {play: " in out
        assert "fail on the engine" in out and "pass on the reference" in out
        [written] = (tmp_path / how).glob("*.yaml")
        found[how] = (written.name, out[out.index("divide: "):].replace(str(tmp_path / how), "DIR"))
    assert found["perft declared"] == found["a level at a time"]  # its id is a digest of the setup and the moves
    assert found["perft declared"][0].startswith("president.perft.legal-")


@pytest.mark.parametrize(("lie", "named"), [
    ("wrong-total", "counts 11 positions at depth 1, but its legal_actions lists 10: a wrong total"),
    ("unsummed-divide", "the divide does not sum to the total: its actions' counts add up to 242, its count at "
                        "depth 4 is 241"),
    ("miscounted-child", "a child miscounted: the engine's divide at the start counts 209 below seat 1 "
                         "{draw: discard}, but its own perft (depth 3) there counts 210"),
])
def test_the_command_catches_a_counting_engine_that_lies(lie: str, named: str,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["perft", "--game", "gin-rummy", "--seed", "1", "--depth", "4", "--engine-cmd", " ".join([*LIAR, lie])]
    assert main(argv) == 1
    out = capsys.readouterr().out
    assert out.splitlines()[-1].startswith("error: ") and named in out


@pytest.mark.parametrize(("lie", "named"), [
    ("wrong-total", "FAIL  gin-rummy: perft: a wrong total: perft counts 32 positions at depth 3, its own "
                    "legal_actions and apply give 31"),
    ("unsummed-divide", "FAIL  gin-rummy: perft: the divide does not sum to the total: its actions' counts add up "
                        "to 32, the count at depth 3 is 31"),
    ("miscounted-child", "FAIL  gin-rummy: perft: a child miscounted: the divide counts 19 below {draw: discard}, "
                         "its own legal_actions and apply give 20"),
])
def test_smoke_catches_a_counting_engine_that_lies(lie: str, named: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["smoke", "--engine-cmd", " ".join([*LIAR, lie])]) == 1
    out = capsys.readouterr().out
    assert named in out
    assert "ok    gin-rummy: fork" in out  # the rest of the protocol is spoken well: only the counts lie


def test_smoke_passes_an_engine_that_counts_right(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["smoke", "--engine-cmd", " ".join(SERVE)]) == 0
    out = capsys.readouterr().out
    assert "ok    president: perft: counts [6, 22, 86] to depth 3 are its own legal lists'" in out


def test_a_level_at_a_time_the_copies_must_be_numbered_in_order(capsys: pytest.CaptureFixture[str]) -> None:
    """Each level's forks go out with the requests about the copies, so the numbers are the protocol's, checked."""
    argv = ["perft", "--game", "gin-rummy", "--seed", "1", "--depth", "3", "--engine-cmd",
            " ".join([*LIAR, "copies-numbered-otherwise"])]
    assert main(argv) == 1
    assert capsys.readouterr().out.splitlines()[-1] == (
        "error: the engine numbered a copy 2 at the start, not 1: number copies 1, 2, ... in the order fork made "
        "them since the last start")


def test_a_level_at_a_time_a_refused_child_is_named_with_its_path(capsys: pytest.CaptureFixture[str]) -> None:
    """A level's answers are read by kind (every fork first, then each child's apply and legal list): the refusal
    of one child's action is still told as that child's. Game 3 is the second copy made at level 2: the second
    child of the first move's position (numbers 2, 3, ... for its children, then its own game for the last)."""
    setup = vectors("gin-rummy")[0].setup
    reference = LocalTree(create(), setup)
    first = reference.legal()[0]
    after = ((reference.seat(), first),)
    second = reference.legal(after)[1]
    argv = ["perft", "--game", "gin-rummy", "--seed", str(setup["seed"]), "--players", str(setup["players"]),
            "--depth", "3", "--engine-cmd", " ".join([*LIAR, "copy-3-refuses"])]
    assert main(argv) == 1
    assert capsys.readouterr().out.splitlines()[-1] == (
        f"error: after seat {after[0][0]} {show(first)}: legal_actions() lists seat {reference.seat(after)} "
        f"{show(second)}, but apply() refused it (not-your-turn): every listed action must be accepted")


def numbered_child(reference: LocalTree, number: int, depth: int) -> tuple[Any, int, dict[str, Any]]:
    """The parent's path, seat and action of the child first played in copy ``number`` by a walk a level at a time
    to ``depth``, by the protocol's rule: copies numbered 1, 2, ... in the order fork makes them, a parent's last
    child played in the parent's own game (game 0 at the start)."""
    level: list[tuple[Any, int]] = [((), 0)]  # positions of a level in order, with their games
    made = 0
    for _ in range(depth - 1):
        below = []
        for path, game in level:
            legal = reference.legal(path)
            seat = reference.seat(path) if legal else -1
            for index, action in enumerate(legal):
                own = game if index == len(legal) - 1 else made + 1 + index
                if own == number and own != game:
                    return path, seat, action
                below.append((path + ((seat, action),), own))
            made += max(len(legal) - 1, 0)
        level = below
    raise AssertionError(f"no copy {number} to depth {depth}")


def test_a_refused_child_of_a_later_wave_is_named_with_its_path(capsys: pytest.CaptureFixture[str]) -> None:
    """A wide level goes out in waves written ahead of the answers to the wave before: a refusal read in a later
    wave is still told as its own child's (game 2000 is made in a wave after the first of the sixth level's)."""
    setup = vectors("gin-rummy")[0].setup
    path, seat, action = numbered_child(LocalTree(create(), setup), 2000, 7)
    argv = ["perft", "--game", "gin-rummy", "--seed", str(setup["seed"]), "--players", str(setup["players"]),
            "--depth", "7", "--engine-cmd", " ".join([*LIAR, "copy-2000-refuses"])]
    assert main(argv) == 1
    assert capsys.readouterr().out.splitlines()[-1] == (
        f"error: {where(path)}: legal_actions() lists seat {seat} {show(action)}, but apply() refused it "
        "(not-your-turn): every listed action must be accepted")


def test_a_batch_checked_at_once_still_answers_an_engine_failure_as_its_own() -> None:
    server = ProtocolServer(create())
    server.handle(HELLO)
    setup = vectors("rummy")[0].setup
    answer = server.handle({"seq": 9, "cmd": "batch", "requests": [
        {"seq": 1, "cmd": "state"}, {"seq": 2, "cmd": "start", "setup": setup}, {"seq": 3, "cmd": "fork", "game": 4},
        {"seq": 4, "cmd": "legal_actions"}]})
    no_game, started, no_copy, legal = answer["answers"]
    assert no_game == {"seq": 1, "error": "RuntimeError: no game in progress: send start first"}
    assert started == {"seq": 2, "result": None}
    assert no_copy == {"seq": 3, "error": "RuntimeError: no game 4: fork made games 1 to 0 since the last start"}
    assert legal["seq"] == 4 and len(legal["result"]) == vectors("rummy")[0].counts[0]
