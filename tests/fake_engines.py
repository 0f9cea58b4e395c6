"""Engines that are wrong in known ways, built on the reference engine, to test the harness."""

from __future__ import annotations

from typing import Any

from harness.spec.gamespec import game_specs
from reference_engine import ReferenceEngine


class WrappedGame:
    """A reference game passed through unchanged; subclasses break one thing."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.calls = 0

    def legal_actions(self) -> list[dict[str, Any]]:
        return list(self.inner.legal_actions())

    def apply(self, seat: int, action: dict[str, Any]) -> str | None:
        self.calls += 1
        return self.inner.apply(seat, action)

    def state(self) -> dict[str, Any]:
        return dict(self.inner.state())

    def observation(self, seat: int) -> dict[str, Any]:
        return dict(self.inner.observation(seat))


class ListsThenRefuses(WrappedGame):
    """The last listed legal action is refused when there is a choice."""

    def apply(self, seat: int, action: dict[str, Any]) -> str | None:
        legal = self.inner.legal_actions()
        if len(legal) > 1 and action == legal[-1]:
            return "wrong-phase"
        return super().apply(seat, action)


def batch_seqs(scenarios: list[Any]) -> list[int]:
    """The seq of each scenario's batch, sent in one session: its start and plan first, then the batch
    itself (where a fake that breaks at a seq breaks)."""
    from harness.run.plan import Planned

    seqs, seq = [], 0
    for scenario in scenarios:
        seq += 1 + len(Planned(scenario, 0).requests) + 1
        seqs.append(seq)
    return seqs


class FakeEngine(ReferenceEngine):
    """The reference engine whose games are wrapped in ``game_class``."""

    game_class: type[WrappedGame] = WrappedGame

    def start(self, setup: dict[str, Any]) -> Any:
        return self.game_class(super().start(setup))


class AcceptsEverything(WrappedGame):
    def apply(self, seat: int, action: dict[str, Any]) -> str | None:
        self.inner.apply(seat, action)
        return None


class RefusesEverything(WrappedGame):
    def apply(self, seat: int, action: dict[str, Any]) -> str | None:
        return "wrong-phase"


class WrongScores(WrappedGame):
    def state(self) -> dict[str, Any]:
        view = super().state()
        view["scores"] = [view["scores"][0] + 1, *view["scores"][1:]]
        return view


class MissesALegalAction(WrappedGame):
    def legal_actions(self) -> list[dict[str, Any]]:
        return [a for a in super().legal_actions() if a != {"draw": "discard"}]


class ListsAnIllegalAction(WrappedGame):
    def legal_actions(self) -> list[dict[str, Any]]:
        return super().legal_actions() + [{"discard": "AS"}]


class NonCanonicalActions(WrappedGame):
    def legal_actions(self) -> list[dict[str, Any]]:
        return [{k: (v[::-1] if isinstance(v, list) else v) for k, v in a.items()} for a in super().legal_actions()]


class GarbageActions(WrappedGame):
    def legal_actions(self) -> list[dict[str, Any]]:
        return super().legal_actions() + [{"teleport": "9c"}]


class RaisesOnSecondAction(WrappedGame):
    def apply(self, seat: int, action: dict[str, Any]) -> str | None:
        if self.calls == 1:
            raise RuntimeError("boom")
        return super().apply(seat, action)


class UnknownReason(WrappedGame):
    def apply(self, seat: int, action: dict[str, Any]) -> str | None:
        reason = super().apply(seat, action)
        return None if reason is None else "nope"


class RefusalChangesState(WrappedGame):
    """Refuses correctly, but its view afterwards has lost a card from the stock."""

    refused = False

    def apply(self, seat: int, action: dict[str, Any]) -> str | None:
        reason = super().apply(seat, action)
        self.refused = self.refused or reason is not None
        return reason

    def state(self) -> dict[str, Any]:
        view = super().state()
        if self.refused:
            view["stock_size"] -= 1
        return view


class StateIsNotAMapping(WrappedGame):
    def state(self) -> Any:
        return ["not", "a", "view"]


class StateMissesKeys(WrappedGame):
    def state(self) -> dict[str, Any]:
        view = super().state()
        del view["phase"]
        return view


def make(game_class: type[WrappedGame]) -> FakeEngine:
    """An engine whose games are ``game_class``."""
    return type(game_class.__name__ + "Engine", (FakeEngine,), {"game_class": game_class})()


class RummyOnlyWithoutOptions(ReferenceEngine):
    def describe(self) -> dict[str, Any]:
        return {"name": "partial", "version": "0", "games": {"rummy": {"rule_versions": ["1.1.0"], "options": []}}}


class OtherRuleVersion(ReferenceEngine):
    def describe(self) -> dict[str, Any]:
        return {"name": "old", "version": "0", "games": {"rummy": {"rule_versions": ["1.0.0"], "options": []}}}


class DescribeRaises(ReferenceEngine):
    def describe(self) -> dict[str, Any]:
        raise OSError("no such engine")


class StartRaises(ReferenceEngine):
    def start(self, setup: dict[str, Any]) -> Any:
        raise ValueError("cannot deal")


def accepts_everything() -> FakeEngine:
    """Factory for ``--engine fake_engines:accepts_everything``."""
    return make(AcceptsEverything)


class LastActionFirst(WrappedGame):
    """The right legal actions, the last one moved to the front."""

    def legal_actions(self) -> list[dict[str, Any]]:
        actions = super().legal_actions()
        return actions[-1:] + actions[:-1]


class RefusesWithIllegal(WrappedGame):
    """Every refusal is the generic code ``illegal``."""

    def apply(self, seat: int, action: dict[str, Any]) -> str | None:
        return None if super().apply(seat, action) is None else "illegal"


class OneHandFromADealEngine(FakeEngine):
    """Declares no match play, no positions and only ``illegal`` refusals, and means it: it raises
    when started from later layouts or a mid-game layout, so the harness must never send one."""

    game_class = RefusesWithIllegal

    def describe(self) -> dict[str, Any]:
        description = super().describe()
        for game in description["games"].values():
            game["features"] = {"match": False, "positions": False, "reasons": "illegal"}
        return description

    def start(self, setup: dict[str, Any]) -> Any:
        if setup.get("later_layouts"):
            raise ValueError("this engine plays one hand: no later layouts")
        spec = next(s for s in game_specs() if s.game == setup["game"])
        defaults = {k: v.get("default") for k, v in spec.data["layout"]["schema"]["properties"].items()}
        layout = setup.get("layout", {})
        given = [k for k in spec.data["conventions"]["position_keys"] if layout.get(k, defaults.get(k)) != defaults.get(k)]
        if given:
            raise ValueError(f"this engine deals fresh hands only, not positions ({', '.join(given)})")
        return super().start(setup)


class KnockLimitFiveToTwenty(ReferenceEngine):
    """Supports gin's knock_limit only from 5 to 20, and rummy's target only as 100 or 500."""

    def describe(self) -> dict[str, Any]:
        description = super().describe()
        description["games"]["gin-rummy"]["option_ranges"] = {"knock_limit": {"minimum": 5, "maximum": 20}}
        description["games"]["rummy"]["option_ranges"] = {"target": {"values": [100, 500]}}
        return description


class DropsLayoffs(WrappedGame):
    """Lists no lay-off at all."""

    def legal_actions(self) -> list[dict[str, Any]]:
        return [a for a in super().legal_actions() if "layoff" not in a]


class ListsALayoffOfKC(WrappedGame):
    """Also lists {layoff: [KC], onto: 0} before the discards."""

    def legal_actions(self) -> list[dict[str, Any]]:
        actions = super().legal_actions()
        if any("discard" in a for a in actions):
            place = next(i for i, a in enumerate(actions) if "discard" in a)
            actions.insert(place, {"layoff": ["KC"], "onto": 0})
        return actions


class RefusesWithWrongPhase(WrappedGame):
    """Refuses what the reference refuses, always with wrong-phase."""

    def apply(self, seat: int, action: dict[str, Any]) -> str | None:
        return None if super().apply(seat, action) is None else "wrong-phase"


class HandWithoutKC(WrappedGame):
    """Shows seat 0's hand without K♣."""

    def state(self) -> dict[str, Any]:
        view = super().state()
        view["hands"] = [[c for c in h if c != "KC"] if i == 0 else h for i, h in enumerate(view["hands"])]
        return view


class ChecksLayoutKeys(ReferenceEngine):
    """Raises unless every layout it is sent has exactly the keys conventions.layout_keys lists for its kind."""

    def start(self, setup: dict[str, Any]) -> Any:
        if "layout" in setup:
            keys = next(s for s in game_specs() if s.game == setup["game"]).data["conventions"]["layout_keys"]
            kind = "deck" if "deck" in setup["layout"] else "position"
            for layout, wanted in [(setup["layout"], keys[kind])] + [(later, keys["later"])
                                                                     for later in setup.get("later_layouts", [])]:
                if sorted(layout) != sorted(wanted):
                    raise ValueError(f"layout keys {sorted(layout)}, not {sorted(wanted)}")
        return super().start(setup)
