"""``cardverse-conformance smoke``: does an adapter speak the protocol at all, before anyone reads rule failures.

It checks the shape of every answer (handshake, start, legal actions, state view, observation,
a refusal, stop) on one small known position per declared game, and says what is wrong and what
to do. It judges no rule: whether an answer is right is the fixtures' business.
"""

from __future__ import annotations

from typing import Any, TextIO

from harness import KIT_NAME, NeverStarted
from harness.adapters.channel import AnsweredAgain
from harness.adapters.handshake import start_error
from harness.adapters.player_view import History, build_view
from harness.adapters.players import ask, declared_players
from harness.adapters.remote import RemoteEngine
from harness.run.capabilities import declared
from harness.run.legal_order import first_misplaced
from harness.serve.smoke_perft import PerftProblem, check_perft
from harness.spec import gamespec as specs
from harness.spec.cards import is_card, normalise, show
from harness.spec.semver import parse_version
from harness.suite.layouts import complete_layout

# One small position per game, at the start of play; every card left out is filled as usual.
LAYOUTS: dict[str, dict[str, Any]] = {
    "rummy": {"first": 0, "hands": [["QH", "KH", "AH", "2C", "3D", "4S", "9C"], ["2D", "5D", "8H", "9S", "TC", "JD", "4H"]],
              "discard": ["5C"], "stock": ["7D"]},
    "gin-rummy": {"dealer": 0, "hands": [["AC", "2D", "4H", "6S", "8C", "TD", "QH", "KS", "5C", "9D"],
                                         ["3C", "3D", "5H", "7S", "9C", "JD", "KH", "2S", "6D", "8H"]],
                  "discard": ["7C"], "stock": ["4S"]},
    "president": {"first": 0, "hands": [["3C", "3D", "7H", "9S", "KC"], ["4C", "5D", "8H", "TS", "AC"],
                                        ["6C", "6D", "JH", "QS", "2C"]]},
}
BAD_ACTION = {"smoke-test": "not an action"}


class _Problem(Exception):
    """One check failed; its message says what is wrong and what to do."""


def _cards(value: Any) -> set[str]:
    """Every card named anywhere in ``value``."""
    if isinstance(value, dict):
        return set().union(*map(_cards, value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*map(_cards, value)) if value else set()
    return {normalise(value)} if is_card(value) else set()


def setup_for(spec: specs.GameSpec) -> dict[str, Any]:
    """The complete setup of the smoke position for ``spec``'s game."""
    layout = LAYOUTS[spec.game]
    return {"game": spec.game, "rule_version": spec.rule_version, "options": dict(spec.option_defaults),
            "layout": complete_layout(spec, layout, _cards(layout)), "later_layouts": []}


class Smoke:
    """Runs the checks against one engine, writing one line per check."""

    def __init__(self, engine: RemoteEngine, out: TextIO) -> None:
        self.engine, self.out = engine, out
        self.problems = 0
        self.never_started = ""  # why the handshake got no answer

    def check(self, what: str, function: Any, *args: Any) -> Any:
        """Run one check; print ok with its summary, or the problem; None when it failed."""
        try:
            result, summary = function(*args)
        except (_Problem, PerftProblem) as problem:
            return self._fail(what, str(problem))
        except Exception as error:  # whatever the engine or the adapter raised is the finding
            return self._fail(what, f"{type(error).__name__}: {error}")
        self.out.write(f"ok    {what}: {summary}\n")
        return result

    def _fail(self, what: str, message: str) -> None:
        self.problems += 1
        lines = message.splitlines() or [""]
        self.out.write(f"FAIL  {what}: {lines[0]}\n" + "".join(f"      {line}\n" for line in lines[1:]))
        return None

    def run(self) -> int:
        """Every check; the number of problems."""
        description = self.check("handshake", self.handshake)
        if description is None:
            return self.problems  # without a handshake there is nothing else to ask
        for game, declared in sorted(description["games"].items()):
            spec = self.check(f"{game}: declaration", self.declaration, game, declared)
            if spec is not None:
                self.game(spec)
        self.check("stop", self.stop)
        return self.problems

    def handshake(self) -> tuple[dict[str, Any], str]:
        try:
            description = self.engine.describe()
        except Exception as error:  # no answer to hello: reported as the check's failure, then the run stops (exit 3)
            self.never_started = start_error(error)
            raise
        if not description["games"]:
            raise _Problem("the engine declares no game: list each game it implements under games, "
                           "with its rule_versions and options (spec/protocol.md, The handshake)")
        return description, (f"protocol 1, {description['name']} {description['version']}, "
                             f"games: {', '.join(sorted(description['games']))}")

    def declaration(self, game: str, declared: dict[str, Any]) -> tuple[specs.GameSpec, str]:
        known = [s for s in specs.game_specs() if s.game == game]
        if not known:
            raise _Problem(f"the spec has no game {game!r}: declare only {', '.join(specs.games())} "
                           "(their names as in spec/games/)")
        versions = [s for s in known if s.rule_version in declared["rule_versions"]]
        if not versions:
            raise _Problem(f"rule versions {', '.join(declared['rule_versions']) or '(none)'} are not in the spec, "
                           f"which has {', '.join(s.rule_version for s in known)}: declare the versions you implement")
        played = [s for s in versions if s is specs.played_spec(game)]  # --rule-version's, else the kit's newest
        spec = played[0] if played else max(versions, key=lambda s: parse_version(s.rule_version))
        unknown = sorted(set(declared.get("options", [])) - set(spec.option_defaults))
        if unknown:
            raise _Problem(f"options {', '.join(unknown)} are not options of {game} {spec.rule_version}, which has "
                           f"{', '.join(spec.option_defaults) or 'none'}")
        return spec, f"rule version {spec.rule_version}, options: {', '.join(declared.get('options', [])) or 'none'}"

    def game(self, spec: specs.GameSpec) -> None:
        """Start the smoke position and check each kind of answer."""
        game = self.check(f"{spec.game}: start", self.start, spec)
        if game is None:
            return
        view = self.check(f"{spec.game}: state view", self.state, spec, game)
        self.check(f"{spec.game}: observation", self.observation, spec, game)
        actions = self.check(f"{spec.game}: legal actions", self.legal, spec, game)
        self.check(f"{spec.game}: malformed action refused", self.refused, spec, game, None, BAD_ACTION)
        if view is not None and actions and isinstance(view.get("to_act"), int):
            other = (view["to_act"] + 1) % len(spec_players(view))
            self.check(f"{spec.game}: out-of-turn action refused", self.refused, spec, game, other, actions[0])
        if view is not None:
            self.check(f"{spec.game}: refusals left the state alone", self.unchanged, spec, game, view)
        check_players(self, spec, game)  # choose / choose_seat, when the engine declares players
        # the batch and fork checks start games of their own, which ends the one above on a remote engine
        if self.engine.batches:
            self.check(f"{spec.game}: batch", self.batch, spec)
        if self.engine.pipelines_batches:
            self.check(f"{spec.game}: batches together", self.together, spec)
        if self.engine.description and \
                self.engine.description["games"][spec.game].get("features", {}).get("clone") is True:
            self.check(f"{spec.game}: fork", self.fork, spec)
        if self.engine.counting:
            self.check(f"{spec.game}: perft", check_perft, self, spec, setup_for(spec))

    def start(self, spec: specs.GameSpec) -> tuple[Any, str]:
        game = self.engine.start(setup_for(spec))
        game.send_start()  # a remote start waits for the game's first request; smoke checks it alone
        return game, f"a {len(LAYOUTS[spec.game]['hands'])}-seat position started"

    def state(self, spec: specs.GameSpec, game: Any) -> tuple[dict[str, Any], str]:
        view = game.state()
        self.follows_schema(spec, view, "the state view")
        return view, f"follows the state_view schema (phase {view.get('phase')}, to_act {view.get('to_act')})"

    def observation(self, spec: specs.GameSpec, game: Any) -> tuple[None, str]:
        view = game.observation(0)
        self.follows_schema(spec, view, "the observation of seat 0")
        if "hands.others" in spec.data["state_view"].get("hidden", []) and any(h is not None for h in view["hands"][1:]):
            raise _Problem("the observation of seat 0 shows other seats' hands: set them to null "
                           "(spec/README.md, The state view)")
        return None, "seat 0 sees its own hand only"

    def follows_schema(self, spec: specs.GameSpec, view: Any, what: str) -> None:
        """Raise with every schema error of ``view``, each at its path."""
        problems = [f"{'/'.join(map(str, e.absolute_path)) or '$'}: {e.message}"
                    for e in spec.state_validator.iter_errors(view)]
        if problems:
            raise _Problem(f"{what} does not follow state_view.schema in spec/games/{spec.path.name}; fix:\n"
                           + "\n".join(problems[:10]))

    def legal(self, spec: specs.GameSpec, game: Any) -> tuple[list[dict[str, Any]], str]:
        actions = game.legal_actions()
        if not actions:
            raise _Problem("no legal action at the start of play: list every legal action of the seat to act")
        seen = set()
        for action in actions:
            kind = spec.action_kind(action)
            if kind is None or not spec.action_validators[kind].is_valid(action):
                raise _Problem(f"{show(action)} is not in the {spec.game} vocabulary: see actions in "
                               f"spec/games/{spec.path.name}")
            canonical = spec.card_order.canonical(action)
            if canonical != action:
                raise _Problem(f"{show(action)} is not in canonical form ({show(canonical)}): sort card lists in "
                               f"the card order {spec.data['card_order']} then suits C D H S (spec/README.md, Actions)")
            key = repr(sorted(action.items()))
            if key in seen:
                raise _Problem(f"{show(action)} is listed twice: list each legal action once")
            seen.add(key)
        misplaced = first_misplaced(spec, actions)
        if misplaced is not None:
            raise _Problem(misplaced)
        return actions, f"{len(actions)}, all canonical, in the canonical order and in the vocabulary"

    def refused(self, spec: specs.GameSpec, game: Any, seat: int | None, action: dict[str, Any]) -> tuple[None, str]:
        if seat is None:
            to_act = game.state().get("to_act")
            seat = to_act if isinstance(to_act, int) else 0
        reason = game.apply(seat, action)
        if reason is None:
            raise _Problem(f"seat {seat} {show(action)} was accepted: it must be refused with a reason code")
        illegal_only = declared(self.engine.describe().get("games", {}).get(spec.game, {})).illegal_only
        if illegal_only and reason != "illegal":
            raise _Problem(f"refused with {reason!r}, but the engine declares reasons: illegal: refuse with illegal")
        if not illegal_only and reason not in spec.reasons:
            raise _Problem(f"refused with {reason!r}, which is not in the closed list: use a code from "
                           f"spec/reasons.yaml or reasons in spec/games/{spec.path.name}")
        return None, f"seat {seat} {show(action)} refused with {reason}"

    def unchanged(self, spec: specs.GameSpec, game: Any, before: dict[str, Any]) -> tuple[None, str]:
        after = game.state()
        changed = sorted(k for k in set(before) | set(after) if before.get(k) != after.get(k))
        if changed:
            raise _Problem(f"the refusals changed {', '.join(changed)}: a refused action must leave the game "
                           "exactly as it was")
        return None, "the state view is as before"

    def batch(self, spec: specs.GameSpec) -> tuple[None, str]:
        """The engine declared batch: a start and two reads in one message, each answered."""
        outcomes = self.engine.start(setup_for(spec)).prefetch([("state", ()), ("legal_actions", ())])
        for outcome in outcomes:
            if isinstance(outcome, Exception):
                raise _Problem(f"{outcome}")
        self.follows_schema(spec, outcomes[0], "the state view in a batch")
        return None, "start, state and legal_actions answered in one batch"

    def together(self, spec: specs.GameSpec) -> tuple[None, str]:
        """Batches can go together (a write on stdio, a POST of JSON lines declared as jsonl): each answered."""
        start = ("start", {"setup": setup_for(spec)})
        session = self.engine.session
        for outcomes, _ in self.engine.call_exchanges([[start, ("state", {})], [start, ("legal_actions", {})]]):
            for outcome in outcomes:
                if isinstance(outcome, Exception) and not isinstance(outcome, AnsweredAgain):
                    raise _Problem(f"{outcome}")
        if self.engine.session != session:  # the harness asked each again alone: they failed only together
            raise _Problem("two batches sent together were answered only when sent again one by one: answer "
                           "each line of a POST of JSON lines with one line, in order (spec/protocol.md)")
        return None, "two batches sent together, each answered"

    def fork(self, spec: specs.GameSpec) -> tuple[None, str]:
        """The game declared clone: a fork goes on apart from its original."""
        game = self.engine.start(setup_for(spec))
        before = game.state()
        copy = game.clone()
        actions = copy.legal_actions()
        if not actions or copy.apply(before["to_act"], actions[0]) is not None:
            raise _Problem(f"the copy refused its first legal action {show(actions[0]) if actions else '(none)'}")
        if game.state() != before:
            raise _Problem("an action on the copy changed the original: fork must copy the game, not share it")
        return None, f"the copy played {show(actions[0])}, the original is as it was"

    def stop(self) -> tuple[None, str]:
        self.engine.call("stop")
        self.engine.channel.close(None)
        return None, "answered; session closed"


def spec_players(view: dict[str, Any]) -> list[Any]:
    """The seats of a view (one hand size per seat)."""
    return list(view.get("hand_sizes") or view.get("hands") or [None])


def smoke(engine: RemoteEngine, out: TextIO, engine_option: str) -> int:
    """Run every check; print a verdict with the next step; the number of problems."""
    checks = Smoke(engine, out)
    problems = checks.run()
    if problems:
        out.write(f"smoke: {problems} problem(s); fix them before reading rule failures, then run this again\n")
    else:
        out.write(f"smoke: the engine speaks the protocol; next: {KIT_NAME} run {engine_option}\n")
    if checks.never_started:  # no handshake: the same words and exit code as every command (3)
        raise NeverStarted(checks.never_started)
    return problems


def check_players(smoke: Any, spec: specs.GameSpec, game: Any) -> None:
    """One smoke check per level the engine declares for ``spec.game``."""
    declared = declared_players(smoke.engine.describe(), spec.game)
    if declared is None:
        return
    for level in declared["levels"]:
        smoke.check(f"{spec.game}: {level} player ({declared['interface']} interface)", _choose_player, smoke, spec, game,
                    level, declared["interface"])


def _choose_player(smoke: Any, spec: specs.GameSpec, game: Any, level: str, interface: str) -> tuple[None, str]:
    """Ask the player of ``level`` in the smoke position; its choice must be legal."""
    seat = game.state()["to_act"]
    legal = game.legal_actions()
    view = build_view(spec, spec.option_defaults, seat, level, 0, game.observation(seat), History(spec.game), legal)
    choice = ask(smoke.engine, game, interface, view)
    order = spec.card_order  # compared in canonical form: a non-canonical list is the legal-actions check's finding
    if not isinstance(choice, dict) or order.canonical(choice) not in [order.canonical(a) for a in legal]:
        request = "choose_seat" if interface == "seat" else "choose"
        raise _Problem(f"the answer to {request} is {show(choice)}, which is not one of the {len(legal)} legal "
                       "actions: answer with one of them, as listed by legal_actions (spec/players.md)")
    return None, f"chose {show(choice)}, one of the {len(legal)} legal actions"
