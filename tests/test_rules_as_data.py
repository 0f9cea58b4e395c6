"""The reference engine reads its numbers and defaults from the game file of the version played: a new version
that changes only data plays at once; one that changes a clause's rule is refused, naming it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from harness.cli import main
from reference_engine import create


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty working directory."""
    monkeypatch.chdir(tmp_path)
    return tmp_path


def drafted(game: str, old: str, new: str, edits: list[tuple[str, str]], capsys: pytest.CaptureFixture[str]) -> None:
    """``new-version GAME OLD NEW``, then each (text, replacement) made once in the draft."""
    assert main(["new-version", game, old, new]) == 0
    assert "the reference engine plays" in capsys.readouterr().out  # among what to decide
    path = Path("spec") / "games" / f"{game}-{new}.yaml"
    text = path.read_text(encoding="utf-8")
    for was, now in edits:
        assert text.count(was) == 1, was
        text = text.replace(was, now)
    path.write_text(text, encoding="utf-8")


def record(path: str) -> dict:
    """The one game record of a file."""
    (line,) = Path(path).read_text(encoding="utf-8").splitlines()
    return json.loads(line)  # type: ignore[no-any-return]


TARGET = ("    type: integer\n    default: 100\n    minimum: 1\n    meaning: >-\n      The game ends",
          "    type: integer\n    default: 150\n    minimum: 1\n    meaning: >-\n      The game ends")


def test_a_new_default_target_is_played_fuzzed_counted_and_audited(folder: Path,
                                                                    capsys: pytest.CaptureFixture[str]) -> None:
    drafted("rummy", "1.1.0", "1.2.0", [TARGET], capsys)
    assert create().describe()["games"]["rummy"]["rule_versions"] == ["1.1.0", "1.2.0"]
    assert main(["play", "--game", "rummy", "--rule-version", "1.2.0", "--json", "new.jsonl"]) == 0
    assert main(["play", "--game", "rummy", "--json", "old.jsonl"]) == 0
    assert "(game to 150)" in capsys.readouterr().out
    new, old = record("new.jsonl"), record("old.jsonl")
    assert (new["rule_version"], new["options"]["target"], old["rule_version"], old["options"]["target"]) == (
        "1.2.0", 150, "1.1.0", 100)
    # the game ends at the end of the round in which a score reaches the target, not before
    ends = [max(r["scores"]) for r in new["rounds"]]
    assert ends[-1] >= 150 and all(score < 150 for score in ends[:-1]) and any(s >= 100 for s in ends[:-1])
    assert main(["audit", "new.jsonl"]) == 0
    assert main(["fuzz", "--game", "rummy", "--rule-version", "1.2.0", "--examples", "5"]) == 0
    assert main(["perft", "--game", "rummy", "--seed", "1", "--depth", "3", "--rule-version", "1.2.0"]) == 0
    assert "nothing found" in capsys.readouterr().out


def test_a_gin_rummy_knock_limit_of_8_is_kept(folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    drafted("gin-rummy", "1.0.0", "1.1.0", [("    default: 10\n    minimum: 0\n    maximum: 100",
                                              "    default: 8\n    minimum: 0\n    maximum: 100")], capsys)
    knocks = []
    for seed in range(3):
        assert main(["play", "--game", "gin-rummy", "--rule-version", "1.1.0", "--seed", str(seed),
                     "--json", f"g{seed}.jsonl"]) == 0
        game = record(f"g{seed}.jsonl")
        assert game["options"]["knock_limit"] == 8
        # G-2.3: a knock needs the knocker's deadwood within the knock limit
        knocks += [r["result"]["deadwood"][r["result"]["knocker"]] for r in game["rounds"]
                   if r["result"]["how"] in ("knock", "undercut")]
    assert knocks and max(knocks) <= 8


def test_a_deal_size_is_read_from_the_game_file(folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    drafted("rummy", "1.1.0", "1.2.0", [("hand_size: {2: 7, 3: 10, 4: 10}", "hand_size: {2: 8, 3: 10, 4: 9}")], capsys)
    for version, sizes in (("1.1.0", (7, 10)), ("1.2.0", (8, 9))):
        two = create().start({"game": "rummy", "rule_version": version, "options": {}, "seed": 3, "players": 2})
        four = create().start({"game": "rummy", "rule_version": version, "options": {}, "seed": 3, "players": 4})
        assert (two.state()["hand_sizes"], four.state()["hand_sizes"]) == ([sizes[0]] * 2, [sizes[1]] * 4)


def test_a_changed_rule_needs_code(folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    drafted("rummy", "1.1.0", "1.2.0", [TARGET, ("A player wins a round by emptying",
                                                 "A player wins a round by first emptying")], capsys)
    assert create().describe()["games"]["rummy"]["rule_versions"] == ["1.1.0"]
    with pytest.raises(ValueError, match="changes rummy.objective since 1.1.0, which needs code"):
        create().start({"game": "rummy", "rule_version": "1.2.0", "options": {}, "seed": 1, "players": 2})
    assert main(["play", "--game", "rummy", "--rule-version", "1.2.0"]) == 2
    assert "since 1.1.0, 1.2.0 changes the rule of rummy.objective, which needs code" in capsys.readouterr().err
    assert main(["diff", "rummy@1.1.0", "rummy@1.2.0"]) == 1
    assert "needs code (an engine playing 1.1.0 plays 1.2.0 only with new code for these; the reference engine " \
           "refuses 1.2.0 until it has it): rummy.objective" in capsys.readouterr().out.splitlines()


def test_a_data_only_diff_says_so(folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    drafted("rummy", "1.1.0", "1.2.0", [TARGET], capsys)
    assert main(["diff", "--json", "rummy@1.1.0", "rummy@1.2.0"]) == 1
    found = json.loads(capsys.readouterr().out)
    assert found["needs_code"] == [] and found["options"][0]["fields"] == {"default": {"old": 100, "new": 150}}


def test_a_rule_restating_a_number_the_data_changed_needs_no_code(folder: Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    restated = ("(100 unless configured)", "(150 unless configured)")  # rummy.play-to-target's text
    drafted("rummy", "1.1.0", "1.2.0", [TARGET, restated], capsys)
    assert create().describe()["games"]["rummy"]["rule_versions"] == ["1.1.0", "1.2.0"]
    assert main(["diff", "rummy@1.1.0", "rummy@1.2.0"]) == 1
    out = capsys.readouterr().out.splitlines()
    assert "clauses changed: rummy.play-to-target (R-4.3)" in out and out[7].startswith("data only")
    # a number the data did not move is a change of the rule
    path = Path("spec") / "games" / "rummy-1.2.0.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace(restated[1], "(120 unless configured)"), "utf-8")
    assert create().describe()["games"]["rummy"]["rule_versions"] == ["1.1.0"]
    assert main(["diff", "rummy@1.1.0", "rummy@1.2.0"]) == 1
    assert any(line.startswith("needs code") and line.endswith(": rummy.play-to-target")
               for line in capsys.readouterr().out.splitlines())


def test_the_book_has_each_version_and_what_changed(folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    drafted("rummy", "1.1.0", "1.2.0", [TARGET], capsys)
    assert main(["docs", "--out", "book"]) == 0
    changed = (folder / "book" / "changes" / "rummy-1.1.0-to-1.2.0.md").read_text(encoding="utf-8")
    assert "| option changed | target (default) | 100 | 150 |" in changed and "**Data only:**" in changed
    assert "[rummy.game.target-reached-exactly](../fixtures/rummy.game.target-reached-exactly.md)" in changed
    assert "(changes/rummy-1.1.0-to-1.2.0.md)" in (folder / "book" / "index.md").read_text(encoding="utf-8")
    options = (folder / "book" / "games" / "rummy-1.2.0.md").read_text(encoding="utf-8")
    assert "| `target` | `150` |" in options
