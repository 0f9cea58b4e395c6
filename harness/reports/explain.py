"""A scenario told in words, with card glyphs, for documenting an edge case.

The parts (the options, the clauses, a layout, one step) are public so the book tells each
fixture exactly as ``explain`` does.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from harness.spec import gamespec as specs
from harness.spec.cards import describe_action, display_all, show
from harness.suite import decide
from harness.suite.model import Scenario, Step

# The step fields told by step_sentences itself; any other field is told generically.
STEP_FIELDS_TOLD = frozenset(
    {"index", "line", "seat", "action", "expect", "reason", "reasons", "state", "legal", "observe", "note", "decide",
     "clauses"})
_LAYOUT_HEAD = ("first", "dealer", "to_act", "phase", "round", "scores", "order")


def scenario_spec(scenario: Scenario) -> specs.GameSpec:
    """The game file a scenario is told against: the newest rule version in its range."""
    return specs.specs_in_range(scenario.game, scenario.rule_versions)[-1]


def options_line(spec: specs.GameSpec, scenario: Scenario) -> str:
    """The options the scenario changes, then every option's value."""
    options = {**spec.option_defaults, **scenario.options}
    changed = [f"{k}={show(v)}" for k, v in scenario.options.items()]
    return (f"Options: {', '.join(changed) if changed else 'defaults'} "
            f"({', '.join(f'{k}={show(v)}' for k, v in options.items())})")


def clause_line(clause: specs.Clause) -> str:
    """A clause as one line: id, source paragraph, marker, rule."""
    marker = " [interpretation]" if clause.basis == "interpretation" else ""
    return f"{clause.id} ({clause.source}){marker}: {clause.rule.strip()}"


def explain(scenario: Scenario) -> str:
    """The whole scenario in words."""
    spec = scenario_spec(scenario)
    lines = [f"{scenario.id}: {scenario.title}",
             f"{spec.data['title']} {scenario.rule_versions} · {scenario.file}"]
    if scenario.description:
        lines.append(scenario.description.strip())
    lines.append(options_line(spec, scenario))
    lines.append("Rules covered:")
    lines.extend(f"  {clause_line(spec.clauses[c])}" for c in scenario.clauses if c in spec.clauses)
    lines.append("The layout:" if len(scenario.later_layouts) == 0 else "Round 1:")
    lines.extend("  " + line for line in layout_lines(scenario.layout))
    for i, later in enumerate(scenario.later_layouts, start=2):
        lines.append(f"Round {i}:")
        lines.extend("  " + line for line in layout_lines(later))
    lines.append("Steps:")
    for step in scenario.steps:
        number = f"{step.index + 1:>3}."
        for sentence in step_sentences(spec, step):
            lines.append(f"{number} {sentence}")
            number = "    "
    return "\n".join(lines)


def layout_lines(layout: dict[str, Any]) -> list[str]:
    """The layout's places, each with its cards."""
    lines = []
    if "seed" in layout:  # the engine deals it: spec/seeded-deal.md
        return [f"the seeded deal of seed {layout['seed']} for {layout.get('players')} players (spec/seeded-deal.md)"]
    for key in _LAYOUT_HEAD:
        if layout.get(key) is not None:
            lines.append(f"{key}: {show(layout[key])}")
    for seat, hand in enumerate(layout.get("hands", [])):
        lines.append(f"seat {seat} holds {display_all(hand) or '(nothing)'}")
    for key, value in layout.items():
        if key in ("hands", *_LAYOUT_HEAD) or value in (None, [], {}, False):
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


def refusal(spec: specs.GameSpec, step: Step) -> str:
    """Why the step's action must be refused: ``invalid-meld: The cards ...``, or ''."""
    acceptable = getattr(step, "reasons", ())  # a fixture may accept any of several codes
    if len(acceptable) > 1:
        return f"any of {', '.join(acceptable)}"
    if not step.reason:
        return ""
    meaning = spec.reason_meaning(step.reason).strip().rstrip(".")
    return f"{step.reason}: {meaning}" if meaning else step.reason


def action_sentence(spec: specs.GameSpec, step: Step) -> str:
    """The step's action and whether it must be accepted or refused, or '' without an action."""
    if step.action is None:
        return ""
    said = f"sends {show(step.action)}" if step.reason == "malformed-action" else describe_action(step.action)
    what = f"Seat {step.seat} {said}"
    if step.expect == "refused":
        reason = refusal(spec, step)
        return f"{what}: must be REFUSED{f' ({reason})' if reason else ''}, leaving everything as it was."
    return f"{what}: accepted."


def check_sentences(step: Step) -> list[str]:
    """What the step checks after its action: the note, the views, the legal actions, anything else."""
    lines = []
    if step.note:
        lines.append(f"Note: {step.note.strip()}")
    if step.state:
        lines.append("Then: " + "; ".join(f"{k} = {show(v)}" for k, v in step.state.items()))
    if step.observe:
        lines.append(f"Seat {step.observe['seat']} sees: "
                     + "; ".join(f"{k} = {show(v)}" for k, v in step.observe["state"].items()))
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
        lines.append("Legal now: " + "; ".join(parts))
    if step.decide:
        lines.append(decide.describe(step.decide))
    if step.clauses:
        lines.append("This step checks: " + ", ".join(step.clauses))
    # A step kind added later is still told, plainly, rather than left out.
    for field in dataclasses.fields(step):
        value = getattr(step, field.name)
        if field.name not in STEP_FIELDS_TOLD and value not in (None, "", [], {}, ()):
            lines.append(f"{field.name.replace('_', ' ').capitalize()}: {show(value)}")
    return lines


def step_sentences(spec: specs.GameSpec, step: Step) -> list[str]:
    """One step in words, unnumbered: the action and what must happen, then the checks."""
    action = action_sentence(spec, step)
    return ([action] if action else []) + check_sentences(step)
