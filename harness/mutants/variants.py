"""Variants of the reference engine built at runtime: a copy of a game's modules with small edits.

An edit names the function it changes and the exact text it replaces there, which must occur
exactly once in that function; if the function or the text is gone (the reference engine moved
on), building the variant raises ``VariantError`` instead of quietly testing the unchanged engine.
The copies live apart from ``sys.modules``: the reference engine itself is never touched, so a
variant and the reference can run side by side in one process.
"""

from __future__ import annotations

import ast
import importlib.util
import sys
import threading
import types
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

PACKAGE = "reference_engine"
_LOCK = threading.Lock()


class VariantError(Exception):
    """A variant that can no longer be built from the reference engine's source."""


@dataclass(frozen=True)
class Edit:
    """Replace ``old`` by ``new`` inside ``function`` (``Class.method`` or a function) of ``module``."""

    module: str
    function: str
    old: str
    new: str


def source_of(module: str) -> tuple[str, Path]:
    """The source text and file of a reference engine module."""
    found = importlib.util.find_spec(module)
    if found is None or found.origin is None:
        raise VariantError(f"module {module} not found: is the reference engine installed?")
    path = Path(found.origin)
    return path.read_text(encoding="utf-8"), path


def apply_edit(text: str, edit: Edit, label: str) -> str:
    """``text`` with ``edit`` made; VariantError when its function or its text is not there once."""
    node = _function(ast.parse(text), edit.function)
    if node is None:
        raise VariantError(f"{label}: {edit.module}.{edit.function} no longer exists; update the mutant in "
                           "harness/mutants/catalogue.py to the reference engine's new code")
    lines = text.splitlines(keepends=True)
    start = sum(len(line) for line in lines[:node.lineno - 1])
    end = sum(len(line) for line in lines[:node.end_lineno])
    body = text[start:end]
    count = body.count(edit.old)
    if count != 1:
        raise VariantError(f"{label}: {edit.module}.{edit.function} holds {edit.old!r} {count} times, not once; "
                           "update the mutant in harness/mutants/catalogue.py to the reference engine's new code")
    return text[:start] + body.replace(edit.old, edit.new) + text[end:]


def _function(tree: ast.Module, dotted: str) -> ast.FunctionDef | None:
    """The function or method named ``Class.method`` / ``function`` at the top of ``tree``."""
    scope: list[ast.stmt] = tree.body
    *classes, name = dotted.split(".")
    for cls in classes:
        found = next((n for n in scope if isinstance(n, ast.ClassDef) and n.name == cls), None)
        if found is None:
            return None
        scope = found.body
    return next((n for n in scope if isinstance(n, ast.FunctionDef) and n.name == name), None)


def dependencies(module: str) -> list[str]:
    """``module`` and the reference engine modules it imports, dependencies first."""
    return list(_dependencies(module))


@lru_cache(maxsize=64)  # each variant built asks again: parsing every module each time cost a quarter of a build
def _dependencies(module: str) -> tuple[str, ...]:
    order: list[str] = []

    def visit(name: str) -> None:
        if name in order:
            return
        text, _ = source_of(name)
        for node in _run_time_nodes(ast.parse(text)):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith(PACKAGE + "."):
                visit(node.module)
        order.append(name)

    visit(module)
    return tuple(order)


def _run_time_nodes(tree: ast.AST) -> list[ast.AST]:
    """Every node of ``tree`` but those under ``if TYPE_CHECKING:`` (imports for type hints, never run)."""
    found: list[ast.AST] = []
    stack = [tree]
    while stack:
        node = stack.pop()
        found.append(node)
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING":
            stack.extend(node.orelse)
            continue
        stack.extend(ast.iter_child_nodes(node))
    return found


def build(game_module: str, edits: tuple[Edit, ...], label: str,
          sources: dict[str, str] | None = None) -> types.ModuleType:
    """A private copy of ``game_module`` and its dependencies with ``edits`` made (and a module's
    whole text taken from ``sources`` where it names one: a generated mutant's)."""
    names = dependencies(game_module)
    unknown = {e.module for e in edits} - set(names)
    if unknown:
        raise VariantError(f"{label}: {', '.join(sorted(unknown))} is not used by {game_module}")
    copies: dict[str, types.ModuleType] = {}
    with _LOCK:  # the copies import each other by their real names while they are built
        saved = {name: sys.modules.get(name) for name in names}
        try:
            for name in names:
                text, path = source_of(name)
                text = (sources or {}).get(name, text)
                for edit in (e for e in edits if e.module == name):
                    text = apply_edit(text, edit, label)
                module = types.ModuleType(name)
                module.__file__ = str(path)
                module.__package__ = name.rpartition(".")[0]  # its real parent: games live in subfolders
                sys.modules[name] = module
                exec(compile(text, f"{path} [{label}]", "exec"), module.__dict__)
                copies[name] = module
        finally:
            for name, original in saved.items():
                if original is None:
                    sys.modules.pop(name, None)
                else:
                    sys.modules[name] = original
    return copies[game_module]


def raised_in_variant(files: tuple[str, ...], label: str) -> bool:
    """Whether an exception's traceback (its code files) passed through the code of the variant ``label``."""
    return any(name.endswith(f" [{label}]") for name in files)


class VariantEngine:
    """The reference engine, with one game played by a variant module."""

    def __init__(self, game: str, module: Any, name: str) -> None:
        from reference_engine import ReferenceEngine

        self.base = ReferenceEngine()
        self.game, self.module, self.name = game, module, name

    def describe(self) -> dict[str, Any]:
        """As the reference engine, under the variant's name."""
        return {**self.base.describe(), "name": self.name}

    def choose(self, view: dict[str, Any]) -> dict[str, Any]:
        """The reference players' choice: a mutant changes a rule, not how its players think."""
        return self.base.choose(view)

    def start(self, setup: dict[str, Any]) -> Any:
        """The variant's game for its own game, the reference's for the others."""
        if setup.get("game") == self.game:
            return self.module.start(setup)
        return self.base.start(setup)
