"""Which action to try next: mostly a legal one, sometimes a near miss, a wrong seat or garbage.

Every choice is a Hypothesis draw, so a failing game shrinks towards legal actions taken from the
front of the list. Illegal actions are built from the game file's action schemas, so a new action
kind is fuzzed without code here; cards are drawn mostly from the acting seat's hand, where
refusals are the interesting ones (invalid-meld rather than card-not-in-hand).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from hypothesis import strategies as st

from harness.findings.games import GameFacts
from harness.spec.cards import FILL_ORDER

Draw = Any  # hypothesis' st.DataObject: data.draw(strategy)

# Out of 20: legal, near-legal, from the vocabulary, a group of the hand, wrong seat, malformed.
# Legal comes first so that shrinking (towards 0) turns every incidental illegal action legal.
LEGAL, NEAR, VOCABULARY, GROUP, WRONG_SEAT, MALFORMED = range(6)
_ROLLS = [LEGAL] * 13 + [NEAR, NEAR, VOCABULARY, GROUP, GROUP, WRONG_SEAT, MALFORMED]
RANKS = "A23456789TJQK"

MALFORMED_ACTIONS: tuple[dict[str, Any], ...] = (
    {"teleport": True}, {"draw": "deck"}, {"discard": "1X"}, {"play": ["ZZ"]}, {"meld": "QH"},
    {"pass": False}, {"give": [True]}, {"layoff": ["QH"], "onto": -1}, {"knock": 7},
)


def shape(action: dict[str, Any]) -> tuple[str, int]:
    """An action's kind and the size of its card list: ("play", 4) for a four of a kind."""
    kind, value = next(iter(action.items()))
    return kind, len(value) if isinstance(value, list) else 0


def pick(data: Draw, items: list[Any], salt: int, label: str) -> Any:
    """One of ``items``: the draw shifted by the game's ``salt``.

    Hypothesis makes new games mostly by mutating earlier ones, which replays the same choices;
    shifted by a salt drawn once a game, the same choices pick other actions, so games differ.
    Shrinking still works: the game stays a function of the draws, salt included.
    """
    return items[(data.draw(st.integers(0, len(items) - 1), label=label) + salt) % len(items)]


def choose_legal(data: Draw, legal: list[dict[str, Any]], by_kind: bool, salt: int = 0) -> dict[str, Any]:
    """A legal action: uniformly, or (``by_kind``) a shape first, so rare ones (a meld, a knock,
    a four of a kind) get played as often as the many discards or single cards."""
    if by_kind:
        shapes = list(dict.fromkeys(shape(a) for a in legal))
        chosen = pick(data, shapes, salt, "shape")
        legal = [a for a in legal if shape(a) == chosen]
    return pick(data, legal, salt, "legal")  # type: ignore[no-any-return]


@dataclass(frozen=True)
class GameStyle:
    """How one game picks its actions, drawn once a game (``draw_style``)."""

    twin_seed: int = 0  # seeds the deep checks' twin games
    by_kind: bool = False  # a shape first: melders and discarders
    salt: int = 0  # shifts every pick (see ``pick``)
    closer: bool = False  # ends the hand at its first chance: planted gins and knocks get played


def draw_style(data: Draw) -> GameStyle:
    """A game's style; every way of playing a game (lockstep, herd, properties) draws it first, the same way."""
    return GameStyle(data.draw(st.integers(0, 2**16), label="twin-seed"), data.draw(st.booleans(), label="by-kind"),
                     data.draw(st.integers(0, 2**16), label="salt"), data.draw(st.integers(0, 2), label="closer") == 2)


def choose_action(data: Draw, facts: GameFacts, view: dict[str, Any], legal: list[dict[str, Any]],
                  players: int, style: GameStyle = GameStyle()) -> tuple[int, dict[str, Any]]:
    """The seat and action to try next, given the reference's view and legal actions; a closer
    takes a legal action that ends the hand whenever there is one (a knock, the last cards played),
    and its near misses are near misses of those."""
    to_act = int(view["to_act"])
    hand = list((view.get("hands") or [[]] * players)[to_act] or [])
    roll = _ROLLS[data.draw(st.integers(0, len(_ROLLS) - 1), label="roll")]
    ending = [a for a in legal if ends_hand(facts, a, hand)] if style.closer else []
    ending = [a for a in ending if plays_all(a, hand)] or ending  # gin rather than a knock
    if roll == LEGAL and ending:
        chosen = choose_legal(data, ending, style.by_kind, style.salt)
        if _melds_key(chosen) and data.draw(st.integers(0, 2), label="sloppy") == 2:
            # A closer sometimes first shows a worse arrangement of its knock (a meld or a meld's end
            # card left unshown, the deadwood maybe still within the limit): refused, it knocks again.
            return to_act, worse_arrangement(data, chosen) or chosen
        return to_act, chosen
    if roll == LEGAL or not legal and roll in (NEAR, WRONG_SEAT):
        if legal:
            return to_act, choose_legal(data, legal, style.by_kind, style.salt)
        roll = VOCABULARY
    if roll == NEAR:
        return to_act, near_miss(data, data.draw(st.sampled_from(ending or legal), label="near"), hand)
    if roll == WRONG_SEAT and players > 1:
        seat = data.draw(st.sampled_from([s for s in range(players) if s != to_act]), label="seat")
        return seat, data.draw(st.sampled_from(legal), label="legal")
    if roll == MALFORMED:
        return to_act, dict(data.draw(st.sampled_from(MALFORMED_ACTIONS), label="malformed"))
    actions = facts.spec.data["actions"]
    groups = unlisted_groups(hand, legal) if roll == GROUP else []
    kinds = sorted(k for k, a in actions.items() if not groups or _card_list_key(a["schema"]))
    in_phase = [k for k in kinds if view.get("phase") in actions[k].get("phases", ())]
    kind = data.draw(st.sampled_from(in_phase or kinds), label="kind")
    schema = actions[kind]["schema"]
    action = {key: _value(data, schema, schema["properties"][key], hand) for key in schema["required"]}
    if groups:
        action[_card_list_key(schema) or kind] = data.draw(st.sampled_from(groups), label="group")
    return to_act, action


def ends_hand(facts: GameFacts, action: dict[str, Any], hand: list[str]) -> bool:
    """Whether ``action`` ends the hand: a kind that always does, or one that plays every card held."""
    return next(iter(action)) in facts.ending_kinds or plays_all(action, hand)


def plays_all(action: dict[str, Any], hand: list[str]) -> bool:
    """Whether ``action`` plays every card of ``hand`` (going out; in Gin, gin: a knock melding the rest)."""
    played: set[str] = set()
    for value in action.values():
        for item in value if isinstance(value, list) else [value]:
            played.update(item if isinstance(item, list) else [item] if isinstance(item, str) else [])
    return bool(hand) and set(hand) <= played


def worse_arrangement(data: Draw, action: dict[str, Any]) -> dict[str, Any] | None:
    """``action`` with less of its melds shown (a knock's): a meld left out, or the end card of a meld
    of four or more (a set: any card), so what is shown is still melds; mostly the cheapest such
    change, the likeliest to stay within a knock limit. None when the action shows no melds."""
    key = _melds_key(action)
    if key is None:
        return None
    melds: list[list[str]] = action[key]
    worse: list[tuple[int, list[list[str]]]] = []  # (the rank order of the cards left out, the melds shown)
    for i, meld in enumerate(melds):
        others = melds[:i] + melds[i + 1:]
        worse.append((sum(_rank(c) for c in meld), others))
        ends = meld if len({c[:-1] for c in meld}) == 1 else [meld[0], meld[-1]]  # a set, or a run's ends
        for card in ends if len(meld) >= 4 else []:
            worse.append((_rank(card), [*others[:i], [c for c in meld if c != card], *others[i:]]))
    worse.sort(key=lambda option: option[0])
    anywhere = data.draw(st.integers(0, 3), label="worse") == 3  # shrinks to the cheapest
    chosen = worse[data.draw(st.integers(0, len(worse) - 1), label="which-worse")] if anywhere else worse[0]
    return {**action, key: chosen[1]}


def _melds_key(action: dict[str, Any]) -> str | None:
    """The key of an action holding a list of melds (a knock's ``melds``), if any and not empty."""
    return next((k for k, v in action.items() if isinstance(v, list) and v and all(
        isinstance(m, list) and m and all(isinstance(c, str) for c in m) for m in v)), None)


def _rank(card: str) -> int:
    """A card's place in the rank order (Ace low), a proxy for its value in a hand."""
    return RANKS.index(card[0]) + 1 if card[:1] in RANKS else 10


def _card_list_key(schema: dict[str, Any]) -> str | None:
    """The key of an action holding a list of cards (``meld``, ``layoff``, ``play``), if any."""
    for key in schema.get("required", []):
        prop = schema["properties"][key]
        if prop.get("type") == "array" and prop.get("items", {}).get("type") == "string":
            return str(key)
    return None


def unlisted_groups(hand: list[str], legal: list[dict[str, Any]]) -> list[list[str]]:
    """The hand's groups that no legal action plays (A-2-3 where the Ace is high), else all of them."""
    listed = {tuple(sorted(v)) for action in legal for v in action.values()
              if isinstance(v, list) and all(isinstance(c, str) for c in v)}
    groups = hand_groups(hand)
    return [g for g in groups if tuple(sorted(g)) not in listed] or groups


def hand_groups(hand: list[str]) -> list[list[str]]:
    """Every 3 or 4 cards of the hand of one rank, or of one suit in a row with the Ace on either
    side or going round the corner (A-2-3, Q-K-A, K-A-2): the shapes meld rules disagree about."""
    groups = []
    by_rank: dict[str, list[str]] = {}
    for card in hand:
        by_rank.setdefault(card[0], []).append(card)
    groups += [cards for cards in by_rank.values() if len(cards) >= 3]
    held = set(hand)
    for suit in "CDHS":
        for start in range(13):
            for size in (3, 4):
                run = [RANKS[(start + i) % 13] + suit for i in range(size)]
                if held.issuperset(run):
                    groups.append(run)
    return groups


def near_miss(data: Draw, action: dict[str, Any], hand: list[str]) -> dict[str, Any]:
    """A legal action changed a little: a card added, dropped or swapped, another meld index."""
    key = data.draw(st.sampled_from(sorted(action)), label="key")
    value = action[key]
    changed = dict(action)
    if isinstance(value, list) and value and all(isinstance(v, str) for v in value):
        changed[key] = _change_cards(data, value, hand)
    elif isinstance(value, list) and value:  # a list of card lists (a knock's melds)
        i = data.draw(st.integers(0, len(value) - 1), label="meld")
        if data.draw(st.booleans(), label="drop-meld"):  # less shown: a worse arrangement
            return worse_arrangement(data, action) or changed
        else:
            changed[key] = [(_change_cards(data, m, hand) if j == i else m) for j, m in enumerate(value)]
    elif isinstance(value, str) and len(value) == 2:
        changed[key] = data.draw(st.sampled_from(hand or FILL_ORDER), label="card")
    elif isinstance(value, int) and not isinstance(value, bool):
        changed[key] = value + data.draw(st.sampled_from([1, -1, 2]), label="onto")
        if changed[key] < 0:
            changed[key] = value + 1
    elif value in ("stock", "discard"):
        changed[key] = "discard" if value == "stock" else "stock"
    return changed


def _change_cards(data: Draw, cards: list[str], hand: list[str]) -> list[str]:
    """One card added from the hand, one dropped, or one swapped for another card."""
    how = data.draw(st.sampled_from(["add", "drop", "swap"]), label="how")
    spare = [c for c in hand if c not in cards] or [c for c in FILL_ORDER if c not in cards]
    if how == "drop" and len(cards) > 1:
        i = data.draw(st.integers(0, len(cards) - 1), label="drop")
        return cards[:i] + cards[i + 1:]
    card = data.draw(st.sampled_from(spare), label="card")
    if how == "swap":
        i = data.draw(st.integers(0, len(cards) - 1), label="swap")
        return cards[:i] + [card] + cards[i + 1:]
    return cards + [card]


def _value(data: Draw, root: dict[str, Any], schema: dict[str, Any], hand: list[str]) -> Any:
    """A value fitting ``schema`` (as the game files write them), cards mostly from ``hand``."""
    if "$ref" in schema:
        schema = root.get("$defs", {}).get(schema["$ref"].rsplit("/", 1)[-1], {})
    if "const" in schema:
        return schema["const"]
    if "enum" in schema:
        return data.draw(st.sampled_from(schema["enum"]), label="enum")
    kind = schema.get("type")
    if kind == "string":  # every string of an action is a card
        return data.draw(st.sampled_from(hand), label="card") if hand and data.draw(
            st.integers(0, 3), label="from-hand") else data.draw(st.sampled_from(FILL_ORDER), label="card")
    if kind == "integer":
        return data.draw(st.integers(max(0, schema.get("minimum", 0)), 4), label="int")
    if kind == "array":
        items = schema.get("items", {})
        low = schema.get("minItems", 0)
        high = min(schema.get("maxItems", 4), 4)
        size = data.draw(st.integers(low, max(low, high)), label="size")
        if items.get("type") == "string" or "$ref" in items:  # a card list
            group = _group(data, hand, size)
            if group:
                return group
        values = [_value(data, root, items, hand) for _ in range(size)]
        if schema.get("uniqueItems"):  # keep the action well formed: it is meant to be illegal, not malformed
            values = [v for i, v in enumerate(values) if v not in values[:i]]
        return values
    if kind == "boolean":
        return True
    return None


def _group(data: Draw, hand: list[str], size: int) -> list[str] | None:
    """Sometimes ``size`` cards of the hand sharing a suit or a rank, where meld rules bite (A-2-3)."""
    if not hand or size < 2 or not data.draw(st.booleans(), label="group"):
        return None
    first = data.draw(st.sampled_from(hand), label="card")
    side = data.draw(st.sampled_from([1, 0]), label="suit-or-rank")  # index 1 is the suit, 0 the rank
    mates = [c for c in hand if c != first and c[side] == first[side]]
    if len(mates) < size - 1:
        return None
    picked = data.draw(st.lists(st.sampled_from(mates), min_size=size - 1, max_size=size - 1, unique=True),
                       label="mates")
    return [first, *picked]
