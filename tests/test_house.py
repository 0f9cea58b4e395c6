"""The house rules, read off the import graph with ``ast``: layers, no circles, no private names across modules.

The layers of ``harness/`` (docs/architecture.md), lowest first; a module imports only from its own
package or a lower layer. The import graph counts every import: at the top, inside functions
(imported late to start fast) and under ``TYPE_CHECKING``.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("harness", "reference_engine")
# The rank of each part of harness/: a module may import a part of a lower rank, or its own part.
LAYERS = {
    "harness": 0,  # the package itself: the kit's name, version and exit codes
    "host": 1, "spec": 2, "suite": 3, "adapters": 4, "run": 5, "records": 5,
    "findings": 6, "versions": 6, "serve": 6,
    "fuzzing": 7, "players": 7, "perft": 7, "audit": 7, "mutants": 8, "ladder": 8,
    "reports": 9, "book": 10,
    "cli": 11, "pytest_plugin": 11, "__main__": 12,
}
# fuzzing/ is a command of its own, not a toolbox: what the other commands share with it lives in findings/.
FUZZING_USERS = {"fuzzing", "mutants", "cli", "pytest_plugin"}
# Where the harness may import the reference engine: as the default engine and model (fuzzing, the
# ladder's and players' default players, audit's judge of recorded games) and as the source of mutants.
REFERENCE_USERS = {"fuzzing", "mutants", "players", "ladder", "audit"}
TOP_LEVEL = {"harness": {"__init__", "__main__", "cli", "pytest_plugin"},
             "reference_engine": {"__init__", "cards", "seeded", "players"}}


def modules() -> dict[str, Path]:
    """Every module of the two packages by dotted name (a package by its own name)."""
    found = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = path.relative_to(ROOT).with_suffix("").parts
            found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def imports(name: str, path: Path, known: dict[str, Path]) -> Iterator[tuple[int, str, str | None]]:
    """(line, imported module, imported name or None) for each import of the two packages in ``path``."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] in PACKAGES:
                    yield node.lineno, alias.name, None
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(anchor + ([base] if base else []))
            if base.split(".")[0] not in PACKAGES:
                continue
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                yield (node.lineno, sub, None) if sub in known else (node.lineno, base, alias.name)


def part(module: str) -> str:
    """The part of harness/ a module belongs to (its subpackage, or its own name at the top)."""
    pieces = module.split(".")
    return "harness" if len(pieces) == 1 else pieces[1]


def graph() -> tuple[dict[str, set[str]], list[str], list[str]]:
    """The import edges between modules, the imports against the layers, and the private names imported."""
    known = modules()
    edges: dict[str, set[str]] = {name: set() for name in known}
    against, private = [], []
    for name, path in known.items():
        where = path.relative_to(ROOT)
        for line, target, imported in imports(name, path, known):
            if target in known and target != name:
                edges[name].add(target)
            if imported and imported.startswith("_") and not imported.startswith("__") and target != name:
                private.append(f"{where}:{line}: imports the private name {imported} from {target}")
            home, there = name.split(".")[0], target.split(".")[0]
            if home == "reference_engine" and there == "harness":
                against.append(f"{where}:{line}: the reference engine imports {target}; it must know nothing of the harness")
            elif home == "harness" and there == "reference_engine" and part(name) not in REFERENCE_USERS:
                against.append(f"{where}:{line}: {part(name)} imports {target}; only "
                               f"{', '.join(sorted(REFERENCE_USERS))} may use the reference engine")
            elif home == there == "harness" and part(name) != part(target) and LAYERS[part(target)] >= LAYERS[part(name)]:
                against.append(f"{where}:{line}: {part(name)} (layer {LAYERS[part(name)]}) imports {target} "
                               f"({part(target)}, layer {LAYERS[part(target)]}): import only downward")
    return edges, against, private


def circles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), each a circle of imports."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for target in sorted(edges[node]):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return found


def test_no_import_circles() -> None:
    edges, _, _ = graph()
    found = circles(edges)
    assert not found, "import circles:\n" + "\n".join(
        " <-> ".join(c) + ": " + "; ".join(f"{a} imports {b}" for a in c for b in sorted(edges[a] & set(c)))
        for c in found)


def test_imports_go_only_downward() -> None:
    _, against, _ = graph()
    assert not against, "imports against the layers:\n" + "\n".join(against)


def test_fuzzing_is_imported_only_by_its_users() -> None:
    edges, _, _ = graph()
    users = sorted(f"{name} imports {target}" for name, targets in edges.items() for target in targets
                   if part(target) == "fuzzing" and target.startswith("harness.") and part(name) not in FUZZING_USERS)
    assert not users, ("fuzzing/ imported by a part outside " + ", ".join(sorted(FUZZING_USERS)) +
                       " (move what they share into findings/):\n" + "\n".join(users))


def test_no_private_name_is_imported_across_modules() -> None:
    _, _, private = graph()
    assert not private, "private names imported across modules (give them a public name in the lower one):\n" + \
        "\n".join(private)


def test_every_module_has_a_place_in_the_layers() -> None:
    unplaced = sorted({part(name) for name in modules() if name.startswith("harness")} - set(LAYERS))
    assert not unplaced, f"parts of harness/ with no layer in tests/test_house.py: {unplaced}"


@pytest.mark.parametrize("package", PACKAGES)
def test_the_top_level_holds_only_its_entry_points(package: str) -> None:
    flat = sorted(p.stem for p in (ROOT / package).glob("*.py") if p.stem not in TOP_LEVEL[package])
    assert not flat, f"modules beside the subpackages of {package}/ (give each a folder): {flat}"


def test_no_module_is_over_400_lines() -> None:
    long = [f"{path.relative_to(ROOT)}: {lines}" for path in modules().values()
            if (lines := path.read_text(encoding="utf-8").count("\n")) > 400]
    assert not long, "modules over 400 lines (split them by concern):\n" + "\n".join(long)


def test_every_subpackage_says_what_it_is_for() -> None:
    silent = [str(path.relative_to(ROOT)) for name, path in modules().items()
              if path.name == "__init__.py" and not ast.get_docstring(ast.parse(path.read_text(encoding="utf-8")))]
    assert not silent, f"subpackages without a docstring saying what the folder is for: {silent}"


def test_the_checks_see_a_broken_house(tmp_path: Path) -> None:
    """The checks themselves: a circle, an upward import and a private name are each found."""
    edges = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert circles(edges) == [["a", "b", "c"]]
    known = {"harness.spec.x": tmp_path / "x.py", "harness.run.y": tmp_path / "y.py"}
    (tmp_path / "x.py").write_text("from harness.run.y import _hidden\n")
    assert list(imports("harness.spec.x", tmp_path / "x.py", known)) == [(1, "harness.run.y", "_hidden")]
