"""The ladder's course as an SVG file: the LLR between its two bounds, and the Elo estimate in its 95% interval, over the deals."""

from __future__ import annotations

import math
from typing import Any
from xml.sax.saxutils import escape

WIDTH, PANEL, GAP, LEFT, RIGHT, TOP = 640, 170, 46, 56, 16, 50
INK, MUTED, LINE, LLR, BAND, ELO, H0, H1 = "#1e1e24", "#5d5d6b", "#d9d6cf", "#1f57b5", "#f2c66d", "#a34d00", "#b3122a", "#1c7a3b"


def course_svg(record: dict[str, Any]) -> str:
    """The plot of a ``ladder --json`` record (its ``course``); a record without one is a ValueError."""
    course = record.get("course")
    if not isinstance(course, list) or not course:
        raise ValueError("the record has no course of deals: write it again with this kit's `ladder --json`")
    sprt = record["sprt"]
    deals = max(1, course[-1]["deal"])
    height = TOP + 2 * PANEL + GAP + 30

    def x(deal: float) -> float:
        return LEFT + (WIDTH - LEFT - RIGHT) * deal / deals

    def scale(low: float, high: float, top: float) -> Any:
        return lambda v: top + PANEL * (high - min(max(v, low), high)) / (high - low)

    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" viewBox="0 0 {WIDTH} {height}" '
             f'font-family="system-ui, sans-serif" font-size="12" role="img" aria-label="{escape(_summary(record), {chr(34): "&quot;"})}">',
             f'<rect width="{WIDTH}" height="{height}" fill="#fbfaf7"/>',
             f'<text x="{LEFT}" y="18" font-size="14" fill="{INK}">{escape(record["game"])}: {escape(str(record["a"]))} vs '
             f'{escape(str(record["b"]))}, {record["deals"]} deals: {escape(record["verdict"])}</text>']
    # The LLR and the bounds where the test stops.
    lows = [sprt["lower"], min(p["llr"] for p in course)]
    highs = [sprt["upper"], max(p["llr"] for p in course)]
    y = scale(min(lows) - 0.3, max(highs) + 0.3, TOP)
    parts += _frame(TOP, "LLR", deals)
    parts += _level(y, sprt["upper"], H1, f"accept H1 at {sprt['upper']:+.2f}", above=True)
    parts += _level(y, sprt["lower"], H0, f"accept H0 at {sprt['lower']:+.2f}", above=False)
    parts += _ticks(y, min(lows) - 0.3, max(highs) + 0.3, "{:+.1f}")
    parts.append(_polyline([(x(p["deal"]), y(p["llr"])) for p in course], LLR))
    # The Elo estimate, its interval (an end not known yet drawn at the panel's edge), and elo0 and elo1.
    top = TOP + PANEL + GAP
    known = [v for p in course for v in (p["elo_low"], p["elo_high"], p["elo"]) if v is not None] + [sprt["elo0"], sprt["elo1"]]
    low, high = max(min(known), -800.0), min(max(known), 800.0)
    margin = max(10.0, (high - low) * 0.08)
    e = scale(low - margin, high + margin, top)
    parts += _frame(top, "Elo (95% interval)", deals)
    band = [(x(p["deal"]), e(p["elo_high"] if p["elo_high"] is not None else math.inf)) for p in course]
    band += [(x(p["deal"]), e(p["elo_low"] if p["elo_low"] is not None else -math.inf)) for p in reversed(course)]
    parts.append(f'<polygon points="{_points(band)}" fill="{BAND}" fill-opacity="0.55"/>')
    parts += _level(e, sprt["elo1"], H1, f"elo1 {sprt['elo1']:g}", above=sprt["elo1"] >= sprt["elo0"])
    parts += _level(e, sprt["elo0"], H0, f"elo0 {sprt['elo0']:g}", above=sprt["elo1"] < sprt["elo0"])
    parts += _ticks(e, low - margin, high + margin, "{:+.0f}")
    parts.append(_polyline([(x(p["deal"]), e(p["elo"])) for p in course], ELO))
    parts.append(f'<text x="{(LEFT + WIDTH - RIGHT) / 2}" y="{height - 8}" text-anchor="middle" fill="{MUTED}">deals played</text>')
    return "\n".join(parts) + "\n</svg>\n"


def _frame(top: float, label: str, deals: int) -> list[str]:
    """A panel's box, its name and the deal count at both ends."""
    return [f'<rect x="{LEFT}" y="{top}" width="{WIDTH - LEFT - RIGHT}" height="{PANEL}" fill="none" stroke="{LINE}"/>',
            f'<text x="{LEFT}" y="{top - 6}" fill="{MUTED}">{escape(label)}</text>',
            f'<text x="{LEFT}" y="{top + PANEL + 14}" fill="{MUTED}">0</text>',
            f'<text x="{WIDTH - RIGHT}" y="{top + PANEL + 14}" text-anchor="end" fill="{MUTED}">{deals}</text>']


def _level(scale: Any, value: float, colour: str, said: str, above: bool) -> list[str]:
    """A dashed line across the panel at ``value``, named above or below it (two close lines keep both names clear)."""
    at = scale(value)
    return [f'<line x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{at:.1f}" y2="{at:.1f}" stroke="{colour}" stroke-dasharray="5 4"/>',
            f'<text x="{WIDTH - RIGHT - 4}" y="{at - 4 if above else at + 13:.1f}" text-anchor="end" fill="{colour}">{escape(said)}</text>']


def _ticks(scale: Any, low: float, high: float, form: str) -> list[str]:
    """The panel's highest, middle and lowest values, left of it."""
    return [f'<text x="{LEFT - 4}" y="{scale(v) + 4:.1f}" text-anchor="end" fill="{MUTED}">{form.format(v if abs(v) >= 0.05 else 0.0)}</text>'
            for v in (high, (low + high) / 2, low)]


def _points(points: list[tuple[float, float]]) -> str:
    """SVG points."""
    return " ".join(f"{px:.1f},{py:.1f}" for px, py in points)


def _polyline(points: list[tuple[float, float]], colour: str) -> str:
    """A line through the points."""
    return f'<polyline points="{_points(points)}" fill="none" stroke="{colour}" stroke-width="2"/>'


def _summary(record: dict[str, Any]) -> str:
    """The plot in words, for a screen reader."""
    last = record["course"][-1]
    return (f"LLR {last['llr']:+.2f} after {last['deal']} deals (bounds {record['sprt']['lower']:+.2f} and "
            f"{record['sprt']['upper']:+.2f}); Elo {last['elo']:+.0f}, 95% interval {last['elo_low']} to {last['elo_high']}")
