"""What `play` says, in words a person follows: the events a move makes, round results, scoreboards, colour and width."""

from __future__ import annotations

import os
import re
import shutil
import textwrap
from typing import Any, TextIO

from harness.spec.cards import display_all

SEAT_COLOURS = ("36", "33", "35", "32", "34", "91")  # cyan, yellow, magenta, green, blue, bright red
RED_SUITS = re.compile("([♥♦])")
SEAT = re.compile(r"seat\xa0(\d+)(\xa0\(\w+\))?")
CARD = r"(?:10|[A2-9JQK])[♣♦♥♠]"
MELD = re.compile(rf"\d+: {CARD}(?: {CARD})*")  # a numbered meld, as a knock shows it
PLACES = ("1st", "2nd", "3rd", "4th", "5th", "6th")


class Style:
    """Colour on a terminal (none when piped, with NO_COLOR or TERM=dumb) and lines within its width."""

    width: int | None

    def __init__(self, out: TextIO) -> None:
        tty = bool(getattr(out, "isatty", lambda: False)())
        self.colour = tty and not os.environ.get("NO_COLOR") and os.environ.get("TERM") != "dumb"
        columns = os.environ.get("COLUMNS", "")
        # A terminal's width (COLUMNS first); piped, COLUMNS if set, else one line per event, for grep
        width = shutil.get_terminal_size((100, 24)).columns if tty else int(columns) if columns.isdigit() else None
        self.width = max(40, width) if width else None

    def lines(self, text: str) -> list[str]:
        """``text`` wrapped to the width (continuations indented under it), then coloured."""
        indent = " " * (len(text) - len(text.lstrip(" ")))
        glued = re.sub(r"seat (\d+)( \(\w+\))?", lambda m: m.group(0).replace(" ", "\xa0"), text)  # never split a seat
        glued = MELD.sub(lambda m: m.group(0).replace(" ", "\xa0"), glued)  # nor a meld
        if self.width is None:
            return [self.paint(glued).replace("\xa0", " ")]
        wrapped = textwrap.wrap(glued, self.width, subsequent_indent=indent + "    ", break_on_hyphens=False) or [""]
        return [self.paint(line).replace("\xa0", " ") for line in wrapped]

    def paint(self, line: str) -> str:
        """Red suits red, each seat its colour, headings bold."""
        if not self.colour:
            return line
        line = RED_SUITS.sub("\033[31m\\1\033[0m", line)
        line = SEAT.sub(lambda m: f"\033[{SEAT_COLOURS[int(m.group(1)) % len(SEAT_COLOURS)]}m{m.group(0)}\033[0m", line)
        if not line.startswith(" ") or line.lstrip().startswith(("scores", "result")):
            line = f"\033[1m{line}\033[0m"
        return line


def seat_name(seat: Any, levels: list[str]) -> str:
    """``seat 1 (normal)``; a seat without a level (a replay) as ``seat 1``."""
    if isinstance(seat, int) and 0 <= seat < len(levels) and levels[seat] != "replay":
        return f"seat {seat} ({levels[seat]})"
    return f"seat {seat}"


def move_events(before: dict[str, Any], after: dict[str, Any], seat: int, action: dict[str, Any]) -> list[str]:
    """What a President move did besides itself: a trick won, a seat going out, the order reversed."""
    if "trick" not in before:
        return []
    if after.get("round") != before.get("round"):  # the play that went out ended the round: the next one is dealt
        placed = len(before.get("finished") or []) + 1
        return [f"seat {seat} goes out, {PLACES[min(placed, len(PLACES)) - 1]}"] if "play" in action else []
    events = []
    if after.get("order") != before.get("order"):
        events.append(f"four of a kind: the order is now {after.get('order')}")
    out = [s for s in after.get("finished") or [] if s not in (before.get("finished") or [])]
    for finisher in out:
        events.append(f"seat {finisher} goes out, {PLACES[min(len(after['finished']), len(PLACES)) - 1]}")
    if (before.get("trick") or "play" in action) and not after.get("trick") and after.get("to_act") is not None:
        winner = seat if "play" in action else before["trick"][-1]["seat"]
        events.append(f"seat {winner} wins the trick and leads" if winner == after.get("to_act")
                      else f"seat {winner} wins the trick; seat {after.get('to_act')} leads")
    return events


def round_result(result: dict[str, Any], levels: list[str]) -> str:
    """One round's result in words: who won it, how, and the points."""
    name = lambda s: seat_name(s, levels)  # noqa: E731
    how, points = result.get("how"), result.get("points")
    if "finishing_order" in result:  # President: the order out and the titles
        titles, gained = result.get("titles") or [], result.get("points") or []
        return "; ".join(f"{name(s)} {titles[s] if s < len(titles) else ''} +{gained[s] if s < len(gained) else 0}"
                         for s in result["finishing_order"])
    if "deadwood" in result:  # Gin Rummy
        against = "deadwood " + ", ".join(f"{d} for seat {s}" for s, d in enumerate(result.get("deadwood") or []))
        if how == "draw":
            return "a drawn hand: the stock ran down to two cards; nobody scores"
        if how == "gin":
            return f"{name(result['winner'])} goes gin and scores {points} ({against})"
        if how == "undercut":
            return (f"{name(result['winner'])} undercuts {name(result['knocker'])}'s knock and scores {points} "
                    f"({against})")
        return f"{name(result['winner'])} knocks and scores {points} ({against})"
    if "hand_values" in result:  # Rummy
        values = ", ".join(f"{v} for seat {s}" for s, v in enumerate(result["hand_values"]))
        return f"{name(result.get('winner'))} goes out ({how}) and scores {points} (cards left: {values})"
    return ", ".join(f"{key} {value}" for key, value in result.items())


def scoreboard(scores: list[Any], levels: list[str], target: Any = None) -> str:
    """The running scores, one seat after another."""
    board = " · ".join(f"{seat_name(s, levels)} {score}" for s, score in enumerate(scores))
    return f"  scores: {board}" + (f" (game to {target})" if target else "")


def game_result(result: dict[str, Any], levels: list[str]) -> str:
    """The game's result in words."""
    scores = result.get("scores") or []
    final = "final scores " + " · ".join(f"{seat_name(s, levels)} {score}" for s, score in enumerate(scores))
    bonuses = result.get("bonuses") or []
    final += f" (bonuses included: {', '.join(str(b) for b in bonuses)})" if any(bonuses) else ""
    if result.get("winner") is not None:
        return f"{seat_name(result['winner'], levels)} wins; {final}"
    if result.get("finishing_order"):
        return f"{seat_name(result['finishing_order'][0], levels)} finishes the last round first; {final}"
    return ", ".join(f"{key} {value}" for key, value in result.items())


def shown_melds(state: dict[str, Any]) -> list[list[str]]:
    """The table's melds as card lists (Rummy's carry their owner)."""
    return [m["cards"] if isinstance(m, dict) else m for m in state.get("melds") or []]


def hand_line(seat: str, hand: list[str] | None) -> str:
    """A seat's hand at the deal."""
    return f"  {seat} holds {display_all(hand or []) or '(nothing)'}"
