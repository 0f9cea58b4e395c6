"""Whether a mutant shows in recorded play: its seeded games beside the reference's, record against record.

A mistake a real engine makes shows in the games its server records, not only in a fuzzer's
positions. Each mutant plays a few seeded games of its game (``GAMES``: seat counts and levels,
President as a series of rounds with the exchange) with seats that now and then try another
listed action (``harness.findings.seats``); the reference plays the same games. The mutant is
visible when some record differs; else the catalogue says why it cannot show
(``Mutant.unseen_in_play``).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from harness.audit.sample import seeded_game
from harness.findings.seats import TRY_EVERY
from harness.mutants.catalogue import BY_ID, Mutant, engine
from harness.mutants.meeting import LIST_ONLY

SEEDS = (1, 2, 3)
# game -> the seatings played at each seed (one level per seat), and the options beside the defaults
GAMES: dict[str, tuple[tuple[tuple[str, ...], ...], dict[str, Any]]] = {
    "gin-rummy": ((("normal", "normal"), ("easy", "normal"), ("easy", "easy")), {}),
    "rummy": ((("normal",) * 3, ("easy", "normal"), ("normal",) * 4), {}),
    "president": ((("easy",) * 4, ("normal",) * 3, ("easy", "normal") * 3), {"rounds": 3}),
}
# mutant -> the seed where its rare position comes up (found by playing seeds 1-40), and what that position is
RARE = {
    "rummy.empty-stock-tie-lowest-seat": (11, "two seats tie for the lowest hand when the stock runs out"),
    "rummy.target-strict": (14, "a score lands exactly on the target"),
    "gin-rummy.undercut-strictly-lower": (25, "the defender's deadwood equals the knocker's"),
    # Normal knocks whenever it may, so seeds 1-3 end every hand by a knock or a draw: no gin, no undercut.
    "gin-rummy.gin-bonus-only": (5, "a hand ends in gin"),
    "gin-rummy.layoff-onto-gin": (7, "a hand ends in gin, not the match's last"),
    "gin-rummy.gin-waits-for-pass": (7, "a hand ends in gin, not the match's last"),
    "gin-rummy.undercut-bonus-missing": (6, "an undercut"),
    "gin-rummy.knock-keeps-eleven-card-split": (7, "a knock whose best split of the eleven cards is not the ten's"),
    "gin-rummy.qka-run": (7, "a seat holds a Q-K-A of one suit at a knock"),
    "gin-rummy.drawn-after-ten-discard-draws": (6, "ten draws in a row from the discard pile"),
    "gin-rummy.knock-check-drops-highest-leftover": (23, "a knock whose best split changes with the discard"),
    "president.revolution-not-reverting": (29, "two fours of a kind in one round"),
    "president.revolution-clears-passes": (29, "a seat passes and a four of a kind follows in the same trick"),
}
MAX_MOVES = 3000  # a mistake that keeps a game from ending shows well before this


@dataclass(frozen=True)
class Game:
    """One seeded game of a mutant's game: the seed, a level per seat, the options."""

    seed: int
    levels: tuple[str, ...]
    options: tuple[tuple[str, Any], ...]
    offered: bool = False  # each move's record holds the legal list the server offered (a list-only mistake)

    def record(self, server: Any, game: str) -> dict[str, Any]:
        """The game's record as ``server`` plays it, without the server's name (the seats know the reference's rules)."""
        from reference_engine import create

        data = seeded_game(server, game, self.seed, list(self.levels), dict(self.options), max_moves=MAX_MOVES,
                           try_every=TRY_EVERY, rules=create(), offered=self.offered)
        data.pop("server", None)
        return data


def games_of(mutant: Mutant) -> list[Game]:
    """The seeded games a mutant plays (its options beside its game's)."""
    seatings, options = GAMES[mutant.game]
    merged = tuple(sorted({**options, **mutant.options}.items()))
    seeds = SEEDS + ((RARE[mutant.id][0],) if mutant.id in RARE else ())
    return [Game(seed, levels, merged, mutant.id in LIST_ONLY) for seed in seeds for levels in seatings]


@cache
def reference_record(game: str, played: Game) -> dict[str, Any]:
    """The reference's record of one game (kept: every mutant of the game compares with it)."""
    from reference_engine import create

    return played.record(create(), game)


def first_difference(mutant_id: str) -> tuple[Game, dict[str, Any]] | None:
    """The first of the mutant's games whose record differs from the reference's, with that record; None: none."""
    mutant = BY_ID[mutant_id]
    server = engine(mutant_id)
    for played in games_of(mutant):
        data = played.record(server, mutant.game)
        if data != reference_record(mutant.game, played):
            return played, data
    return None
