"""Small inline SVG drawings for the report's history: a score line over runs and a strip of outcomes. No script."""

from __future__ import annotations

from markupsafe import Markup, escape

CELL = 14  # px a run takes in a strip


def score_line(points: list[tuple[int, int]], labels: list[str], width: int = 180, height: int = 40) -> Markup:
    """The share of fixtures passed in each run, as a line with a dot a run (its title says passed/ran and when)."""
    pad = 4
    step = (width - 2 * pad) / max(1, len(points) - 1)
    dots, path = [], []
    for i, ((passed, ran), label) in enumerate(zip(points, labels)):
        x = pad + i * step
        share = passed / ran if ran else 0.0
        y = pad + (1 - share) * (height - 2 * pad)
        path.append(f"{x:.1f},{y:.1f}")
        kind = "none" if not ran else "pass" if passed == ran else "fail"
        dots.append(Markup('<circle class="dot-{}" cx="{:.1f}" cy="{:.1f}" r="3"><title>{}: {}/{}</title></circle>')
                    .format(kind, x, y, label, passed, ran))
    summary = ", ".join(f"{label} {p}/{r}" for (p, r), label in zip(points, labels))
    return Markup('<svg class="trend" width="{w}" height="{h}" viewBox="0 0 {w} {h}" role="img" aria-label="{s}">'
                  '<line class="axis" x1="0" y1="{p}" x2="{w}" y2="{p}"/><line class="axis" x1="0" y1="{b}" x2="{w}" y2="{b}"/>'
                  '<polyline class="score" points="{pts}"/>{dots}</svg>').format(
        w=width, h=height, s=summary, p=pad, b=height - pad, pts=" ".join(path), dots=Markup("").join(dots))


def outcome_strip(outcomes: list[str], labels: list[str]) -> Markup:
    """A square a run, coloured by the clause's outcome in it (o-pass, o-fail, ... from the stylesheet)."""
    squares = Markup("").join(
        Markup('<rect class="o-{}" x="{}" y="1" width="{}" height="{}" rx="2"><title>{}: {}</title></rect>').format(
            outcome, i * CELL + 1, CELL - 3, CELL - 3, label, outcome)
        for i, (outcome, label) in enumerate(zip(outcomes, labels)))
    said = ", ".join(f"{label} {outcome}" for outcome, label in zip(outcomes, labels))
    return Markup('<svg class="strip" width="{w}" height="{h}" viewBox="0 0 {w} {h}" role="img" aria-label="{s}">{q}</svg>').format(
        w=len(outcomes) * CELL, h=CELL, s=escape(said), q=squares)
