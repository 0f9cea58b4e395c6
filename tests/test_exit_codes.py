"""One exit code per situation, in every command (README.md, Exit codes; the constants in harness/__init__.py)."""

from __future__ import annotations

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
# Clean and with findings, where a command can show both cheaply (the reference, and a mutant of it).
QKA = "harness.mutants:rummy_qka_refused"
CHECKED = {
    "run": (["run", "--id", "rummy.meld.q-k-a-run"], ["run", "--id", "rummy.meld.q-k-a-run", "--engine", QKA]),
    "fuzz": (["fuzz", "--game", "rummy", "--examples", "3", "--seed", "1"],
             ["fuzz", "--game", "rummy", "--examples", "30", "--seed", "1", "--engine", QKA]),
    "perft": (["perft", "--game", "rummy", "--seed", "1", "--depth", "2"],
              ["perft", str(fixtures_dir() / "rummy" / "rummy.meld.q-k-a-run.yaml"), "--depth", "2", "--engine", QKA]),
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


@pytest.mark.parametrize("command", sorted(CHECKED))
def test_clean_is_0_and_findings_are_1(command: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    clean, found = CHECKED[command]
    assert main(clean) == EXIT_OK
    assert main(found) == EXIT_FAILED
