"""Generated mutants (mutmut's operators on the reference engine): built apart, scored, their fixtures mined."""

from __future__ import annotations

import argparse
import fnmatch
import json
import sys
import threading
import time
from pathlib import Path

import pytest

pytest.importorskip("mutmut", reason="generated mutants need the [mutate] extra")

from harness.findings.verify import verify_fixture  # noqa: E402
from harness.findings.writer import write_fixture  # noqa: E402
from harness.fuzzing.campaign import FuzzOptions  # noqa: E402
from harness.mutants.commands import COMMANDS, add_commands  # noqa: E402
from harness.mutants.deadline import TimedOut, deadline, resident  # noqa: E402
from harness.mutants.generated import by_id, engine, mutated_source, places, sample  # noqa: E402
from harness.mutants.generated_command import known_equivalent  # noqa: E402
from harness.mutants.mining import CRASH, FUZZ, KILLED, SURVIVED, hunt, kill, mine  # noqa: E402
from harness.mutants.scoring import sound_fixtures  # noqa: E402
from harness.mutants.variants import VariantError, source_of  # noqa: E402
from harness.run.runner import Runner  # noqa: E402
from harness.spec.paths import fixtures_dir  # noqa: E402
from harness.suite.fixtures import load_paths  # noqa: E402
from reference_engine import create  # noqa: E402



def _place(game: str, function: str, before: str, after: str, line: str = "") -> str:
    """The id of the one generated mutant of ``function`` that turns ``before`` into ``after`` on a line
    holding ``line`` (found by its change, not its number, so the tests follow the reference's code as it moves)."""
    [found] = [p.id for p in places(game) if p.function == function and before in p.before and after in p.after
               and line in source_of(p.module)[0].splitlines()[p.line - 1]]
    return found


# A mistake the suite missed until its mined fixture was added (the cards of the tricks won lost at the
# round's end), found by fuzz at its 50-game budget, seed 0.
FUZZ_FOUND = _place("president", "end_round", "game.played |= mask", "game.played &= mask")
MINED = "president.round-end.played-keeps-every-trick"
# Building the game's object without its first round: every game fails as it starts.
CRASHES = _place("rummy", "start", "RummyGame(options, first_round, list(", "RummyGame(options, list(")
# The card mask of a layoff left out: the layoff fixtures fail.
KILLED_ONE = _place("rummy", "parse_action", '_card_mask(action["layoff"])', "_card_mask(None)")


@pytest.fixture(scope="module")
def suite() -> list:  # type: ignore[type-arg]
    sound, unsound = sound_fixtures(load_paths([fixtures_dir()]).scenarios)
    assert unsound == []
    return sound


def test_every_game_has_mutants_with_ids_unique_and_stable() -> None:
    for game in ("rummy", "gin-rummy", "president"):
        found = places(game)
        assert len(found) > 500
        assert len({p.id for p in found}) == len(found)
        assert all(p.id.startswith(game + ":") and p.before != p.after for p in found)
        assert not any(".clauses." in p.module or p.module.endswith(".demands") for p in found)
        assert all(by_id(p.id) == p for p in found[:20])


def test_a_sample_is_drawn_by_its_seed_and_kept_in_code_order() -> None:
    found = list(places("president"))
    first, again, other = sample(found, 7, 1), sample(found, 7, 1), sample(found, 7, 2)
    assert first == again and first != other and len(first) == 7
    assert first == sorted(first, key=found.index)
    assert sample(found, None, 1) == found


def test_a_mutant_changes_its_one_place_in_a_private_copy() -> None:
    place = by_id(KILLED_ONE)
    original, path = source_of(place.module)
    mutated = mutated_source(place)
    changed = [(a, b) for a, b in zip(original.splitlines(), mutated.splitlines(), strict=True) if a != b]
    assert len(changed) == 1 and "None" in changed[0][1]
    import reference_engine.rummy.game as reference_module

    mutant = engine(KILLED_ONE)
    assert sys.modules[place.module] is reference_module and path.read_text(encoding="utf-8") == original
    assert mutant.module is not sys.modules["reference_engine.rummy.game"]


def test_an_id_the_code_no_longer_has_is_a_clear_error() -> None:
    with pytest.raises(VariantError, match="no such mutant any more"):
        by_id("rummy:game:no_such_function:swap_op:1")
    with pytest.raises(VariantError, match="no game"):
        by_id("chess:game:x:swap_op:1")


def test_a_crash_at_start_is_counted_apart_and_a_kill_names_its_fixture(suite: list) -> None:  # type: ignore[type-arg]
    assert kill(CRASHES, suite)[0] == CRASH
    status, fixture = kill(KILLED_ONE, suite)
    assert status == KILLED and fixture.startswith("rummy.")


def test_a_deadline_stops_a_loop_and_leaves_nothing_behind() -> None:
    started = time.perf_counter()
    with pytest.raises(TimedOut), deadline(0.2):
        while True:
            pass
    assert time.perf_counter() - started < 5
    with deadline(0.2):
        pass
    time.sleep(0.4)  # the cancelled timer raises nothing later
    assert threading.active_count() >= 1


@pytest.mark.skipif(resident() is None, reason="no /proc to read the process's memory from")
def test_a_deadline_stops_a_block_that_fills_the_memory_and_says_so() -> None:
    held: list[bytes] = []
    with pytest.raises(TimedOut), deadline(60, memory=64 << 20) as fired:
        while True:  # a mutant's runaway list: 1 MB a step
            held.append(b"x" * (1 << 20))  # written, so resident (bytes(n) would be untouched zero pages)
    assert fired == ["memory"] and len(held) >= 64
    held.clear()
    with deadline(60, memory=64 << 20) as fired:
        pass
    assert fired == []


def test_a_mutant_fuzz_finds_gives_a_fixture_that_fails_on_it_and_passes_on_the_reference(
        suite: list, tmp_path: Path) -> None:  # type: ignore[type-arg]
    mined = hunt(FUZZ_FOUND, FuzzOptions("", 50, 0, 200))
    assert mined.status == FUZZ and mined.mineable and mined.finding is not None
    path = write_fixture(mined.finding, tmp_path)
    check = verify_fixture(path, engine(FUZZ_FOUND), create())
    assert check.ok, check.summary()
    [scenario] = load_paths([path]).scenarios
    assert Runner(engine(FUZZ_FOUND)).run(scenario).outcome in ("fail", "error")
    assert Runner(create()).run(scenario).outcome == "pass"


# The fixtures mined from generated mutants and added to the suite (their expectations read against the
# rule text and the game files), each with the mutant it was mined from.
MINED_FIXTURES = {
    MINED: ("president", "end_round", "game.played |= mask", "game.played &= mask", ""),
    "president.trick.layout-with-two-passes": ("president", "Game.load_layout", "self.passed |= 1 << seat",
                                               "self.passed = 1 << seat", ""),
    "president.revolution.layout-trick-does-not-reverse-again": ("president", "Game.load_layout", "may_reverse=False)",
                                                                 "mask, )", ""),
    "gin-rummy.layoff.no-run-across-suits": ("gin-rummy", "extensions", "13", "14", "while card % 13 > 0"),
}


@pytest.mark.parametrize("fixture_id", sorted(MINED_FIXTURES))
def test_each_mined_fixture_alone_kills_its_mutant(fixture_id: str, suite: list) -> None:  # type: ignore[type-arg]
    mutant_id = _place(*MINED_FIXTURES[fixture_id])
    assert kill(mutant_id, suite) == (KILLED, fixture_id)
    assert kill(mutant_id, [s for s in suite if s.id != fixture_id])[0] == SURVIVED


def test_a_survivor_is_fuzzed_and_mined_in_one_go(suite: list) -> None:  # type: ignore[type-arg]
    without = [s for s in suite if s.id != MINED]
    [mined] = mine([FUZZ_FOUND], without, FuzzOptions("", 50, 0, 200))
    assert mined.status == FUZZ and mined.mineable
    [crashed] = mine([CRASHES], suite, FuzzOptions("", 50, 0, 200))
    assert crashed.status == CRASH and crashed.finding is None


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    parser = argparse.ArgumentParser()
    add_commands(parser.add_subparsers(dest="command"))
    args = parser.parse_args(["mutants", *argv])
    code = COMMANDS["mutants"](args)
    out, err = capsys.readouterr()
    return code, out, err


def test_the_command_prints_the_table_for_a_sample(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, out, _ = _run(capsys, "--generated", "--game", "rummy", "--mutant", CRASHES, "--mutant", KILLED_ONE,
                        "--no-fuzz", "--progress", "off", "--json", str(tmp_path / "m.jsonl"))
    records = [json.loads(line) for line in (tmp_path / "m.jsonl").read_text(encoding="utf-8").splitlines()]
    assert {r["mutant"]: r["status"] for r in records} == {CRASHES: CRASH, KILLED_ONE: KILLED}
    assert all(r["file"] == "reference_engine/rummy/game.py" and r["line"] > 0 for r in records)
    assert [r["clauses"] for r in records if r["status"] == KILLED][0][0].startswith("rummy.")  # the fixture's
    header, row = out.splitlines()[:2]
    assert "crash at once" in header and "found only by fuzz (fixture written)" in header
    assert row.split()[:5] == ["rummy", str(len(places("rummy"))), "2", "1", "1"]
    assert code == 0


def test_sample_and_out_go_with_generated_only(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = _run(capsys, "--sample", "3")
    assert code == 2 and "--generated" in err
    code, _, err = _run(capsys, "--generated", "--sample", "0", "--game", "president")
    assert code == 2 and "--sample must be 1 or more" in err


def test_the_known_equivalent_list_names_current_mutants(tmp_path: Path) -> None:
    every = [p.id for game in ("rummy", "gin-rummy", "president") for p in places(game)]
    for pattern in known_equivalent():  # each still names a mutant: a stale line would quietly hide nothing
        assert fnmatch.filter(every, pattern), pattern
    (tmp_path / "eq.txt").write_text("# a note\nrummy:x:y:z:1  # why\n\n", encoding="utf-8")
    assert known_equivalent(tmp_path / "eq.txt") == {"rummy:x:y:z:1"}


def test_on_a_cluster_the_command_scores_what_one_process_scores(capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("dask.distributed", reason="the cluster extra: pip install -e '.[cluster]'")
    from dask.distributed import LocalCluster

    argv = ("--generated", "--game", "rummy", "--mutant", CRASHES, "--mutant", KILLED_ONE, "--no-fuzz", "--progress", "off")
    here = _run(capsys, *argv)
    with LocalCluster(n_workers=1, threads_per_worker=1, processes=True, dashboard_address=":0") as local:
        there = _run(capsys, *argv, "--cluster", local.scheduler_address)
    assert there[:2] == here[:2] and here[0] == 0
