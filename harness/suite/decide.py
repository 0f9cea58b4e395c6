"""Decision steps in: the lint of a ``decide`` step and its canonical form (judged by ``harness.run.decisions``)."""

from __future__ import annotations

from typing import Any

from harness.spec import gamespec as specs
from harness.spec.cards import action_key, show

EXPECTATIONS = ("exactly", "one_of", "never")


def lint(linter: Any, spec: specs.GameSpec, decide: dict[str, Any], prefix: tuple[Any, ...]) -> None:
    """One expectation; every action the step names belongs to the game's vocabulary, each once."""
    given = [key for key in EXPECTATIONS if key in decide]
    if len(given) > 1:
        linter.error(prefix + (given[1],), f"a decision states one expectation, here {' and '.join(given)}; "
                                           "keep one of exactly, one_of and never (or split the step)")
    if "exactly" in decide:
        linter.check_action(spec, decide["exactly"], prefix + ("exactly",))
    for key in ("one_of", "never"):
        for i, action in enumerate(decide.get(key, [])):
            linter.check_action(spec, action, prefix + (key, i))
        keys = [action_key(spec.card_order.canonical(a)) for a in decide.get(key, [])]
        for i, k in enumerate(keys):
            if k in keys[:i]:
                linter.error(prefix + (key, i), f"{show(decide[key][i])} is listed twice; name each action once")


def canonical(spec: specs.GameSpec, decide: dict[str, Any] | None) -> dict[str, Any] | None:
    """The step's expectation with its actions in canonical form and the seed explicit."""
    if decide is None:
        return None
    order = spec.card_order
    out: dict[str, Any] = {"level": decide["level"], "seed": int(decide.get("seed", 0))}
    if "exactly" in decide:
        out["exactly"] = order.canonical(decide["exactly"])
    for key in ("one_of", "never"):
        if key in decide:
            out[key] = [order.canonical(a) for a in decide[key]]
    return out


def describe(decide: dict[str, Any]) -> str:
    """The step in words, for ``explain``."""
    who = f"The {decide['level']} computer player of the seat to act decides (seed {decide.get('seed', 0)})"
    if "exactly" in decide:
        return f"{who}: it must choose {show(decide['exactly'])}."
    if "one_of" in decide:
        return f"{who}: it must choose one of {', '.join(show(a) for a in decide['one_of'])}."
    return f"{who}: it must never choose {', '.join(show(a) for a in decide['never'])}."
