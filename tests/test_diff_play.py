"""`diff A B --play`: the reference at two rule versions in lockstep, each difference a pair of fixtures."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from harness.cli import main


@pytest.fixture
def draft(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> Path:
    """Rummy 1.2.0 in ./spec/games of an empty working directory, still 1.1.0's copy."""
    monkeypatch.chdir(tmp_path)
    assert main(["new-version", "rummy", "1.1.0", "1.2.0"]) == 0
    capsys.readouterr()
    return tmp_path / "spec" / "games" / "rummy-1.2.0.yaml"


def edited(path: Path, was: str, now: str) -> None:
    """``path`` with ``was`` replaced once by ``now``."""
    text = path.read_text(encoding="utf-8")
    assert text.count(was) == 1
    path.write_text(text.replace(was, now), encoding="utf-8")


def test_a_new_default_target_shows_in_play_as_a_pair_of_fixtures(draft: Path,
                                                                    capsys: pytest.CaptureFixture[str]) -> None:
    edited(draft, "    default: 100\n    minimum: 1\n", "    default: 150\n    minimum: 1\n")
    assert main(["diff", "rummy@1.1.0", "rummy@1.2.0", "--play", "--out", "d", "--examples", "100"]) == 1
    lines = capsys.readouterr().out.splitlines()
    # fuzz's count of games includes the matches' later games and shrinking's replays: the budget is not the count
    start = next(i for i, line in enumerate(lines) if re.fullmatch(r"in play: rummy 1\.1\.0 and 1\.2\.0 in lockstep, "
                                                                    r"[\d,]+ games", line))
    shown = dict(line.strip().split(": ", 1) for line in lines[start + 1:])
    # the diff names the clauses of the target's paragraph; the game's end is where it shows
    assert set(shown) == {"rummy.game-end", "rummy.play-to-target"}
    assert shown["rummy.play-to-target"] == "no difference found in play"
    assert shown["rummy.game-end"].endswith("(1.1.0: pass on 1.1.0, fail on 1.2.0; 1.2.0: pass on 1.2.0, fail on 1.1.0)")
    pair = sorted((Path("d") / "rummy.game-end").glob("*.yaml"))
    assert [yaml.safe_load(p.read_text(encoding="utf-8"))["rule_versions"] for p in pair] == ["=1.1.0", "=1.2.0"]
    old, new = (yaml.safe_load(p.read_text(encoding="utf-8")) for p in pair)
    assert old["layout"] == new["layout"] and "options" not in old and "options" not in new  # the defaults apply
    # reaching 100 ends the game at 1.1.0's default target, not at 1.2.0's 150
    assert (old["steps"][-1]["state"]["phase"], new["steps"][-1]["state"]["phase"]) == ("game-over", "round-over")
    assert max(old["layout"].get("scores", [0])) < 100  # a layout without scores starts the match at 0
    # each passes on its own version and fails on the other, run as any fixture is
    for path, other in ((pair[0], "1.2.0"), (pair[1], "1.1.0")):
        assert main(["run", str(path)]) == 0
        edited(path, "rule_versions: =", f"rule_versions: ={other}\n# was: ")
        assert main(["run", str(path)]) == 1
    capsys.readouterr()


def test_a_changed_rule_cannot_be_played_by_the_reference(draft: Path, capsys: pytest.CaptureFixture[str]) -> None:
    edited(draft, "A player wins a round by emptying", "A player wins a round by first emptying")
    assert main(["diff", "rummy@1.1.0", "rummy@1.2.0", "--play"]) == 2
    assert capsys.readouterr().err == (
        "--play: the reference engine does not play rummy 1.2.0: it changes the rule of rummy.objective, which needs "
        "code (it plays 1.1.0); the diff above is all there is until it does\n")


def test_out_without_play_is_a_usage_error(draft: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["diff", "rummy@1.1.0", "rummy@1.2.0", "--out", "d"]) == 2
    assert "go with --play" in capsys.readouterr().err
