"""A scenario told in words, with card glyphs, for documenting an edge case."""

from __future__ import annotations

from typing import Any

from harness import spec as specs
from harness.cards import display_all, show
from harness.fixtures import Scenario, Step
from harness.players import decisions

_VERBS = {
    "draw": lambda a: f"draws from the {a['draw']}" if a["draw"] == "stock" else "takes the top discard",
    "meld": lambda a: f"lays down {display_all(a['meld'])}",
    "layoff": lambda a: f"lays off {display_all(a['layoff'])} onto meld {a.get('onto')}",
    "discard": lambda a: f"discards {display_all([a['discard']])}",
    "knock": lambda a: f"discards {display_all([a['knock']])} and knocks, showing "
                       + "; ".join(display_all(m) for m in a.get("melds", [])),
    "play": lambda a: f"plays {display_all(a['play'])}",
    "pass": lambda a: "passes",
    "give": lambda a: f"gives {display_all(a['give'])}",
}


def describe_action(action: dict[str, Any]) -> str:
    """``{draw: stock}`` as ``draws from the stock``."""
    for key, verb in _VERBS.items():
        if key in action:
            try:
                return verb(action)
            except (KeyError, TypeError):
                break
    return f"plays {show(action)}"


def explain(scenario: Scenario) -> str:
    """The whole scenario in words."""
    spec = specs.specs_in_range(scenario.game, scenario.rule_versions)[-1]
    lines = [f"{scenario.id}: {scenario.title}",
             f"{spec.data['title']} {scenario.rule_versions} · {scenario.file}"]
    if scenario.description:
        lines.append(scenario.description.strip())
    options = {**spec.option_defaults, **scenario.options}
    changed = [f"{k}={show(v)}" for k, v in scenario.options.items()]
    lines.append(f"Options: {', '.join(changed) if changed else 'defaults'} "
                 f"({', '.join(f'{k}={show(v)}' for k, v in options.items())})")
    lines.append("Rules covered:")
    for clause_id in scenario.clauses:
        clause = spec.clauses[clause_id]
        marker = " [interpretation]" if clause.basis == "interpretation" else ""
        lines.append(f"  {clause_id} ({clause.source}){marker}: {clause.rule.strip()}")
    lines.append("The layout:" if len(scenario.later_layouts) == 0 else "Round 1:")
    lines.extend("  " + line for line in _layout_lines(scenario.layout))
    for i, later in enumerate(scenario.later_layouts, start=2):
        lines.append(f"Round {i}:")
        lines.extend("  " + line for line in _layout_lines(later))
    lines.append("Steps:")
    for step in scenario.steps:
        lines.extend(_step_lines(spec, step))
    return "\n".join(lines)


def _layout_lines(layout: dict[str, Any]) -> list[str]:
    """The layout's places, each with its cards."""
    lines = []
    for key in ("first", "dealer", "to_act", "phase", "round", "scores", "order"):
        if layout.get(key) is not None:
            lines.append(f"{key}: {show(layout[key])}")
    for seat, hand in enumerate(layout.get("hands", [])):
        lines.append(f"seat {seat} holds {display_all(hand) or '(nothing)'}")
    for key, value in layout.items():
        if key in ("hands", "first", "dealer", "to_act", "phase", "round", "scores", "order") or value in (None, [], {}, False):
            continue
        if key == "stock":
            lines.append(f"stock ({len(value)} cards), top first: {display_all(value[:8])}{' …' if len(value) > 8 else ''}")
        elif key in ("discard", "played") and all(isinstance(c, str) for c in value):
            label = "discard pile, top first" if key == "discard" else "already played"
            lines.append(f"{label}: {display_all(value[:8] if key == 'discard' else value)}"
                         f"{' …' if key == 'discard' and len(value) > 8 else ''}")
        else:
            lines.append(f"{key}: {show(value)}")
    return lines


def _step_lines(spec: specs.GameSpec, step: Step) -> list[str]:
    """One numbered step: the action and what must happen, then the checks."""
    number = f"{step.index + 1:>3}."
    lines = []
    if step.action is not None:
        said = f"sends {show(step.action)}" if step.reason == "malformed-action" else describe_action(step.action)
        what = f"Seat {step.seat} {said}"
        if step.expect == "refused":
            reason = ""
            if step.reason:
                meaning = spec.reason_meaning(step.reason).strip().rstrip(".")
                reason = f" ({step.reason}: {meaning})" if meaning else f" ({step.reason})"
            lines.append(f"{number} {what}: must be REFUSED{reason}, leaving everything as it was.")
        else:
            lines.append(f"{number} {what}: accepted.")
        number = "    "
    if step.note:
        lines.append(f"{number} Note: {step.note.strip()}")
        number = "    "
    if step.state:
        lines.append(f"{number} Then: " + "; ".join(f"{k} = {show(v)}" for k, v in step.state.items()))
        number = "    "
    if step.observe:
        lines.append(f"{number} Seat {step.observe['seat']} sees: "
                     + "; ".join(f"{k} = {show(v)}" for k, v in step.observe["state"].items()))
        number = "    "
    if step.legal:
        parts = []
        if "exactly" in step.legal:
            parts.append("exactly " + ", ".join(show(a) for a in step.legal["exactly"]))
        if "includes" in step.legal:
            parts.append("including " + ", ".join(show(a) for a in step.legal["includes"]))
        if "excludes" in step.legal:
            parts.append("but not " + ", ".join(show(a) for a in step.legal["excludes"]))
        if "count" in step.legal:
            parts.append(f"{step.legal['count']} in all")
        lines.append(f"{number} Legal now: " + "; ".join(parts))
        number = "    "
    if step.decide:
        lines.append(f"{number} {decisions.describe(step.decide)}")
    return lines

