"""OpenSpiel's simple Gin Rummy bot as a ladder player: each view mirrored into an OpenSpiel state (the `bench` extra).

``ladder --game gin-rummy hard openspiel`` plays it; nothing else in the kit imports OpenSpiel. The bot
reads only its own hand, the upcard, the knock card, the stock size and the opponent's laid melds
(open_spiel/bots/gin_rummy/simple_gin_rummy_bot.cc), so a state dealt with the view's hand, the
view's top discard and any unseen cards for the opponent asks it the same question as the game did.
"""

from __future__ import annotations

from typing import Any

from harness.ladder.contestants import ContestantError

SUITS, RANKS = "SCDH", "A23456789TJQK"  # OpenSpiel's card i is RANKS[i % 13] of SUITS[i // 13]
DRAW_UPCARD, DRAW_STOCK, PASS, KNOCK, MELD_BASE = 52, 53, 54, 55, 56
HAND = 10


def spiel_card(card: str) -> int:
    """``QH`` as OpenSpiel's card number."""
    return SUITS.index(card[1]) * 13 + RANKS.index(card[0])


def kit_card(number: int) -> str:
    """OpenSpiel's card number as ``QH``."""
    return RANKS[number % 13] + SUITS[number // 13]


class SimpleGinRummyBot:
    """``pyspiel.make_simple_gin_rummy_bot``, asked with a fresh mirrored state at every decision."""

    def __init__(self, pyspiel: Any) -> None:
        self.pyspiel = pyspiel
        self.melds = pyspiel.gin_rummy.GinRummyUtils(13, 4, HAND).int_to_meld  # OpenSpiel's meld number -> cards
        self.games: dict[tuple[int, int, int], Any] = {}
        self.fallbacks = 0  # choices of the bot the kit's rules refuse, replaced by a legal one

    def game(self, options: dict[str, Any]) -> Any:
        """OpenSpiel's gin_rummy with the view's knock limit and bonuses."""
        key = (int(options.get("knock_limit", 10)), int(options.get("gin_bonus", 25)), int(options.get("undercut_bonus", 25)))
        if key not in self.games:
            self.games[key] = self.pyspiel.load_game("gin_rummy", {"knock_card": key[0], "gin_bonus": key[1],
                                                                   "undercut_bonus": key[2]})
        return self.games[key]

    def choose(self, view: dict[str, Any]) -> dict[str, Any]:
        """The bot's choice for the view, as one of the view's legal actions."""
        legal: list[dict[str, Any]] = view["legal"]
        if len(legal) == 1:
            return legal[0]
        seen = view["observation"]
        phase, hand = seen["phase"], list(seen["hands"][view["seat"]])
        if phase == "layoff":  # the bot never lays off (simple_gin_rummy_bot.cc): it passes at once
            return self.legal_or(legal, {"pass": True})
        game = self.game(view["options"])
        bot = self.pyspiel.make_simple_gin_rummy_bot(game.get_parameters(), 0)
        unseen = [c for c in range(52) if kit_card(c) not in set(hand) | set(seen.get("discard") or [])]
        if phase in ("offer", "draw"):
            state = self.dealt(game, hand, unseen[:HAND], spiel_card(seen["discard"][0]))
            taken = bot.step(state) == DRAW_UPCARD
            return self.legal_or(legal, {"draw": "discard"} if taken else {"pass": True} if phase == "offer" else {"draw": "stock"})
        return self.discard(game, bot, hand, seen.get("taken"), unseen, legal)

    def dealt(self, game: Any, hand: list[str], other: list[int], upcard: int) -> Any:
        """A fresh state at the upcard offer: ``hand`` to player 0 (the bot), ``other`` to player 1."""
        state = game.new_initial_state()
        for card in [spiel_card(c) for c in hand] + other + [upcard]:
            state.apply_action(card)
        return state

    def discard(self, game: Any, bot: Any, hand: list[str], taken: str | None, unseen: list[int],
                legal: list[dict[str, Any]]) -> dict[str, Any]:
        """The discard or the knock, from a state where the bot holds the 11 cards (the taken one as the upcard)."""
        if taken in hand:  # taken from the pile: the upcard, which OpenSpiel too forbids discarding now
            state = self.dealt(game, [c for c in hand if c != taken], unseen[:HAND], spiel_card(taken))
            state.apply_action(DRAW_UPCARD)
        else:  # drawn from the stock: both pass the upcard, then the stock deals the 11th card
            last = hand[-1]
            state = self.dealt(game, hand[:-1], unseen[:HAND], unseen[HAND])
            for action in (PASS, PASS, DRAW_STOCK, spiel_card(last)):
                state.apply_action(action)
        action = bot.step(state)
        if action != KNOCK:
            return self.legal_or(legal, {"discard": kit_card(action)})
        try:
            state.apply_action(KNOCK)
            card = bot.step(state)
            state.apply_action(card)
            melds = []
            while (step := bot.step(state)) != PASS:
                melds.append(list(self.melds[step - MELD_BASE]))
                state.apply_action(step)
        except self.pyspiel.SpielError:
            return self.legal_or(legal, {"discard": kit_card(action)})
        knock = {"knock": kit_card(card), "melds": sorted(sorted(kit_card(c) for c in m) for m in melds)}
        same = [a for a in legal if "knock" in a and a["knock"] == knock["knock"]
                and sorted(sorted(m) for m in a["melds"]) == knock["melds"]]
        other = [a for a in legal if "knock" in a and a["knock"] == knock["knock"]]  # another optimal arrangement
        return same[0] if same else other[0] if other else self.legal_or(legal, {"discard": knock["knock"]})

    def legal_or(self, legal: list[dict[str, Any]], wanted: dict[str, Any]) -> dict[str, Any]:
        """``wanted`` if legal, else the first legal action of the same kind (or the first legal action)."""
        if wanted in legal:
            return wanted
        self.fallbacks += 1
        kind = next(iter(wanted))
        return next((a for a in legal if kind in a), legal[0])


def simple_gin_rummy_bot(game: str) -> SimpleGinRummyBot:
    """Factory for ``openspiel`` (``harness.ladder.openspiel:simple_gin_rummy_bot``): Gin Rummy only."""
    if game != "gin-rummy":
        raise ContestantError(f"player 'openspiel': OpenSpiel's simple bot plays gin-rummy only, not {game}")
    try:
        import pyspiel
    except ImportError:
        raise ContestantError("player 'openspiel': OpenSpiel is not installed; install the bench extra "
                              "(pip install -e '.[bench]', or pip install open-spiel) and run again") from None
    return SimpleGinRummyBot(pyspiel)
