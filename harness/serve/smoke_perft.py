"""Smoke's check of the ``perft`` request (protocol 1.1): the engine's counts against its own legal lists.

On the smoke position, to a small depth, the kit counts every line itself with legal_actions and
apply (each position started again and replayed, so no fork is needed) and holds the engine's
answer to it: the counts per depth (a wrong total), the divide summing to the last count, each
first action's count (a child miscounted), and a count from a game held (``fork``) that leaves it
as it was. Like the rest of smoke it judges no rule: only that the engine's counts are its own.
"""

from __future__ import annotations

from typing import Any

from harness.spec import gamespec as specs
from harness.spec.cards import action_key, show

DEPTH = 3  # a few hundred positions on each smoke layout: the whole tree is counted again, line by line
Path = tuple[tuple[int, dict[str, Any]], ...]


class PerftProblem(Exception):
    """The engine's perft answer is not what its own legal lists add up to."""


def own_counts(engine: Any, setup: dict[str, Any], depth: int, path: Path = ()) -> list[int]:
    """perft(1) .. perft(depth) after ``path`` from the engine's legal lists, a level at a time in one exchange each."""
    frontier, counts = [path], []
    for _ in range(depth):
        requests: list[tuple[str, dict[str, Any]]] = []
        for line in frontier:
            requests += [("start", {"setup": setup}), *(("apply", {"seat": s, "action": a}) for s, a in line),
                         ("legal_actions", {}), ("state", {})]
        outcomes = engine.call_many(requests, fresh=True)
        failed = next((o for o in outcomes if isinstance(o, Exception)), None)
        if failed is not None or len(outcomes) < len(requests):
            raise PerftProblem(f"counting with legal_actions and apply failed: {failed or 'answers missing'}")
        children, at = [], 0
        for line in frontier:
            answers = outcomes[at:at + len(line) + 3]
            at += len(line) + 3
            if not all(a.get("accepted") for a in answers[1:1 + len(line)]):
                raise refused_on_the_way(line)
            legal, seat = answers[-2]["result"], answers[-1]["result"].get("to_act")
            children += [line + ((seat, action),) for action in legal]
        counts.append(len(children))
        frontier = children
    return counts


def refused_on_the_way(line: Path) -> PerftProblem:
    """The problem of a listed action the engine then refused, on the way to counting."""
    seat, action = line[-1]
    return PerftProblem(f"seat {seat} {show(action)} was listed as legal, then refused: every listed action must be "
                        "accepted")


def check_perft(smoke: Any, spec: specs.GameSpec, setup: dict[str, Any]) -> tuple[None, str]:
    """The engine's perft from ``setup`` to ``DEPTH`` against its own legal lists, then from a game it holds."""
    engine = smoke.engine
    answer = engine.call("perft", setup=setup, depth=DEPTH)["result"]
    counts, divide = answer["counts"], answer["divide"]
    if len(counts) != DEPTH:
        raise PerftProblem(f"perft (depth {DEPTH}) answered {len(counts)} counts: give one per depth, 1 to {DEPTH}")
    mine = own_counts(engine, setup, DEPTH)
    if counts != mine:
        depth = next(d for d, (a, b) in enumerate(zip(counts, mine), start=1) if a != b)
        raise PerftProblem(f"a wrong total: perft counts {counts[depth - 1]} positions at depth {depth}, its own "
                           f"legal_actions and apply give {mine[depth - 1]} (counts {counts}, legal lists {mine})")
    total = sum(entry["nodes"] for entry in divide)
    if total != counts[-1]:
        raise PerftProblem(f"the divide does not sum to the total: its actions' counts add up to {total}, the count "
                           f"at depth {DEPTH} is {counts[-1]}")
    start = engine.start(setup)
    legal, seat = start.legal_actions(), start.state().get("to_act")
    if sorted(map(action_key, legal)) != sorted(action_key(entry["action"]) for entry in divide):
        raise PerftProblem("the divide names other actions than legal_actions lists: give each legal action once")
    for entry in divide:  # every child: the smoke position is small enough to count each again
        below = own_counts(engine, setup, DEPTH - 1, ((seat, entry["action"]),))[-1]
        if below != entry["nodes"]:
            raise PerftProblem(f"a child miscounted: the divide counts {entry['nodes']} below {show(entry['action'])}, "
                               f"its own legal_actions and apply give {below}")
    held = engine.start(setup)
    if held.apply(seat, legal[0]) is not None:
        raise PerftProblem(f"seat {seat} {show(legal[0])} was listed as legal, then refused")
    after = held.state()
    forked = engine.call("perft", fork=0, depth=DEPTH - 1)["result"]
    first = next(entry["nodes"] for entry in divide if action_key(entry["action"]) == action_key(legal[0]))
    if forked["counts"][-1] != first:
        raise PerftProblem(f"perft of a game held (fork 0) counts {forked['counts'][-1]} after {show(legal[0])}, "
                           f"perft of the setup {first}: count the game the request names")
    if held.state() != after:
        raise PerftProblem("perft changed the game it counted: count on copies, and leave every game as it was")
    return None, (f"counts {counts} to depth {DEPTH} are its own legal lists', the divide sums to them and each of "
                  f"its {len(divide)} actions counts right; a game held is counted and left as it was")
