"""Gin Rummy's hard computer player (G-7.3): it estimates the cards the opponent may hold, and
weighs knocking now against playing on toward gin.

The estimate, from the public history only (G-7.0): the opponent surely holds the cards it took
from the discard pile and has not discarded since; every other card neither in its own hand nor
in the discard pile (the unseen cards: the opponent's other cards and the stock) is in the
opponent's hand with a chance weighed by the history: TAKEN_NEAR for each card it took that the
card could meld with, LET_GO_NEAR for each card it discarded or left on the pile
(gin-rummy.hard-estimates).
From it:
- drawing: the top discard when taking it leaves less deadwood than a draw from the stock is
  expected to leave (each unseen card drawn by its chance of being in the stock);
- discards: the least expected deadwood after the next draw from the stock, plus DANGER_POINTS
  times the chance that the opponent holds two cards making a meld of three with the card; with
  no history at all (a position a layout gives) that chance only breaks ties, as the clause says;
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
from reference_engine.gin_rummy.deadwood import VALUE, best_discards, least_after_discard, min_deadwood
from reference_engine.gin_rummy.normal import draw_or_layoff, hand_mask, opponent_takes

SAMPLES = 24
LOOKAHEAD = 3
TAKEN_NEAR, LET_GO_NEAR = 2.0, 0.6  # how much a take or a card let go near an unseen card moves its chance
DANGER_POINTS = 6.0  # a discard the opponent can meld costs this many points of deadwood, times that chance
KEEP_MARGIN = 8  # discards leaving more than this above the least deadwood are not weighed
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


def inferred(view: dict[str, Any]) -> tuple[set[int], set[int]]:
    """The opponent's cards read from the history: those it took (surely wanted) and those it let go
    (discarded, or left on the pile to draw from the stock right after this seat discarded them)."""
    me, taken, let_go, offered = view["seat"], set(), set(), None
    for entry in view["history"]:
        action = entry["action"]
        if entry["seat"] == me:
            offered = parse_card(action["discard"]) if "discard" in action else None
            continue
        if action.get("draw") == "discard" and "card" in action:
            taken.add(parse_card(action["card"]))
        elif action.get("draw") == "stock" and offered is not None:
            let_go.add(offered)
        for key in ("discard", "knock"):
            if key in action:
                let_go.add(parse_card(action[key]))
        offered = None
    return taken, let_go


def near(card: int, other: int) -> bool:
    """Whether the two cards can be in one meld: same rank, or same suit within two ranks."""
    return card != other and (rank_of(card) == rank_of(other)
                              or (suit_of(card) == suit_of(other) and abs(rank_of(card) - rank_of(other)) <= 2))


class Estimate:
    """What the opponent may hold: the cards it surely holds, and the chance of each unseen card.

    An unseen card near a card the opponent took is more likely in its hand (it took that card to
    meld it), one near a card it let go less likely (it would have kept a card that melds)."""

    def __init__(self, view: dict[str, Any], hand: int) -> None:
        observation = view["observation"]
        self.sure = mask_of(opponent_takes(view))
        pile = mask_of(parse_cards(observation["discard"]))
        self.unseen = ALL_CARDS & ~hand & ~pile & ~self.sure
        size = observation["hand_sizes"][1 - view["seat"]]
        self.free = max(size - self.sure.bit_count(), 0)
        taken, let_go = inferred(view)
        weight = {}
        for card in cards_of(self.unseen):
            weight[card] = (TAKEN_NEAR ** sum(near(card, t) for t in taken)
                            * LET_GO_NEAR ** sum(near(card, g) for g in let_go))
        total = sum(weight.values())
        self.chance = {c: min(1.0, self.free * w / total) for c, w in weight.items()} if total else {}

    def holds(self, card: int) -> float:
        """The chance that the opponent holds ``card``."""
        if self.sure >> card & 1:
            return 1.0
        return self.chance.get(card, 0.0)

    def danger(self, card: int) -> float:
        """The chance that the opponent can meld ``card`` with two cards it holds."""
        return sum(self.holds(a) * self.holds(b) for a, b in partners(card))

    def sample(self, rng: random.Random) -> int:
        """One hand the opponent may hold (its free cards drawn by their chances)."""
        pool, hand = dict(self.chance), self.sure
        for _ in range(min(self.free, len(pool))):
            cards, weights = list(pool), list(pool.values())
            card = rng.choices(cards, weights)[0] if sum(weights) > 0 else rng.choice(cards)
            hand |= 1 << card
            del pool[card]
        return hand

    def stock_chances(self) -> dict[int, float]:
        """The chance of each unseen card to be the next one drawn from the stock."""
        left = {c: 1.0 - p for c, p in self.chance.items()}
        total = sum(left.values())
        return {c: v / total for c, v in left.items() if v > 0} if total else {}


def expected_after_draw(kept: int, draws: dict[int, float]) -> float:
    """The least deadwood expected after drawing one card (by ``draws``' chances) and discarding the best."""
    now = min_deadwood(kept)
    spare = min(best_discards(kept).values())  # the least deadwood of all the kept cards but one
    total = 0.0
    for card, chance in draws.items():
        if any(near(card, k) for k in cards_of(kept)):
            total += chance * least_after_discard(kept | 1 << card)
        else:  # a card that melds with nothing kept: deadwood itself, in place of a higher one
            total += chance * min(now, spare + VALUE[card])
    return total


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
        estimate = Estimate(view, hand)
        phase = view["observation"]["phase"]
        if phase in ("offer", "draw"):
            return self.draw(view, hand, estimate)
        early = draw_or_layoff(view, hand)  # the lay-off turn: as normal
        if early is not None:
            return early
        after = best_discards(hand)
        knocks = [a for a in legal if "knock" in a]
        if knocks:
            knock = min(knocks, key=lambda a: after[parse_card(a["knock"])])
            card = parse_card(knock["knock"])
            if after[card] == 0 or self.knock_beats_playing_on(view, estimate, hand & ~(1 << card), after[card]):
                return knock
        return self.discard(legal, estimate, after, hand, fresh=not view["history"])

    @staticmethod
    def draw(view: dict[str, Any], hand: int, estimate: Estimate) -> dict[str, Any]:
        """The top discard when taking it leaves less deadwood than a draw from the stock is expected to."""
        observation, legal = view["observation"], view["legal"]
        if {"draw": "discard"} in legal and observation["discard"]:
            top = parse_card(observation["discard"][0])
            taking = min(v for c, v in best_discards(hand | 1 << top).items() if c != top)
            if taking < expected_after_draw(hand, estimate.stock_chances()):
                return {"draw": "discard"}
        return {"pass": True} if observation["phase"] == "offer" else {"draw": "stock"}

    @staticmethod
    def discard(legal: list[dict[str, Any]], estimate: Estimate, after: dict[int, int], hand: int,
                fresh: bool = False) -> dict[str, Any]:
        """The least expected deadwood after the next draw from the stock plus the danger of the card
        to the opponent (``fresh``, with no history: the danger after, as a tie-break); then the least
        deadwood now, the highest value, the lowest card."""
        draws = estimate.stock_chances()
        options = [a for a in legal if "discard" in a]
        least = min(after[parse_card(a["discard"])] for a in options)

        def cost(action: dict[str, Any]) -> tuple[float, float, int, int, int]:
            card = parse_card(action["discard"])
            expected = expected_after_draw(hand & ~(1 << card), draws)
            danger = DANGER_POINTS * estimate.danger(card)
            # With no history every unseen card is as likely as any other: gin-rummy.hard-estimates then
            # discards the least expected deadwood, and the fewest pairs that meld the card only break ties.
            if fresh:
                return round(expected, 9), round(danger, 9), after[card], -VALUE[card], card
            return round(expected + danger, 9), 0.0, after[card], -VALUE[card], card

        return min((a for a in options if after[parse_card(a["discard"])] <= least + KEEP_MARGIN), key=cost)

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
