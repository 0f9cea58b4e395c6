"""``fuzz --cluster`` and ``mutants --cluster`` play a draft rule version of ./spec/games on workers that run elsewhere."""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from harness.cli import main

pytest.importorskip("dask.distributed", reason="the cluster extra: pip install -e '.[cluster]'")

TIMES = re.compile(r" in [0-9.]+ s(, [0-9]+ steps/s)?")  # how long a campaign took is the one thing that differs


@pytest.fixture(scope="module")
def scheduler(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A cluster of one worker process started here, before any test moves into its folder: the worker's own folder
    has no ./spec/games of a draft, so what it plays of the draft was sent with its tasks (written into its TMPDIR)."""
    from dask.distributed import Client, LocalCluster

    before = os.environ.get("TMPDIR")
    os.environ["TMPDIR"] = str(tmp_path_factory.mktemp("worker-tmp"))  # the worker's temporary directory, not /tmp
    try:
        local = LocalCluster(n_workers=1, threads_per_worker=1, processes=True, dashboard_address=":0")
    finally:
        if before is None:
            os.environ.pop("TMPDIR")
        else:
            os.environ["TMPDIR"] = before
    with local:
        with Client(local) as client:
            folders = set(client.run(os.getcwd).values())
        assert folders == {os.getcwd()}
        yield local.scheduler_address


@pytest.fixture
def draft(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> Path:
    """README "Guarding a rule version": rummy 1.2.0 written by new-version, its default target raised to 150."""
    monkeypatch.chdir(tmp_path)
    assert main(["new-version", "rummy", "1.1.0", "1.2.0"]) == 0
    path = tmp_path / "spec" / "games" / "rummy-1.2.0.yaml"
    text = path.read_text(encoding="utf-8")
    # of rules/rummy-1.1.0.md: the game is played to a target, 100 unless configured; the draft makes it 150
    raised = re.sub(r"(\n  target:\n(?:    .*\n)*?    default: )100\n", r"\g<1>150\n", text, count=1)
    assert raised != text
    path.write_text(raised, encoding="utf-8")
    capsys.readouterr()
    return path


def test_fuzz_on_a_cluster_plays_the_draft_as_one_process_does(scheduler: str, draft: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    args = ["fuzz", "--game", "rummy", "--rule-version", "1.2.0", "--examples", "3", "--seed", "1", "--progress", "off"]
    assert main([*args, "--records", "here.jsonl"]) == 0
    here = TIMES.sub("", capsys.readouterr().out)
    assert main([*args, "--records", "there.jsonl", "--cluster", scheduler]) == 0
    assert TIMES.sub("", capsys.readouterr().out) == here
    records = [json.loads(line) for line in Path("there.jsonl").read_text(encoding="utf-8").splitlines()]
    assert records and all(r["rule_version"] == "1.2.0" for r in records)  # the worker played the draft's games
    assert Path("there.jsonl").read_text(encoding="utf-8") == Path("here.jsonl").read_text(encoding="utf-8")


def test_mutants_on_a_cluster_score_the_draft_as_one_process_does(scheduler: str, draft: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    args = ["mutants", "--game", "rummy", "--mutant", "rummy.qka-refused", "--rule-version", "1.2.0",
            "--examples", "5", "--progress", "off"]
    here = main(args), capsys.readouterr().out
    assert here[0] == 0 and "killed   rummy.qka-refused" in here[1]
    assert (main([*args, "--cluster", scheduler]), capsys.readouterr().out) == here


def test_ladder_and_audit_on_a_cluster_play_the_draft_as_one_process_does(scheduler: str, draft: Path,
                                                                          capsys: pytest.CaptureFixture[str]) -> None:
    ladder = ["ladder", "--game", "rummy", "easy", "normal", "--rule-version", "1.2.0", "--cap", "2", "--progress", "off"]
    here = main([*ladder, "-j", "1"]), TIMES.sub("", capsys.readouterr().out)
    assert "deals won/level/lost by A" in here[1]
    assert (main([*ladder, "--cluster", scheduler]), TIMES.sub("", capsys.readouterr().out)) == here
    assert main(["play", "--game", "rummy", "--rule-version", "1.2.0", "--seed", "1", "--json", "draft.jsonl"]) == 0
    capsys.readouterr()
    audit = ["audit", "draft.jsonl", "--progress", "off"]
    here = main(audit), capsys.readouterr().out
    assert here[0] == 0 and "1 clean" in here[1]
    assert (main([*audit, "--cluster", scheduler]), capsys.readouterr().out) == here


def test_the_folder_of_game_files_sent_has_one_name_in_the_harness_and_the_engine() -> None:
    from harness.adapters.rule_versions import SENT
    from reference_engine.gamefiles import rules

    assert SENT == rules.SENT
