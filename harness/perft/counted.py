"""The tree of an engine that counts itself (it declares ``perft``, protocol 1.1): one request per position.

Each position's counts and divide come in one exchange with its legal list (the setup started, the
path replayed, ``legal_actions`` and ``perft`` of game 0), so the engine counts at its own speed.
What it claims is checked where the kit can: as many counts as the depth asked, a divide naming
exactly the legal list, summing to the last count (1 each at depth 1), and a child's own count equal
to what its parent's divide said of it. The rest (the level-by-level questions) is ``RemoteTree``'s.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from harness.perft.remote import RemoteTree
from harness.perft.tree import Path, PerftError, checked_legal, checked_seat, where
from harness.spec.cards import action_key, show


@dataclass
class Counted:
    """One perft answer, checked: the legal list, the counts per depth and each first action's leaves."""

    legal: list[dict[str, Any]]
    counts: list[int]
    divide: list[tuple[dict[str, Any], int]]


def path_key(path: Path) -> tuple[tuple[int, str], ...]:
    """A hashable name for a path."""
    return tuple((seat, action_key(action)) for seat, action in path)


def checked_count(result: dict[str, Any], legal: list[dict[str, Any]], depth: int, path: Path) -> Counted:
    """The perft answer once it holds together: else a PerftError naming the lie."""
    counts, divide = result["counts"], [(entry["action"], entry["nodes"]) for entry in result["divide"]]
    at = f"the engine's perft (depth {depth}) {where(path)}"
    if len(counts) != depth:
        raise PerftError(f"{at} gives {len(counts)} counts: give one per depth, 1 to {depth}")
    if counts[0] != len(legal):
        raise PerftError(f"{at} counts {counts[0]} positions at depth 1, but its legal_actions lists {len(legal)}: "
                         "a wrong total (count what legal_actions lists)")
    if Counter(action_key(a) for a, _ in divide) != Counter(map(action_key, legal)):
        raise PerftError(f"{at} divides over other actions than its legal_actions lists: give each legal action "
                         "once in divide")
    total = sum(nodes for _, nodes in divide)
    if total != counts[-1]:
        raise PerftError(f"{at}: the divide does not sum to the total: its actions' counts add up to {total}, its "
                         f"count at depth {depth} is {counts[-1]}")
    if depth == 1 and any(nodes != 1 for _, nodes in divide):
        wrong = next(a for a, nodes in divide if nodes != 1)
        raise PerftError(f"{at}: a child miscounted: at depth 1 each action counts 1, {show(wrong)} does not")
    return Counted(legal, counts, divide)


class CountingTree(RemoteTree):
    """A remote engine's tree, counted by the engine itself; the same answers as ``LocalTree``."""

    def __init__(self, engine: Any, setup: dict[str, Any]) -> None:
        super().__init__(engine, setup)
        self.asked: dict[tuple[Any, ...], Counted] = {}  # per path key and depth
        self.claimed: dict[tuple[Any, ...], tuple[int, int, Path]] = {}  # child path key -> (depth, nodes, parent)

    def counted(self, depth: int, path: Path = ()) -> Counted:
        """The engine's checked counts and divide ``depth`` plies below ``path`` (asked once)."""
        key = (path_key(path), depth)
        if key in self.asked:
            return self.asked[key]
        view: list[tuple[str, dict[str, Any]]] = [("state", {})] if depth > 1 else []  # the seat of the divide's actions
        requests = self.replayed(path) + [("legal_actions", {}), *view, ("perft", {"fork": 0, "depth": depth})]
        answers = self.send(requests, path)
        self.check_applies(path, answers[1:1 + len(path)])
        legal = checked_legal(answers[1 + len(path)]["result"], path)
        found = checked_count(answers[-1]["result"], legal, depth, path)
        claim = self.claimed.get(key[0])
        if claim is not None and claim[0] == depth and claim[1] != found.counts[-1]:
            parent = claim[2]
            raise PerftError(f"a child miscounted: the engine's divide {where(parent)} counts {claim[1]} below "
                             f"seat {path[-1][0]} {show(path[-1][1])}, but its own perft (depth {depth}) there "
                             f"counts {found.counts[-1]}")
        if view and found.legal:
            seat = checked_seat(answers[-2]["result"], path)
            for action, nodes in found.divide:
                self.claimed[path_key(path + ((seat, action),))] = (depth - 1, nodes, path)
        self.asked[key] = found
        return found

    def legal(self, path: Path = ()) -> list[dict[str, Any]]:
        """The legal actions after ``path`` (from a count already asked there, if any)."""
        known = next((c for (p, _), c in self.asked.items() if p == path_key(path)), None)
        return known.legal if known is not None else super().legal(path)

    def counts(self, depth: int, path: Path = (), tick: Callable[[int], None] | None = None) -> list[int]:
        """perft(1) .. perft(depth) after ``path``, the engine's own."""
        found = self.counted(depth, path)
        if tick is not None:
            tick(found.counts[-1])
        return list(found.counts)

    def divide(self, depth: int, path: Path = ()) -> list[tuple[dict[str, Any], int]]:
        """Each first action after ``path`` with the leaves below it at ``depth``, the engine's own."""
        return list(self.counted(depth, path).divide)
