"""The clause a disagreement is charged to by the reference's clause trace: the rule that decided, on the
reference, what the server got otherwise at its first wrong move (``reference_engine.clauses.trace``).

The record is replayed on the reference once more, up to that move, while the trace records each move
(and the deal). The first clause noted, in the order the rules applied, for what differs is charged:

* a legal list the server offered otherwise (``offered``): the rule that refused an action it listed, or
  admitted one it left out, else the rules that shaped the list of those actions' kinds;
* a card the server's seat used (played, or listed) that the rules have elsewhere (``placed``): the step
  that put it there, a round's deal or the exchange, not the move that uses it;
* a move the server refused that the rules allow: the clause that admitted it (``legal``);
* a move the rules refuse by a rule: the clause that refused it (``refused``);
* a move the rules refuse by where the game stands (a reason code common to every game, spec/reasons.yaml:
  not the seat's turn, not the phase for it, a card not held): the clause noted for that part of the
  position (``to_act``, ``phase``, ``hands``; the phase whenever the action's kind has no place in the
  rules' phase) at the latest move (or the deal) that changed it, none when that move noted none; a
  reason of the game's own with no rule noted keeps the clause it names;
* a round the server ended, or went on with, otherwise than the rules: the clause that decided at that
  move whether the round ends (``phase``, ``round_results.how``), or the game (``game_result``);
* a game stopped with nobody able to act where the rules go on (``no-move``): the clause noted for
  the rules' seat to act (``to_act``) at the move that last changed it;
* a round's result or its scores otherwise: the clause that decided the first value that differs
  (the game's result, where the bonuses share the final scores' note, and a recorded state keep the
  clause ``clauses`` names for them).

Nothing noted (a reference out of process, a rule the trace does not reach): no clause, and the one
the disagreement names by its reason code, kind or keys stays.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from harness.audit import clauses
from harness.audit.offered import offered_clause
from harness.audit.placed import placing_clause
from harness.findings.clauses import differing_paths, meeting, without_kept
from harness.findings.games import GameFacts
from harness.findings.games import facts as game_facts
from harness.records.record import Record
from harness.spec.gamespec import common_reasons

if TYPE_CHECKING:
    from reference_engine.clauses.trace import Notes

ENDS = ["phase", "round_results.how"]  # whether a round ends at a move
# The part of the position each reason code common to every game (spec/reasons.yaml) checks.
STANDING = {"not-your-turn": "to_act", "wrong-phase": "phase", "card-not-in-hand": "hands"}
# The reasons every game file's ``refusals`` gives before, or for, a seat that is not the one to act.
BEFORE_THE_SEAT = frozenset({"malformed-action", "game-over", "not-your-turn", "already-out", "already-passed"})


def charged(record: Record, engine: Any, found: Any) -> str | None:
    """The clause the trace names for the disagreement ``found``, if it names one of the game file's clauses."""
    facts = game_facts(record.spec.game, record.spec.rule_version)
    try:
        clause = traced_clause(facts, record, engine, found)
    except Exception:  # noqa: BLE001 - the reference cannot replay this record with the trace on: the named clause
        return None
    return clause if clause in facts.spec.clauses else None


def traced_clause(facts: GameFacts, record: Record, engine: Any, found: Any) -> str | None:
    """The first clause the trace notes for what differs at ``found``, None when it notes none."""
    steps, states = _replayed(record, engine, found.move)  # [0]: the deal, [n]: move n
    state = states[-1]
    if found.kind == "legal":  # the list offered before move n: the position is the one after move n - 1
        before = found.move - 1
        return placing_clause(facts, steps[:found.move], states[:found.move], found.seat, found.offered.extra) or \
            offered_clause(facts, _replayed_game(record, engine, before), lambda: _replayed_game(record, engine, before),
                           found.seat, found.offered)
    if found.kind == "decision":
        return _decision(facts, record, found, steps, states)
    at = steps[found.move] if 0 < found.move < len(steps) else []
    if found.kind == "round-end":
        return _first(at, ["game_result"] if state.get("game_result") is not None else ENDS)
    if found.kind == "next-turn":
        return _latest(steps, states, "to_act")
    if found.kind in ("result", "scores"):
        return _first(at, _results_differing(record, found, state), answers=_server_results(record, found, state))
    return None  # the game's result and a recorded state: named by what differs (``clauses``)


def _replayed(record: Record, engine: Any, upto: int) -> tuple[list[Notes], list[dict[str, Any]]]:
    """The notes of the deal and of each move up to move ``upto`` (all of them for 0), the state view's included,
    and the rules' state view after each."""
    from reference_engine.clauses.trace import recording

    moves = [move for round_ in record.rounds for move in round_["moves"]]
    with recording() as notes:
        game = engine.start(record.setup)
        states = [game.state()]
    steps = [notes]
    for move in moves[:upto] if upto else moves:
        with recording() as notes:
            game.apply(move["seat"], move["action"])
            states.append(game.state())
        steps.append(notes)
    return steps, states


def _replayed_game(record: Record, engine: Any, moves: int) -> Any:
    """The reference's game after the record's first ``moves`` moves."""
    game = engine.start(record.setup)
    for move in [move for round_ in record.rounds for move in round_["moves"]][:moves]:
        game.apply(move["seat"], move["action"])
    return game


def _decision(facts: GameFacts, record: Record, found: Any, steps: list[Notes],
              states: list[dict[str, Any]]) -> str | None:
    """A move answered otherwise: the rule that admitted or refused it, else what decided the position behind it."""
    move = [move for round_ in record.rounds for move in round_["moves"]][found.move - 1]
    server = move.get("refused")
    reference = found.reference_reason
    if clauses.reasoned_clause(facts, reference, server, found.opens_round, found.position,
                               record.setup.get("options")) is not None:
        return None  # reasoned out from the position already
    at = steps[found.move]
    if reference is None and server == "card-not-in-hand":  # the rules gave the seat a card the server did not
        placed = placing_clause(facts, steps[:found.move], states[:found.move], move["seat"], (move["action"],), True)
        if placed is not None:
            return placed
    if reference is None:
        return _first(at, ["legal"])
    refused = _first(at, ["refused"])
    if refused is not None or reference not in common_reasons():
        return refused  # a reason of the game's own, with no rule noted, names its clause
    if reference == "card-not-in-hand":  # the server's seat held it: the deal or transfer that placed it elsewhere
        placed = placing_clause(facts, steps[:found.move], states[:found.move], move["seat"], (move["action"],))
        if placed is not None:
            return placed
    standing = _standing(facts, found)
    # the seat the server held to act: the one it let act, or refused for a reason its game checks only once
    # the seat is the one to act (each game file's ``refusals``: the turn is checked before every other rule)
    held = server is None or (isinstance(server, str) and server not in BEFORE_THE_SEAT)
    server_to_act = {"to_act": move["seat"]} if standing == "to_act" and held else {}
    return _latest(steps[:found.move], states[:found.move], standing, server_to_act)


def _standing(facts: GameFacts, found: Any) -> str:
    """The part of the position a refusal by a common reason code rests on: the phase when the action's kind has
    no place in the rules' phase (whoever acts), else the one the code names."""
    kind = facts.spec.action_kind(found.action) if found.action else None
    if (found.position or {}).get("phase") not in facts.action_phases.get(kind or "", frozenset()):
        return "phase"
    return STANDING.get(found.reference_reason, "to_act")


def _results_differing(record: Record, found: Any, state: dict[str, Any]) -> list[str]:
    """The paths of the round's result and its scores where the server and the rules differ."""
    round_ = record.rounds[found.round - 1]
    results = state.get("round_results") or [None]
    paths = differing_paths(round_.get("result"), results[-1], "round_results") if "result" in round_ else []
    return paths + (["scores"] if round_.get("scores", state.get("scores")) != state.get("scores") else [])


def _server_results(record: Record, found: Any, state: dict[str, Any]) -> dict[str, Any]:
    """The rules' view at the round's end with what the server recorded of the round's result and scores over it."""
    round_ = record.rounds[found.round - 1]
    results = list(state.get("round_results") or [])
    if "result" in round_:
        results[-1:] = [round_["result"]]
    return {**state, "round_results": results, "scores": round_.get("scores", state.get("scores"))}


def _latest(steps: list[Notes], states: list[dict[str, Any]], field: str,
            server: dict[str, Any] | None = None) -> str | None:
    """The first clause noted for ``field`` at the latest of ``steps`` that changed its value in the rules' view
    (the deal when none did); None when that step noted none (a rule the trace does not reach). With what the
    ``server`` is known to have had there, a rule its tests find kept gives way to one they find broken."""
    changed = next((i for i in range(len(states) - 1, 0, -1) if states[i].get(field) != states[i - 1].get(field)), 0)
    return _first(steps[changed], [field], loose=False, answers={**states[changed], **server} if server else None)


def _first(notes: list[tuple[str, tuple[str, ...]]], paths: list[str], loose: bool = True,
           answers: dict[str, Any] | None = None) -> str | None:
    """The first clause of ``notes`` that decided one of ``paths`` (``loose``: a note without fields decides any);
    with the server's ``answers``, less the clauses whose rule they are shown to keep (``without_kept``)."""
    found = meeting([n for n in notes if loose or n[1]], paths)
    if answers is not None:
        found = without_kept(found, [notes], answers)
    return found[0] if found else None
