"""One exit code per situation, in every command (README.md, Exit codes; the constants in harness/__init__.py)."""

from __future__ import annotations

import io
import re
import sys
from pathlib import Path

import pytest

from harness import EXIT_FAILED, EXIT_NEVER_STARTED, EXIT_OK, EXIT_USAGE
from harness.cli import folders, main
from harness.spec.paths import fixtures_dir

NOWHERE = "nosuchbinary-cardverse"
# Every command with an input or option it must refuse before checking anything: 2.
USAGE = {
    "run": ["run", "no/such/folder"],
    "coverage": ["coverage", "no/such/folder"],
    "explain": ["explain", "no.such.fixture"],
    "lint": ["lint", "no/such/folder"],
    "list": ["list", "no/such/folder"],
    "serve": ["serve", "--engine", "no_such_module:create"],
    "smoke": ["smoke", "--engine-url", "ftp://example.org/engine"],
    "fuzz": ["fuzz", "--game", "no-such-game"],
    "properties": ["properties", "--game", "no-such-game"],
    "mutants": ["mutants", "--game", "no-such-game"],
    "diff": ["diff", "rummy@9.9.9", "rummy@1.1.0"],
    "new-version": ["new-version", "no-such-game", "1.0.0", "2.0.0"],
    "texts": ["texts", "no/such/rules.md"],
    "docs": ["docs", "--out", "/dev/null/book"],
    "report": ["report", "no/such/run.jsonl", "--out", "report"],
    "ladder": ["ladder", "--game", "rummy", "easy", "normal", "--cap", "0"],
    "players": ["players", "--game", "no-such-game"],
    "play": ["play", "--game", "no-such-game"],
    "perft": ["perft", "--game", "rummy", "--seed", "1", "--depth", "0"],
    "audit": ["audit", "-", "-"],
}
# Every command that talks to an engine, given one that cannot start: 3, whatever it was asked.
NEVER_STARTED = {
    "run": ["run", "--game", "rummy"],
    "smoke": ["smoke"],
    "fuzz": ["fuzz", "--game", "rummy", "--examples", "2"],
    "properties": ["properties", "--game", "rummy", "--examples", "2"],
    "players": ["players", "--game", "rummy"],
    "play": ["play", "--game", "rummy"],
    "ladder": ["ladder", "--game", "rummy", "engine:easy", "normal", "--cap", "2", "-j", "1"],
    "perft": ["perft", "--game", "rummy", "--seed", "1", "--depth", "1"],
    "perft --vectors": ["perft", "--vectors"],
}
# Clean (0) and with findings (1): the reference, then a mutant of it, a fake engine or an input with a problem.
QKA = "harness.mutants:rummy_qka_refused"
HERE = Path(__file__).parent
RUMMY = fixtures_dir() / "rummy"
FAKES = HERE / "data" / "protocol_fakes"
VERSIONS = HERE / "data" / "versions"
CHECKED: dict[str, tuple[list[str], list[str] | None]] = {
    "run": (["run", "--id", "rummy.meld.q-k-a-run"], ["run", "--id", "rummy.meld.q-k-a-run", "--engine", QKA]),
    "lint": (["lint", str(RUMMY)], ["lint", "bad"]),
    "coverage": (["coverage", "--game", "rummy"], ["coverage", str(RUMMY / "rummy.meld.q-k-a-run.yaml")]),
    "fuzz": (["fuzz", "--game", "rummy", "--examples", "3", "--seed", "1"],
             ["fuzz", "--game", "rummy", "--examples", "30", "--seed", "1", "--engine", QKA]),
    "properties": (["properties", "--game", "rummy", "--examples", "3"],
                   ["properties", "--game", "rummy", "--examples", "20", "--engine", QKA]),
    "mutants": (["mutants", "--game", "rummy", "--mutant", "rummy.qka-refused", "--no-fuzz", str(RUMMY)],
                ["mutants", "--game", "rummy", "--mutant", "rummy.qka-refused", "--no-fuzz",
                 str(RUMMY / "rummy.deal.from-deck-three-players.yaml")]),
    "perft": (["perft", "--game", "rummy", "--seed", "1", "--depth", "2"],
              ["perft", str(RUMMY / "rummy.meld.q-k-a-run.yaml"), "--depth", "2", "--engine", QKA]),
    "smoke": (["smoke", "--engine-cmd", f"{sys.executable} -m harness serve"],
              ["smoke", "--engine-cmd", f"{sys.executable} {FAKES / 'noncanonical.py'}"]),
    "players": (["players", "--game", "rummy", "--games", "1"],
                ["players", "--game", "rummy", "--games", "1", "--engine", "fake_players:PicksIllegal"]),
    "play": (["play", "--game", "rummy", "--seed", "1", "--json", "clean.jsonl"],
             ["play", "--game", "rummy", "--engine", "fake_players:PicksIllegal"]),
    "audit": (["audit", "clean.jsonl"], ["audit", "other.jsonl"]),
    "ladder": (["ladder", "--game", "rummy", "hard", "easy", "--cap", "40", "-j", "1"],
               ["ladder", "--game", "rummy", "easy", "easy", "--cap", "10", "-j", "1"]),
    "list": (["list", "--game", "rummy"], None),
    "explain": (["explain", "rummy.meld.q-k-a-run"], None),
    "diff": (["diff", "rummy@1.1.0", "rummy@1.1.0"], None),
    "new-version": (["new-version", "rummy", "1.1.0", "1.3.0", "--out", "rummy-1.3.0.yaml"], None),
    "texts": (["texts", str(VERSIONS / "texts" / "rummy-1.2.0-en.txt"), "--game-file", str(VERSIONS / "rummy-1.2.0.yaml")],
              None),
    "docs": (["docs", str(RUMMY), "--out", "book"], None),
    "report": (["report", "clean-run.jsonl", "--out", "report"], None),
    "serve": (["serve"], None),
}


def code(argv: list[str]) -> int:
    """The exit code of the command, argparse's own usage errors (SystemExit) included."""
    try:
        return main(argv)
    except SystemExit as stop:
        return int(stop.code or 0)


def engine_commands() -> set[str]:
    """The commands whose options name an engine (--engine-cmd)."""
    import argparse

    from harness.cli import build_parser

    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))  # noqa: SLF001
    return {name for name, command in sub.choices.items()
            if any("--engine-cmd" in action.option_strings for action in command._actions)}  # noqa: SLF001


def test_every_command_is_held_to_the_table() -> None:
    commands = {name for module in folders() for name in module.COMMANDS}
    assert set(USAGE) == commands
    assert {name.split()[0] for name in NEVER_STARTED} == engine_commands() - {"serve"}  # serve is the engine


@pytest.mark.parametrize("command", sorted(USAGE))
def test_a_usage_or_input_error_is_2(command: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    assert code(USAGE[command]) == EXIT_USAGE
    captured = capsys.readouterr()
    assert captured.err.strip() and "Traceback" not in captured.err  # a message on stderr, never a traceback


@pytest.mark.parametrize("command", sorted(NEVER_STARTED))
def test_an_engine_that_never_started_is_3(command: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    assert main([*NEVER_STARTED[command], "--engine-cmd", NOWHERE]) == EXIT_NEVER_STARTED
    err = capsys.readouterr().err
    assert err.startswith("error: the engine never started: cannot start the engine command")
    assert f"printf '%s\\n' '{{\"cmd\":\"hello\",\"protocol\":1}}' | {NOWHERE}" in err
    assert "Traceback" not in err


def test_a_broken_describe_in_process_is_3_too(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["perft", "--game", "rummy", "--seed", "1", "--depth", "1", "--engine",
                 "fake_engines:DescribeRaises"]) == EXIT_NEVER_STARTED
    assert "python -c 'from fake_engines import DescribeRaises" in capsys.readouterr().err


def test_every_command_is_checked_clean() -> None:
    assert set(CHECKED) == set(USAGE)


@pytest.mark.parametrize("command", sorted(CHECKED))
def test_clean_is_0_and_findings_are_1(command: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(b"")))  # serve: a client that hangs up at once
    (tmp_path / "bad").mkdir()
    (tmp_path / "bad" / "bad.yaml").write_text("id: x\ntitle: t\n", encoding="utf-8")  # no steps, a title too short
    if command in ("audit", "report"):  # the inputs the other commands write
        assert main(["play", "--game", "rummy", "--seed", "1", "--json", "clean.jsonl"]) == 0
        assert main(["play", "--game", "rummy", "--seed", "1", "--json", "other.jsonl",
                     "--engine", "harness.mutants:rummy_first_seat_stays"]) == 0  # the first seat never moves
        assert main(["run", "--id", "rummy.meld.*", "--json", "clean-run.jsonl"]) == 0
    clean, found = CHECKED[command]
    assert code(clean) == EXIT_OK, capsys.readouterr()
    if found is not None:
        assert code(found) == EXIT_FAILED, capsys.readouterr()


# Checked nothing is never clean: an input that holds nothing to check is 2; things given that none could be checked, 1.
NOTHING_CHECKED: dict[str, tuple[list[str], int]] = {
    "texts, no document compared": (["texts", str(VERSIONS / "texts" / "rummy-1.2.0-ro.txt"), "--game-file",
                                     "no-ro.yaml"], EXIT_FAILED),
    "audit, an empty file": (["audit", "empty.jsonl"], EXIT_USAGE),
    "run, no fixture in the folder": (["run", "empty"], EXIT_USAGE),
    "run, every fixture skipped": (["run", "--id", "rummy.option.target-custom", "--engine",
                                    "fake_engines:RummyOnlyWithoutOptions"], EXIT_FAILED),
    "mutants, no fixture in the folder": (["mutants", "--game", "rummy", "--mutant", "rummy.qka-refused", "--no-fuzz",
                                           "empty"], EXIT_USAGE),
    "mutants, no fixture of the game": (["mutants", "--game", "rummy", "--mutant", "rummy.qka-refused", "--no-fuzz",
                                         str(fixtures_dir() / "gin-rummy")], EXIT_USAGE),
}


@pytest.mark.parametrize("case", sorted(NOTHING_CHECKED))
def test_checking_nothing_is_not_clean(case: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "empty").mkdir()
    (tmp_path / "empty.jsonl").write_text("", encoding="utf-8")
    # the draft's game file without its Romanian fingerprints: the Romanian text meets nothing to compare with
    game_file = (VERSIONS / "rummy-1.2.0.yaml").read_text(encoding="utf-8")
    (tmp_path / "no-ro.yaml").write_text(re.sub(r", ro: [0-9a-f]+|ro: [0-9a-f]+, ", "", game_file), encoding="utf-8")
    argv, expected = NOTHING_CHECKED[case]
    assert code(argv) == expected, capsys.readouterr()
    captured = capsys.readouterr()
    assert captured.err.strip() or "nothing was checked" in captured.out  # said, never a traceback
    assert "Traceback" not in captured.err
