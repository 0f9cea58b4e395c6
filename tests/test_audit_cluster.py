"""`audit --cluster local:2`: a real LocalCluster of two worker processes gives the report of one process."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from harness.audit import cluster
from harness.audit.sample import seeded_game
from harness.cli import main
from harness.mutants import catalogue as mutants
from reference_engine import create

pytest.importorskip("dask.distributed", reason="the cluster extra: pip install -e '.[cluster]'")


def test_a_local_cluster_of_two_workers_reports_what_one_process_does(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    games = [seeded_game(create(), "gin-rummy", seed, ["easy", "easy"]) for seed in range(4)]
    games += [seeded_game(mutants.engine("gin-rummy.gin-bonus-only"), "gin-rummy", 7, ["easy", "easy"])]
    lines = [json.dumps(g) for g in games] + ["{not json"] + [json.dumps(g) for g in reversed(games)]
    path = tmp_path / "games.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    monkeypatch.setattr(cluster, "BATCH", 2)  # several batches, so their order matters
    reports = {}
    for name, extra in (("one", []), ("cluster", ["--cluster", "local:2"])):
        code = main(["audit", str(path), "--json", str(tmp_path / f"{name}.jsonl"), "--out", str(tmp_path / name),
                     *extra])
        reports[name] = (code, capsys.readouterr().out.replace(f"{tmp_path / name}", "OUT"),
                         (tmp_path / f"{name}.jsonl").read_text(), sorted(p.name for p in (tmp_path / name).glob("*")))
    assert reports["cluster"] == reports["one"]
    code, out, _, fixtures = reports["one"]
    assert code == 1 and "2 disagree with the rules, 1 records unreadable" in out and len(fixtures) == 1


def test_a_cluster_that_cannot_be_used_says_what_to_do(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["audit", str(tmp_path / "x.jsonl"), "--cluster", "local:none"]) == 2
    assert "local:N needs a number of workers N of at least 1" in capsys.readouterr().err


def test_a_ladder_on_a_local_cluster_counts_the_deals_of_one_process(tmp_path: Path,
                                                                      capsys: pytest.CaptureFixture[str]) -> None:
    results = {}
    for name, extra in (("one", []), ("cluster", ["--cluster", "local:2"])):
        code = main(["ladder", "--game", "rummy", "easy", "normal", "--cap", "30", "--json", str(tmp_path / name),
                     "--records", str(tmp_path / f"{name}.jsonl"), *extra])
        result = json.loads((tmp_path / name).read_text())
        result.pop("seconds")
        results[name] = (code, result, (tmp_path / f"{name}.jsonl").read_text(), capsys.readouterr().out.split(" in ")[0])
    assert results["cluster"] == results["one"]
    assert results["one"][1]["deals"] > 1
