"""Mutants generated from the reference engine's code by mutmut's operators, not written by hand.

mutmut (the ``mutate`` extra) supplies the operators and its rules for
what not to mutate (type annotations, ``len`` and ``isinstance`` calls, default arguments); its
runner, which rewrites the files it tests, is not used: each mutant is one operator applied at one
place of one rules module, built as a private copy (``variants.build``) beside the untouched
reference. What feeds only the clause trace is left alone (``note`` calls, ``if recording_now():``
blocks, the test of an ``if`` that only notes, a function only notes name): a mutant there changes
blame, not play; and so is the message of an exception raised: spec/protocol.md leaves the text of
an engine error free, so changing it is no mistake.

A mutant's id is ``game:module:function:operator:k``, ``k`` counting that operator's mutants in
that function, so an id stays the same while the rest of the file changes.
"""

from __future__ import annotations

import ast
import random
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any

from harness import install_line
from harness.mutants.catalogue import GAME_MODULES, Mutant, label
from harness.mutants.variants import PACKAGE, VariantEngine, VariantError, build, dependencies, source_of

# The clause trace's module, and the rules' notes to it: what they change is blame, not play.
LEFT_ALONE = (f"{PACKAGE}.clauses.", ".demands")
NOTES = ("note",)  # note(...), note_wraps(...): the trace's calls
RECORDING = "recording_now"  # its blocks run only while someone records
SNIPPET = 60  # characters of code shown for a mutant's place


class MissingTool(Exception):
    """mutmut (or libcst under it) is not installed."""


@dataclass(frozen=True)
class Place:
    """Where a generated mutant changes the code, and how."""

    id: str
    game: str
    module: str
    function: str
    line: int
    operator: str
    before: str
    after: str

    @property
    def file(self) -> str:
        """Its file, as the repository names it."""
        return self.module.replace(".", "/") + ".py"

    def as_mutant(self) -> Mutant:
        """As the catalogue's kind of mutant (its mistake the change, its clause unknown)."""
        return Mutant(self.id, self.game, f"{self.before} -> {self.after}", "", ())


def rules_modules(game: str) -> list[str]:
    """The game's own modules that play it (its setup and rules), dependencies first."""
    game_module = GAME_MODULES[game]
    folder = game_module.rpartition(".")[0] + "."
    return [m for m in dependencies(game_module) if m.startswith(folder) and not m.endswith(LEFT_ALONE)]


def _tools() -> tuple[Any, Any, Any, Any]:
    """libcst and mutmut's operators and visitor; MissingTool with what to install when absent."""
    try:
        import libcst
        from mutmut.mutation.file_mutation import MutationVisitor
        from mutmut.mutation.mutators import mutation_operators
        from mutmut.mutation.pragma_handling import IgnoredCode
    except ImportError as error:
        raise MissingTool(f"generated mutants need mutmut ({error}): {install_line('mutate')}") from error
    return libcst, MutationVisitor, mutation_operators, IgnoredCode


@cache
def _mutations(module: str) -> tuple[str, list[tuple[Any, Any, str, str, int, tuple[int, int]]]]:
    """The module's text and its mutations: (original node, mutated node, operator, function, line, the original's
    span in the text), in code order."""
    libcst, visitor_class, operators, ignored = _tools()
    from libcst.metadata import MetadataWrapper, PositionProvider

    text, _ = source_of(module)
    wrapper = MetadataWrapper(libcst.parse_module(text))
    produced: list[str] = []  # each yield's operator, in the order the visitor keeps the mutations

    def tagged(operator: Any) -> Any:
        def run(node: Any) -> Any:
            for mutated in operator(node):
                produced.append(operator.__name__.removeprefix("operator_"))
                yield mutated
        return run

    visitor = visitor_class([(kind, tagged(op)) for kind, op in operators], ignored(set(), set(), set()))
    tree = wrapper.visit(visitor)
    names = _function_names(libcst, tree)
    quiet = _inside_notes(libcst, tree)
    positions = wrapper.resolve(PositionProvider)
    starts = [0]  # each line's offset in the text
    for line in text.splitlines(keepends=True):
        starts.append(starts[-1] + len(line))
    kept = []
    for mutation, operator in zip(visitor.mutations, produced, strict=True):
        function = names.get(id(mutation.contained_by_top_level_function))
        if function is None or id(mutation.original_node) in quiet:
            continue
        where = positions[mutation.original_node]
        span = (starts[where.start.line - 1] + where.start.column, starts[where.end.line - 1] + where.end.column)
        kept.append((mutation.original_node, mutation.mutated_node, operator, function, where.start.line, span))
    return text, kept


def _function_names(libcst: Any, tree: Any) -> dict[int, str]:
    """Each top-level function and method (by node id) and its name, ``Class.method`` for a method."""
    names = {}
    for statement in tree.body:
        if isinstance(statement, libcst.FunctionDef):
            names[id(statement)] = statement.name.value
        elif isinstance(statement, libcst.ClassDef) and isinstance(statement.body, libcst.IndentedBlock):
            for method in statement.body.body:
                if isinstance(method, libcst.FunctionDef):
                    names[id(method)] = f"{statement.name.value}.{method.name.value}"
    return names


def _inside_notes(libcst: Any, tree: Any) -> set[int]:
    """The ids of every node that feeds the clause trace only: a call to ``note`` or ``note_*`` (the call
    included), the block of an ``if recording_now():``, the test of an ``if`` whose body only notes;
    and the message of an exception raised (an engine error's text is free)."""
    found: set[int] = set()

    def is_note(statement: Any) -> bool:
        return (isinstance(statement, libcst.SimpleStatementLine) and len(statement.body) == 1
                and isinstance(statement.body[0], libcst.Expr) and isinstance(statement.body[0].value, libcst.Call)
                and isinstance(statement.body[0].value.func, libcst.Name)
                and statement.body[0].value.func.value.startswith(NOTES))

    class Notes(libcst.CSTVisitor):  # type: ignore[misc]
        def visit_Call(self, node: Any) -> bool:
            if isinstance(node.func, libcst.Name) and node.func.value.startswith(NOTES):
                node.visit(Everything())
                return False
            return True

        def visit_Raise(self, node: Any) -> bool:
            if isinstance(node.exc, libcst.Call):  # its message: spec/protocol.md leaves an error's text free
                node.exc.visit(Everything())
            return True

        def visit_If(self, node: Any) -> bool:
            test = node.test
            if isinstance(test, libcst.Call) and isinstance(test.func, libcst.Name) and test.func.value == RECORDING:
                node.test.visit(Everything())
                node.body.visit(Everything())
            elif node.orelse is None and all(is_note(s) for s in node.body.body):
                node.test.visit(Everything())
            return True

    class Everything(libcst.CSTVisitor):  # type: ignore[misc]
        def on_visit(self, node: Any) -> bool:
            found.add(id(node))
            return True

    tree.visit(Notes())
    return found


def _one_line(libcst: Any, node: Any) -> str:
    """The node's code on one line."""
    return " ".join(libcst.Module([]).code_for_node(node).split())


def snippets(before: str, after: str, width: int = SNIPPET) -> tuple[str, str]:
    """The two texts cut to ``width`` around where they differ (the common start dropped first), ``…`` for what is cut."""
    start = 0
    while start < min(len(before), len(after)) and before[start] == after[start]:
        start += 1
    start = max(0, start - width // 3)

    def cut(text: str) -> str:
        head = "…" if start else ""
        body = text[start:]
        return head + (body if len(body) <= width else body[:width - 1] + "…")

    return cut(before), cut(after)


def trace_only(game: str) -> set[str]:
    """The top-level functions of the game's rules modules that are named only inside notes: the
    predicates a note hands the trace (``holds=lowest_wins``), never called by the rules themselves."""
    inside: set[str] = set()
    outside: set[str] = set()
    defined: set[str] = set()
    for module in rules_modules(game):
        tree = ast.parse(source_of(module)[0])
        defined |= {n.name for n in tree.body if isinstance(n, ast.FunctionDef)}
        noted = {id(node) for call in ast.walk(tree) if isinstance(call, ast.Call) and isinstance(call.func, ast.Name)
                 and call.func.id.startswith(NOTES) for node in ast.walk(call)}
        for node in ast.walk(tree):
            if isinstance(node, ast.Name):
                (inside if id(node) in noted else outside).add(node.id)
    return (defined & inside) - outside


@cache
def places(game: str) -> tuple[Place, ...]:
    """Every generated mutant of the game, in module and code order (none in a function only notes name)."""
    libcst = _tools()[0]
    found = []
    quiet = trace_only(game)
    for module in rules_modules(game):
        counts: dict[tuple[str, str], int] = {}
        short = module.rpartition(".")[2]
        for original, mutated, operator, function, line, _ in _mutations(module)[1]:
            if function in quiet:
                continue
            k = counts[function, operator] = counts.get((function, operator), 0) + 1
            found.append(Place(f"{game}:{short}:{function}:{operator}:{k}", game, module, function, line, operator,
                               *snippets(_one_line(libcst, original), _one_line(libcst, mutated))))
    return tuple(found)


def by_id(mutant_id: str) -> Place:
    """The generated mutant ``mutant_id``; VariantError when the reference's code no longer has it."""
    game = mutant_id.partition(":")[0]
    if game not in GAME_MODULES:
        raise VariantError(f"{mutant_id}: no game {game!r}; a generated mutant's id starts with its game")
    found = {p.id: p for p in places(game)}
    if mutant_id not in found:
        raise VariantError(f"{mutant_id}: the reference engine's code has no such mutant any more; "
                           "`mutants --generated --list` shows the current ones")
    return found[mutant_id]


def sample(chosen: list[Place], size: int | None, seed: int) -> list[Place]:
    """``size`` of ``chosen`` drawn by ``seed`` (all when None), kept in code order: the same for the same code."""
    if size is None or size >= len(chosen):
        return chosen
    picked = set(random.Random(seed).sample(range(len(chosen)), size))
    return [p for i, p in enumerate(chosen) if i in picked]


def mutated_source(place: Place) -> str:
    """The text of the mutant's module with its one change made: the original node's span replaced by the
    mutated node's code (a whole-tree ``deep_replace`` gives the same module, measured on every mutant, at
    ten times the cost)."""
    libcst = _tools()[0]
    text, mutations = _mutations(place.module)
    index = [p.id for p in places(place.game) if p.module == place.module].index(place.id)
    mutated, (start, end) = mutations[index][1], mutations[index][5]
    return text[:start] + libcst.Module([]).code_for_node(mutated) + text[end:]


@lru_cache(maxsize=4)  # a few only: thousands of modules kept would fill the memory
def _module(mutant_id: str) -> Any:
    """The mutant's game module, built once while it is scored."""
    place = by_id(mutant_id)
    return build(GAME_MODULES[place.game], (), label(place.as_mutant()), {place.module: mutated_source(place)})


def engine(mutant_id: str) -> VariantEngine:
    """The reference engine with the mutant's game played by the generated mutant; its build's exception propagates."""
    return VariantEngine(by_id(mutant_id).game, _module(mutant_id), f"mutant {mutant_id}")
