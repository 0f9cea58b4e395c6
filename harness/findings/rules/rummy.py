"""Rummy's position clauses (R-7.1..R-7.3) as checks on a (view, choice): None when kept, else why not.

Each check is read from its clause's rule text in spec/games/rummy-*.yaml; none asks a player.
"""

from __future__ import annotations

from typing import Any

from harness.findings.rules.melds import completions, lays_off, melds_in, rank

RANKS = "23456789TJQKA"  # runs put the Ace after the King
SUITS = "CDHS"


def value(card: str, view: dict[str, Any]) -> int:
    """A card's hand value (R-4.1): Ace 1, or 11 with ace_high; faces 10; numbers their pips."""
    r = rank(card)
    if r == "A":
        return 11 if view["options"].get("ace_high") else 1
    return 10 if r in "TJQK" else int(r)


def _hand(view: dict[str, Any]) -> list[str]:
    return list(view["observation"]["hands"][view["seat"]] or [])


def _table(view: dict[str, Any]) -> list[list[str]]:
    return [list(m["cards"]) for m in view["observation"].get("melds") or []]


def _discards(view: dict[str, Any]) -> list[str]:
    return [a["discard"] for a in view["legal"] if "discard" in a]


def _empties(view: dict[str, Any], action: dict[str, Any]) -> bool:
    """Whether ``action`` leaves the hand empty (goes out)."""
    size = len(_hand(view))
    if "meld" in action:
        return len(action["meld"]) == size
    if "layoff" in action:
        return len(action["layoff"]) == size
    return "discard" in action and size == 1


def _goes_out(view: dict[str, Any], choice: dict[str, Any], level: str) -> str | None:
    """When one legal action goes out, the choice must go out."""
    out = [a for a in view["legal"] if _empties(view, a)]
    if out and not _empties(view, choice):
        return f"{level} must go out (e.g. {out[0]}) when one action does"
    return None


def _dead(view: dict[str, Any], memory: bool) -> set[str]:
    """Cards that can no longer come: melded, laid off, on the pile; with memory also taken from the pile by others."""
    dead = {c for meld in _table(view) for c in meld} | set(view["observation"].get("discard") or [])
    if memory:
        dead |= {e["action"]["card"] for e in view["history"]
                 if e["seat"] != view["seat"] and e["action"].get("draw") == "discard" and "card" in e["action"]}
    return dead


def useful(card: str, view: dict[str, Any], memory: bool = False) -> bool:
    """R-7.2: part of a meld of its hand, a lay-off onto the table, or a partial meld with a card still to come."""
    hand, table = _hand(view), _table(view)
    if any(card in meld for meld in melds_in(hand, RANKS)) or lays_off(card, table, RANKS):
        return True
    dead = _dead(view, memory)
    return any(m not in dead for other in hand if other != card for m in completions(card, other, RANKS))


def feeds(card: str, view: dict[str, Any]) -> bool:
    """Whether the next seat could use ``card``: a lay-off onto the table, or near a card it took from the pile."""
    if lays_off(card, _table(view), RANKS):
        return True
    after = (view["seat"] + 1) % len(view["observation"]["hand_sizes"])
    taken = [e["action"].get("card") for e in view["history"]
             if e["seat"] == after and e["action"].get("draw") == "discard"]
    return any(t and (t == card or completions(card, t, RANKS) or rank(t) == rank(card)) for t in taken)


def easy_draws_stock(view: dict[str, Any], choice: dict[str, Any]) -> str | None:
    """Easy always draws from the stock."""
    if "draw" in choice and choice["draw"] != "stock":
        return "easy must draw from the stock"
    return None


def _card_key(card: str) -> list[int]:
    return [RANKS.index(rank(card)), SUITS.index(card[-1])]


def easy_melds_at_once(view: dict[str, Any], choice: dict[str, Any]) -> str | None:
    """While a meld is legal easy lays down the one with the most cards, then the highest value, then the first."""
    melds = [sorted(a["meld"], key=_card_key) for a in view["legal"] if "meld" in a]
    if not melds:
        return None
    best = min(melds, key=lambda m: (-len(m), -sum(value(c, view) for c in m), [_card_key(c) for c in m]))
    if "meld" in choice and sorted(choice["meld"]) == sorted(best):
        return None
    return f"easy must first lay down {{meld: [{', '.join(best)}]}}, the meld with the most cards and points"


def easy_no_layoff(view: dict[str, Any], choice: dict[str, Any]) -> str | None:
    """Easy never lays off."""
    return "easy never lays off" if "layoff" in choice else None


def easy_discards_strongest(view: dict[str, Any], choice: dict[str, Any]) -> str | None:
    """With no meld legal, easy discards its card of the highest value, ties by rank then suit."""
    if "discard" not in choice or any("meld" in a for a in view["legal"]):
        return None
    best = max(_discards(view), key=lambda c: (value(c, view), "23456789TJQK".find(rank(c)), SUITS.index(c[-1])))
    return None if choice["discard"] == best else f"easy must discard {best}, its strongest card"


def _keeps_useful(view: dict[str, Any], choice: dict[str, Any], level: str, memory: bool) -> str | None:
    """Never a useful card discarded while a card that is not useful may be."""
    if "discard" not in choice:
        return None
    card = choice["discard"]
    idle = [c for c in _discards(view) if not useful(c, view, memory)]
    if idle and card not in idle:
        return f"{level} discarded {card}, which is useful to it, while {idle[0]} is not"
    return None


def _no_feeding(view: dict[str, Any], choice: dict[str, Any], level: str, memory: bool) -> str | None:
    """Among cards not useful, never one that feeds the next seat while another does not."""
    if "discard" not in choice:
        return None
    card = choice["discard"]
    idle = [c for c in _discards(view) if not useful(c, view, memory)]
    safe = [c for c in idle if not feeds(c, view)]
    if card in idle and safe and card not in safe:
        return f"{level} discarded {card}, which feeds the next seat, while {safe[0]} does not"
    return None


def normal_useful_combinations(view: dict[str, Any], choice: dict[str, Any]) -> str | None:
    """Normal goes out when one action does, and never discards a useful card while one is not useful."""
    return _goes_out(view, choice, "normal") or _keeps_useful(view, choice, "normal", False)


def normal_feeding_risk(view: dict[str, Any], choice: dict[str, Any]) -> str | None:
    """Among cards not useful to it, normal never discards one that feeds the next seat while another does not."""
    return _no_feeding(view, choice, "normal", False)


def hard_memory(view: dict[str, Any], choice: dict[str, Any]) -> str | None:
    """Hard goes out when it can; while every other seat holds more than three cards it discards as normal
    does, a partial meld whose missing cards are all dead (its memory) counting as not useful."""
    out = _goes_out(view, choice, "hard")
    sizes = view["observation"]["hand_sizes"]
    if out or any(size <= 3 for seat, size in enumerate(sizes) if seat != view["seat"]):
        return out
    return _keeps_useful(view, choice, "hard", True) or _no_feeding(view, choice, "hard", True)
