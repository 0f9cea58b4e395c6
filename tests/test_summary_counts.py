"""Summaries count what was checked: agree, differ and skipped apart, never one N/M that reads as mostly passing."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from harness.cli import main
from harness.perft.vectors import vector_games, vectors

NODE_ENGINE = Path(__file__).parent.parent / "examples" / "node-president" / "engine.js"


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_the_node_example_against_the_vectors_counts_agree_differ_and_skipped_apart(
        capsys: pytest.CaptureFixture[str]) -> None:
    # The Node example implements President alone and leaves out its equal-rank rule (examples/node-president):
    # the Rummy and Gin Rummy positions are skipped, and each President position whose play reaches an equal
    # rank differs; the four that end before any can be played agree.
    assert main(["perft", "--vectors", "--engine-cmd", f"node {NODE_ENGINE}"]) == 1
    last = capsys.readouterr().out.splitlines()[-1]
    total = sum(len(vectors(game)) for game in vector_games())
    skipped = total - len(vectors("president"))
    assert last == (f"perft vectors: {total} positions: 4 agree, 15 differ, {skipped} skipped "
                    "(games the engine does not implement)")
    assert (total, skipped) == (43, 24)


def test_vectors_of_games_the_engine_lacks_check_nothing_and_do_not_pass(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["perft", "--vectors", "--game", "president", "--engine", "fake_engines:RummyOnlyWithoutOptions"])
    out = capsys.readouterr().out.splitlines()
    n = len(vectors("president"))
    assert out[-2:] == [f"perft vectors: {n} positions: 0 agree, 0 differ, {n} skipped (games the engine does not "
                        "implement)", "nothing was checked: the engine implements none of the games of the vectors "
                        "asked for"]
    assert code == 1


def test_perft_against_another_engine_says_its_counts_agree(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["perft", "--game", "rummy", "--seed", "1", "--depth", "2",
                 "--engine", "harness.mutants:rummy_a23_accepted"]) == 0  # no A-2-3 can be made in two moves
    assert capsys.readouterr().out.splitlines()[-1] == "the engine's counts agree with the reference's at every depth, 1 to 2"
