"""President's hard computer player (P-7.3): it counts, from the public cards, how many cards of
each rank are still out, and plans its way out.

Counting: a rank's cards still out are 4 minus those in its hand, in ``played`` and on the trick
(all public, P-7.0). A group of its hand is a *master* (a sure winner) when no stronger rank has
as many cards still out, or no other hand is that large: nobody can beat it. The plan: when every group but one is a master, it leads the
masters and goes out with the last group; otherwise it sheds its weakest non-master group (following,
splitting one rather than passing when none can be played whole), and uses a master (when
following) only to win back the lead.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from reference_engine.president.normal import (
    PASS,
    breaks,
    counts,
    give_back,
    is_reserve,
    plays,
    ranking,
    strength,
    weakest,
)


def still_out(observation: dict[str, Any], hand: list[str]) -> Counter[str]:
    """How many cards of each rank are in the other hands: neither played, on the trick, nor mine."""
    seen = Counter(card[0] for card in hand)
    seen.update(card[0] for card in observation["played"])
    for play in observation["trick"]:
        seen.update(card[0] for card in play["cards"])
    return Counter({rank: 4 - seen[rank] for rank in ranking("normal")})


def is_master(rank: str, size: int, out: Counter[str], order: str, largest: int) -> bool:
    """Whether no other hand can beat ``size`` cards of ``rank`` (president.hard-counts-ranks): no
    stronger rank has ``size`` cards still out, or no other hand holds ``size`` cards at all."""
    if largest < size:
        return True
    stronger = ranking(order)[strength(rank, order) + 1:]
    return not any(out[r] >= size for r in stronger)


class HardPlayer:
    """P-7.3: counts the ranks still out and plans its way out."""

    def choose(self, view: dict[str, Any]) -> dict[str, Any]:
        """The action for this view."""
        legal: list[dict[str, Any]] = view["legal"]
        observation = view["observation"]
        seat: int = view["seat"]
        hand: list[str] = observation["hands"][seat]
        if "give" in legal[0]:
            return give_back(legal, hand)
        order, held = observation["order"], counts(hand)
        out = still_out(observation, hand)
        largest = max((n for s, n in enumerate(observation["hand_sizes"]) if s != seat), default=0)
        masters = {r for r in held if is_master(r, held[r], out, order, largest)}
        losers = sorted((r for r in held if r not in masters), key=lambda r: strength(r, order))
        candidates = plays(legal)
        whole = [c for c in candidates if not breaks(c, held)]
        if PASS not in legal:
            return {"play": self.lead(whole or candidates, masters, losers, held, order, observation, seat)}
        # Following: going out at once beats everything.
        if len(held) == 1 and whole:
            return {"play": whole[0]}
        ordinary = [c for c in whole if c[0][0] not in masters and not is_reserve(c[0][0], held, order)]
        if ordinary:
            return {"play": weakest(ordinary, order)}
        winners = [c for c in whole if c[0][0] in masters]
        if winners and len(losers) <= len(masters) + 1:
            return {"play": weakest(winners, order)}
        # No whole play to shed: split the weakest ordinary group rather than pass, as normal does
        # (president.normal-keeps-groups: a split is needed when no play keeps the groups whole).
        split = [c for c in candidates if c[0][0] not in masters and not is_reserve(c[0][0], held, order)]
        if split:
            return {"play": weakest(split, order)}
        top = ranking(order)[-1]
        reserves = [c for c in candidates if c[0][0] == top] + [c for c in whole if held[c[0][0]] == 4]
        return {"play": weakest(reserves, order)} if reserves else PASS

    @staticmethod
    def lead(candidates: list[list[str]], masters: set[str], losers: list[str], held: Counter[str], order: str,
             observation: dict[str, Any], seat: int) -> list[str]:
        """The lead of the plan: the masters first when one group is left besides them, else the
        weakest loser, preferring a size that the smallest other hand cannot follow."""
        by_rank = {c[0][0]: c for c in candidates}
        if len(losers) <= 1:
            mastered = [by_rank[r] for r in masters if r in by_rank]
            if mastered:
                return weakest(mastered, order)
        sizes = [n for s, n in enumerate(observation["hand_sizes"]) if s != seat and n > 0]
        danger = min(sizes) if sizes else 0
        shed = [by_rank[r] for r in losers if r in by_rank and not is_reserve(r, held, order)]
        safe = [c for c in shed if len(c) > danger]
        return weakest(safe or shed or candidates, order)


_PLAYER = HardPlayer()


def choose(view: dict[str, Any]) -> dict[str, Any]:
    """The hard player's action for ``view``."""
    return _PLAYER.choose(view)
