"""The canonical order of legal actions (a game file's ``conventions.legal_order``) and its check."""

from __future__ import annotations

from typing import Any

from harness.spec import gamespec as specs
from harness.spec.cards import is_card, show


def order_key(spec: specs.GameSpec, action: dict[str, Any]) -> tuple[Any, ...]:
    """Where ``action`` sits: its kind's place, then its ``by`` fields compared in turn."""
    groups = spec.data["conventions"]["legal_order"]
    for place, group in enumerate(groups):
        if group["kind"] in action:
            values = group.get("values", {})
            return (place, *(_field_key(spec, action.get(name), values.get(name)) for name in group["by"]))
    return (len(groups),)


def _field_key(spec: specs.GameSpec, value: Any, values: list[Any] | None) -> Any:
    """A comparable key: a listed value's place, a card's place in the card order, lists item by item."""
    if values is not None:
        return values.index(value) if value in values else len(values)
    if isinstance(value, list):
        return [_field_key(spec, item, None) for item in value]
    if is_card(value):
        return spec.card_order.key[value]
    return value


def first_misplaced(spec: specs.GameSpec, actions: list[dict[str, Any]]) -> str | None:
    """Why ``actions`` is not in the canonical order, naming the first action listed too early; None if it is."""
    keys = [order_key(spec, action) for action in actions]
    wanted = sorted(range(len(actions)), key=keys.__getitem__)
    for place, index in enumerate(wanted):
        if index != place:
            early, due = actions[place], actions[index]
            return (f"legal_actions() is not in the canonical order: {show(early)} is listed at place {place + 1}, "
                    f"before {show(due)} (place {index + 1}), which comes first "
                    f"(spec/games/{spec.path.name}, conventions.legal_order)")
    return None
