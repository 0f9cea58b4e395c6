"""Legal-action counts written again from the rule text, apart from the reference: the independent count
the published perft positions in every phase are checked against (tests/test_perft_phases.py).

Small and slow on purpose: plain lists of card names, every list worked out from the rules (R-, G-,
P- numbers and the game files' interpretations) as a reader of them would, for the first plies of
a position only. A count that would need a rule written nowhere here (an exchange, a knock's
scoring) raises ``Beyond``, so a depth is checked only where this file really counts it.
"""

from __future__ import annotations

from itertools import combinations
from typing import Any


class Beyond(Exception):
    """The count reached a part of the rules this file does not write out."""


def run_positions(order: str, cards: list[str], suit: str) -> list[int]:
    """The positions in ``order`` (low to high) of the cards of ``suit``."""
    return sorted(order.index(c[0]) for c in cards if c[1] == suit)


def extensions(meld: list[str], hand: list[str], order: str) -> list[list[str]]:
    """Every non-empty group of ``hand`` whose cards keep ``meld`` a set (at most four) or an unbroken run in ``order``."""
    if len({c[0] for c in meld}) == 1:  # a set of three takes its missing suit; a set of four nothing
        missing = [c for c in hand if c[0] == meld[0][0]]
        return [missing] if len(meld) == 3 and missing else []
    suit = meld[0][1]
    ranks = run_positions(order, meld, suit)
    held = {order.index(c[0]): c for c in hand if c[1] == suit}
    below, above = [[]], [[]]
    for position in range(ranks[0] - 1, -1, -1):  # cards adjacent below, then above: the run stays unbroken
        if position not in held:
            break
        below.append(below[-1] + [held[position]])
    for position in range(ranks[-1] + 1, len(order)):
        if position not in held:
            break
        above.append(above[-1] + [held[position]])
    return [lo + hi for lo in below for hi in above if lo + hi]


def melds_in(hand: list[str], order: str) -> list[list[str]]:
    """Every set (three or four of a rank; a four gives its threes too) and run (three or more in ``order``) of ``hand``."""
    found: list[list[str]] = []
    for rank in {c[0] for c in hand}:
        same = [c for c in hand if c[0] == rank]
        for size in (3, 4):
            found += [list(group) for group in combinations(same, size)]
    for suit in "CDHS":
        held = {order.index(c[0]): c for c in hand if c[1] == suit}
        for low in held:
            run = [held[low]]
            for position in range(low + 1, len(order)):
                if position not in held:
                    break
                run.append(held[position])
                if len(run) >= 3:
                    found.append(list(run))
    return found


# --- Rummy (R-2, R-3, R-5, with rummy.* interpretations) -----------------------------------------------

RUMMY_ORDER = "23456789TJQKA"  # the Ace only above the King


def rummy_value(card: str, ace_high: bool) -> int:
    """R-4.1: pips, faces 10, the Ace 1 (11 with ace_high)."""
    if card[0] == "A":
        return 11 if ace_high else 1
    return 10 if card[0] in "TJQK" else int(card[0])


def rummy_legal(game: dict[str, Any]) -> list[tuple[str, Any]]:
    """The legal actions of a Rummy position (kinds and cards; their order is not counted)."""
    if game["over"]:
        return []
    seat = game["to_act"]
    if game["phase"] == "draw":  # the stock (even empty: asking ends the round), or the discard pile's top
        return [("draw", "stock")] + ([("draw", "discard")] if game["discard"] else [])
    hand, taken = game["hands"][seat], game["taken"]

    def playable(rest: list[str]) -> bool:  # and rummy.no-stranding-taken-card
        if not rest:
            return not game["discard_to_win"]
        return rest != [taken]

    actions: list[tuple[str, Any]] = [("meld", m) for m in melds_in(hand, RUMMY_ORDER)
                                      if playable([c for c in hand if c not in m])]
    for index, meld in enumerate(game["melds"]):
        actions += [("layoff", (index, cards)) for cards in extensions(meld, hand, RUMMY_ORDER)
                    if playable([c for c in hand if c not in cards])]
    return actions + [("discard", c) for c in hand if c != taken]  # rummy.no-discard-of-taken-card


def rummy_apply(game: dict[str, Any], action: tuple[str, Any]) -> dict[str, Any]:
    """The position after ``action``."""
    game = {**game, "hands": [list(h) for h in game["hands"]], "melds": [list(m) for m in game["melds"]],
            "stock": list(game["stock"]), "discard": list(game["discard"])}
    seat, (kind, what) = game["to_act"], action
    hand = game["hands"][seat]
    if kind == "draw":
        if what == "stock" and not game["stock"]:
            values = [sum(rummy_value(c, game["ace_high"]) for c in h) for h in game["hands"]]
            order = [(seat + i) % len(values) for i in range(len(values))]
            return rummy_round_over(game, min(order, key=values.__getitem__))  # first from the asker
        card = game["stock"].pop(0) if what == "stock" else game["discard"].pop(0)
        hand.append(card)
        game["taken"] = card if what == "discard" else None
        game["phase"] = "play"
        return game
    cards = [what] if kind == "discard" else what if kind == "meld" else what[1]
    for card in cards:
        hand.remove(card)
    if kind == "meld":
        game["melds"].append(list(cards))
    elif kind == "layoff":
        game["melds"][what[0]] += cards
    else:
        game["discard"].insert(0, what)
    if game["taken"] in cards:
        game["taken"] = None
    if not hand:
        return rummy_round_over(game, seat)
    if kind == "discard":
        game["to_act"], game["phase"], game["taken"] = (seat + 1) % len(game["hands"]), "draw", None
    return game


def rummy_round_over(game: dict[str, Any], winner: int) -> dict[str, Any]:
    """R-4.2, R-4.3: the winner scores the other hands; the game ends at the target, else the next round is dealt."""
    values = [sum(rummy_value(c, game["ace_high"]) for c in h) for h in game["hands"]]
    scores = list(game["scores"])
    scores[winner] += sum(values) - values[winner]
    if max(scores) >= game["target"] or not game["later"]:
        return {**game, "over": True, "scores": scores}
    raise Beyond("a later round of Rummy")


def rummy_game(setup: dict[str, Any]) -> dict[str, Any]:
    """A Rummy position from a perft vector's layout."""
    layout, options = setup["layout"], setup["options"]
    return {"hands": layout["hands"], "melds": [m["cards"] for m in layout.get("melds") or []],
            "stock": layout["stock"], "discard": layout["discard"], "phase": layout.get("phase") or "draw",
            "to_act": layout["to_act"] if layout.get("to_act") is not None else layout["first"],
            "taken": layout.get("taken_discard"), "ace_high": options["ace_high"],
            "discard_to_win": options["discard_to_win"], "target": options["target"],
            "scores": layout.get("scores") or [0] * len(layout["hands"]), "later": setup.get("later_layouts"),
            "over": False}


# --- Gin Rummy (G-2, G-3, G-4, G-6, with gin-rummy.* interpretations) ------------------------------------

GIN_ORDER = "A23456789TJQK"  # the Ace only below the 2 (G-1.3)


def gin_value(card: str) -> int:
    """G-1.4: Ace 1, faces 10, pips."""
    return 1 if card[0] == "A" else 10 if card[0] in "TJQK" else int(card[0])


def arrangements(hand: list[str]) -> tuple[int, list[frozenset[frozenset[str]]]]:
    """The least deadwood of ``hand`` and every arrangement of disjoint melds reaching it (G-3.1)."""
    melds = [frozenset(m) for m in melds_in(hand, GIN_ORDER)]
    best: list[Any] = [sum(gin_value(c) for c in hand) + 1, []]

    def search(start: int, used: frozenset[str], chosen: list[frozenset[str]]) -> None:
        deadwood = sum(gin_value(c) for c in hand if c not in used)
        if deadwood < best[0]:
            best[0], best[1] = deadwood, []
        if deadwood == best[0]:
            best[1].append(frozenset(chosen))
        for index in range(start, len(melds)):
            if not melds[index] & used:
                search(index + 1, used | melds[index], chosen + [melds[index]])

    search(0, frozenset(), [])
    return best[0], list(dict.fromkeys(best[1]))


def gin_legal(game: dict[str, Any]) -> list[tuple[str, Any]]:
    """The legal actions of a Gin Rummy position."""
    if game["over"]:
        return []
    seat, phase = game["to_act"], game["phase"]
    if phase == "offer":  # G-6.1: take the upcard or pass
        return [("draw", "discard"), ("pass", True)]
    if phase == "draw":
        return [("draw", "stock")] + ([] if game["refused"] else [("draw", "discard")])
    hand = game["hands"][seat]
    if phase == "discard":  # G-2.2, G-2.3: any card but the one taken; a knock per discard and best arrangement
        actions: list[tuple[str, Any]] = [("discard", c) for c in hand if c != game["taken"]]
        for card in hand:
            if card == game["taken"]:
                continue
            least, ways = arrangements([c for c in hand if c != card])
            if least <= game["knock_limit"]:
                actions += [("knock", (card, way)) for way in ways]
        return actions
    actions = [("layoff", (index, cards)) for index, meld in enumerate(game["melds"])  # G-3.2
               for cards in extensions(meld, hand, GIN_ORDER)]
    return actions + [("pass", True)]


def gin_apply(game: dict[str, Any], action: tuple[str, Any]) -> dict[str, Any]:
    """The position after ``action`` (the offer and the lay-off phase; the rest is Beyond)."""
    game = {**game, "hands": [list(h) for h in game["hands"]], "melds": [list(m) for m in game["melds"]]}
    seat, (kind, what) = game["to_act"], action
    if game["phase"] == "offer":
        if kind == "draw":
            game["hands"][seat].append(game["discard"][0])
            return {**game, "phase": "discard", "taken": game["discard"][0]}
        if seat == game["dealer"]:  # both passed: the non-dealer draws from the stock (gin-rummy.forced-stock-draw)
            return {**game, "phase": "draw", "to_act": 1 - seat, "refused": True}
        return {**game, "to_act": 1 - seat}
    if game["phase"] != "layoff":
        raise Beyond("a Gin Rummy turn past the offer")
    if kind == "layoff":
        index, cards = what
        game["melds"][index] += cards
        game["hands"][seat] = [c for c in game["hands"][seat] if c not in cards]
        return game
    knocker = 1 - seat  # the lay-offs end: G-4.1 / G-4.2 score the hand
    mine, theirs = sum(gin_value(c) for c in game["hands"][knocker]), arrangements(game["hands"][seat])[0]
    scores = list(game["scores"])
    if theirs > mine:
        scores[knocker] += theirs - mine
    else:
        scores[seat] += mine - theirs + game["undercut_bonus"]
    if max(scores) >= game["target"]:
        return {**game, "over": True, "scores": scores}
    if not game["later"]:
        return {**game, "over": True}
    dealt = game["later"][0]  # the next hand, dealt by the other seat (gin-rummy.dealer-rotation)
    return {**game, "phase": "offer", "to_act": game["dealer"], "dealer": 1 - game["dealer"], "scores": scores,
            "hands": dealt["hands"], "discard": dealt["discard"], "melds": [], "taken": None, "refused": False,
            "later": game["later"][1:]}


def gin_game(setup: dict[str, Any]) -> dict[str, Any]:
    """A Gin Rummy position from a perft vector's layout."""
    layout, options = setup["layout"], setup["options"]
    return {"hands": layout["hands"], "melds": layout.get("melds") or [], "discard": layout["discard"],
            "phase": layout["phase"], "to_act": layout["to_act"], "dealer": layout["dealer"],
            "taken": layout.get("taken"), "refused": bool(layout.get("upcard_refused")),
            "knock_limit": options["knock_limit"], "undercut_bonus": options["undercut_bonus"],
            "target": options["target"], "scores": layout.get("scores") or [0, 0],
            "later": setup.get("later_layouts"), "over": False}


# --- President (P-2, P-3, P-5, with president.* interpretations) --------------------------------------------

NORMAL = "3456789TJQKA2"  # P-1.3, low to high


def president_legal(game: dict[str, Any]) -> list[tuple[str, Any]]:
    """The legal actions of a President position in play."""
    if game["over"]:
        return []
    hand = game["hands"][game["to_act"]]
    groups = [list(g) for rank in {c[0] for c in hand}
              for size in range(1, 5) for g in combinations([c for c in hand if c[0] == rank], size)]
    if not game["trick"]:  # P-2.1: the leader plays one to four of a rank, and may not pass
        return [("play", g) for g in groups]
    last = game["trick"][-1][1]
    order = game["order"]  # P-3.2, P-3.3: as many cards, of a rank higher in the order in force
    return [("play", g) for g in groups if len(g) == len(last) and order.index(g[0][0]) > order.index(last[0][0])] + \
        [("pass", True)]


def president_apply(game: dict[str, Any], action: tuple[str, Any]) -> dict[str, Any]:
    """The position after ``action``."""
    game = {**game, "hands": [list(h) for h in game["hands"]], "trick": list(game["trick"]),
            "passed": set(game["passed"]), "finished": list(game["finished"])}
    seat, (kind, cards) = game["to_act"], action
    players = len(game["hands"])
    if kind == "play":
        game["hands"][seat] = [c for c in game["hands"][seat] if c not in cards]
        game["trick"].append((seat, cards))
        if len(cards) == 4 and game["revolution"]:  # P-3.5: the order turns at once; the trick stays open
            game["order"] = game["order"][::-1]
        if not game["hands"][seat]:  # P-2.4
            game["finished"].append(seat)
            if len(game["finished"]) == players - 1:  # P-5.1
                if game["round"] >= game["rounds"]:
                    return {**game, "over": True}
                raise Beyond("the exchange of the next President round")
    else:
        game["passed"].add(seat)
    last = game["trick"][-1][0]
    still_in = [s for s in range(players) if s not in game["finished"]]
    answering = [s for s in still_in if s != last and s not in game["passed"]]
    if not answering:  # P-2.3, president.trick-reset-after-out: won; the last player leads, else the next seat in
        game["trick"], game["passed"] = [], set()
        game["to_act"] = last if last in still_in else next(s % players for s in range(last + 1, last + players)
                                                            if s % players in still_in)
        return game
    game["to_act"] = next(s % players for s in range(seat + 1, seat + players) if s % players in answering)
    return game


def president_game(setup: dict[str, Any]) -> dict[str, Any]:
    """A President position from a perft vector's layout."""
    layout, options = setup["layout"], setup["options"]
    trick = [(p["seat"], p["cards"]) for p in layout.get("trick") or []]
    finished, passed = list(layout.get("finished") or []), set(layout.get("passed") or [])
    players = len(layout["hands"])
    game = {"hands": layout["hands"], "trick": trick, "passed": passed, "finished": finished,
            "order": NORMAL if layout.get("order", "normal") == "normal" else NORMAL[::-1],
            "revolution": options["revolution"], "round": layout.get("round") or 1, "rounds": options["rounds"],
            "over": False, "to_act": layout["first"]}
    if trick:  # the seat after the last play, in seat order, that may still answer
        last = trick[-1][0]
        game["to_act"] = next(s % players for s in range(last + 1, last + players)
                              if s % players not in finished and s % players not in passed)
    return game


GAMES = {"rummy": (rummy_game, rummy_legal, rummy_apply), "gin-rummy": (gin_game, gin_legal, gin_apply),
         "president": (president_game, president_legal, president_apply)}


def perft(setup: dict[str, Any], depth: int) -> list[int]:
    """perft(1..depth) of a vector's setup, counted by this file's rules alone."""
    start, legal, apply = GAMES[setup["game"]]
    counts = [0] * depth

    def walk(game: dict[str, Any], level: int) -> None:
        actions = legal(game)
        counts[level] += len(actions)
        if level + 1 < depth:
            for action in actions:
                walk(apply(game, action), level + 1)

    walk(start(setup), 0)
    return counts
