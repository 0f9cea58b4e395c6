"""Safe, bounded YAML: plain data only, with the line and column of values kept.

Fixtures come from anyone, so no tags, no objects, keys that are names or seat numbers, small numbers, a size cap, a
depth cap and a cap on alias expansion (a "billion laughs" document fails fast instead of
eating the machine). Every refusal is a :class:`YamlError` at the exact line and column.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from typing import Any

import yaml

from harness.host.files import FileRefused, FileTooBig, read_regular

try:  # LibYAML composes about ten times faster than the pure-Python loader
    from yaml import CSafeLoader as _BaseLoader
except ImportError:  # pragma: no cover - PyYAML wheels ship LibYAML
    from yaml import SafeLoader as _BaseLoader  # type: ignore[assignment]


class _Loader(_BaseLoader):  # type: ignore[misc, valid-type]
    """The safe loader, resolving each distinct plain scalar once (fixtures repeat keys and cards)."""

    _resolved: dict[str, str] = {}

    def resolve(self, kind: Any, value: Any, implicit: Any) -> Any:
        if kind is not yaml.ScalarNode:  # no path resolvers are registered: collections keep their plain tags
            return self.DEFAULT_SEQUENCE_TAG if kind is yaml.SequenceNode else self.DEFAULT_MAPPING_TAG
        if not implicit[0]:  # quoted: text
            return self.DEFAULT_SCALAR_TAG
        tag = self._resolved.get(value)
        if tag is None:
            tag = super().resolve(kind, value, implicit)
            if len(value) < 64:
                if len(self._resolved) > 20_000:  # ids are distinct: keep the memo small on huge suites
                    self._resolved.clear()
                self._resolved[value] = tag
        return tag

    def descend_resolver(self, current_node: Any, current_index: Any) -> None:
        """No path resolvers are registered: nothing to track."""

    def ascend_resolver(self) -> None:
        """No path resolvers are registered: nothing to track."""

MAX_BYTES = 1 << 20
MAX_NODES = 100_000
MAX_DEPTH = 32  # fixtures nest about 6 deep; the cap keeps every later walk far from Python's stack limit
MAX_DIGITS = 18  # every number a fixture holds fits in 64 bits

Path = tuple[str | int, ...]

_SCALAR_TAGS = {
    "tag:yaml.org,2002:str", "tag:yaml.org,2002:int", "tag:yaml.org,2002:bool",
    "tag:yaml.org,2002:null", "tag:yaml.org,2002:float",
}
_STR = "tag:yaml.org,2002:str"
_INT = "tag:yaml.org,2002:int"
_CONSTRUCTOR = yaml.SafeLoader("")
_CONSTRUCT = {  # straight to the constructors, without construct_object's bookkeeping
    "tag:yaml.org,2002:int": _CONSTRUCTOR.construct_yaml_int, "tag:yaml.org,2002:bool": _CONSTRUCTOR.construct_yaml_bool,
    "tag:yaml.org,2002:null": _CONSTRUCTOR.construct_yaml_null,
    "tag:yaml.org,2002:float": _CONSTRUCTOR.construct_yaml_float,
}
# What YAML forbids in a stream (YAML 1.1 c-printable), searched before parsing to place it exactly.
_FORBIDDEN = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x84\x86-\x9f\ud800-\udfff\ufffe\uffff]")
_QUOTE_LIMIT = 60

# LibYAML's wording of common mistakes, and what to do about each.
_ADVICE = {
    "found character that cannot start any token":
        "this character cannot start a value: indent with spaces, not tabs, and put values "
        "starting with @, ` or % in quotes",
    "mapping values are not allowed here":
        "a ':' inside a plain value: put the value in quotes, or put a space after the key's ':'",
    "mapping values are not allowed in this context":
        "a ':' inside a plain value: put the value in quotes, or put a space after the key's ':'",
    "found undefined alias": "an alias (*name) without a matching anchor (&name) before it: define the anchor first",
    "found a tab character that violates indentation": "a tab used for indentation: indent with spaces",
    "found a tab character where an indentation space is expected": "a tab used for indentation: indent with spaces",
    "could not find expected ':'": "a key without ':' (or a value that runs over several lines): "
                                   "add the ':' or put the value in quotes",
    "found unexpected end of stream": "the file ends inside a quoted value or a bracket: close it",
    "exceeded maximum nesting depth": f"nested too deep: fixtures nest at most {MAX_DEPTH} levels",
}


def quote(value: Any, limit: int = _QUOTE_LIMIT) -> str:
    """``repr(value)``, cut to about ``limit`` characters so that a huge input is not echoed whole."""
    text = repr(value)
    if len(text) <= limit:
        return text
    return f"{text[:limit - 1]}…({len(text)} characters)"


class YamlError(ValueError):
    """A document that is not safe, plain YAML data; carries its position."""

    def __init__(self, message: str, line: int, column: int, path: Path = ()) -> None:
        super().__init__(message)
        self.message, self.line, self.column, self.path = message, line, column, path


@dataclass
class Document:
    """Plain data plus where values sit in the file (1-based line and column).

    Parsed with ``marks="top"`` it knows only the top-level keys and their direct items
    (enough to point at a fixture and its steps); ``marks="all"`` knows every value.
    """

    data: Any
    marks: dict[Path, tuple[int, int]] = field(default_factory=dict)

    def position(self, path: Path) -> tuple[int, int]:
        """The position of ``path``, or of its nearest ancestor that exists."""
        while path not in self.marks and path:
            path = path[:-1]
        return self.marks.get(path, (1, 1))


def read_bounded(path: str | os.PathLike[str]) -> bytes:
    """A regular file's bytes, refusing (``OSError``/``YamlError``) anything else or anything past the size cap."""
    try:
        return read_regular(path, MAX_BYTES)
    except FileTooBig:
        raise _too_big() from None
    except FileRefused:
        raise YamlError("not a regular file (a folder, a pipe or a device): give a fixture file", 1, 1) from None


def _too_big() -> YamlError:
    return YamlError(f"file is larger than {MAX_BYTES} bytes; split it into several fixtures", 1, 1)


def decode(data: bytes) -> str:
    """UTF-8 text, or a :class:`YamlError` at the first byte that is not."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        line, column = byte_position(data, error.start)
        bad = data[error.start:error.end].hex(" ")
        raise YamlError(f"byte(s) {bad} are not UTF-8: save the file as UTF-8", line, column) from None
    text = text[1:] if text.startswith("\ufeff") else text
    if text.startswith("\ufeff"):  # YAML would skip it too, and the file would pass for one that another tool reads
        raise YamlError("the file starts with two byte-order marks: save it as UTF-8 with one at most", 1, 1)
    return text


def byte_position(data: bytes, offset: int) -> tuple[int, int]:
    """The 1-based line and column (in characters) of byte ``offset``."""
    start = data.rfind(b"\n", 0, offset) + 1
    return data.count(b"\n", 0, offset) + 1, len(data[start:offset].decode("utf-8", "replace")) + 1


def load(source: str | bytes, marks: str = "all") -> Document:
    """Parse ``source`` into a :class:`Document`, raising :class:`YamlError` on anything unsafe."""
    if len(source) > MAX_BYTES:
        raise _too_big()
    text = decode(source) if isinstance(source, bytes) else source
    forbidden = _FORBIDDEN.search(text)
    if forbidden:
        line, column = _text_position(text, forbidden.start())
        raise YamlError(f"control character U+{ord(forbidden.group()):04X} is not allowed in YAML: delete it, "
                        "or write it as an escape inside double quotes", line, column)
    try:
        node = yaml.compose(text, Loader=_Loader)
    except yaml.MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        line, column = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        problem = str(error.problem or error.context)
        raise YamlError(f"not valid YAML: {_ADVICE.get(problem, problem)}", line, column) from None
    except yaml.reader.ReaderError as error:  # pragma: no cover - the forbidden characters are found above
        line, column = byte_position(text.encode("utf-8"), error.position)
        raise YamlError(f"not valid YAML: {error.reason}", line, column) from None
    except yaml.YAMLError as error:  # pragma: no cover - unmarked errors are rare
        raise YamlError(f"not valid YAML: {error}", 1, 1) from None
    if node is None or (isinstance(node, yaml.ScalarNode) and node.tag == "tag:yaml.org,2002:null" and not node.value):
        raise YamlError("the file is empty: a fixture is a mapping with id, title, game, ...", 1, 1)
    aliases = "*" in text  # without an alias no value is shared: no expansion, no cycle to look for
    if aliases:
        _check_expansion(node)
    document = Document(None)
    converter = _Converter(text, document.marks, 3 if marks == "top" else MAX_DEPTH + 1, aliases)
    document.data = converter.convert(node, (), 0)
    return document


def _check_expansion(root: yaml.Node) -> None:
    """Refuse a document that aliases would expand past ``MAX_NODES``, blaming the top-level entry that does.

    Sizes are summed over the composed graph with memoisation, so a "billion laughs" costs a
    few hundred steps instead of the expansion itself.
    """
    sizes: dict[int, int] = {}

    def size(node: yaml.Node, depth: int) -> int:
        known = sizes.get(id(node))
        if known is not None:
            return known
        if isinstance(node, yaml.ScalarNode) or depth > MAX_DEPTH:
            return 1  # too deep: the converter says so, at its place
        sizes[id(node)] = 0  # a cycle counts nothing here: the converter reports it
        children = node.value if isinstance(node, yaml.SequenceNode) else [n for pair in node.value for n in pair]
        total = 1 + sum(size(child, depth + 1) for child in children)
        sizes[id(node)] = total
        return total

    entries = root.value if isinstance(root, yaml.MappingNode) else [(None, root)]
    total = 1
    for key, value in entries:
        total += size(value, 1) + 1
        if total > MAX_NODES:
            path: Path = (key.value,) if isinstance(key, yaml.ScalarNode) else ()
            raise YamlError(f"more than {MAX_NODES} values once aliases are expanded: "
                            "use fewer aliases, or write the values out", *_where(value), path)


def _text_position(text: str, index: int) -> tuple[int, int]:
    """The 1-based line and column of character ``index``."""
    return text.count("\n", 0, index) + 1, index - (text.rfind("\n", 0, index) + 1) + 1


class _Converter:
    """Builds plain data from composed nodes, recording positions down to ``mark_depth``."""

    def __init__(self, text: str, marks: dict[Path, tuple[int, int]], mark_depth: int, aliases: bool) -> None:
        self.text, self.marks, self.mark_depth, self.aliases = text, marks, mark_depth, aliases
        self.budget = MAX_NODES
        self.open: set[int] = set()  # the collections being built: meeting one again is a recursive alias

    def convert(self, node: yaml.Node, path: Path, depth: int) -> Any:
        """The plain value of ``node`` at ``path``."""
        self.budget -= 1
        if self.budget < 0:  # blame the top-level entry being expanded: an alias's own mark is its anchor's
            top = path[:1]
            raise YamlError(f"more than {MAX_NODES} values once aliases are expanded", *self.marks.get(top, (1, 1)), top)
        if depth < self.mark_depth:
            self.marks.setdefault(path, _where(node))
        if isinstance(node, yaml.ScalarNode):
            return self.scalar(node, path)
        if depth >= MAX_DEPTH:
            raise YamlError(f"nested more than {MAX_DEPTH} levels deep: fixtures are flat data; "
                            "check for unclosed brackets", *_where(node), path)
        if not self.aliases:
            return self.collection(node, path, depth)
        if id(node) in self.open:
            raise YamlError("an alias (*name) inside the very value its anchor (&name) names: "
                            "a value cannot contain itself", *self.alias_position(), path)
        self.open.add(id(node))
        try:
            return self.collection(node, path, depth)
        finally:
            self.open.discard(id(node))

    def collection(self, node: yaml.Node, path: Path, depth: int) -> Any:
        """A list or a mapping."""
        if isinstance(node, yaml.SequenceNode):
            _check_tag(node, "tag:yaml.org,2002:seq", path)
            return [self.convert(item, path + (i,), depth + 1) for i, item in enumerate(node.value)]
        _check_tag(node, "tag:yaml.org,2002:map", path)
        mapping: dict[str | int, Any] = {}
        for key_node, value_node in node.value:
            key = self.key(key_node, path)
            if key in mapping:
                raise YamlError(f"duplicate key {quote(key)}: give each key once", *_where(key_node), path + (key,))
            mapping[key] = self.convert(value_node, path + (key,), depth + 1)
        return mapping

    def scalar(self, node: yaml.ScalarNode, path: Path) -> Any:
        """A string, number, boolean or null."""
        if node.tag == _STR:  # by far the most common: skip the constructor's bookkeeping
            return node.value
        if node.tag == "tag:yaml.org,2002:timestamp":  # only a plain scalar resolves to one
            raise YamlError(f"{quote(node.value)} reads as a date: put it in quotes to make it text", *_where(node), path)
        if node.tag not in _SCALAR_TAGS:
            raise YamlError(f"tag {quote(node.tag)} is not allowed: fixtures hold plain data only", *_where(node), path)
        if node.tag == _INT and sum(c.isalnum() for c in node.value) > MAX_DIGITS:
            raise YamlError(f"a number of {len(node.value)} characters is too large: fixtures hold numbers "
                            f"of at most {MAX_DIGITS} digits", *_where(node), path)
        return _CONSTRUCT[node.tag](node)

    def key(self, node: yaml.Node, path: Path) -> str | int:
        """A mapping key: a name, or a whole number (a checkpoint names seats by number)."""
        if not isinstance(node, yaml.ScalarNode) or node.tag == "tag:yaml.org,2002:merge":
            raise YamlError("keys must be plain names (no merge keys, lists or mappings as keys)", *_where(node), path)
        if node.tag == _STR:
            return str(node.value)
        if node.tag == _INT:
            key = self.scalar(node, path)
            if isinstance(key, int) and key >= 0:
                return key
        kind = {"tag:yaml.org,2002:int": "a negative number", "tag:yaml.org,2002:float": "a fraction",
                "tag:yaml.org,2002:bool": "true or false", "tag:yaml.org,2002:null": "null"}.get(node.tag, "no name")
        raise YamlError(f"the key {quote(node.value)} reads as {kind}: keys are names (or seat numbers); "
                        f"put it in quotes ('{node.value[:_QUOTE_LIMIT]}':) or rename it", *_where(node), path)

    def alias_position(self) -> tuple[int, int]:
        """Where the first alias to a still-open anchor is (only composed nodes know no alias)."""
        anchors: list[str | None] = []
        for event in yaml.parse(self.text, Loader=_Loader):
            if isinstance(event, (yaml.SequenceStartEvent, yaml.MappingStartEvent)):
                anchors.append(event.anchor)
            elif isinstance(event, (yaml.SequenceEndEvent, yaml.MappingEndEvent)):
                anchors.pop()
            elif isinstance(event, yaml.AliasEvent) and event.anchor in anchors and event.start_mark:
                return event.start_mark.line + 1, event.start_mark.column + 1
        return 1, 1  # pragma: no cover - the composer found the cycle, so the events hold it


def _check_tag(node: yaml.Node, tag: str, path: Path) -> None:
    """Collections carry only their plain tag."""
    if node.tag != tag:
        raise YamlError(f"tag {quote(node.tag)} is not allowed: fixtures hold plain data only", *_where(node), path)


def _where(node: yaml.Node) -> tuple[int, int]:
    """The 1-based line and column where ``node`` starts."""
    return node.start_mark.line + 1, node.start_mark.column + 1
