"""The tree of legal actions of an engine behind the protocol, walked a level at a time in batches.

Each level's positions are made at once: with ``clone`` declared, the forks (a copy of each parent
per child but the last, which is played in the parent itself), then the children's apply,
legal_actions and, where the level is not the last, state (for the seat to act); the last level is
only counted. A level goes out in waves, each written ahead while the harness checks the answers to
the wave before. Without ``clone``, each child is started again and replayed, many per batch. Copies
live until the next start, so a level wider than ``CAP`` is cut into slices, each made again in a
game started afresh: the moves its positions' paths share played once, a copy forked where they
part. The batches of a round go out together, written ahead of their answers where the engine and
transport allow it.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from operator import itemgetter
from typing import Any

from harness.adapters.protocol import AdapterError
from harness.host.collector import collector_paused
from harness.perft.tree import (
    Path,
    PerftError,
    checked_legal,
    checked_seat,
    declares_clone,
    refused,
    where,
)

CAP = 20_000  # copies held by the engine at once (a start drops them all)
MAX_LEVEL = 1_000_000  # positions of a level made at once (below it, only the last level's lists are counted)
BATCH = 180  # requests per batch: the answers (legal lists) stay far below the protocol's 1 MiB a line
WAVE = 480  # children of a wave: some eight batches, enough to keep the engine busy while the harness checks one


@dataclass
class Wave:
    """The requests making the children of some positions of a level, and what their answers are checked against."""

    pairs: list[tuple[Node, dict[str, Any]]]  # each child's parent and the action that makes it
    numbers: list[int]  # each child's copy
    copies: range  # the numbers of the copies its forks make
    forks: int
    last: bool  # the level of leaves: only the number of each child's legal actions is wanted
    chunks: list[list[tuple[str, dict[str, Any]]]]  # the requests, in batches
    ahead: bool = False  # written ahead of their answers (send_ahead)


@dataclass
class Node:
    """A position: its path, its legal actions, the seat to act (None when not asked), its copy's number."""

    path: Path
    legal: list[dict[str, Any]]
    seat: int | None = None
    number: int = 0


class RemoteTree:
    """One remote engine's tree from one setup; the same answers as ``LocalTree``, in far fewer round trips."""

    def __init__(self, engine: Any, setup: dict[str, Any]) -> None:
        self.engine, self.setup = engine, setup
        self.clones = declares_clone(engine, setup["game"])
        self.live = 0  # copies made since the last start

    def send(self, requests: list[tuple[str, dict[str, Any]]], path: Path) -> list[dict[str, Any]]:
        """The checked answers to ``requests``, in batches of ``BATCH`` written ahead of their answers when
        the engine can take several at once; any failure is a PerftError."""
        chunks = batched(requests)
        return received(chunks, self.exchanged(chunks), path)

    def exchanged(self, chunks: list[list[tuple[str, dict[str, Any]]]], counted: bool = False) -> list[Any]:
        """The batches ``chunks`` sent now, as ``call_exchanges`` answers them (unchecked); ``counted``: their legal
        lists are only counted (their actions may come unbuilt)."""
        if len(chunks) > 1 and getattr(self.engine, "pipelines_batches", False):
            return self.engine.call_exchanges(chunks, counted=counted)  # type: ignore[no-any-return]
        rounds: list[Any] = []
        for chunk in chunks:
            try:
                rounds.append((self.engine.call_many(chunk, fresh=chunk[0][0] == "start"), None))
            except AdapterError as error:  # a fault before the first answer (stray output): this chunk's
                rounds.append(([error], None))
        return rounds

    def replayed(self, path: Path) -> list[tuple[str, dict[str, Any]]]:
        """A new game, then ``path`` played on it (game 0)."""
        self.live = 0
        return [("start", {"setup": self.setup})] + [("apply", {"seat": s, "action": a}) for s, a in path]

    def node(self, path: Path = (), seat: bool = True) -> Node:
        """The position after ``path`` in a game started for it (game 0 of the engine from now on)."""
        requests = self.replayed(path) + [("legal_actions", {})] + ([("state", {})] if seat else [])
        answers = self.send(requests, path)
        self.check_applies(path, answers[1:1 + len(path)])
        legal = checked_legal(answers[1 + len(path)]["result"], path)
        return Node(path, legal, checked_seat(answers[-1]["result"], path) if seat and legal else None)

    def check_applies(self, path: Path, answers: list[dict[str, Any]]) -> None:
        """Every move of ``path`` was accepted."""
        for number, ((seat, action), answer) in enumerate(zip(path, answers)):
            if not answer.get("accepted"):
                raise refused(seat, action, answer.get("reason"), path[:number])

    def legal(self, path: Path = ()) -> list[dict[str, Any]]:
        """The legal actions after ``path``."""
        return self.node(path, seat=False).legal

    def view(self, path: Path = ()) -> dict[str, Any]:
        """The state view after ``path``."""
        answers = self.send(self.replayed(path) + [("state", {})], path)
        self.check_applies(path, answers[1:-1])
        return answers[-1]["result"]  # type: ignore[no-any-return]

    def seat(self, path: Path = ()) -> int:
        """The seat to act after ``path``."""
        return checked_seat(self.view(path), path)

    def counts(self, depth: int, path: Path = (), tick: Callable[[int], None] | None = None) -> list[int]:
        """perft(1) .. perft(depth) from the position after ``path``; ``tick(n)`` learns of n more leaves."""
        counts = [0] * depth
        root = self.node(path, seat=depth > 1)
        counts[0] = len(root.legal)
        if depth == 1 and tick is not None:
            tick(counts[0])
        with collector_paused():
            self.expand([root], 0, counts, tick)
        return counts

    def expand(self, group: list[Node], level: int, counts: list[int], tick: Callable[[int], None] | None) -> None:
        """Make the children of ``group`` (positions at ``level``, counted) and walk on below them."""
        if level + 1 == len(counts):
            return
        wanted = sum(len(node.legal) for node in group)
        if not wanted:
            return
        if level + 2 < len(counts) and wanted > MAX_LEVEL:  # positions to hold, with their legal lists
            raise PerftError(f"depth {level + 1} would hold {wanted:,} positions at once, past "
                             f"the kit's bound of {MAX_LEVEL:,}: count to a smaller depth, or declare perft in hello "
                             "so that the engine counts itself (spec/protocol.md)")
        if self.clones and self.live + wanted > CAP and not (len(group) == 1 and self.live == 0):
            for part in slices(group, CAP // 2):
                self.expand(self.remade(part), level, counts, tick)
            return
        last = level + 2 == len(counts)  # the children's legal lists are the leaves: no seat needed
        made = self.forked(group, last) if self.clones else self.replays(group, last)
        if isinstance(made, int):  # the last level: only its leaves count
            counts[level + 1] += made
            if tick is not None:
                tick(made)
            return
        counts[level + 1] += sum(len(child.legal) for child in made)
        self.expand(made, level + 1, counts, tick)

    def forked(self, group: list[Node], last: bool) -> list[Node] | int:
        """The children of ``group`` (at the ``last`` level, only the number of their legal actions), made in waves
        of ``WAVE`` children: each wave is written ahead while the harness checks the answers to the one before,
        so that the engine and the harness work at once (a level written whole would leave each idle in turn)."""
        ahead: deque[Wave] = deque()  # waves written ahead, their answers unread: at most one waits
        made: list[Node] = []
        leaves = 0
        send_ahead = getattr(self.engine, "send_ahead", None)
        for part in slices([node for node in group if node.legal], WAVE):  # a position with nothing legal has no child
            wave = self.wave(part, last)
            wave.ahead = send_ahead is not None and bool(send_ahead(wave.chunks))
            if not wave.ahead:  # a wave of one batch, or an engine that takes one at a time: the waves before it first
                while ahead:
                    leaves += self.taken(ahead.popleft(), made)
                leaves += self.taken(wave, made)
                continue
            ahead.append(wave)
            if len(ahead) > 1:
                leaves += self.taken(ahead.popleft(), made)
        while ahead:
            leaves += self.taken(ahead.popleft(), made)
        return leaves if last else made

    def wave(self, group: list[Node], last: bool) -> Wave:
        """The requests making the children of ``group``: each parent's last child in the parent itself (it is not
        needed any more), the others in copies of it.

        Every fork of the wave goes first (no parent has changed yet), then each child's apply,
        legal_actions and, unless ``last``, state: the answers of each kind are every second or third.
        """
        # copies are numbered 1, 2, ... in the order made since the last start: each child's number is known
        # before the engine answers, so its forks and its children's requests go out in one round
        first = self.live + 1
        numbers: list[int] = []
        for node in group:
            numbers += range(self.live + 1, self.live + len(node.legal))
            numbers.append(node.number)
            self.live += len(node.legal) - 1
        requests: list[tuple[str, dict[str, Any]]] = [("fork", {"game": node.number})
                                                      for node in group for _ in range(len(node.legal) - 1)]
        forks = len(requests)
        pairs = [(node, action) for node in group for action in node.legal]
        for (node, action), number in zip(pairs, numbers):
            requests += [("apply", {"seat": node.seat, "action": action, "game": number}),
                         ("legal_actions", {"game": number})]
            if not last:
                requests.append(("state", {"game": number}))
        return Wave(pairs, numbers, range(first, self.live + 1), forks, last, batched(requests))

    def taken(self, wave: Wave, made: list[Node]) -> int:
        """The answers to ``wave`` read and checked: its children added to ``made`` (at the last level, none);
        the number of their legal actions."""
        path = wave.pairs[0][0].path
        rounds = (self.engine.call_exchanges(wave.chunks, counted=wave.last) if wave.ahead
                  else self.exchanged(wave.chunks, wave.last))
        answers = received(wave.chunks, rounds, path)
        forks, step = wave.forks, 2 if wave.last else 3
        numbered(answers[:forks], wave.copies, path)
        applied, listed = answers[forks::step], [answer["result"] for answer in answers[forks + 1::step]]
        if not all(map(itemgetter("accepted"), applied)):  # checked against the apply-response schema: it is there
            index = next(index for index, answer in enumerate(applied) if not answer["accepted"])
            node, action = wave.pairs[index]
            raise refused(node.seat if node.seat is not None else -1, action, applied[index].get("reason"), node.path)
        if wave.last:
            return sum(map(len, listed))
        views = answers[forks + 2::step]
        for (node, action), number, actions, view in zip(wave.pairs, wave.numbers, listed, views):
            child = node.path + ((node.seat if node.seat is not None else -1, action),)  # a parent here has a seat
            made.append(Node(child, actions, checked_seat(view["result"], child) if actions else None, number))
        return sum(map(len, listed))

    def replays(self, group: list[Node], last: bool) -> list[Node] | int:
        """The children of ``group``, each in a game started again and replayed (no clone declared)."""
        pairs = [(node, action) for node in group for action in node.legal]
        requests: list[tuple[str, dict[str, Any]]] = []
        for node, action in pairs:
            requests += self.replayed(node.path) + [("apply", {"seat": node.seat, "action": action}),
                                                    ("legal_actions", {})] + ([] if last else [("state", {})])
        answers = self.send(requests, group[0].path)
        per = [1 + len(node.path) for node, _ in pairs]  # the start and the replayed moves before each child
        kept, at = [], 0
        for (node, _), skip in zip(pairs, per):
            self.check_applies(node.path, answers[at + 1:at + skip])
            at += skip
            kept += answers[at:at + (2 if last else 3)]
            at += 2 if last else 3
        made = self.children(pairs, kept, last)
        return sum(len(child.legal) for child in made) if last else made

    def children(self, pairs: list[tuple[Node, dict[str, Any]]], answers: list[dict[str, Any]],
                 last: bool) -> list[Node]:
        """The child positions from each child's answers (apply, legal_actions, then state unless ``last``)."""
        step = 2 if last else 3
        made = []
        for index, (node, action) in enumerate(pairs):
            applied, legal = answers[index * step], answers[index * step + 1]
            seat = node.seat if node.seat is not None else -1
            if not applied.get("accepted"):
                raise refused(seat, action, applied.get("reason"), node.path)
            path = node.path + ((seat, action),)
            actions = legal["result"]  # checked against the protocol's legal_actions-response schema
            to_act = None if last or not actions else checked_seat(answers[index * step + 2]["result"], path)
            made.append(Node(path, actions, to_act))
        return made

    def remade(self, part: list[Node]) -> list[Node]:
        """``part`` made again in a game started afresh: the moves their paths share played once, a copy forked
        where the paths part (the last branch in its parent's own game, as ``forked`` does for a level)."""
        requests = self.replayed(())
        games: dict[int, int] = {}  # the id of a move of the paths (its tuple, shared by every path through it) -> its game
        applied: list[tuple[Path, int, dict[str, Any]]] = []  # per apply: the path it is played after, seat, action
        for depth in range(len(part[0].path) if part else 0):
            branches: dict[int, list[tuple[Any, Path]]] = {}  # a parent's game -> its moves (and paths to them), in order
            for node in part:
                move = node.path[depth]
                if id(move) not in games:
                    games[id(move)] = -1  # numbered below, with its parent's other branches
                    branches.setdefault(games[id(node.path[depth - 1])] if depth else 0, []).append((move, node.path[:depth]))
            for parent, moves in branches.items():
                made = list(range(self.live + 1, self.live + len(moves)))
                self.live += len(made)
                requests += [("fork", {"game": parent}) for _ in made]
                for (move, path), number in zip(moves, [*made, parent]):
                    requests.append(("apply", {"seat": move[0], "action": move[1], "game": number}))
                    applied.append((path, move[0], move[1]))
                    games[id(move)] = number
        answers = list(zip(requests[1:], self.send(requests, ())[1:]))
        numbered([answer for (cmd, _), answer in answers if cmd == "fork"], range(1, self.live + 1), ())
        for (path, seat, action), answer in zip(applied, [answer for (cmd, _), answer in answers if cmd == "apply"]):
            if not answer.get("accepted"):
                raise refused(seat, action, answer.get("reason"), path)
        return [Node(node.path, node.legal, node.seat, games[id(node.path[-1])] if node.path else 0) for node in part]

    def divide(self, depth: int, path: Path = ()) -> list[tuple[dict[str, Any], int]]:
        """Each first action after ``path`` with the leaves below it at ``depth`` (its perft(depth - 1))."""
        root = self.node(path)
        if depth <= 1 or not root.legal:
            return [(action, 1) for action in root.legal]
        assert root.seat is not None
        return [(action, self.counts(depth - 1, path + ((root.seat, action),))[-1]) for action in root.legal]


def batched(requests: list[tuple[str, dict[str, Any]]]) -> list[list[tuple[str, dict[str, Any]]]]:
    """``requests`` cut in order into batches of ``BATCH``."""
    return [requests[first:first + BATCH] for first in range(0, len(requests), BATCH)]


def received(chunks: list[list[tuple[str, dict[str, Any]]]], rounds: list[Any], path: Path) -> list[dict[str, Any]]:
    """The answers of the batches ``chunks`` (``rounds``: as ``call_exchanges`` gives them), each checked; any
    failure is a PerftError."""
    answers: list[dict[str, Any]] = []
    for chunk, (outcomes, fault) in zip(chunks, rounds):
        if fault:
            raise PerftError(f"the engine misbehaved before answering {where(path)}: {fault}")
        if set(map(type, outcomes)) != {dict}:  # the usual case told at C speed: every answer a checked mapping
            for (cmd, _), outcome in zip(chunk, outcomes):
                if isinstance(outcome, Exception):
                    raise PerftError(f"the engine failed {cmd} {where(path)}: {outcome}")
        if len(outcomes) < len(chunk):
            raise PerftError(f"the engine answered {len(outcomes)} of {len(chunk)} requests {where(path)}")
        answers += outcomes
    return answers


def numbered(answers: list[dict[str, Any]], wanted: range, path: Path) -> None:
    """Each fork's copy has the number it was meant to (``wanted``: in the order the forks were sent)."""
    got = [answer["result"]["game"] for answer in answers]
    if got != list(wanted):
        want, number = next((want, number) for want, number in zip(wanted, got) if want != number)
        raise PerftError(f"the engine numbered a copy {number} {where(path)}, not {want}: number "
                         "copies 1, 2, ... in the order fork made them since the last start")


def slices(group: list[Node], most: int) -> list[list[Node]]:
    """``group`` cut in order into runs whose children number at most ``most`` (a node alone may exceed it)."""
    parts: list[list[Node]] = [[]]
    size = 0
    for node in group:
        if parts[-1] and size + len(node.legal) > most:
            parts.append([])
            size = 0
        parts[-1].append(node)
        size += len(node.legal)
    return parts
