"""The clause a divergence is charged to: the clauses whose rules decided, on the reference engine,
what differs at the diverging step (the clause trace of ``reference_engine.clauses.trace``).

The game is replayed on the reference up to the diverging step, and the calls of that step are
made again while the trace records: the move and the view for a difference in the view, the move
for a difference in the answer, the action listed by one engine only (tried on the reference) and
the listing itself for a difference in the legal actions. The notes whose fields meet what differs
are kept, in the order the rules applied them (a value is decided before what is computed from
it); the clause the reason code or the action kind names comes last, and alone when nothing is
traced (a reference engine out of process). Where a note's test of the engine's answers (``holds``)
finds its rule broken, the clauses whose tests all find theirs kept are left out: what differs is
then charged to a rule the engine breaks, not to one beside it that decided the same field (the
next seat in leads, where the engine let a seat out lead).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from harness.adapters.engine import Engine
from harness.findings.clauses import differing_paths, meeting, named_clause, without_kept
from harness.findings.games import GameFacts
from harness.findings.model import Divergence, Move, Setup, Violation

if TYPE_CHECKING:
    from reference_engine.clauses.trace import Notes

TRIED = 8  # actions in dispute replayed on the reference with the trace on, of a legal-actions difference
# The interpretation that says how a shuffled deck is dealt, per game: what a seeded deal found wrong is charged to.
DEAL_CLAUSES = {"rummy": "rummy.deal-order", "gin-rummy": "gin-rummy.deal-order", "president": "president.deal-extra-cards"}


def charge(facts: GameFacts, reference: Engine, setup: Setup, moves: list[Move],
           failure: Divergence | Violation) -> None:
    """Fill ``failure.clauses`` (once) with the clauses it is charged to, the deciding one first."""
    if not isinstance(failure, Divergence) or failure.clauses:
        return
    if failure.kind == "deal":  # no step to replay: the deal itself, as the game file's deal order has it
        failure.clauses = [DEAL_CLAUSES[facts.game]] if DEAL_CLAUSES.get(facts.game) in facts.spec.clauses else []
        return
    seen: list[Notes] = []
    answers: dict[str, Any] = {}
    try:
        traced = _traced(facts, reference, setup, moves[:failure.index], failure, seen, answers)
    except Exception:  # noqa: BLE001 - the reference cannot replay this game: the named clause alone
        traced = []
    found = list(dict.fromkeys(c for c in traced if c in facts.spec.clauses))
    found = without_kept(found, seen, answers)
    named = named_clause(facts, failure)
    failure.clauses = found + [named] if named not in found else found


def _traced(facts: GameFacts, reference: Engine, setup: Setup, before: list[Move], failure: Divergence,
            seen: list[Notes], answers: dict[str, Any]) -> list[str]:
    """The clauses noted at the diverging step whose fields meet what differs, in the order noted; ``seen``
    gets every recording made, ``answers`` the engine's answers at that step (over the reference's view)."""
    from reference_engine.clauses.trace import recording as trace_recording

    @contextmanager
    def recording() -> Iterator[Notes]:
        with trace_recording() as notes:
            seen.append(notes)
            yield notes

    def replayed() -> Any:
        game = reference.start(setup.as_dict())
        for move in before:
            game.apply(move.seat, move.action)
        return game

    move = failure.move
    if failure.kind in ("legal", "apply", "error"):  # the engine agreed on the view before the step
        earlier = replayed().state()
        answers.update(earlier, **failure.actual)
    if failure.kind == "legal":
        legal = failure.check.get("legal", {})
        tried = [Move(earlier["to_act"], a) for a in legal.get("includes", [])[:TRIED]]
        tried += [failure.refused] if failure.refused is not None else []
        each: list[list[str]] = []
        for one in tried:  # why the reference accepts what the engine leaves out, or refuses what it lists
            game = replayed()
            with recording() as notes:
                game.apply(one.seat, one.action)
            each.append(meeting(notes, ["refused"]) + meeting(notes, ["legal"]))
        # The clause that decided the most of the actions in dispute leads (the first tried on a tie).
        leads = Counter(clauses[0] for clauses in each if clauses)
        found = sorted(dict.fromkeys(c for clauses in each for c in clauses), key=lambda c: -leads[c])
        game = replayed()
        with recording() as notes:  # what shaped the reference's list of those actions' kinds
            game.legal_actions()
        return found + meeting(notes, [f"legal.{k}" for k in _listed_kinds(facts, failure)])
    if failure.kind in ("apply", "error"):
        if move is None and failure.kind == "error" and not before:  # raised at the start: what the reference's start decided
            with recording() as notes:
                reference.start(setup.as_dict())
            return [c for c, _ in notes]
        if move is None:
            return []
        game = replayed()
        with recording() as notes:
            game.apply(move.seat, move.action)
        found = meeting(notes, ["refused"]) + meeting(notes, ["legal"])
        # The engine refused by a check the reference made and passed here (knock-too-high where the
        # reference refused a worse arrangement, or accepted): that check is where they part.
        theirs = failure.actual.get("apply")
        if isinstance(theirs, str) and theirs != move.reason and theirs in facts.spec.data.get("reasons", {}):
            check = facts.clause_for(theirs, facts.spec.action_kind(move.action), set())
            found = [check] + found if check in meeting(notes, ["legal"]) else found
        return found + ([c for c, _ in notes] if failure.kind == "error" else [])
    if failure.kind not in ("state", "observation"):
        return []
    observed = failure.check.get("observe", {})
    expected = observed.get("state", {}) if failure.kind == "observation" else failure.check.get("state", {})
    game = replayed() if move is not None else None
    with recording() as notes:
        if game is None or move is None:  # a difference at the start: what start() decided
            game = reference.start(setup.as_dict())
        else:
            game.apply(move.seat, move.action)
        view = game.observation(observed["seat"]) if failure.kind == "observation" else game.state()
    answers.update(view, **failure.actual)
    return meeting(notes, differing_paths(expected, failure.actual))


def _listed_kinds(facts: GameFacts, failure: Divergence) -> list[str]:
    """The kinds of the actions the legal lists disagree on (the first misplaced one for an order)."""
    legal = failure.check.get("legal", {})
    if "exactly" in legal:
        listed = failure.actual.get("legal", [])
        wanted = legal["exactly"]
        actions = [next((w for w, a in zip(wanted, listed) if w != a), None)]
    else:
        actions = legal.get("includes", []) + legal.get("excludes", [])
    kinds = (facts.spec.action_kind(a) for a in actions if isinstance(a, dict))
    return list(dict.fromkeys(k for k in kinds if k))
