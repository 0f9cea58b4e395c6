"""Subset comparison of a checkpoint against an engine's view, as a list of differences."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from harness.suite.patterns import includes, member


class _Missing:
    """The value of a key the engine's view does not have."""

    def __repr__(self) -> str:
        return "(missing)"


MISSING = _Missing()


@dataclass(frozen=True, slots=True)
class Difference:
    """One place where the engine's view differs from what the fixture expects."""

    path: str
    expected: Any
    actual: Any

    def __str__(self) -> str:
        return f"{self.path}: expected {self.expected!r}, got {self.actual!r}"


def differences(expected: Any, actual: Any, path: str = "") -> list[Difference]:
    """Where ``actual`` breaks ``expected``: mappings compare only the keys expected names.

    A mapping keyed by seat numbers checks only those entries of a list (``hands: {1: [...]}``);
    lists compare item by item and must have the same length; scalars compare exactly.
    """
    wanted = includes(expected)
    if wanted is not None and isinstance(actual, list):  # a membership check: these items, whatever else
        return [Difference(f"{path or '$'} (includes)", item, actual)
                for item in wanted if not any(member(item, element) for element in actual)]
    if isinstance(expected, dict):
        if isinstance(actual, list) and all(isinstance(k, int) and not isinstance(k, bool) for k in expected):
            return [d for k, v in expected.items()
                    for d in differences(v, actual[k] if 0 <= k < len(actual) else MISSING, f"{path}[{k}]")]
        if not isinstance(actual, dict):
            return [Difference(path or "$", expected, actual)]
        return [d for k, v in expected.items() if not _same_scalar(v, got := actual.get(k, MISSING))
                for d in differences(v, got, f"{path}.{k}" if path else str(k))]
    if isinstance(expected, list):
        if not isinstance(actual, list) or len(actual) != len(expected):
            return [Difference(path or "$", expected, actual)]
        return [d for i, (e, a) in enumerate(zip(expected, actual)) if not _same_scalar(e, a)
                for d in differences(e, a, f"{path}[{i}]")]
    if type(expected) is not type(actual) and not (_number(expected) and _number(actual)) or expected != actual:
        return [Difference(path or "$", expected, actual)]
    return []


_SCALARS = (str, int, float, bool, type(None))


def _same_scalar(expected: Any, actual: Any) -> bool:
    """The common case, settled without building a path: the same plain value, of the same type."""
    return type(expected) is type(actual) and type(expected) in _SCALARS and expected == actual


def _number(value: Any) -> bool:
    """An int or float that is not a bool."""
    return isinstance(value, (int, float)) and not isinstance(value, bool)
