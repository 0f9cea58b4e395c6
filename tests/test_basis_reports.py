"""Reports that separate the rule text from our reading: bases, charged clauses, folded legal differences."""

from __future__ import annotations

import io
import json
from pathlib import Path
from xml.etree import ElementTree as ET

import fake_engines as fakes
import pytest

from harness.cli import main
from harness.mutants.catalogue import engine as mutant
from harness.reports.console import basis_notes, print_failures, summary_table
from harness.run.runner import FixtureResult, Runner
from harness.spec.paths import fixtures_dir
from harness.suite.fixtures import load_paths

LONG_HAND = "gin-rummy.hand.long-hand-of-discard-draws"


def run_one(engine: object, fixture_id: str) -> FixtureResult:
    scenario = next(s for s in load_paths([fixtures_dir()]).scenarios if s.id == fixture_id)
    return Runner(engine).run(scenario)  # type: ignore[arg-type]


def test_a_failure_is_charged_to_the_failing_steps_clauses() -> None:
    result = run_one(mutant("gin-rummy.drawn-after-ten-discard-draws"), LONG_HAND)
    assert result.outcome == "fail"
    assert result.charged == ("gin-rummy.hand-end", "gin-rummy.draw")
    rows = [line.split() for line in summary_table([result]).splitlines()[1:4]]
    assert rows == [["gin-rummy", "0", "1", "0", "0"], ["gin-rummy.draw", "[text]", "0", "1", "0", "0"],
                    ["gin-rummy.hand-end", "[text]", "0", "1", "0", "0"]]
    assert basis_notes([result]) == ["failures on the rule text: 1 fixture(s)"]


def test_a_failure_on_an_interpretation_names_the_open_question() -> None:
    result = run_one(mutant("rummy.layoff-stranding-allowed"), "rummy.layoff.taken-card-stranded-refused")
    assert result.outcome == "fail" and result.charged == result.scenario.clauses  # the step names no clauses
    assert basis_notes([result]) == [
        "failures on the rule text: 1 fixture(s)",
        "failures on an interpretation: 1 fixture(s)",
        "follows another reading of: rummy.no-stranding-taken-card (May a player take the top discard and "
        "discard that same card in the same turn?): 1 fixture(s)"]


def test_the_json_lines_and_junit_carry_each_clauses_basis(tmp_path: Path) -> None:
    jsonl, junit = tmp_path / "r.jsonl", tmp_path / "r.xml"
    assert main(["run", "--id", LONG_HAND, "--json", str(jsonl), "--junit", str(junit),
                 "--engine", "harness.mutants:gin_rummy_drawn_after_ten_discard_draws"]) == 1
    record = json.loads(jsonl.read_text(encoding="utf-8").splitlines()[1])
    assert record["basis"] == {"gin-rummy.hand-end": "text", "gin-rummy.draw": "text",
                               "gin-rummy.drawn-hand-timing": "interpretation"}
    assert record["charged"] == ["gin-rummy.hand-end", "gin-rummy.draw"]
    properties = {p.get("name"): p.get("value") for p in ET.parse(junit).iter("property")}
    assert properties == {"clause gin-rummy.hand-end": "text", "clause gin-rummy.draw": "text",
                          "clause gin-rummy.drawn-hand-timing": "interpretation",
                          "charged": "gin-rummy.hand-end, gin-rummy.draw"}


class PadsWithLayoffs(fakes.WrappedGame):
    """Every legal list padded with 24 made-up lay-offs, in the canonical order: more than a screenful."""

    def legal_actions(self) -> list[dict[str, object]]:
        actions = super().legal_actions()
        place = next((i for i, a in enumerate(actions) if "discard" in a), len(actions))
        padding = [{"layoff": [rank + "C"], "onto": onto} for onto in (9, 10) for rank in "23456789TJQK"]
        return actions[:place] + padding + actions[place:]


def test_every_missing_and_extra_action_is_listed_and_the_console_folds_them() -> None:
    result = run_one(fakes.make(PadsWithLayoffs), "rummy.legal.canonical-order")
    assert result.outcome == "fail"
    assert result.message == ("step 1 (line 22): the legal actions differ from the fixture "
                              "(0 missing, 24 listed but not legal)")
    assert len(result.details) == 24 and result.details[0] == "not legal, but listed: {layoff: [2♣], onto: 9}"
    out = io.StringIO()
    print_failures([result], out)
    lines = out.getvalue().splitlines()
    assert lines[-1] == "    ... and 5 more (24 in all; --json lists every one)"
    assert len(lines) == 2 + 20 + 1


def test_a_step_may_name_only_the_fixtures_clauses(tmp_path: Path) -> None:
    text = (fixtures_dir() / "gin-rummy" / f"{LONG_HAND}.yaml").read_text(encoding="utf-8")
    (tmp_path / "x.yaml").write_text(text.replace("clauses: [gin-rummy.hand-end, gin-rummy.draw]\n",
                                                  "clauses: [gin-rummy.knock]\n", 1), encoding="utf-8")
    (error,) = load_paths([tmp_path]).errors
    assert str(error).endswith("$.steps[0].clauses[0]: 'gin-rummy.knock' is not among the fixture's clauses; "
                               "add it to clauses or name another")


@pytest.fixture(autouse=True)
def _tests_importable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(Path(__file__).parent))
