"""A run that checks nothing is not green, and an unknown name is a usage error naming the close ones, in every command."""

from __future__ import annotations

import json

import pytest

from harness.cli import main


def test_a_run_where_every_fixture_is_skipped_fails_and_says_why(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(__import__("pathlib").Path(__file__).parent))
    assert main(["run", "--game", "rummy", "--engine", "fake_engines:OtherRuleVersion"]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[-2].startswith("skipped: ") and out[-2].endswith("fixture(s), by reason: rule version "
                                                                + out[-2].split()[1])
    assert out[-1].startswith("nothing was checked: all ") and "a run that checks nothing is not a pass" in out[-1]


@pytest.mark.parametrize("argv", [
    ["run", "--game", "rumy"], ["list", "--game", "rumy"], ["coverage", "--game", "rumy"],
    ["fuzz", "--game", "rumy"], ["properties", "--game", "rumy"], ["mutants", "--game", "rumy"],
    ["ladder", "--game", "rumy", "easy", "easy"], ["players", "--game", "rumy"]])
def test_an_unknown_game_is_a_usage_error_with_the_close_ones(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    try:
        code = main(argv)
    except SystemExit as stopped:  # refused while parsing the arguments
        code = stopped.code  # type: ignore[assignment]
    assert code == 2
    assert "unknown game 'rumy' (did you mean rummy" in capsys.readouterr().err


@pytest.mark.parametrize(("argv", "said"), [
    (["run", "--id", "rummy.meld.q-k-a"], "unknown fixture id 'rummy.meld.q-k-a' (did you mean rummy.meld.q-k-a-run"),
    (["list", "--id", "rummy.meld.q-k-a"], "unknown fixture id 'rummy.meld.q-k-a' (did you mean rummy.meld.q-k-a-run"),
    (["explain", "rummy.meld.q-k-a"], "no fixture 'rummy.meld.q-k-a' (did you mean rummy.meld.q-k-a-run"),
    (["run", "--rule-version", "rummy@1.1.1"], "unknown rule version of rummy '1.1.1' (did you mean 1.1.0?)"),
    (["ladder", "--game", "rummy", "easy", "hardd"], "player 'hardd' (did you mean hard?)")])
def test_an_unknown_fixture_id_version_or_level_is_a_usage_error_with_the_close_ones(
        argv: list[str], said: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert said in captured.err + captured.out


def test_an_unknown_clause_is_a_usage_error_with_the_close_ones(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["run", "--clause", "rummy.ace-after-kin"])
    assert stopped.value.code == 2
    assert "unknown clause 'rummy.ace-after-kin' (did you mean rummy.ace-after-king" in capsys.readouterr().err


def test_a_repeated_game_means_every_one_of_them(capsys: pytest.CaptureFixture[str]) -> None:
    main(["coverage", "--json", "--game", "rummy", "--game", "president"])
    games = {json.loads(line)["game"] for line in capsys.readouterr().out.splitlines()}
    assert games == {"rummy", "president"}
