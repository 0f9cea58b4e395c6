"""President 1.1.0 from one round to the next: titles and points, the end of the game, and the
exchange that opens every later round of a series (P-4, P-5, P-6.1).

Functions of the game (``game``, typed ``Any``: its module imports this one) that change it in
place; each notes the clause that decides what it sets (``reference_engine.clauses.trace``).
"""

from __future__ import annotations

from typing import Any

from reference_engine.president.plays import best_cards
from reference_engine.president.setup import check_cards, deal, mask_of_names
from reference_engine.clauses.trace import note

PLAY, EXCHANGE, ROUND_OVER, GAME_OVER = "play", "exchange", "round-over", "game-over"


def titles(players: int) -> list[str]:
    """The title of each finishing place (index 0 = first out)."""
    places = ["citizen"] * players
    places[0], places[-1] = "president", "scum"
    if players >= 4:  # with three, second is also second to last: no Vice titles (P-6.1)
        places[1], places[-2] = "vice-president", "vice-scum"
    return places


def end_round(game: Any) -> None:
    """Titles and points (P-4), then the next round, a stop, or the end of the game."""
    note("president.round-end", "round_results.finishing_order")
    last = next(s for s in range(game.players) if not game.out >> s & 1)
    order = game.finished + [last]
    points = [0] * game.players
    seat_titles = [""] * game.players
    for place, (seat, title) in enumerate(zip(order, titles(game.players))):
        points[seat] = game.players - place
        seat_titles[seat] = title
        game.scores[seat] += game.players - place
    note("president.titles", "round_results.titles")
    note("president.points", "round_results.points", "scores")
    game.round_results.append({"finishing_order": order, "titles": seat_titles, "points": points})
    for _, mask in game.trick:
        game.played |= mask
    game.trick, game.trick_size, game.trick_strength = [], 0, -1
    game.passed, game.last_player, game.to_act = 0, -1, None
    game.previous_order = order
    if game.round >= game.rounds:
        note("president.game-end", "phase", "game_result")
        game.phase = GAME_OVER
        game.game_result = {"finishing_order": list(order), "scores": list(game.scores)}
    elif game.later_layouts:
        layout = game.later_layouts.pop(0)
        hands = [mask_of_names(h) for h in layout["hands"]]
        start_later_round(game, hands, mask_of_names(layout.get("played") or []))
    elif game.rng is not None:
        start_later_round(game, deal(game.rng, game.players), 0)
    else:
        game.phase = ROUND_OVER


def start_later_round(game: Any, hands: list[int], played: int) -> None:
    """Round 2 and later of a series: the exchange comes first (P-6.1)."""
    check_cards(hands, played, [])
    game.reset_round(hands, played)
    game.round += 1
    order = game.previous_order
    game.next_leader = order[-1]  # the Scum leads after the exchange
    game.gives = [(order[0], order[-1], 2)]
    if game.players >= 4:
        game.gives.append((order[1], order[-2], 1))
    game.phase = EXCHANGE
    next_give(game)


def next_give(game: Any) -> None:
    """Make the automatic gift of the next exchange, or start play when none is left."""
    if not game.gives:
        # the exchange is over: with three players after the President's give, there being no Vice's
        note("president.no-vice-exchange-with-three" if game.players == 3 else "president.exchange", "phase")
        note("president.exchange-timing", "to_act", "leader")
        game.phase = PLAY
        game.to_act = game.next_leader
        return
    chooser, partner, count = game.gives[0]  # the lower place gives first, automatically
    note("president.exchange", "hand_sizes", "to_act")
    gift = best_cards(game.hands[partner], count)
    note("president.best-cards", "hands")
    game.hands[partner] ^= gift
    game.hands[chooser] |= gift
    game.to_act = chooser
