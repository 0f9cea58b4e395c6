"""Records the kit writes of the games it plays (``ladder --records``) are game records that audit clean."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from harness.cli import main
from harness.records.writer import RecordWriter


@pytest.mark.parametrize(("game", "name"), [("gin-rummy", "games.jsonl.gz"), ("president", "games.jsonl"),
                                            ("rummy", "games.jsonl")])
def test_a_ladders_records_audit_clean(game: str, name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path, result = tmp_path / name, tmp_path / "ladder.json"
    assert main(["ladder", "--game", game, "easy", "normal", "--cap", "6", "--records", str(path),
                 "--json", str(result)]) in (0, 1)
    opened = gzip.open(path, "rt") if name.endswith(".gz") else open(path, encoding="utf-8")
    with opened as handle:
        records = [json.loads(line) for line in handle]
    ladder = json.loads(result.read_text(encoding="utf-8"))
    assert len(records) == ladder["games"] > 0  # one record a game the test counted
    deals = [int(r["id"].split("/")[2].removeprefix("deal-")) for r in records]
    assert deals == sorted(deals) and deals[-1] == ladder["deals"]  # in deal order
    # a ladder plays one round a deal: the game ends with it, or its record says it stopped unfinished
    assert all(r["game"] == game and ("game_result" in r) != bool(r.get("unfinished")) for r in records)
    assert not (tmp_path / (name + ".part")).exists()
    capsys.readouterr()
    assert main(["audit", str(path)]) == 0
    summary = capsys.readouterr().out.strip().splitlines()[-1]
    assert f"{len(records)} clean, 0 disagree with the rules, 0 records unreadable" in summary


def test_records_go_only_to_a_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["ladder", "--game", "rummy", "easy", "normal", "--cap", "2", "--records", str(tmp_path)]) == 2
    assert "not a regular file" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


def test_an_interrupted_writer_still_names_its_file(tmp_path: Path) -> None:
    path = tmp_path / "r.jsonl"
    with pytest.raises(KeyboardInterrupt), RecordWriter(path) as writer:
        writer.write('{"a":1}')
        raise KeyboardInterrupt
    assert path.read_text(encoding="utf-8") == '{"a":1}\n'
    assert not (tmp_path / "r.jsonl.part").exists()


def test_fuzzs_records_audit_clean(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "fuzz.jsonl.gz"
    assert main(["fuzz", "--examples", "12", "--seed", "3", "--records", str(path)]) == 0
    played = sum(int(line.split(": ")[1].split(" examples")[0]) for line in capsys.readouterr().out.splitlines()
                 if not line.startswith("  reached: "))
    with gzip.open(path, "rt", encoding="utf-8") as handle:
        records = [json.loads(line) for line in handle]
    assert len(records) == played  # every game, nothing found so no shrinking replays
    assert {r["game"] for r in records} == {"rummy", "gin-rummy", "president"}
    assert any("deal" in r["rounds"][0] for r in records)  # positions are recorded as their layout
    assert any("seed" in r for r in records)  # and the games the engine dealt itself, by their seed
    assert main(["audit", str(path)]) == 0
    assert f"{played} clean, 0 disagree" in capsys.readouterr().out
