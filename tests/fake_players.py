"""Computer players that are wrong in known ways, as engines built on the reference, to test the harness."""

from __future__ import annotations

import random
import time
from typing import Any

from reference_engine import ReferenceEngine, players


class PlayersEngine(ReferenceEngine):
    """The reference engine whose view players are replaced by ``pick``; subclasses break one thing."""

    interface = "view"

    def describe(self) -> dict[str, Any]:
        description = super().describe()
        for declared in description["games"].values():
            declared["players"] = {"levels": ["easy"], "interface": self.interface}
        return description

    def choose(self, view: dict[str, Any]) -> dict[str, Any]:
        return self.pick(view)

    def pick(self, view: dict[str, Any]) -> dict[str, Any]:
        return players.choose(view)


class NoPlayers(ReferenceEngine):
    """An engine without computer players."""

    def describe(self) -> dict[str, Any]:
        description = super().describe()
        for declared in description["games"].values():
            declared.pop("players", None)
        return description


class PicksIllegal(PlayersEngine):
    """Answers with an action of the game that is not legal: a card it does not hold."""

    def pick(self, view: dict[str, Any]) -> dict[str, Any]:
        choice = players.choose(view)
        if "discard" in choice or "play" in choice:
            hand = set(view["observation"]["hands"][view["seat"]])
            other = next(c for c in ("2C", "2D", "2H", "2S", "3C") if c not in hand)
            return {"discard": other} if "discard" in choice else {"play": [other]}
        return choice


class NotDeterministic(PlayersEngine):
    """Picks at random among the legal actions, ignoring the seed."""

    def __init__(self) -> None:
        self.rng = random.Random(12345)

    def pick(self, view: dict[str, Any]) -> dict[str, Any]:
        return dict(self.rng.choice(view["legal"]))


class WrongTieBreak(PlayersEngine):
    """Easy, but of equal-value cards it discards the lowest in the card order (R-7.1/G-7.1 say the highest)."""

    def pick(self, view: dict[str, Any]) -> dict[str, Any]:
        choice = players.choose(view)
        if "discard" in choice and view["game"] == "rummy":
            ace_high = view["options"]["ace_high"]
            value = _rummy_value(choice["discard"], ace_high)
            tied = [a for a in view["legal"] if "discard" in a and _rummy_value(a["discard"], ace_high) == value]
            return dict(tied[0])  # the legal list is canonical: the first is the lowest
        return choice


class Stalls(PlayersEngine):
    """Never lets a round end: always takes the top discard when it may (the stock never runs out)."""

    def pick(self, view: dict[str, Any]) -> dict[str, Any]:
        if {"draw": "discard"} in view["legal"]:
            return {"draw": "discard"}
        choice = players.choose(view)
        discards = [a for a in view["legal"] if "discard" in a]
        return dict(discards[0]) if discards and "meld" not in choice else choice


class Slow(PlayersEngine):
    """Takes its time over every decision."""

    delay = 0.05

    def pick(self, view: dict[str, Any]) -> dict[str, Any]:
        time.sleep(self.delay)
        return players.choose(view)


class PeekingGame:
    """A game whose bot (interface seat) looks at the next seat's hidden hand."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    def choose_seat(self, seat: int, level: str, seed: int) -> dict[str, Any]:
        state = self.inner.state()
        legal = self.inner.legal_actions()
        hands = state["hands"]
        hidden = hands[(seat + 1) % len(hands)] or []
        return dict(legal[sum(ord(card[0]) for card in hidden) % len(legal)])


class Peeks(PlayersEngine):
    """Bots inside the engine (interface seat) that peek at another seat's hand."""

    interface = "seat"

    def start(self, setup: dict[str, Any]) -> Any:
        return PeekingGame(super().start(setup))


class HonestSeatGame(PeekingGame):
    """A game whose bot builds the view from what its seat may see (no history), and asks the reference."""

    def choose_seat(self, seat: int, level: str, seed: int) -> dict[str, Any]:
        state = self.inner.state()
        view = {"game": self.game, "rule_version": "", "options": self.options, "seat": seat, "level": level,
                "seed": seed, "observation": self.inner.observation(seat), "history": [],
                "legal": self.inner.legal_actions()}
        return players.choose(view)


class SeatBots(PlayersEngine):
    """Honest bots inside the engine (interface seat)."""

    interface = "seat"

    def start(self, setup: dict[str, Any]) -> Any:
        game = HonestSeatGame(super(PlayersEngine, self).start(setup))
        game.game, game.options = setup["game"], setup["options"]  # type: ignore[attr-defined]
        return game


def _rummy_value(card: str, ace_high: bool) -> int:
    """A Rummy card's hand value (R-4.1)."""
    if card[0] == "A":
        return 11 if ace_high else 1
    return 10 if card[0] in "TJQK" else int(card[0])
