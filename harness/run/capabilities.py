"""What an engine declares it can do (``features``, ``option_ranges``) and what each scenario needs.

A feature that is absent from the declaration means "yes" (``reasons`` absent means "exact",
``clone`` absent means "no"), so an engine that declares nothing is judged on everything.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from harness.spec import gamespec as specs
from harness.suite.model import Scenario

# The features a fixture may need, each with what it means (the words of the skip message).
FEATURES = {
    "match": "several rounds or hands",
    "positions": "mid-game layouts",
    "deck_deal": "a deal from a given deck",
    "seeded_deal": "the spec's seeded deal",
    "exact_reasons": "exact refusal reasons",
}


@dataclass(frozen=True)
class Capabilities:
    """One game's declared features and option ranges."""

    match: bool = True
    positions: bool = True
    deck_deal: bool = True
    seeded_deal: bool = True
    reasons: str = "exact"
    clone: bool = False
    option_ranges: dict[str, dict[str, Any]] = field(default_factory=dict)

    def has(self, feature: str) -> bool:
        """Whether the engine declares ``feature`` (one of FEATURES)."""
        if feature == "exact_reasons":
            return self.reasons == "exact"
        return bool(getattr(self, feature))

    @property
    def illegal_only(self) -> bool:
        """Whether every refusal is the generic code ``illegal``."""
        return self.reasons == "illegal"


def declared(game_description: dict[str, Any]) -> Capabilities:
    """The capabilities in one game's entry of ``describe()`` / ``hello``."""
    features = dict(game_description.get("features") or {})
    known = {name: features[name] for name in ("match", "positions", "deck_deal", "seeded_deal", "reasons", "clone")
             if name in features}
    return Capabilities(**known, option_ranges=dict(game_description.get("option_ranges") or {}))


def needs(spec: specs.GameSpec, scenario: Scenario) -> dict[str, str]:
    """The features ``scenario`` needs, each with why (what in the fixture needs it)."""
    found: dict[str, str] = {}
    layout = scenario.layout
    if "seed" in layout:
        found["seeded_deal"] = "the layout is a seed"
    if "deck" in layout:
        found["deck_deal"] = "the layout is a deck"
    properties = spec.data["layout"]["schema"].get("properties", {})
    given = [key for key in spec.data["conventions"]["position_keys"]
             if key in layout and layout[key] != properties.get(key, {}).get("default")]
    if given:
        found["positions"] = f"the layout gives {', '.join(given)}"
    if scenario.later_layouts:
        found["match"] = f"it plays {len(scenario.later_layouts) + 1} rounds"
    elif later_round(scenario):
        found["match"] = f"it checks round {later_round(scenario)}"
    for feature in scenario.needs:
        found.setdefault(feature, "the fixture's needs list names it")
    return found


def later_round(scenario: Scenario) -> int | None:
    """A round past the layout's own that a checkpoint of the scenario names (it plays on into it), or None."""
    start = scenario.layout.get("round", 1) if isinstance(scenario.layout.get("round", 1), int) else 1
    for step in scenario.steps:
        for view in (step.state, (step.observe or {}).get("state")):
            named = (view or {}).get("round")
            if isinstance(named, int) and not isinstance(named, bool) and named > start:
                return named
    return None


def missing(capabilities: Capabilities, wanted: dict[str, str]) -> tuple[str, str] | None:
    """The first needed feature the engine does not declare, with the skip message; or None."""
    for feature, why in wanted.items():
        if not capabilities.has(feature):
            return feature, (f"needs the feature {feature} ({FEATURES[feature]}; here {why}), "
                             "which the engine declares it does not have")
    return None


def outside_range(capabilities: Capabilities, options: dict[str, Any]) -> str | None:
    """The skip message for the first option value outside its declared range, or None."""
    for name, value in options.items():
        declared_range = capabilities.option_ranges.get(name)
        if declared_range is None:
            continue
        if "values" in declared_range:
            if value not in declared_range["values"]:
                allowed = ", ".join(json.dumps(v) for v in declared_range["values"])
                return f"the engine supports option {name} only as {allowed}, not {json.dumps(value)}"
        elif not declared_range.get("minimum", value) <= value <= declared_range.get("maximum", value):
            low, high = declared_range.get("minimum", "..."), declared_range.get("maximum", "...")
            return f"the engine supports option {name} only from {low} to {high}, not {json.dumps(value)}"
    return None
