"""Automatic divide: from a count that differs from the reference's, down to the one position whose legal list differs.

At each position the two legal lists (and the seats to act) are compared; while they agree, the walk goes into the
first child (in the reference's order) whose counts differ, one depth less. Counts are sums of
legal lists, so a difference in counts always ends at a position whose lists differ.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from harness.adapters.remote import RemoteEngine
from harness.perft.counted import CountingTree
from harness.perft.remote import RemoteTree
from harness.perft.tree import LocalTree, Path, where
from harness.spec.cards import action_key, show

Tree = LocalTree | RemoteTree


def tree(engine: Any, setup: dict[str, Any]) -> Tree:
    """The walker for ``engine``: its own counts when it declares perft, else batched over the protocol, else
    in process."""
    if not isinstance(engine, RemoteEngine):
        return LocalTree(engine, setup)
    engine.describe()  # the handshake says whether it counts
    return CountingTree(engine, setup) if engine.counting else RemoteTree(engine, setup)


@dataclass
class Mismatch:
    """The position whose legal list differs between the engine and the reference."""

    path: Path
    seat: int | None
    wanted: list[dict[str, Any]]  # the reference's list
    listed: list[dict[str, Any]]  # the engine's
    missing: list[dict[str, Any]] = field(default_factory=list)
    extra: list[dict[str, Any]] = field(default_factory=list)
    twice: list[dict[str, Any]] = field(default_factory=list)
    engine_seat: int | None = None  # set when the seat to act is what differs

    def lines(self) -> list[str]:
        """What differs, for people: the position, then each action missing, extra or listed twice."""
        if self.engine_seat is not None:
            return [(f"the seat to act differs {where(self.path)}: the engine has seat {self.engine_seat} act, "
                     f"the reference seat {self.seat} (the same {len(self.wanted)} actions listed)")]
        head = (f"the legal actions differ {where(self.path)} (seat {self.seat} to act): "
                f"the engine lists {len(self.listed)}, the reference {len(self.wanted)}")
        return [head, *(f"missing: {show(a)}" for a in self.missing),
                *(f"not legal, but listed: {show(a)}" for a in self.extra),
                *(f"listed twice: {show(a)}" for a in self.twice)]


def compare(path: Path, seat: int | None, wanted: list[dict[str, Any]],
            listed: list[dict[str, Any]]) -> Mismatch | None:
    """The mismatch between two legal lists (as sets, with duplicates), or None when they hold the same actions."""
    want, have = Counter(map(action_key, wanted)), Counter(map(action_key, listed))
    if want == have:
        return None
    by_key = {action_key(a): a for a in [*wanted, *listed]}
    return Mismatch(path, seat, wanted, listed,
                    missing=[by_key[k] for k in want if k not in have],
                    extra=[by_key[k] for k in have if k not in want],
                    twice=[by_key[k] for k, n in have.items() if n > 1 and k in want])


def locate(tested: Tree, reference: Tree, depth: int, path: Path = ()) -> Mismatch | None:
    """The first position (depth first, in the reference's order) whose legal lists differ, looking ``depth``
    plies below ``path``; None when every list within reach agrees.

    An engine that counts itself is asked for its divide at each position, and the walk goes into the
    first child whose count at the last depth differs: so ``depth`` must be one whose count differs.
    """
    counting = isinstance(tested, CountingTree)
    while depth >= 1:
        if isinstance(tested, CountingTree):
            tested.counted(depth, path)  # its legal list, counts and divide in one exchange
        wanted = reference.legal(path)
        seat = reference.seat(path) if wanted else None
        listed = tested.legal(path)
        found = compare(path, seat, wanted, listed)
        if found is None and seat is not None and tested.seat(path) != seat:
            # the same actions for another seat: the lines below are played by other seats
            found = Mismatch(path, seat, wanted, listed, engine_seat=tested.seat(path))
        if found is not None or depth == 1 or seat is None:
            return found
        claims = {action_key(a): n for a, n in tested.divide(depth, path)} if counting else {}
        for action in wanted:
            child = path + ((seat, action),)
            if (claims.get(action_key(action)) != reference.counts(depth - 1, child)[-1] if counting
                    else tested.counts(depth - 1, child) != reference.counts(depth - 1, child)):
                path, depth = child, depth - 1
                break
        else:
            return None
    return None
