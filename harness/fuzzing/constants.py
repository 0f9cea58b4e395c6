"""Hypothesis without the constants of the kit's own source: a seed plays the same games across kit versions.

Hypothesis (6.1xx) now and then draws a number from the constants it finds in the source of
"local" modules, those loaded from outside site-packages. The kit's own modules are local under
``pip install -e .`` and not under ``pip install .``, and their constants change with every edit,
so a seed played other games between installs, between the CLI and pytest (which loads other
modules) and after any change to the kit. No setting turns this off; ``without_local_constants``
makes Hypothesis see no local constants while a campaign runs (its global constants, the same
for everyone, stay). A Hypothesis without the hook runs unchanged.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from hypothesis.internal.conjecture import providers

HOOK = "_get_local_constants"  # the function every new test case asks for the local constants


def hooked() -> bool:
    """Whether this Hypothesis has the hook, so local constants can be turned off."""
    cache = getattr(getattr(providers, "CONSTANTS_CACHE", None), "cache", None)
    return callable(getattr(providers, HOOK, None)) and callable(getattr(cache, "clear", None))


@contextmanager
def without_local_constants() -> Iterator[None]:
    """Inside: Hypothesis draws no constant from local source files."""
    if not hooked():
        yield
        return
    original: Any = getattr(providers, HOOK)
    none = providers.Constants()
    setattr(providers, HOOK, lambda: none)
    providers.CONSTANTS_CACHE.cache.clear()  # it holds the local constants allowed for each draw seen
    try:
        yield
    finally:
        setattr(providers, HOOK, original)
        providers.CONSTANTS_CACHE.cache.clear()
