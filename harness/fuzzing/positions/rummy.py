"""Rummy positions for the fuzzer: rounds one action from their end (see the package docstring).

The seat to act holds a way out (a run or set, or cards to lay off onto a meld on the table),
maybe a card to discard or the card it just took from the discard pile. The other seats hold a
few cards, often Aces, in phase draw sometimes worth exactly what the seat to act holds (the
empty-stock tie). The stock holds 0-2 cards or all that is left; the discard pile may be empty
(its cards then lie in melds on the table). The scores are set from the hand values so that the
likely winner of the round reaches the target exactly, or ties a seat already there.
"""

from __future__ import annotations

import random
from typing import Any

from hypothesis import strategies as st

from harness.findings.games import GameFacts
from harness.fuzzing.actions import Draw
from harness.fuzzing.positions.rummy_cards import WORTH, Pool, meld_up, value

ALL_LEFT = 3  # the stock size drawn for "every card not placed elsewhere"


class Picks:
    """Hypothesis draws shifted by a salt from the deal and options, as ``actions.pick`` shifts them.

    Hypothesis makes new games mostly by mutating earlier ones, replaying this position's draws
    unchanged on another deal; shifted by the deal, the same draws build another kind of
    position. A game stays a function of its draws (the deal is one).
    """

    def __init__(self, data: Draw, deal: dict[str, Any], options: dict[str, Any]) -> None:
        self.data = data
        self.salt = random.Random(" ".join(deal["hands"][0]) + repr(sorted(options.items())))

    def number(self, low: int, high: int, label: str) -> int:
        """An integer from ``low`` to ``high``."""
        size = high - low + 1
        return low + (self.data.draw(st.integers(0, size - 1), label=label) + self.salt.randrange(size)) % size

    def one(self, items: list[Any], label: str) -> Any:
        """One of ``items``."""
        return items[self.number(0, len(items) - 1, label)]


def draw(data: Draw, facts: GameFacts, deal: dict[str, Any], options: dict[str, Any]) -> dict[str, Any] | None:
    """A position layout from the cards of ``deal``: every card placed, in the deal's order where free."""
    players = len(deal["hands"])
    ace_high = bool(options.get("ace_high", False))
    pick = Picks(data, deal, options)
    pool = Pool([c for hand in deal["hands"] for c in hand] + list(deal.get("stock") or []) + list(deal.get("discard") or []))
    # With discard_to_win a way out in phase play shows at once (the meld that would go out is not
    # legal); without, it must be played: phase play more often then. Phase draw is where an empty
    # discard pile can be tried (the first action of the round only: every turn ends in a discard).
    phase = pick.one(["play", "draw", "draw", "draw"] if options.get("discard_to_win") else ["play", "draw"], "phase")
    to_act = pick.number(0, players - 1, "to-act")
    owner = pick.number(0, players - 1, "owner")  # of the first meld on the table; the next go round
    hands: list[list[str]] = [[] for _ in range(players)]
    hands[to_act], table, taken = _way_out(pick, pool, phase)
    tied = _others(pick, pool, hands, to_act, phase, ace_high)
    stock, discard, more, left = _piles(pick, pool, phase)
    # Cards no meld on the table takes: in a hand outside the tie, else on the discard pile
    # rather than in an empty stock (an empty stock ends the round at the next draw).
    padded = [s for s in range(players) if s not in (to_act, tied)]
    if padded:
        hands[padded[0]] += left
    elif stock:
        stock += left
    else:
        discard += left
    melds = [{"owner": (owner + i) % players, "cards": cards} for i, cards in enumerate(table + more)]
    values = [value(hand, ace_high) for hand in hands]
    return {
        "first": pick.number(0, players - 1, "first"),
        "hands": hands, "stock": stock, "discard": discard, "melds": melds, "phase": phase, "to_act": to_act,
        "scores": _scores(pick, values, _likely_winner(phase, not stock, to_act, values), int(options["target"])),
        "round": pick.number(1, 5, "round"), "taken_discard": taken,
    }


def _way_out(pick: Picks, pool: Pool, phase: str) -> tuple[list[str], list[list[str]], str | None]:
    """The hand of the seat to act, the table meld it can lay off onto (if any) and the card it
    took from the discard pile (phase play; None if it drew from the stock or has not drawn)."""
    anchor = pool.cards[pick.number(0, min(12, len(pool.cards) - 1), "anchor")]
    # Cards to lay off onto a meld on the table (one alone is where going out is likeliest to be
    # played: the only other legal action discards it), or none: a meld in hand.
    laid_off = pick.one([1, 1, 2, 3], "lay-off") if pick.number(0, 3, "table") else 0
    is_set = bool(pick.number(0, 1, "set"))
    if is_set:
        block = pool.set_of(anchor, 4 if laid_off else pick.number(3, 4, "set-size"))
    else:
        block = pool.run_from(anchor, 3 + laid_off if laid_off else pick.number(3, 6, "run-size"))
    for card in block:
        pool.take(card)
    hand, table = block, []
    if laid_off and len(block) >= 4:
        # Three of the set on the table, or a run from anywhere in the block: the rest, at one
        # end or both, is laid off onto it.
        size = 3 if is_set else max(3, len(block) - laid_off)
        start = pick.number(0, len(block) - size, "table-start")
        table = [block[start:start + size]]
        hand = block[:start] + block[start + size:]
    if pick.number(0, 7, "spare") == 7:  # a card to discard after the meld or lay-off (seldom: it hides going out)
        hand = hand + pool.take_first(1)
    taken = None
    if phase == "play":
        # 0-4: it drew from the stock; 5: took a card of no use; 6-7: a card of its way out.
        how = pick.number(0, 7, "taken")
        if how == 5:
            hand = hand + pool.take_first(1)
            taken = hand[-1]
        elif how > 5:
            taken = hand[pick.number(0, len(hand) - 1, "taken-card")]
        if len(hand) == 1:
            taken = None  # the only card could never be discarded: no layout has that
    return hand, table, taken


def _others(pick: Picks, pool: Pool, hands: list[list[str]], to_act: int, phase: str, ace_high: bool) -> int | None:
    """The other seats' hands: 1-3 cards, some Aces; in phase draw maybe one worth exactly the
    seat to act's hand (a tie at an empty stock) with every other seat above it: that seat, or None."""
    others = [s for s in range(len(hands)) if s != to_act]
    tied = None
    if phase == "draw" and pick.number(0, 3, "tie") > 0:
        # A seat below the seat to act where there is one: only there do "lowest seat" and
        # "first from the asker" tell different winners.
        tied = pick.one([s for s in others if s < to_act] or others, "tied")
        hands[tied] = _worth(pool, value(hands[to_act], ace_high), ace_high)
    aces = pick.number(0, 2, "aces")
    for i, seat in enumerate(s for s in others if s != tied):
        size = pick.number(1, 3, "hand-size")
        ace = [c for c in pool.cards if c[0] == "A"][:1] if i < aces else []
        hands[seat] = [pool.take(c) for c in ace] + pool.take_first(size - len(ace))
        if tied is not None:
            while value(hands[seat], ace_high) <= value(hands[tied], ace_high) and pool.cards:
                hands[seat].append(pool.take_highest(ace_high))
    return tied


def _worth(pool: Pool, total: int, ace_high: bool) -> list[str]:
    """Free cards worth ``total`` points together (the highest that fit first), or as near as the pool allows."""
    hand: list[str] = []
    while total > 0:
        fitting = [c for c in pool.cards if WORTH[ace_high][c] <= total]
        if not fitting:
            break
        card = pool.take(max(fitting, key=WORTH[ace_high].__getitem__))
        hand.append(card)
        total -= WORTH[ace_high][card]
    return hand or pool.take_first(1)


def _piles(pick: Picks, pool: Pool, phase: str) -> tuple[list[str], list[str], list[list[str]], list[str]]:
    """The stock, the discard pile (top first), more melds on the table and the cards that fit in
    none of them (when both piles are to be nearly empty), from every free card."""
    # Before a draw mostly empty: the draw from the stock ends the round at once.
    size = pick.number(0, ALL_LEFT + 4, "stock-size")
    size = max(0, size - 4) if phase == "draw" else min(size, ALL_LEFT)
    # Mostly empty before a draw (where {draw: discard} must be refused), seldom after one.
    empty_discard = pick.number(0, 7, "empty-discard") > (0 if phase == "draw" else 5)
    rest = pool.take_first(len(pool.cards))
    if size == ALL_LEFT:
        discard = [] if empty_discard else rest[:1]
        return rest[len(discard):], discard, [], []
    stock, rest = rest[:size], rest[size:]
    if not empty_discard:
        return stock, rest, [], []
    # An empty discard pile beside a near-empty stock: the other cards lie in melds on the table.
    melds, left = meld_up(rest)
    return stock, [], melds, left


def _likely_winner(phase: str, stock_empty: bool, to_act: int, values: list[int]) -> int:
    """The seat that wins the round if it ends at once: the lowest hand on a draw from the empty
    stock (first from the asker), else the seat to act going out."""
    if phase == "draw" and stock_empty:
        order = [(to_act + i) % len(values) for i in range(len(values))]
        return min(order, key=values.__getitem__)  # min keeps the first
    return to_act


def _scores(pick: Picks, values: list[int], winner: int, target: int) -> list[int] | None:
    """None (all 0), scores below the target, or the winner's set to reach the target exactly with
    its gain (the other hands' values), maybe with another seat already at the target (a tie)."""
    how = pick.number(0, 5, "scores")  # 3-5: a tie, which also reaches the target exactly
    if how == 0:
        return None
    scores = [pick.number(0, max(0, target - 1), "score") for _ in values]
    if how >= 2:
        scores[winner] = max(0, target - (sum(values) - values[winner]))
    if how >= 3:
        # A seat below the winner where there is one: only there does the game-end tie order matter.
        others = [s for s in range(len(values)) if s != winner]
        scores[pick.one([s for s in others if s < winner] or others, "at-target")] = target
    return scores
