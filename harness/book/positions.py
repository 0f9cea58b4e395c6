"""Each position of a fixture, as the reference engine shows it, split into zones of cards to draw.

The fixture says what must happen; the drawings only illustrate it, so they come from replaying
the fixture on the reference engine. A step the engine cannot play ends the drawings there.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

from harness.adapters.engine import DEFAULT_ENGINE, Engine, load_engine
from harness.reports.explain import STEP_FIELDS_TOLD
from harness.spec import gamespec as specs
from harness.spec.cards import display_all, is_card, normalise, show
from harness.suite.model import Scenario

STOCK_SHOWN = 10  # the stock can hold 40 cards; its top is what a story turns on


@dataclass
class Zone:
    """A place on the table holding cards: a hand, the stock, a meld, a play of the trick."""

    label: str
    cards: list[str]
    more: int = 0  # cards left out of the drawing (the bottom of the stock)
    note: str = ""

    @property
    def text(self) -> str:
        """The zone in words: ``Seat 0's hand: Q♥ K♥``."""
        cards = display_all(self.cards) if self.cards else "(none)"
        more = f" … and {self.more} more" if self.more else ""
        return f"{self.label}: {cards}{more}{f' ({self.note})' if self.note else ''}"


@dataclass
class Position:
    """One position: the zones of cards and the other facts of the state view."""

    zones: list[Zone] = field(default_factory=list)
    facts: list[tuple[str, str]] = field(default_factory=list)


@dataclass
class Replayed:
    """A fixture's positions: the start, then one after each step with an action (None: not drawn)."""

    start: Position | None
    after: dict[int, Position]
    problem: str = ""


_LABELS = {"played": "Out of play"}
_QUIET = frozenset({"hand_sizes", "stock_size"})  # the zones show them already


def position(spec: specs.GameSpec, view: dict[str, Any]) -> Position:
    """A state view as zones and facts; keys the book does not know become facts, never an error."""
    drawn = Position()
    to_act = view.get("to_act")
    for key, value in view.items():
        if key in _QUIET:
            continue
        if key == "hands" and isinstance(value, list):
            for seat, hand in enumerate(value):
                label = f"Seat {seat}'s hand" + (" (to act)" if seat == to_act else "")
                if isinstance(hand, list) and all(is_card(c) for c in hand):
                    drawn.zones.append(Zone(label, [normalise(c) for c in hand]))
                else:
                    drawn.facts.append((label, "hidden" if hand is None else show(hand)))
        elif key == "stock" and _cards(value):
            drawn.zones.append(Zone(f"Stock ({len(value)} cards, top first)", value[:STOCK_SHOWN],
                                    max(0, len(value) - STOCK_SHOWN)))
        elif key == "discard" and _cards(value):
            drawn.zones.append(Zone("Discard pile (top first)", list(value)))
        elif key == "melds" and isinstance(value, list):
            drawn.zones.extend(_melds(value, view))
        elif key == "trick" and isinstance(value, list) and all(isinstance(p, dict) for p in value):
            for play in value:
                cards = play.get("cards")
                if _cards(cards):
                    drawn.zones.append(Zone(f"Trick: seat {play.get('seat')} played", cards))
                else:
                    drawn.facts.append(("trick", show(play)))
            if not value:
                drawn.facts.append(("trick", "empty"))
        elif _cards(value) and value:
            drawn.zones.append(Zone(_LABELS.get(key, key.replace("_", " ").capitalize()), list(value)))
        elif value not in (None, [], {}, False) or key in ("phase", "to_act"):
            drawn.facts.append((key.replace("_", " "), show(value)))
    drawn.facts.append(("rank order, low to high", rank_order(spec, view.get("order"))))
    return drawn


def rank_order(spec: specs.GameSpec, order: Any) -> str:
    """The game's ranks from lowest to highest, reversed during a revolution."""
    ranks = ["10" if r == "T" else r for r in spec.data["card_order"]]
    if order == "reversed":
        return " ".join(reversed(ranks)) + " (reversed)"
    return " ".join(ranks)


def _cards(value: Any) -> bool:
    """Whether ``value`` is a list of cards."""
    return isinstance(value, list) and all(is_card(c) for c in value)


def _melds(melds: list[Any], view: dict[str, Any]) -> list[Zone]:
    """The melds on the table, each with its owner (a Gin meld is the knocker's)."""
    zones = []
    for i, meld in enumerate(melds):
        if isinstance(meld, dict) and _cards(meld.get("cards")):
            zones.append(Zone(f"Meld {i} (seat {meld.get('owner')}'s)", meld["cards"]))
        elif _cards(meld):
            owner = f" (seat {view['knocker']}'s)" if view.get("knocker") is not None else ""
            zones.append(Zone(f"Meld {i}{owner}", meld))
    return zones


class Replayer:
    """Replays fixtures on one engine (the reference by default) and collects their positions."""

    def __init__(self, engine: Engine | None = None) -> None:
        self.engine = engine or load_engine(DEFAULT_ENGINE)

    def replay(self, scenario: Scenario, spec: specs.GameSpec) -> Replayed:
        """Every position of ``scenario``; a problem stops the drawings and is said."""
        setup = {"game": scenario.game, "rule_version": spec.rule_version,
                 "options": {**spec.option_defaults, **scenario.options},
                 "layout": scenario.layout, "later_layouts": list(scenario.later_layouts)}
        try:
            game = self.engine.start(setup)
            start = position(spec, game.state())
        except Exception as error:  # an illustration must never stop the book
            return Replayed(None, {}, f"the reference engine could not start this fixture ({type(error).__name__}: {error})")
        after: dict[int, Position] = {}
        for step in scenario.steps:
            number = step.index + 1
            # A step kind added later may move the game in a way the replay cannot follow.
            unknown = sorted(f.name for f in dataclasses.fields(step)
                             if f.name not in STEP_FIELDS_TOLD and getattr(step, f.name) not in (None, "", [], {}, ()))
            if unknown:
                return Replayed(start, after, f"step {number} ({', '.join(unknown)}) is not replayed, "
                                              "so the positions from there on are not drawn")
            if step.action is None or step.seat is None:
                continue
            try:
                reason = game.apply(step.seat, step.action)
                after[step.index] = position(spec, game.state())
            except Exception as error:
                return Replayed(start, after, f"the reference engine stopped at step {number} "
                                              f"({type(error).__name__}: {error})")
            if (reason is None) != (step.expect != "refused"):
                after.pop(step.index)
                said = "accepted it" if reason is None else f"refused it ({reason})"
                return Replayed(start, after, f"the reference engine {said} at step {number}, "
                                              "unlike the fixture, so the positions from there on are not drawn")
        return Replayed(start, after)

