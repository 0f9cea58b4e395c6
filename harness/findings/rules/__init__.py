"""The position clauses of every level as checks on (view, choice), one module per game.

A game file names each position clause's check (``check: module:function``); a check answers
None when the choice keeps the clause, else why it does not, in words. Checks read the rule
text, never a player: they judge any engine's players, the reference's included.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from functools import cache
from typing import Any

Check = Callable[[dict[str, Any], dict[str, Any]], "str | None"]


class MissingCheck(LookupError):
    """A position clause whose ``check`` names nothing importable."""


def resolve(where: str) -> Check:
    """The function ``module:function`` names; MissingCheck when there is none."""
    module_name, _, name = where.partition(":")
    try:
        function = getattr(importlib.import_module(module_name), name)
    except (ImportError, AttributeError, ValueError) as error:
        raise MissingCheck(f"check {where!r} names no function ({error})") from None
    if not callable(function):
        raise MissingCheck(f"check {where!r} is not a function")
    return function  # type: ignore[no-any-return]


def checks_of(spec: Any, level: str) -> tuple[tuple[str, Check], ...]:
    """The (clause id, check) of every position clause of ``level``, in the game file's order."""
    return _checks(tuple((c.id, c.check) for c in spec.clauses.values()
                         if c.checked == "position" and c.level == level and c.check))


@cache
def _checks(named: tuple[tuple[str, str], ...]) -> tuple[tuple[str, Check], ...]:
    return tuple((clause, resolve(where)) for clause, where in named)


def broken(spec: Any, view: dict[str, Any], choice: dict[str, Any]) -> tuple[str, str] | None:
    """The first position clause of the view's level that ``choice`` breaks, with why; None when all hold."""
    for clause, check in checks_of(spec, view["level"]):
        why = check(view, choice)
        if why is not None:
            return clause, why
    return None
