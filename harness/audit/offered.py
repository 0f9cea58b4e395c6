"""What a server offered a seat (a record's legal list, spec/records.md) against the rules' legal actions.

A list differs by an action the rules do not allow (extra), one they allow that it leaves out
(missing), or the same actions out of the canonical order (``conventions.legal_order``). The
clause is the one the reference's clause trace names: each action in dispute is tried on the
reference, which notes the rule that refused it (an extra one) or admitted it (a missing one); an
order, or a dispute no such note decides, goes to the rules that shaped the list of those actions'
kinds (``legal.<kind>``), else to the clause of the first disputed action's kind.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple

from harness.findings.clauses import meeting
from harness.findings.games import GameFacts
from harness.run.legal_order import order_key
from harness.spec.cards import show
from harness.spec.gamespec import GameSpec

if TYPE_CHECKING:
    from reference_engine.clauses.trace import Notes

TRIED = 8  # actions in dispute tried on the reference with the trace on


class Offered(NamedTuple):
    """How a server's legal list differs from the rules'."""

    extra: tuple[dict[str, Any], ...]  # listed by the server, not allowed by the rules
    missing: tuple[dict[str, Any], ...]  # allowed by the rules, not listed by the server
    misplaced: dict[str, Any] | None  # the first action listed too early, when the actions are the same
    rules: tuple[dict[str, Any], ...]  # the rules' list, in the canonical order

    @property
    def disputed(self) -> tuple[dict[str, Any], ...]:
        """The actions the clause is looked for by: those one side lists alone, else the one out of order."""
        return (self.extra + self.missing) or ((self.misplaced,) if self.misplaced else ())

    def server_words(self) -> str:
        """What the server offered, in words."""
        parts = [f"listed {_some(self.extra)}, which the rules do not allow"] if self.extra else []
        parts += [f"left out {_some(self.missing)}"] if self.missing else []
        if not parts and self.misplaced is not None:
            parts = [f"listed {show(self.misplaced)} too early (out of the canonical order)"]
        return "offered a legal list that " + " and ".join(parts)

    def rules_words(self) -> str:
        """What the rules list there, in words."""
        rules = self.rules
        if self.extra or self.missing:
            return f"{len(rules)} legal actions" + (f", {_some(self.missing)} among them" if self.missing else "") + (
                f", not {_some(self.extra)}" if self.extra else "")
        return f"the same {len(rules)} actions in the canonical order (the game file's conventions.legal_order)"


def _some(actions: tuple[dict[str, Any], ...]) -> str:
    """A few actions as players read them, and how many more."""
    shown = ", ".join(show(a) for a in actions[:3])
    return shown + (f" and {len(actions) - 3} more" if len(actions) > 3 else "")


def compared(spec: GameSpec, rules: list[dict[str, Any]], server: list[dict[str, Any]]) -> Offered | None:
    """How ``server``'s list differs from the rules' (``rules``, in the canonical order); None: it does not."""
    if server == rules:
        return None
    canonical = spec.card_order.canonical
    given = [canonical(action) for action in server]
    extra = tuple(a for a in given if a not in rules)
    missing = tuple(a for a in rules if a not in given)
    if extra or missing:
        return Offered(extra, missing, None, tuple(rules))
    keys = [order_key(spec, action) for action in given]
    wanted = sorted(range(len(given)), key=keys.__getitem__)
    early = next((given[place] for place, index in enumerate(wanted) if index != place), None)
    if early is None and len(given) == len(rules):
        return None  # the same actions in the same order, spelled otherwise (a card list unsorted)
    return Offered((), (), early if early is not None else given[0], tuple(rules))  # an action listed twice counts as early


def offered_clause(facts: GameFacts, game: Any, replay: Any, seat: int, offered: Offered) -> str:
    """The clause a differing list is charged to: the trace's for the disputed actions (``replay()`` gives the
    reference at the position, ``game`` is one there already), else their kind's."""
    from reference_engine.clauses.trace import recording

    found: list[str] = []
    if offered.extra or offered.missing:
        for action in offered.disputed[:TRIED]:  # why the reference refuses what the server listed, or allows the rest
            tried = replay()
            with recording() as notes:
                tried.apply(seat, action)
            found += meeting(notes, ["refused"]) + meeting(notes, ["legal"])
    with recording() as listing:
        game.legal_actions()
    found += _shaping(facts, listing, offered.disputed)
    found = [c for c in found if c in facts.spec.clauses]
    if found:
        return found[0]
    first = offered.disputed[0] if offered.disputed else None
    return facts.clause_for(None, facts.spec.action_kind(first) if first else None, set())


def _shaping(facts: GameFacts, notes: Notes, actions: tuple[dict[str, Any], ...]) -> list[str]:
    """The clauses that shaped the reference's list of the kinds of ``actions``."""
    kinds = dict.fromkeys(k for a in actions if (k := facts.spec.action_kind(a)))
    return meeting([n for n in notes if n[1]], [f"legal.{kind}" for kind in kinds])
