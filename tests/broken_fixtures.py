"""A seeded generator of broken fixtures: the bundled ones, each spoiled in one known way.

Each kind of fault takes a clean fixture's text and returns the broken bytes and, where the
fault sits at a known place, its 1-based line (and column), so a test can check that lint puts
the error there.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from harness.spec.paths import fixtures_dir
from harness.suite.discovery import fixture_files


@dataclass(frozen=True)
class Broken:
    """One broken fixture: its bytes, its kind of fault, and where the fault is when that is known."""

    kind: str
    data: bytes
    line: int | None = None
    column: int | None = None


Fault = Callable[[random.Random, list[str]], Broken]
FAULTS: dict[str, Fault] = {}


def fault(function: Fault) -> Fault:
    """Register a kind of fault under its function's name."""
    FAULTS[function.__name__] = function
    return function


def _text(lines: list[str]) -> bytes:
    return ("\n".join(lines) + "\n").encode("utf-8")


def _line_of(lines: list[str], prefix: str) -> int:
    """The index of the first line starting with ``prefix``."""
    return next(i for i, line in enumerate(lines) if line.startswith(prefix))


def _set_top(lines: list[str], key: str, value: str) -> Broken:
    """Replace a top-level key's value; the fault is on that line."""
    i = _line_of(lines, f"{key}:")
    lines[i] = f"{key}: {value}"
    return Broken("", _text(lines), i + 1)


def _add_top(lines: list[str], rng: random.Random, entry: str) -> Broken:
    """Insert a top-level entry before a random top-level key (or at the end)."""
    tops = [i for i, line in enumerate(lines) if re.match(r"[a-z_]+:", line)] + [len(lines)]
    i = rng.choice(tops)
    lines.insert(i, entry)
    return Broken("", _text(lines), i + 1)


def _inject(lines: list[str], rng: random.Random, raw: bytes) -> Broken:
    """Insert raw bytes at a random place of a random non-empty line."""
    i = rng.randrange(len(lines))
    line = lines[i]
    at = rng.randrange(len(line) + 1)
    data = ("\n".join(lines[:i]) + ("\n" if i else "") + line[:at]).encode() + raw + (
        line[at:] + "\n" + "\n".join(lines[i + 1:]) + "\n").encode()
    return Broken("", data, i + 1, at + 1)


@fault
def integer_key(rng: random.Random, lines: list[str]) -> Broken:
    return _add_top(lines, rng, f"{rng.randrange(100)}: x")


@fault
def null_key(rng: random.Random, lines: list[str]) -> Broken:
    return _add_top(lines, rng, rng.choice(["null: x", "~: x", "Null: [1]"]))


@fault
def boolean_key(rng: random.Random, lines: list[str]) -> Broken:
    return _add_top(lines, rng, rng.choice(["true: x", "false: 1", "yes: y", "on: z"]))


@fault
def fraction_key(rng: random.Random, lines: list[str]) -> Broken:
    return _add_top(lines, rng, f"{rng.random():.3f}: x")


@fault
def negative_key_in_state(rng: random.Random, lines: list[str]) -> Broken:
    lines.append(f"  - state: {{hand_sizes: {{-{rng.randrange(1, 9)}: 3}}}}")
    return Broken("", _text(lines), len(lines))


@fault
def huge_integer(rng: random.Random, lines: list[str]) -> Broken:
    digits = "9" * rng.randrange(19, 6000)
    lines.append(f"  - seat: {digits}")
    lines.append("    action: {draw: stock}")
    return Broken("", _text(lines), len(lines) - 1)


@fault
def recursive_alias(rng: random.Random, lines: list[str]) -> Broken:
    form = rng.choice(["x: &r [*r]", "x: &r {a: *r}", "x: &r [1, [2, *r]]"])
    broken = _add_top(lines, rng, form)
    return Broken("", broken.data, broken.line, form.index("*") + 1)


@fault
def deep_nesting(rng: random.Random, lines: list[str]) -> Broken:
    depth = rng.randrange(500, 1000)
    return _add_top(lines, rng, "deep: " + "[" * depth + "]" * depth)


@fault
def deep_mapping(rng: random.Random, lines: list[str]) -> Broken:
    depth = rng.randrange(33, 200)
    return _add_top(lines, rng, "deep: " + "{a: " * depth + "1" + "}" * depth)


@fault
def not_utf8(rng: random.Random, lines: list[str]) -> Broken:
    return _inject(lines, rng, rng.choice([b"\xff", b"\xe9", b"\xc3\x28", b"\xed\xa0\x80", b"\x80abc"]))


@fault
def control_character(rng: random.Random, lines: list[str]) -> Broken:
    return _inject(lines, rng, bytes([rng.choice([c for c in range(1, 32) if c not in (9, 10, 13)] + [127])]))


@fault
def nul_byte(rng: random.Random, lines: list[str]) -> Broken:
    return _inject(lines, rng, b"\x00")


@fault
def tab_indentation(rng: random.Random, lines: list[str]) -> Broken:
    # Not a line continuing a flow list: a tab there is only whitespace, valid YAML.
    indented = [i for i, line in enumerate(lines) if line.startswith("  ") and not line.strip().startswith("#")
                and not (i and lines[i - 1].rstrip().endswith(","))]
    i = rng.choice(indented)
    lines[i] = "\t" + lines[i][2:]
    return Broken("", _text(lines), i + 1)


@fault
def unclosed_bracket(rng: random.Random, lines: list[str]) -> Broken:
    flows = [i for i, line in enumerate(lines) if line.rstrip().endswith("]")]
    i = rng.choice(flows)
    lines[i] = lines[i].rstrip()[:-1]
    return Broken("", _text(lines))


@fault
def unclosed_quote(rng: random.Random, lines: list[str]) -> Broken:
    i = _line_of(lines, "title:")
    lines[i] = 'title: "' + lines[i][len("title: "):]
    return Broken("", _text(lines))


@fault
def duplicate_key(rng: random.Random, lines: list[str]) -> Broken:
    # A key whose value fits on its line: a copied first line of a longer flow list breaks it elsewhere.
    keys = [k for k in ["title:", "game:", "basis:", "clauses:"] if not lines[_line_of(lines, k)].rstrip().endswith(",")]
    i = _line_of(lines, rng.choice(keys))
    lines.insert(i + 1, lines[i])
    return Broken("", _text(lines), i + 2, 1)


@fault
def bad_version_range(rng: random.Random, lines: list[str]) -> Broken:
    return _set_top(lines, "rule_versions", repr(rng.choice(
        ["=<2.0.0", ">=1.1", "1.x.0", ">> 1.0.0", "", "||", ">=1.0.0 ||", "latest", "^1", "~>1.1.0", "=>1.0.0"])))


@fault
def bad_card(rng: random.Random, lines: list[str]) -> Broken:
    card = re.compile(r"\b(?:10|[A2-9TJQK])[CDHS]\b")
    start = _line_of(lines, "layout:")
    end = next(i for i in range(start + 1, len(lines)) if re.match(r"[a-z_]+:", lines[i]))
    places = [(i, m) for i in range(start, end) if "#" not in lines[i] for m in card.finditer(lines[i])]
    if not places:  # a seeded layout names no card: break one in the steps instead
        places = [(i, m) for i in range(end, len(lines)) if "#" not in lines[i] for m in card.finditer(lines[i])]
    i, match = rng.choice(places)
    lines[i] = lines[i][:match.start()] + rng.choice(["ZZ", "1H", "QX", "11S", "AH2"]) + lines[i][match.end():]
    return Broken("", _text(lines), i + 1, match.start() + 1)


@fault
def bad_phase_in_state(rng: random.Random, lines: list[str]) -> Broken:
    lines.append(f"  - state: {{phase: {rng.choice(['42', 'lunch-break', 'true', '[draw]'])}}}")
    return Broken("", _text(lines), len(lines), len("  - state: {phase: ") + 1)


@fault
def bad_card_in_state(rng: random.Random, lines: list[str]) -> Broken:
    lines.append(f"  - state: {{hands: {{0: [{rng.choice(['ZZ', '1H', 'QX'])}]}}}}")
    return Broken("", _text(lines), len(lines), len("  - state: {hands: {0: [") + 1)


@fault
def misspelt_key(rng: random.Random, lines: list[str]) -> Broken:
    return _add_top(lines, rng, rng.choice(["stpes: []", "tittle: x", "option: {}", "Layout: {}"]))


@fault
def huge_id(rng: random.Random, lines: list[str]) -> Broken:
    return _set_top(lines, "id", "x" * rng.randrange(200, 300_000))


@fault
def huge_key(rng: random.Random, lines: list[str]) -> Broken:
    return _add_top(lines, rng, "k" * rng.randrange(200, 100_000) + ": 1")


@fault
def python_tag(rng: random.Random, lines: list[str]) -> Broken:
    return _set_top(lines, "title", rng.choice(
        ['!!python/object/apply:os.system ["ls"]', "!!binary aGVsbG8=", "!custom x", "!!set {a, b}"]))


@fault
def merge_key(rng: random.Random, lines: list[str]) -> Broken:
    return _add_top(lines, rng, "<<: {title: merged}")


@fault
def alias_bomb(rng: random.Random, lines: list[str]) -> Broken:
    bomb = ["a: &a [x, x, x, x, x, x, x, x, x, x]"]
    for i in range(1, 7):
        bomb.append(f"{chr(97 + i)}: &{chr(97 + i)} [" + ", ".join([f"*{chr(96 + i)}"] * 10) + "]")
    return Broken("", _text(lines + bomb))


@fault
def not_a_mapping(rng: random.Random, lines: list[str]) -> Broken:
    return Broken("", rng.choice([b"- a\n- b\n", b"just text\n", b"42\n", b"[1, 2]\n"]), 1, 1)


@fault
def empty(rng: random.Random, lines: list[str]) -> Broken:
    return Broken("", rng.choice([b"", b"\n\n", b"# only a comment\n", b"---\n", b"   \n"]), 1, 1)


@fault
def date_value(rng: random.Random, lines: list[str]) -> Broken:
    return _set_top(lines, "title", f"20{rng.randrange(10, 30)}-0{rng.randrange(1, 9)}-1{rng.randrange(9)}")


@fault
def repeated_clause(rng: random.Random, lines: list[str]) -> Broken:
    i = _line_of(lines, "clauses:")
    first = re.search(r"\[([^,\]]+)", lines[i])
    if first is None:
        return _set_top(lines, "clauses", "[a.b, a.b]")
    lines[i] = lines[i].replace("[", f"[{first.group(1)}, ", 1)
    return Broken("", _text(lines), i + 1)


@fault
def wrong_type(rng: random.Random, lines: list[str]) -> Broken:
    lines.append(f"  - seat: {rng.choice(['zero', '[0]', '{a: 1}', '1.5', 'true'])}")
    lines.append("    action: {draw: stock}")
    return Broken("", _text(lines), len(lines) - 1)


@fault
def oversized(rng: random.Random, lines: list[str]) -> Broken:
    return Broken("", _text(lines) + b"# " + b"x" * (1 << 20) + b"\n", 1, 1)


# Kinds that are slow to build or to read are drawn less often.
_WEIGHTS = {"oversized": 0.05, "huge_id": 0.3, "deep_nesting": 0.5}


def generate(count: int, seed: int) -> Iterator[Broken]:
    """``count`` broken fixtures, the same ones for the same seed, every kind of fault in turn."""
    rng = random.Random(seed)
    sources = [path.read_text(encoding="utf-8").splitlines() for path in fixture_files([fixtures_dir()])]
    kinds = sorted(FAULTS)
    made = 0
    while made < count:
        for kind in kinds:
            if made >= count:
                break
            if rng.random() > _WEIGHTS.get(kind, 1.0):
                continue
            broken = FAULTS[kind](rng, list(rng.choice(sources)))
            made += 1
            yield Broken(kind, broken.data, broken.line, broken.column)
