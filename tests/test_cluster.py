"""``fuzz`` and ``mutants`` with ``--cluster`` on a real LocalCluster of two worker processes: what one process gives."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from harness import install_line
from harness.cli import main

pytest.importorskip("dask.distributed", reason="the cluster extra: pip install -e '.[cluster]'")

TIMES = re.compile(r" in [0-9.]+ s(, [0-9]+ steps/s)?")  # how long a campaign took is the one thing that differs
MUTANT = "harness.mutants:rummy_discard_taken_allowed"
KILLED_WORKER = Path(__file__).with_name("killed_worker.py")
DEADLOCK = 240  # seconds: the campaign takes about 15 on a loaded machine
MUTANTS = ("president.pass-not-holding", "rummy.qka-refused", "rummy.discard-taken-allowed")  # two herds, out of order


@pytest.fixture(scope="module")
def scheduler() -> Iterator[str]:
    """The address of a cluster of two worker processes, shared by the tests."""
    from dask.distributed import LocalCluster

    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0") as local:
        yield local.scheduler_address


def arguments(folder: Path, seeds: str) -> list[str]:
    """``fuzz`` over ``seeds`` on a mutant, its fixtures written into ``folder`` (4 games: rummy finds it at seeds 0 and 1)."""
    return ["fuzz", "--engine", MUTANT, "--game", "rummy", "--game", "president", "--examples", "4", "--seeds", seeds,
            "--progress", "off", "--out", str(folder), "--records", str(folder.with_suffix(".jsonl"))]


def written(folder: Path, out: str) -> tuple[str, str, dict[str, str]]:
    """A campaign's output (without timings), records and fixtures."""
    fixtures = {p.name: p.read_text(encoding="utf-8") for p in sorted(folder.glob("*.yaml"))}
    return TIMES.sub("", out).replace(str(folder), "OUT"), folder.with_suffix(".jsonl").read_text(encoding="utf-8"), fixtures


def fuzz(capsys: pytest.CaptureFixture[str], folder: Path, seeds: str, extra: list[str]) -> tuple[int, str, str, dict[str, str]]:
    """A campaign over ``seeds`` on a mutant: its exit code, output (without timings), records and fixtures."""
    code = main([*arguments(folder, seeds), *extra])
    return (code, *written(folder, capsys.readouterr().out))


def test_a_cluster_that_cannot_be_used_is_a_usage_error(capsys: pytest.CaptureFixture[str],
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    assert main(["fuzz", "--game", "rummy", "--examples", "1", "--cluster", "local:none"]) == 2
    assert main(["mutants", "--game", "rummy", "--no-fuzz", "--cluster", "local:0"]) == 2
    assert capsys.readouterr().err.count("local:N needs a number of workers N of at least 1") == 2
    # as if the cluster extra were not installed: first in the file, so no test cluster's threads are running yet
    monkeypatch.setitem(sys.modules, "dask.distributed", None)
    assert main(["fuzz", "--game", "rummy", "--examples", "1", "--cluster", "local:2"]) == 2
    assert main(["mutants", "--game", "rummy", "--no-fuzz", "--cluster", "local:2"]) == 2
    assert capsys.readouterr().err.count(install_line("cluster")) == 2


def test_fuzz_over_seeds_gives_on_a_cluster_what_one_process_gives(scheduler: str, tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    here = fuzz(capsys, tmp_path / "here", "0:2", [])
    assert fuzz(capsys, tmp_path / "cluster", "0:2", ["--cluster", scheduler]) == here
    code, out, records, fixtures = here
    lines = out.splitlines()
    assert code == 1 and lines[-1].startswith("seeds 0:2: 4 campaigns") and lines[-1].endswith("2 with findings")
    assert [line.split(":")[0] for line in lines if "seed " in line and ":" in line][:4] == [
        f"{game} seed {seed}" for seed in range(2) for game in ("rummy", "president")]
    assert fixtures and all(f"OUT/{name} (fail on the engine" in out for name in fixtures)  # checked here, on this engine
    assert len(records.splitlines()) > 4


def test_mutants_on_a_cluster_score_in_catalogue_order_what_one_process_scores(scheduler: str, tmp_path: Path,
                                                                              capsys: pytest.CaptureFixture[str]) -> None:
    scored = {}
    for name, extra in (("here", []), ("cluster", ["--cluster", scheduler])):
        path = tmp_path / f"{name}.jsonl"
        code = main(["mutants", *(f"--mutant={m}" for m in MUTANTS), "--examples", "5", "--progress", "off",
                     "--json", str(path), *extra])
        lines = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
        for line in lines:
            (line.get("fuzz") or {}).pop("seconds", None)
        scored[name] = code, capsys.readouterr().out, lines
    assert scored["cluster"] == scored["here"]
    from harness.mutants.catalogue import CATALOGUE

    order = [m.id for m in CATALOGUE if m.id in MUTANTS]
    assert [line["mutant"] for line in scored["here"][2][:-1]] == order


def on_a_cluster_losing_a_worker(args: list[str]) -> dict[str, object]:
    """``killed_worker.py ARGS`` in a process of its own, ended and tried once more if Dask deadlocks."""
    for _ in range(2):
        child = subprocess.Popen([sys.executable, str(KILLED_WORKER), *args], stdout=subprocess.PIPE,
                                 stderr=subprocess.DEVNULL, text=True, start_new_session=True)
        try:
            stdout, _ = child.communicate(timeout=DEADLOCK)
        except subprocess.TimeoutExpired:
            os.killpg(child.pid, signal.SIGKILL)  # it, its cluster and its workers
            child.communicate()
            continue
        assert child.returncode == 0, f"{KILLED_WORKER.name} ended with exit code {child.returncode}"
        return dict(json.loads(stdout))
    pytest.fail(f"a fuzz campaign on a cluster that lost a worker did not end within {DEADLOCK} s, twice: "
                "Dask deadlocked (dask/distributed#3196), or the kit waits on a task nobody runs")


def test_a_worker_killed_mid_run_loses_nothing_and_counts_nothing_twice(tmp_path: Path,
                                                                        capsys: pytest.CaptureFixture[str]) -> None:
    here = fuzz(capsys, tmp_path / "here", "0:4", [])
    folder = tmp_path / "cluster"
    killed = on_a_cluster_losing_a_worker([*arguments(folder, "0:4"), "--cluster", "ADDRESS"])
    assert killed["killed"]
    assert (killed["code"], *written(folder, str(killed["out"]))) == here
