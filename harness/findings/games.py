"""What the commands that play games need to know about each game, read from its spec file where the spec says it.

The spec gives the card places of a state view (``layout.card_fields``), the hidden places
(``state_view.hidden``), the phases, the options and the actions; the few facts it states only in
prose (when hands become public, which clause covers which action, how the terminal phases are
called) are written down here, each next to the clause it comes from. Knows nothing of engines.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from harness.spec import gamespec as specs
from harness.spec.cards import is_card

# Phases in which nothing is legal and nobody acts (every game file describes them so).
TERMINAL_PHASES = frozenset({"round-over", "game-over"})

# The clause a divergence on an action of this kind is filed under, when no reason code names one.
ACTION_CLAUSES = {
    "rummy": {"draw": "rummy.draw-first", "meld": "rummy.valid-meld", "layoff": "rummy.layoff-keeps-meld-valid",
              "discard": "rummy.discard-ends-turn"},
    "gin-rummy": {"draw": "gin-rummy.draw", "pass": "gin-rummy.upcard-offer", "discard": "gin-rummy.discard",
                  "knock": "gin-rummy.knock", "layoff": "gin-rummy.layoff"},
    "president": {"play": "president.follow-or-pass", "pass": "president.pass-holds", "give": "president.exchange"},
}
# The clause a divergence in the score keys is filed under.
SCORE_CLAUSES = {"rummy": "rummy.winner-scores-opponents", "gin-rummy": "gin-rummy.knock-score",
                 "president": "president.points"}
# Action kinds that end a hand whenever they are legal (gin-rummy.knock: a knock or gin ends the play).
ENDING_KINDS = {"gin-rummy": frozenset({"knock"})}
SCORE_KEYS = frozenset({"scores", "round_results", "game_result", "hands_won"})


@dataclass(frozen=True)
class GameFacts:
    """One game at one rule version, as the fuzzer and the invariant checks see it."""

    spec: specs.GameSpec

    @property
    def game(self) -> str:
        """The game's name."""
        return self.spec.game

    @property
    def players(self) -> tuple[int, int]:
        """The least and the most players."""
        bounds = self.spec.data["players"]
        return int(bounds["min"]), int(bounds["max"])

    @property
    def phases(self) -> frozenset[str]:
        """Every phase the state view may be in."""
        return frozenset(self.spec.data["phases"])

    @property
    def action_phases(self) -> dict[str, frozenset[str]]:
        """The phases in which each action kind exists."""
        return {kind: frozenset(a["phases"]) for kind, a in self.spec.data["actions"].items()}

    @property
    def ending_kinds(self) -> frozenset[str]:
        """The action kinds that end the hand (Gin's knock); empty when only emptying a hand does."""
        return ENDING_KINDS.get(self.game, frozenset())

    @property
    def card_places(self) -> tuple[str, ...]:
        """The dotted patterns of the view's card lists (``hands.*``, ``melds.*.cards``...)."""
        # The layout's card fields name the same places in the view; a single card (Gin's
        # ``taken``) is a pointer into a hand, not a place of its own.
        view_fields = self.spec.data["state_view"]["fields"]
        return tuple(p for p in self.spec.data["layout"]["card_fields"]
                     if p.split(".")[0] in view_fields and p.split(".")[0] not in ("taken", "taken_discard"))

    @property
    def hidden(self) -> tuple[str, ...]:
        """The view's hidden places: ``hands.others`` and piles such as ``stock``."""
        return tuple(self.spec.data["state_view"]["hidden"])

    def hands_public(self, view: dict[str, Any]) -> bool:
        """Whether every hand is shown to every seat in this position."""
        # gin-rummy.showdown-public: from the knock on, both hands are shown.
        return self.game == "gin-rummy" and view.get("knocker") is not None

    def taken_card(self, view: dict[str, Any]) -> str | None:
        """The card the seat to act took from the discard pile this turn (everyone saw it)."""
        value = view.get("taken", view.get("taken_discard"))
        return value if is_card(value) else None

    def clause_for(self, reason: str | None, kind: str | None, keys: set[str]) -> str:
        """The clause a divergence is filed under: by reason code, score keys, action kind."""
        if reason and reason in self.spec.data.get("reasons", {}):
            for clause in self.spec.clauses.values():
                if reason in clause.rule and clause.refusable:
                    return clause.id
        if keys & SCORE_KEYS and SCORE_CLAUSES.get(self.game) in self.spec.clauses:
            return SCORE_CLAUSES[self.game]
        chosen = ACTION_CLAUSES.get(self.game, {}).get(kind or "")
        if chosen in self.spec.clauses:
            return str(chosen)
        return next(iter(self.spec.clauses))


def facts(game: str, version: str | None = None) -> GameFacts:
    """``game`` at ``version``, else at the rule version being played (``--rule-version``), else the newest."""
    return facts_of(specs.played_spec(game, version))


_MADE: dict[int, GameFacts] = {}  # by the game file's identity (a GameSpec is not hashable); each keeps its spec alive


def facts_of(spec: specs.GameSpec) -> GameFacts:
    """The facts of one game file, made once."""
    made = _MADE.get(id(spec))
    if made is None or made.spec is not spec:
        made = _MADE[id(spec)] = GameFacts(spec)
    return made


def cards_at(view: dict[str, Any], pattern: str) -> list[tuple[tuple[Any, ...], list[str] | None]]:
    """Each card list of ``view`` matching a dotted pattern, with its path."""
    found: list[tuple[tuple[Any, ...], list[str] | None]] = []

    def walk(value: Any, parts: list[str], path: tuple[Any, ...]) -> None:
        if not parts:
            found.append((path, value))
            return
        head, rest = parts[0], parts[1:]
        if head == "*":
            if isinstance(value, list):
                for i, item in enumerate(value):
                    walk(item, rest, path + (i,))
        elif isinstance(value, dict) and head in value:
            walk(value[head], rest, path + (head,))

    walk(view, pattern.split("."), ())
    return found
