"""`play` a person can follow: melds numbered as shown, cards taken named, tricks and going out, scoreboards, colour, width."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest

from harness.adapters.engine import DEFAULT_ENGINE, load_engine
from harness.cli import main
from harness.players.watch import Watch

ANSI = re.compile("\033\\[[0-9;]*m")
MOVE = re.compile(r"^  seat (\d) \((\w+)\) (.*)$")


def played(capsys: pytest.CaptureFixture[str], game: str, players: str, seed: int) -> list[str]:
    """The lines of one `play`, piped."""
    assert main(["play", "--game", game, "--players", players, "--seed", str(seed), "--delay", "0"]) == 0
    return capsys.readouterr().out.splitlines()


def joined(lines: list[str]) -> list[str]:
    """The lines with each wrapped continuation put back on the line it continues."""
    whole: list[str] = []
    for line in lines:
        if whole and line.startswith("    ") and not MOVE.match(line):
            whole[-1] += " " + line.strip()
        else:
            whole.append(line)
    return whole


def test_a_gin_match_names_melds_as_numbered_taken_cards_and_keeps_the_score(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    lines = played(capsys, "gin-rummy", "normal,easy", 2)
    assert all(len(line) <= 80 for line in lines) and not any(ANSI.search(line) for line in lines)
    whole = joined(lines)
    assert whole[:5] == ["Gin Rummy 1.0.0 · seed 2 · seats 0: normal, 1: easy", "round 1",
                         "  seat 0 (normal) holds 2♦ 3♣ 3♠ 5♥ 6♣ 7♦ 8♣ 9♠ 10♦ J♥",
                         "  seat 1 (easy) holds A♣ 4♣ 6♥ 7♥ 7♠ 10♣ J♦ Q♣ Q♥ K♥", "  discard pile: 4♦"]
    # a card taken from the pile is the one the line before discarded (or the upcard), and is named
    taken = [(i, m) for i, m in enumerate(whole) if m.endswith("from the discard pile")]
    assert len(taken) > 5
    for i, line in taken:
        card = line.split(" takes ")[1].split(" from ")[0]
        assert whole[i - 1].endswith((f"discards {card}", f"discard pile: {card}")) or " passes" in whole[i - 1]
    # every lay-off names a meld by the number the knock showed it under, with those cards
    layoffs = [i for i, line in enumerate(whole) if " lays off " in line]
    assert len(layoffs) == 7
    for i in layoffs:
        knock = next(whole[j] for j in range(i, 0, -1) if "knocks, showing" in whole[j])
        shown = dict(meld.split(": ") for meld in knock.split("showing ")[1].split("; "))
        number, cards = re.search(r"onto meld (\d+) \((.*)\)$", whole[i]).groups()  # type: ignore[union-attr]
        assert set(shown[number].split()) <= set(cards.split())  # with any cards laid off onto it before
    # each round's result in words, then the running scores, which add up the points told
    overs = [i for i, line in enumerate(whole) if re.match(r"round \d+ over: ", line)]
    assert len(overs) == 12 and all(whole[i + 1].startswith("  scores: seat 0 (normal) ") for i in overs)
    assert "undercuts seat 0 (normal)'s knock and scores 29" in whole[overs[9]]
    running = [0, 0]
    for i in overs:
        said = re.search(r"^round \d+ over: seat (\d) \(\w+\) .* scores (\d+) ", whole[i])
        if said:
            running[int(said.group(1))] += int(said.group(2))
        assert whole[i + 1] == f"  scores: seat 0 (normal) {running[0]} · seat 1 (easy) {running[1]} (game to 100)"
    assert whole[-1] == f"game over: seat 0 (normal) wins; final scores seat 0 (normal) {running[0]} · seat 1 (easy) {running[1]}"


def test_a_president_game_shows_who_wins_each_trick_and_who_goes_out(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "100")
    lines = played(capsys, "president", "normal,easy,easy,easy", 3)
    assert all(len(line) <= 100 for line in lines)
    whole = joined(lines)
    won = [i for i, line in enumerate(whole) if " wins the trick" in line]
    assert len(won) >= 8
    for i in won:  # the trick goes to the last seat that played in it
        last = next(MOVE.match(whole[j]) for j in range(i, 0, -1) if " plays " in whole[j])
        assert whole[i].startswith(f"  seat {last.group(1)} wins the trick")  # type: ignore[union-attr]
    ends = [i for i, line in enumerate(whole) if re.match(r"round \d over: ", line)]
    assert len(ends) == 3  # `play` plays President as a series of rounds, the exchange between them
    for start, end in zip([0, *ends], ends):
        out = [line for line in whole[start:end] if " goes out, " in line]
        assert [line.rsplit(", ", 1)[1] for line in out] == ["1st", "2nd", "3rd"]
        order = [int(line.split()[1]) for line in out]
        named = [int(s) for s in re.findall(r"seat (\d) \(", whole[end])]
        assert named[:3] == order and sorted(named) == [0, 1, 2, 3]
        assert re.search(r"president \+4; .* vice-president \+3; .* vice-scum \+2; .* scum \+1$", whole[end])
    gives = [line for line in whole if re.match(r"  seat \d \(\w+\) gives ", line)]
    assert len(gives) == 4  # the President and the Vice-President give back, before rounds 2 and 3
    assert whole[-1].startswith(f"game over: seat {order[0]} (")


class Terminal(io.StringIO):
    """Output that says it is a terminal."""

    def isatty(self) -> bool:
        return True


def test_a_game_with_nobody_able_to_act_stops_as_a_finding_with_its_record(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The lead given to a seat gone out (P-6.2: the next seat still in) leaves nobody able to act: `play` says so,
    exits 1 and writes the record unfinished for no-move, which `audit` judges where the rules go on."""
    record = tmp_path / "stuck.jsonl"
    assert main(["play", "--game", "president", "--players", "easy,easy,easy,easy", "--seed", "1", "--rounds", "3",
                 "--delay", "0", "--engine", "harness.mutants:president_lead_to_finished_seat",
                 "--json", str(record)]) == 1
    assert "the engine has nobody able to act (seat to act: " in capsys.readouterr().out
    assert json.loads(record.read_text(encoding="utf-8"))["unfinished"] == "no-move"
    assert main(["audit", str(record)]) == 1
    assert "president DID NOT END (no-move)" in capsys.readouterr().out


def test_colour_only_on_a_terminal_without_no_color(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "60")
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setenv("TERM", "xterm")
    engine = load_engine(DEFAULT_ENGINE)
    out = Terminal()
    Watch(engine, "president", ["easy"] * 4, 3, 0, out).play()
    text = out.getvalue()
    assert "\033[31m♥\033[0m" in text and "\033[36mseat 0 (easy)\033[0m" in text
    assert all(len(ANSI.sub("", line)) <= 60 for line in text.splitlines())
    monkeypatch.setenv("NO_COLOR", "1")
    plain = Terminal()
    Watch(engine, "president", ["easy"] * 4, 3, 0, plain).play()
    assert plain.getvalue() == ANSI.sub("", text)


def test_piped_without_columns_each_event_is_one_line(capsys: pytest.CaptureFixture[str],
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("COLUMNS", raising=False)
    lines = played(capsys, "president", "normal,easy,easy,easy", 3)
    assert lines == joined(lines) and max(len(line) for line in lines) > 100
