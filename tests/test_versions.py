"""A new rule version end to end, with the synthetic Rummy 1.2.0 of data/versions/ (never bundled).

1.2.0 changes one default (target 100 -> 150) and one rule (rummy.empty-stock-tie: the fewest
cards win a tie). The diff must name exactly those; the fixtures it says to revisit, once narrowed
to 1.1.0, and a new 1.2.0 fixture must split the suite; an engine that declares 1.2.0 without the
new rule must fail exactly that fixture, one taught the rule must pass, and the old suite must
still pass on an engine of 1.1.0 only.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from typing import Any

import pytest

from harness.cli import main
from harness.spec.paths import fixtures_dir
from reference_engine import ReferenceEngine
from reference_engine.rummy.game import RummyGame
from reference_engine.rummy.melds import hand_value

TESTS = Path(__file__).parent
NEXT = TESTS / "data" / "versions" / "rummy-1.2.0.yaml"
NEW_FIXTURE = TESTS / "data" / "versions" / "fixtures" / "rummy.stock.tie-fewest-cards.yaml"
RUMMY = sum(1 for _ in (fixtures_dir() / "rummy").glob("*.yaml"))  # the bundled Rummy fixtures, as the suite grows
REVISIT = {
    "rummy.game.below-target-round-over": "leaves target at its default (100 in 1.1.0, 150 in 1.2.0) and covers "
                                          "rummy.game-end, rummy.play-to-target",
    "rummy.game.target-reached-exactly": "leaves target at its default (100 in 1.1.0, 150 in 1.2.0) and covers "
                                         "rummy.game-end, rummy.play-to-target",
    "rummy.game.three-rounds-to-target": "leaves target at its default (100 in 1.1.0, 150 in 1.2.0) and covers "
                                         "rummy.play-to-target, rummy.game-end",
    "rummy.game.tie-at-target": "leaves target at its default (100 in 1.1.0, 150 in 1.2.0) and covers rummy.game-end",
    "rummy.mutant.tie-at-target-round-winner-not-lowest": "leaves target at its default (100 in 1.1.0, 150 in 1.2.0) "
                                                          "and covers rummy.game-end",
    "rummy.stock.tie-goes-to-asker": "covers rummy.empty-stock-tie, changed in 1.2.0",
    "rummy.stock.tie-in-turn-order-from-asker": "covers rummy.empty-stock-tie, changed in 1.2.0",
}


class DeclaresNext(ReferenceEngine):
    """Declares Rummy 1.2.0 too, but plays it by the 1.1.0 rules (a team that bumped the version only)."""

    def describe(self) -> dict[str, Any]:
        description = super().describe()
        description["games"]["rummy"]["rule_versions"] = ["1.1.0", "1.2.0"]
        return description

    def start(self, setup: dict[str, Any]) -> Any:
        if setup.get("game") == "rummy" and setup.get("rule_version") == "1.2.0":
            return self.start_next(super().start({**setup, "rule_version": "1.1.0"}))
        return super().start(setup)

    def start_next(self, game: RummyGame) -> Any:
        return game


class TaughtNext(DeclaresNext):
    """Plays 1.2.0's new tie rule: the fewest cards, then the first in turn order from the asker."""

    def start_next(self, game: RummyGame) -> Any:
        def lowest_hand(asker: int) -> int:
            order = [(asker + i) % game.players for i in range(game.players)]
            return min(order, key=lambda s: (hand_value(game.hands[s], game.ace_high), game.hands[s].bit_count()))

        game._lowest_hand = lowest_hand  # type: ignore[method-assign]
        return game


def declares_next() -> DeclaresNext:
    return DeclaresNext()


def taught_next() -> TaughtNext:
    return TaughtNext()


@pytest.fixture(autouse=True)
def _tests_importable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(TESTS))


@pytest.fixture
def split_suite(tmp_path: Path) -> Path:
    """The bundled Rummy fixtures with the ones the diff names narrowed to 1.1.0, plus the new 1.2.0 fixture."""
    suite = tmp_path / "rummy"
    shutil.copytree(fixtures_dir() / "rummy", suite)
    for fixture_id in REVISIT:
        path = suite / f"{fixture_id}.yaml"
        text, count = re.subn(r'^rule_versions: .*$', 'rule_versions: ">=1.1.0 <1.2.0"', path.read_text("utf-8"),
                              count=1, flags=re.MULTILINE)
        assert count == 1
        path.write_text(text, encoding="utf-8")
    shutil.copy(NEW_FIXTURE, suite)
    return suite


def records(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()[1:]]


def test_diff_names_exactly_the_changed_clause_and_default_and_the_fixtures(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["diff", "rummy@1.1.0", str(NEXT), "--json"]) == 1
    diff = json.loads(capsys.readouterr().out)
    assert (diff["game"], diff["old"], diff["new"]) == ("rummy", "1.1.0", "1.2.0")
    assert diff["clauses"] == [{"name": "rummy.empty-stock-tie", "kind": "changed", "fields": {"rule": {
        "old": "When several hands share the lowest value at an empty stock, the first seat concerned wins.",
        "new": "When several hands share the lowest value at an empty stock, the one holding the fewest cards "
               "wins; if they hold as many, the first seat concerned wins."}}}]
    assert diff["options"] == [{"name": "target", "kind": "changed", "fields": {"default": {"old": 100, "new": 150}}}]
    assert diff["actions"] == diff["reasons"] == diff["state_view"] == []
    assert {a["id"]: "; ".join(a["why"]) for a in diff["fixtures"]["revisit"]} == REVISIT
    assert diff["fixtures"]["only_old"] == diff["fixtures"]["only_new"] == []


def test_diff_in_words(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["diff", "rummy@1.1.0", str(NEXT)]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert lines[1:6] == [
        "clauses changed: rummy.empty-stock-tie (R-5.2)",
        "  rule: When several hands share the lowest value at an empty stock, the first seat concerned wins.",
        "        -> When several hands share the lowest value at an empty stock, the one holding the fewest cards "
        "wins; if they hold as many, the first seat concerned wins.",
        "options changed: target",
        "  default: 100",
    ]
    assert "  rummy.stock.tie-goes-to-asker (fixtures/rummy/rummy.stock.tie-goes-to-asker.yaml:1): covers " \
           "rummy.empty-stock-tie, changed in 1.2.0" in lines


def test_diff_of_a_version_with_itself_is_empty(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["diff", "rummy@1.1.0", "spec/games/rummy-1.1.0.yaml"]) == 0
    assert capsys.readouterr().out.splitlines()[1] == (
        "no difference in clauses, options, actions, reason codes, state-view keys, players or numbers")


def test_diff_of_two_games_or_an_unknown_version_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["diff", "rummy@1.1.0", "president@1.1.0"]) == 2
    assert main(["diff", "rummy@1.1.0", "rummy@9.0.0"]) == 2
    err = capsys.readouterr().err.splitlines()
    assert err[0] == "rummy@1.1.0 is rummy and president@1.1.0 is president: compare two versions of one game"
    assert err[1] == ("no game file for rummy@9.0.0: the kit has gin-rummy@1.0.0, president@1.1.0, rummy@1.1.0; or "
                      "give the path of a game file")


def test_diff_lists_the_fixtures_that_split(split_suite: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["diff", "rummy@1.1.0", str(NEXT), str(split_suite), "--json"]) == 1
    fixtures = json.loads(capsys.readouterr().out)["fixtures"]
    assert sorted(a["id"] for a in fixtures["only_old"]) == sorted(REVISIT)
    assert [a["id"] for a in fixtures["only_new"]] == ["rummy.stock.tie-fewest-cards"]
    assert fixtures["revisit"] == []


def test_new_version_writes_the_game_file_and_lists_the_decisions(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "rummy-1.2.0.yaml"
    assert main(["new-version", "rummy", "1.1.0", "1.2.0", "--out", str(out)]) == 0
    printed = capsys.readouterr().out.splitlines()
    assert printed[0] == f"wrote {out}: rummy 1.2.0, a copy of 1.1.0 to edit"
    assert f"- {RUMMY} of {RUMMY} rummy fixture(s) cover both 1.1.0 and 1.2.0 and run against 1.2.0 unchanged; after editing, " \
           f"`diff rummy@1.1.0 {out}` lists those to revisit" in printed
    assert main(["diff", "rummy@1.1.0", str(out)]) == 0  # an unedited copy says the same thing
    assert main(["new-version", "rummy", "1.1.0", "1.2.0", "--out", str(out)]) == 2
    assert main(["new-version", "rummy", "1.1.0", "1.0.9", "--out", str(tmp_path / "x.yaml")]) == 2
    assert capsys.readouterr().err.splitlines() == [
        f"{out} exists already: remove it or give another --out", "1.0.9 is not later than 1.1.0: a new version goes up"]


def test_an_engine_declaring_both_versions_runs_each_fixture_once_per_version_and_fails_the_new_rule(
        split_suite: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    report = tmp_path / "run.jsonl"
    code = main(["run", str(split_suite), "--game-file", str(NEXT), "--engine", "test_versions:declares_next",
                 "--json", str(report), "-v"])
    out = capsys.readouterr().out
    assert code == 1
    assert "PASS  rummy.meld.q-k-a-run[1.1.0]" in out and "PASS  rummy.meld.q-k-a-run[1.2.0]" in out
    assert "FAIL  rummy.stock.tie-fewest-cards[1.2.0]  step 1 (line 25): the state view differs from the fixture" in out
    results = records(report)
    failed = [(r["id"], r["rule_version"]) for r in results if r["outcome"] != "pass"]
    assert failed == [("rummy.stock.tie-fewest-cards", "1.2.0")]
    assert "FAIL rummy.stock.tie-fewest-cards (" in out  # it runs for 1.2.0 only: its id alone names it
    runs: dict[str, list[str]] = {}
    for r in results:
        runs.setdefault(r["id"], []).append(r["rule_version"])
    assert all(runs[fixture_id] == ["1.1.0"] for fixture_id in REVISIT)
    assert runs["rummy.meld.q-k-a-run"] == ["1.1.0", "1.2.0"]
    assert len(results) == 2 * RUMMY - len(REVISIT) + 1
    table = {line.split()[0] + " " + line.split()[1]: line.split()[2:] for line in out.splitlines()
             if line.startswith("rummy 1.")}
    assert table == {"rummy 1.1.0": [str(RUMMY), "0", "0", "0"],
                     "rummy 1.2.0": [str(RUMMY - len(REVISIT)), "1", "0", "0"]}


def test_the_engine_taught_the_new_rule_passes_both_versions(
        split_suite: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["run", str(split_suite), "--game-file", str(NEXT), "--engine", "test_versions:taught_next"]) == 0
    assert capsys.readouterr().out.splitlines()[-1].split() == ["total", str(2 * RUMMY - len(REVISIT) + 1), "0", "0", "0"]


def test_an_engine_of_the_old_version_still_passes_the_old_suite(
        split_suite: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["run", str(split_suite), "--game-file", str(NEXT)]) == 0
    out = capsys.readouterr().out.splitlines()
    last = next(line for line in out if line.startswith("total ")).split()
    assert out[-1] == "skipped: 1 fixture(s), by reason: rule version 1"
    assert last == ["total", str(RUMMY), "0", "0", "1"]  # the 1.2.0 fixture is skipped: the engine has 1.1.0 only
    assert main(["run", "--game", "rummy"]) == 0  # and the bundled suite, without the new version, as before


def test_rule_version_runs_the_suite_for_one_version(split_suite: Path, tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    report = tmp_path / "run.jsonl"
    assert main(["run", str(split_suite), "--game-file", str(NEXT), "--engine", "test_versions:taught_next",
                 "--rule-version", "rummy@1.2.0", "--json", str(report)]) == 0
    results = records(report)
    assert {r["rule_version"] for r in results} == {"1.2.0"}
    assert len(results) == RUMMY - len(REVISIT) + 1
    assert main(["run", str(split_suite), "--game-file", str(NEXT), "--rule-version", "1.1.0", "--json",
                 str(report)]) == 0
    assert len(records(report)) == RUMMY


def test_a_game_file_that_is_broken_or_clashes_is_a_usage_error(tmp_path: Path,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    broken = tmp_path / "rummy-9.yaml"
    broken.write_text(NEXT.read_text(encoding="utf-8").replace("default: 150", "default: many"), encoding="utf-8")
    assert main(["run", "--game-file", str(broken)]) == 2
    assert main(["run", "--game-file", "spec/games/rummy-1.1.0.yaml"]) == 2
    assert main(["diff", "rummy@1.1.0", str(tmp_path / "nothing.yaml")]) == 2
    err = capsys.readouterr().err.splitlines()
    assert err[0] == (f"{broken}: $.options.target.default: 'many' is not of type 'boolean', 'integer' "
                      "(spec/schemas/game-spec.schema.json; 1 problem(s) in all)")
    assert err[1].startswith("spec/games/rummy-1.1.0.yaml: rummy 1.1.0 is already in the kit (")
    assert err[1].endswith("); give it another rule_version")
    assert err[2] == f"{tmp_path / 'nothing.yaml'}: cannot read it (No such file or directory)"
