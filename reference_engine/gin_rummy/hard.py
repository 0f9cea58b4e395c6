"""Gin Rummy's hard computer player (G-7.3): it estimates the cards the opponent may hold, and
weighs knocking now against playing on toward gin.

The estimate, from the public history only (G-7.0): the opponent surely holds the cards it took
from the discard pile and has not discarded since; each card neither in its own hand, nor in the
discard pile, nor surely held is in the opponent's hand with the same chance (the unseen cards:
the opponent's other cards and the stock). From it:
- discards: normal's order first (gin-rummy.hard-estimates); between discards it leaves equal,
  the one with the least danger: the chance that the opponent holds two cards making a meld of
  three with it;
- knocking: SAMPLES opponent hands are drawn from the estimate (seeded by the view's seed) and
  the knock is scored on each (G-4.1, G-4.2); playing on is scored as the chance to draw gin
  within LOOKAHEAD draws times the gin score (G-4.3), plus the knock later otherwise, less the
  chance that the opponent knocks first. It knocks when knocking now scores at least as much.
"""

from __future__ import annotations

import random
from itertools import combinations
from typing import Any

from reference_engine.cards import (
    DECK_SIZE,
    cards_of,
    mask_of,
    parse_card,
    parse_cards,
    rank_of,
    suit_of,
)
from reference_engine.gin_rummy.deadwood import VALUE, best_discards, min_deadwood
from reference_engine.gin_rummy.normal import (
    draw_or_layoff,
    feeds,
    hand_mask,
    opponent_takes,
)

SAMPLES = 24
LOOKAHEAD = 3
ALL_CARDS = (1 << DECK_SIZE) - 1


def partners(card: int) -> list[tuple[int, int]]:
    """The pairs of cards that make a meld of three with ``card``: same rank, or a run through it."""
    rank, suit = rank_of(card), suit_of(card)
    same = [s * 13 + rank - 1 for s in range(4) if s != suit]
    pairs = list(combinations(same, 2))
    for low in (rank - 2, rank - 1, rank):
        if low >= 1 and low + 2 <= 13:
            others = [suit * 13 + r - 1 for r in range(low, low + 3) if r != rank]
            pairs.append((others[0], others[1]))
    return pairs


class Estimate:
    """What the opponent may hold: the cards it surely holds, and the chance of each unseen card."""

    def __init__(self, view: dict[str, Any], hand: int) -> None:
        observation = view["observation"]
        self.sure = mask_of(opponent_takes(view))
        pile = mask_of(parse_cards(observation["discard"]))
        self.unseen = ALL_CARDS & ~hand & ~pile & ~self.sure
        size = observation["hand_sizes"][1 - view["seat"]]
        self.free = max(size - self.sure.bit_count(), 0)
        count = self.unseen.bit_count()
        self.chance = self.free / count if count else 0.0

    def holds(self, card: int) -> float:
        """The chance that the opponent holds ``card``."""
        if self.sure >> card & 1:
            return 1.0
        return self.chance if self.unseen >> card & 1 else 0.0

    def danger(self, card: int) -> float:
        """The chance that the opponent can meld ``card`` with two cards it holds."""
        return sum(self.holds(a) * self.holds(b) for a, b in partners(card))

    def sample(self, rng: random.Random) -> int:
        """One hand the opponent may hold."""
        return self.sure | mask_of(rng.sample(list(cards_of(self.unseen)), min(self.free, self.unseen.bit_count())))


def knock_score(mine: int, theirs: int, options: dict[str, Any]) -> int:
    """What a knock with deadwood ``mine`` scores against ``theirs`` (G-4.1 to G-4.3, lay-offs left out)."""
    if mine == 0:
        return int(options.get("gin_bonus", 25)) + theirs
    if theirs > mine:
        return theirs - mine
    return -(mine - theirs + int(options.get("undercut_bonus", 25)))


class HardPlayer:
    """G-7.3: estimates the opponent's cards; knocks now or plays on for gin, whichever scores more."""

    def choose(self, view: dict[str, Any]) -> dict[str, Any]:
        """The action for this view."""
        legal: list[dict[str, Any]] = view["legal"]
        hand = hand_mask(view)
        early = draw_or_layoff(view, hand)
        if early is not None:
            return early
        estimate = Estimate(view, hand)
        after = best_discards(hand)
        knocks = [a for a in legal if "knock" in a]
        if knocks:
            knock = min(knocks, key=lambda a: after[parse_card(a["knock"])])
            card = parse_card(knock["knock"])
            if after[card] == 0 or self.knock_beats_playing_on(view, estimate, hand & ~(1 << card), after[card]):
                return knock
        return self.discard(legal, estimate, after, opponent_takes(view))

    @staticmethod
    def discard(legal: list[dict[str, Any]], estimate: Estimate, after: dict[int, int], taken: set[int]) -> dict[str, Any]:
        """Normal's order (the least deadwood, then not shown useful to the opponent), then the
        least danger, then the highest value."""
        def cost(action: dict[str, Any]) -> tuple[int, bool, float, int, int]:
            card = parse_card(action["discard"])
            return (after[card], feeds(card, taken), estimate.danger(card), -VALUE[card], card)

        return min((a for a in legal if "discard" in a), key=cost)

    @staticmethod
    def knock_beats_playing_on(view: dict[str, Any], estimate: Estimate, kept: int, deadwood: int) -> bool:
        """Whether knocking now with ``kept`` scores at least as much as playing on toward gin."""
        options = view["options"]
        rng = random.Random(f"{view['seed']}:{len(view['history'])}")
        theirs = [min_deadwood(estimate.sample(rng)) for _ in range(SAMPLES)]
        now = sum(knock_score(deadwood, t, options) for t in theirs) / SAMPLES
        unseen = list(cards_of(estimate.unseen))
        outs = sum(1 for c in unseen if min(best_discards(kept | 1 << c).values()) == 0)
        draws = min(LOOKAHEAD, max((view["observation"]["stock_size"] - 2) // 2, 0))
        chance = outs / len(unseen) if unseen else 0.0
        gin = 1.0 - (1.0 - chance) ** draws
        threat = sum(t <= int(options.get("knock_limit", 10)) for t in theirs) / SAMPLES
        later = now - threat * (deadwood + int(options.get("undercut_bonus", 25)))
        on = gin * sum(knock_score(0, t, options) for t in theirs) / SAMPLES + (1.0 - gin) * later
        return now >= on


_PLAYER = HardPlayer()


def choose(view: dict[str, Any]) -> dict[str, Any]:
    """The hard player's action for ``view``."""
    return _PLAYER.choose(view)
