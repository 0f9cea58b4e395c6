"""Mutants of a match's later rounds: a later seeded deal wrong, an automatic step of a new round wrong.

Mistakes that live past the first deal, where a fixture of one round never looks: the generator
started afresh for each round (round 2 deals round 1's deck again), and the steps a new round makes
by itself (the exchange's automatic gifts, who leads or deals it). Each entry is the arguments of
``catalogue._m`` (id, clause, mistake, edits), and a mapping of its keyword arguments; the catalogue
registers them beside its own. A later deal is seen only in a game the engine deals itself (fuzz's
seeded games, seeded play): fixtures lay every round out, having no seeds.
"""

from __future__ import annotations

from typing import Any

R, G, GS = "reference_engine.rummy.game", "reference_engine.gin_rummy.game", "reference_engine.gin_rummy.scoring"
P, PR = "reference_engine.president.game", "reference_engine.president.rounds"
RESTARTED = "each round is shuffled by a generator started afresh from the seed: round 2 deals round 1's deck again"

MUTANTS: tuple[tuple[tuple[Any, ...], dict[str, Any]], ...] = (
    # --- later deals: seeded games only ------------------------------------------------------------
    (("rummy.later-deal-restarts-generator", "rummy.deal-order", RESTARTED,
      (R, "start", "deal_round(rng, ", "deal_round(rng.copy(), ")),
     {}),
    (("gin-rummy.later-deal-restarts-generator", "gin-rummy.deal-order", RESTARTED,
      (G, "start", "        game.deal_seeded()\n        return game",
       "        restarted = game.rng.copy()\n        game.deal_seeded()\n        game.rng = restarted\n        return game")),
     {}),
    (("president.later-deal-restarts-generator", "president.deal-extra-cards", RESTARTED,
      (P, "start", "game.hands = deal(game.rng, players)", "game.hands = deal(game.rng.copy(), players)")),
     {"options": {"rounds": 3}}),
    # --- automatic steps of a new round -------------------------------------------------------------
    (("president.three-of-clubs-leads-after-exchange", "president.exchange-timing",
      "after the exchange the seat holding the 3♣ leads (a common house rule), not the Scum",
      (PR, "next_give", "        game.phase = PLAY\n        game.to_act = game.next_leader\n",
       "        game.phase = PLAY\n        clubs = mask_of_names([\"3C\"])\n"
       "        game.next_leader = next((s for s in range(game.players) if game.hands[s] & clubs), game.next_leader)\n"
       "        game.to_act = game.next_leader\n")),
     {"options": {"rounds": 3}}),
    (("president.vice-scum-gives-to-president", "president.exchange",
      "the Vice-Scum's best card goes to the President (who gives one back), not to the Vice-President",
      (PR, "start_later_round", "game.gives.append((order[1], order[-2], 1))", "game.gives.append((order[0], order[-2], 1))")),
     {"options": {"rounds": 3}}),
    (("rummy.winner-starts-next-round", "rummy.first-seat",
      "the winner of a round plays first in the next one, not the seat after the previous round's first",
      (R, "RummyGame._end_round", "        first = (self.first + 1) % self.players\n", "        first = winner\n")),
     {}),
    (("gin-rummy.winner-deals-next-hand", "gin-rummy.dealer-rotation",
      "the winner of a hand deals the next one (a common house rule), where the deal alternates",
      (GS, "next_hand", "        game.round += 1\n        game.dealer = 1 - game.dealer\n        game.deal_fresh(",
       "        game.round += 1\n        game.dealer = _winner_or_other(game)\n        game.deal_fresh("),
      (GS, "next_hand", "        game.round += 1\n        game.dealer = 1 - game.dealer\n        game.deal_seeded()",
       "        game.round += 1\n        game.dealer = _winner_or_other(game)\n        game.deal_seeded()"),
      (GS, "next_hand", "    if game.later or game.rng is not None:\n",
       "    def _winner_or_other(game: Any) -> int:\n        won = game.round_results[-1].get(\"winner\")\n"
       "        return 1 - game.dealer if won is None else won\n\n    if game.later or game.rng is not None:\n")),
     {}),
)
