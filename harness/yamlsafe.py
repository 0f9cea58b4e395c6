"""Safe, bounded YAML: plain data only, with the line and column of every value kept.

Fixtures come from anyone, so no tags, no objects, a size cap and a cap on alias expansion
(a "billion laughs" document fails fast instead of eating the machine).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import yaml

try:  # LibYAML composes about ten times faster than the pure-Python loader
    from yaml import CSafeLoader as _Loader
except ImportError:  # pragma: no cover - PyYAML wheels ship LibYAML
    from yaml import SafeLoader as _Loader  # type: ignore[assignment]

MAX_BYTES = 1 << 20
MAX_NODES = 100_000

Path = tuple[str | int, ...]

_SCALAR_TAGS = {
    "tag:yaml.org,2002:str", "tag:yaml.org,2002:int", "tag:yaml.org,2002:bool",
    "tag:yaml.org,2002:null", "tag:yaml.org,2002:float",
}
_STR = "tag:yaml.org,2002:str"
_CONSTRUCTOR = yaml.SafeLoader("")


class YamlError(ValueError):
    """A document that is not safe, plain YAML data; carries its position."""

    def __init__(self, message: str, line: int, column: int, path: Path = ()) -> None:
        super().__init__(message)
        self.message, self.line, self.column, self.path = message, line, column, path


@dataclass
class Document:
    """Plain data plus where each value sits in the file (1-based line and column)."""

    data: Any
    marks: dict[Path, tuple[int, int]] = field(default_factory=dict)

    def position(self, path: Path) -> tuple[int, int]:
        """The position of ``path``, or of its nearest ancestor that exists."""
        while path not in self.marks and path:
            path = path[:-1]
        return self.marks.get(path, (1, 1))


def load(text: str) -> Document:
    """Parse ``text`` into a :class:`Document`, raising :class:`YamlError` on anything unsafe."""
    if len(text) > MAX_BYTES:
        raise YamlError(f"file is larger than {MAX_BYTES} bytes; split it into several fixtures", 1, 1)
    try:
        node = yaml.compose(text, Loader=_Loader)
    except yaml.MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        line, column = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        raise YamlError(f"not valid YAML: {error.problem or error.context}", line, column) from None
    except yaml.YAMLError as error:  # pragma: no cover - unmarked errors are rare
        raise YamlError(f"not valid YAML: {error}", 1, 1) from None
    document = Document(None)
    if node is None:
        raise YamlError("the file is empty", 1, 1)
    budget = [MAX_NODES]
    document.data = _convert(node, (), document.marks, budget)
    return document


def _convert(node: yaml.Node, path: Path, marks: dict[Path, tuple[int, int]], budget: list[int]) -> Any:
    """Build plain data from ``node``, recording positions and enforcing the node budget."""
    budget[0] -= 1
    if budget[0] < 0:  # blame the top-level entry being expanded: an alias's own mark is its anchor's
        top = path[:1]
        raise YamlError(f"more than {MAX_NODES} values once aliases are expanded", *marks.get(top, (1, 1)), top)
    marks.setdefault(path, _where(node))
    if isinstance(node, yaml.ScalarNode):
        if node.tag == _STR:  # by far the most common: skip the constructor's bookkeeping
            return node.value
        if node.tag not in _SCALAR_TAGS:
            raise YamlError(f"tag {node.tag} is not allowed: fixtures hold plain data only", *_where(node), path)
        return _CONSTRUCTOR.construct_object(node)
    if isinstance(node, yaml.SequenceNode):
        if node.tag != "tag:yaml.org,2002:seq":
            raise YamlError(f"tag {node.tag} is not allowed: fixtures hold plain data only", *_where(node), path)
        return [_convert(item, path + (i,), marks, budget) for i, item in enumerate(node.value)]
    if node.tag != "tag:yaml.org,2002:map":
        raise YamlError(f"tag {node.tag} is not allowed: fixtures hold plain data only", *_where(node), path)
    mapping: dict[Any, Any] = {}
    for key_node, value_node in node.value:
        if not isinstance(key_node, yaml.ScalarNode) or key_node.tag == "tag:yaml.org,2002:merge":
            raise YamlError("keys must be plain scalars (no merge keys)", *_where(key_node), path)
        key = _convert(key_node, path + ("<key>",), {}, budget)
        if key in mapping:
            raise YamlError(f"duplicate key {key!r}", *_where(key_node), path + (key,))
        mapping[key] = _convert(value_node, path + (key,), marks, budget)
    return mapping


def _where(node: yaml.Node) -> tuple[int, int]:
    """The 1-based line and column where ``node`` starts."""
    return node.start_mark.line + 1, node.start_mark.column + 1
