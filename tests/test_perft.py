"""perft: the reference against the published vectors, the same counts by replay and over stdio, and the
automatic divide finding a planted legal-list bug down to a fixture that lints, fails on it and passes on the reference."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from typing import Any
from pathlib import Path

import fake_engines as fakes
import pytest

import harness.perft.remote as remote_tree
from harness.adapters import subprocess_engine
from harness.cli import main
from harness.findings.verify import verify_fixture
from harness.mutants.catalogue import engine as mutant
from harness.perft.finding import write
from harness.perft.locate import compare, locate
from harness.perft.counted import path_key
from harness.perft.remote import Node, RemoteTree
from harness.perft.tree import LocalTree
from harness.perft.vectors import VectorError, vector_games, vectors
from harness.spec.paths import fixtures_dir
from reference_engine import create

SERVE = [sys.executable, "-m", "harness", "serve"]


@pytest.fixture(scope="module")
def served() -> Iterator[object]:
    """The reference behind ``serve``, over stdio (it declares batch and clone)."""
    with subprocess_engine(SERVE) as engine:
        yield engine


def test_every_game_has_published_vectors() -> None:
    assert vector_games() == ["gin-rummy", "president", "rummy"]
    with pytest.raises(VectorError, match="no perft vectors for chess"):
        vectors("chess")


@pytest.mark.parametrize("game", ["gin-rummy", "president", "rummy"])
def test_the_reference_counts_the_published_vectors(game: str) -> None:
    for vector in vectors(game):
        counts = LocalTree(create(), vector.setup).counts(len(vector.counts))
        assert tuple(counts) == vector.counts, vector.name


def test_the_vectors_vary_what_the_issue_asks() -> None:
    setups = {game: [v.setup for v in vectors(game)] for game in vector_games()}
    assert {s["players"] for s in setups["rummy"] if "seed" in s} == {2, 3, 4}
    assert any(s["options"]["discard_to_win"] for s in setups["rummy"])
    assert {s["options"]["knock_limit"] for s in setups["gin-rummy"]} >= {0, 10, 25, 100}
    assert {s["players"] for s in setups["president"] if "seed" in s} == {3, 4, 5, 6}
    assert {s["options"]["revolution"] for s in setups["president"]} == {True, False}
    # an option varied on the same start changes the counts, or the position tests nothing about it
    by_name = {v.name: v.counts for game in vector_games() for v in vectors(game)}
    for name, counts in by_name.items():
        base = name.replace("-no-revolution", "").replace("-discard-to-win", "")
        if base != name and base in by_name:
            assert counts != by_name[base], name


def test_replaying_from_the_start_counts_the_same_as_cloning() -> None:
    for game in vector_games():
        vector = vectors(game)[-1]
        tree = LocalTree(create(), vector.setup)
        tree.clones = False
        assert tuple(tree.counts(4)) == vector.counts[:4], vector.name


def test_over_stdio_the_counts_are_the_same(served: object, monkeypatch: pytest.MonkeyPatch) -> None:
    for game in vector_games():
        for vector in vectors(game):
            depth = min(4, len(vector.counts))
            assert tuple(RemoteTree(served, vector.setup).counts(depth)) == vector.counts[:depth], vector.name
    # lines that end early (game-over) beside lines that go on: the positions with nothing legal make no copies
    ending = next(v for v in vectors("rummy") if v.name == "out-by-meld-2p-target-47")
    assert tuple(RemoteTree(served, ending.setup).counts(6)) == ending.counts[:6]
    vector = vectors("president")[0]
    replaying = RemoteTree(served, vector.setup)
    replaying.clones = False  # an engine without fork: each child started again, many per batch
    assert tuple(replaying.counts(3)) == vector.counts[:3]
    monkeypatch.setattr(remote_tree, "CAP", 60)  # a level wider than the copies allowed: cut into slices
    assert tuple(RemoteTree(served, vector.setup).counts(4)) == vector.counts[:4]


def test_a_wide_level_goes_out_in_waves_each_written_ahead(served: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """Waves of 7 children in batches of 5: the waves of a level written ahead of the answers to the one before,
    a wave of one batch sent alone, and the counts the same."""
    monkeypatch.setattr(remote_tree, "WAVE", 7)
    monkeypatch.setattr(remote_tree, "BATCH", 5)
    written: list[bool] = []
    send_ahead = served.send_ahead
    monkeypatch.setattr(served, "send_ahead", lambda exchanges: written.append(send_ahead(exchanges)) or written[-1])
    for game in vector_games():
        vector = vectors(game)[0]
        assert tuple(RemoteTree(served, vector.setup).counts(4)) == vector.counts[:4], vector.name
    assert written.count(True) > 20 and False in written


def test_a_level_cut_into_slices_is_made_again_playing_each_shared_move_once(served: object,
                                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(remote_tree, "CAP", 60)
    vector = vectors("president")[0]
    remakes: list[tuple[list[Node], list[tuple[str, dict[str, Any]]]]] = []

    class Recording(RemoteTree):
        """Keeps each slice made again with the requests that made it."""

        part: list[Node] | None = None

        def remade(self, part: list[Node]) -> list[Node]:
            self.part = part
            return super().remade(part)

        def send(self, requests: list[tuple[str, dict[str, Any]]], path: tuple[Any, ...]) -> list[dict[str, Any]]:
            if self.part is not None:
                remakes.append((self.part, requests))
                self.part = None
            return super().send(requests, path)

    assert tuple(Recording(served, vector.setup).counts(4)) == vector.counts[:4]
    assert {len(part[0].path) for part, _ in remakes} == {1, 2}  # slices one and two plies down
    for part, requests in remakes:
        moves = {path_key(node.path[:length]) for node in part for length in range(1, len(node.path) + 1)}
        assert sum(cmd == "apply" for cmd, _ in requests) == len(moves)  # a move the paths share, played once
        assert sum(cmd == "fork" for cmd, _ in requests) == len(part) - 1  # a copy where they part


def test_the_command_prints_counts_per_depth_and_per_first_action(tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "perft.jsonl"
    assert main(["perft", "--game", "gin-rummy", "--seed", "1", "--depth", "4", "--divide", "--json", str(out)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[:5] == ["gin-rummy seed 1, 2 players", "depth 1: 2", "depth 2: 12", "depth 3: 31", "depth 4: 241"]
    assert lines[-2:] == ["  {draw: discard}: 210", "  {pass: true}: 31"]
    assert [json.loads(line) for line in out.read_text().splitlines()][-1] == {"depth": 4, "nodes": 241}


def test_the_command_starts_from_a_fixture_and_takes_options(capsys: pytest.CaptureFixture[str]) -> None:
    fixture = fixtures_dir() / "gin-rummy" / "gin-rummy.deal.fresh-hand.yaml"
    assert main(["perft", str(fixture), "--depth", "2"]) == 0
    assert capsys.readouterr().out.startswith("gin-rummy a layout, 2 players\ndepth 1: ")
    assert main(["perft", "--game", "gin-rummy", "--seed", "1", "--depth", "2", "--option", "knock_limit=100"]) == 0
    assert capsys.readouterr().out.splitlines()[:3] == ["gin-rummy seed 1, 2 players, knock_limit 100",
                                                        "depth 1: 2", "depth 2: 22"]


@pytest.mark.parametrize(("argv", "message"), [
    (["--game", "gin-rummy", "--seed", "1"], "--depth N"),
    (["--game", "gin-rummy", "--depth", "2"], "either --seed S"),
    (["--game", "gin-rummy", "--seed", "1", "--depth", "2", "--players", "3"], "for 2 to 2 players"),
    (["--game", "gin-rummy", "--seed", "1", "--depth", "2", "--option", "knock_limit=x"], "takes integer values"),
    (["--game", "go", "--seed", "1", "--depth", "2"], "go"),
])
def test_usage_errors_say_what_to_do(argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["perft", *argv]) == 2
    assert message in capsys.readouterr().err


def test_compare_names_missing_extra_and_twice() -> None:
    a, b, c = {"discard": "7C"}, {"discard": "8C"}, {"discard": "9C"}
    found = compare((), 0, [a, b], [b, b, c])
    assert found is not None and (found.missing, found.extra, found.twice) == ([a], [c], [b])
    assert found.lines()[1:] == ["missing: {discard: 7♣}", "not legal, but listed: {discard: 9♣}",
                                 "listed twice: {discard: 8♣}"]
    assert compare((), 0, [a, b], [b, a]) is None  # perft counts sets: the order is the fixtures' concern


def test_divide_walks_down_to_the_position_whose_legal_list_differs() -> None:
    setup = vectors("president")[0].setup
    found = locate(LocalTree(mutant("president.equal-rank-allowed"), setup), LocalTree(create(), setup), 3)
    assert found is not None and found.extra and not found.missing
    assert len(found.path) >= 1  # the lead is the same; a follow of the same rank is listed
    assert all(a["play"][0][0] == found.path[-1][1]["play"][0][0] for a in found.extra)


@pytest.mark.parametrize("how", ["in process", "over stdio"])
def test_divide_writes_a_fixture_that_lints_fails_on_the_mutant_and_passes_on_the_reference(
        how: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    name = "harness.mutants:gin_rummy_discard_taken_allowed"
    engine = ["--engine", name] if how == "in process" else ["--engine-cmd", " ".join([*SERVE, "--engine", name])]
    argv = ["perft", "--game", "gin-rummy", "--seed", "1", "--depth", "3", "--out", str(tmp_path), *engine]
    assert main(argv) == 1
    out = capsys.readouterr().out
    assert "depth 2: 13  DIFFERS: the reference counts 12" in out
    assert "the legal actions differ after seat 1 {draw: discard} (seat 1 to act)" in out
    assert "not legal, but listed: {discard: 6♠}" in out
    assert "fail on the engine" in out and "pass on the reference" in out
    [written] = tmp_path.glob("*.yaml")
    assert written.name.startswith("gin-rummy.perft.legal-")
    text = written.read_text(encoding="utf-8")
    assert "expectations from the reference engine" in text and "legal: {exactly: [" in text
    check = verify_fixture(written, mutant("gin-rummy.discard-taken-allowed"), create())
    assert check.ok, check.summary()


def test_the_reference_itself_agrees_with_its_published_vectors_through_the_command(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["perft", "--vectors", "--game", "rummy", "--depth", "3"]) == 0
    n = len(vectors("rummy"))
    assert capsys.readouterr().out.splitlines()[-1] == f"perft vectors: {n} positions: {n} agree, 0 differ, 0 skipped"
    assert main(["perft", "--vectors", "--game", "president", "--depth", "4",
                 "--engine", "harness.mutants:president_equal_rank_allowed"]) == 1
    out = capsys.readouterr().out
    assert "DIFFERS from depth" in out and "divide: the legal actions differ" in out


def misses_the_discard_draw() -> object:
    """``--engine test_perft:misses_the_discard_draw``: never lists {draw: discard} (and has no clone())."""
    return fakes.make(fakes.MissesALegalAction)


def lists_then_refuses() -> object:
    """``--engine test_perft:lists_then_refuses``: refuses the last listed action when there is a choice."""
    return fakes.make(fakes.ListsThenRefuses)


def raises_on_second_action() -> object:
    """``--engine test_perft:raises_on_second_action``."""
    return fakes.make(fakes.RaisesOnSecondAction)


def test_an_engine_without_clone_is_replayed_and_divided(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["perft", "--game", "rummy", "--seed", "1", "--players", "2", "--depth", "3", "--engine",
            "test_perft:misses_the_discard_draw", "--out", str(tmp_path)]
    assert main(argv) == 1
    out = capsys.readouterr().out
    assert "depth 1: 1  DIFFERS: the reference counts 2" in out
    assert "the legal actions differ at the start (seat 0 to act)" in out and "missing: {draw: discard}" in out
    [written] = tmp_path.glob("*.yaml")
    assert verify_fixture(written, misses_the_discard_draw(), create()).ok  # type: ignore[arg-type]


@pytest.mark.parametrize(("factory", "message"), [
    ("lists_then_refuses", "but apply() refused it (wrong-phase): every listed action must be accepted"),
    ("raises_on_second_action", "the engine raised in apply() after seat 1"),
])
def test_a_misbehaving_engine_is_an_error_that_says_where(factory: str, message: str,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["perft", "--game", "gin-rummy", "--seed", "1", "--depth", "3", "--engine", f"test_perft:{factory}"]) == 1
    out = capsys.readouterr().out
    assert out.splitlines()[-1].startswith("error: ") and message in out


def test_divide_names_a_seat_to_act_that_differs(tmp_path: Path) -> None:
    """The same legal actions for another seat (the next round's first seat does not move on)."""
    vector = next(v for v in vectors("rummy") if v.name == "out-by-meld-2p")
    engine, reference = mutant("rummy.first-seat-stays"), LocalTree(create(), vector.setup)
    found = locate(LocalTree(engine, vector.setup), reference, 7)
    assert found is not None and (found.engine_seat, found.seat) == (0, 1)
    assert found.lines()[0].startswith("the seat to act differs after seat 0 {draw: stock}, seat 0 {meld: [5♥, 6♥, 7♥")
    written = write(vector.setup, reference, found, tmp_path)
    assert isinstance(written, Path) and written.name.startswith("rummy.perft.to-act-")
    assert verify_fixture(written, engine, create()).ok
