"""Mutants of what shows only in a match: an option the match ignores, two rules meeting, a wrong legal list.

Each entry is the arguments of one catalogue mutant (``catalogue._m``): the id, its clause, the mistake in
words and the edits of the reference's source, then what else it needs. A list-only mutant answers every
action as the rules do and only lists a wrong set of actions (P-7.0, G-7.0, R-7.0: the players act on the
list the server sends): its games show it in a record that holds what the server offered (``LIST_ONLY``).
"""

from __future__ import annotations

from typing import Any

R = "reference_engine.rummy.game"
G, GS = "reference_engine.gin_rummy.game", "reference_engine.gin_rummy.scoring"
P, PR = "reference_engine.president.game", "reference_engine.president.rounds"

# (id, clause, mistake, *edits), then the keywords of ``_m`` (options, unseen_in_play)
MEETING: tuple[tuple[tuple[Any, ...], dict[str, Any]], ...] = (
    # --- options in the match
    (("gin-rummy.target-option-ignored", "gin-rummy.target-reached",
      "the match ends at 100 whatever the option target says",
      (GS, "end_hand", 'target = game.options["target"]', "target = 100")), {"options": {"target": 30}}),
    # --- two rules meeting
    (("president.revolution-clears-passes", "president.pass-holds",
      "a four of a kind clears the passes of its trick: a seat that passed before it may play again",
      (P, "Game._put_on_trick", "            self.reversed = not self.reversed\n",
       "            self.reversed = not self.reversed\n            self.passed = 0\n")), {}),
    (("president.out-on-four-no-revolution", "president.revolution",
      "a seat that goes out on its four of a kind does not reverse the order",
      (P, "Game._play", "        self._put_on_trick(seat, mask)\n",
       "        self._put_on_trick(seat, mask, may_reverse=bool(self.hands[seat]))\n")), {}),
    (("president.best-cards-in-the-round-end-order", "president.best-cards",
      "after a round that ended reversed, the Scum's best cards are taken in the reversed order (its 3s)",
      (PR, "start_later_round", "    game.reset_round(hands, played)\n",
       "    ended_reversed = game.reversed\n    game.reset_round(hands, played)\n"
       "    game.exchange_reversed = ended_reversed\n"),
      (PR, "next_give", "    gift = best_cards(game.hands[partner], count)\n",
       "    gift = best_cards(game.hands[partner], count)\n"
       "    if getattr(game, 'exchange_reversed', False):  # best by the order the round ended in: the lowest\n"
       "        from reference_engine.president.plays import _CANONICAL\n"
       "        held = [c for c in _CANONICAL if game.hands[partner] >> c & 1]\n"
       "        gift = sum(1 << c for c in held[:count])\n")), {}),
    (("president.three-of-clubs-leads", "president.exchange-timing",
      "after the exchange the seat holding the 3 of clubs leads, not the previous round's Scum",
      (PR, "next_give", "        game.to_act = game.next_leader\n",
       "        clubs3 = mask_of_names(['3C'])\n"
       "        game.to_act = next((s for s in range(game.players) if game.hands[s] & clubs3), game.next_leader)\n")),
     {}),
    # --- list-only: the answers are the rules', the list is not
    (("gin-rummy.layoff-list-skips-extended-meld", "gin-rummy.layoff-on-extended-run",
      "once a lay-off has extended a meld, the list offers no more lay-offs onto it (a lay-off sent is accepted)",
      (G, "Game._layoff", "        self.melds[onto] |= cards\n",
       "        self.melds[onto] |= cards\n        self.extended = getattr(self, 'extended', frozenset()) | {onto}\n"),
      (G, "Game._reset_hand", "        self.taken: int | None = None\n",
       "        self.taken: int | None = None\n        self.extended = frozenset()\n"),
      (G, "Game._layoff_actions", "        return layoff_actions(self.melds, hand)",
       "        return [a for a in layoff_actions(self.melds, hand)\n"
       "                if a.get('onto') not in getattr(self, 'extended', frozenset())]")), {}),
    (("president.pass-listed-to-the-leader", "president.leader-must-play",
      "the list offers the leader a pass, which is refused when sent",
      (P, "Game.legal_actions", '        if self.trick:\n            actions.append({"pass": True})\n',
       '        actions.append({"pass": True})\n')), {}),
    (("rummy.taken-discard-listed", "rummy.no-discard-of-taken-card",
      "the list offers to discard the card just taken from the discard pile, which is refused when sent",
      (R, "RummyGame.legal_actions", "for c in canonical(hand) if c != taken)", "for c in canonical(hand))")), {}),
)
# The mutants whose games show the mistake only in what the server offered: their records hold the lists.
LIST_ONLY = frozenset({"gin-rummy.layoff-list-skips-extended-meld", "president.pass-listed-to-the-leader",
                       "rummy.taken-discard-listed"})
