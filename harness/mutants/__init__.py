"""The mutation score: a catalogue of deliberate rule mistakes in the reference engine, and who finds them.

``--engine harness.mutants:NAME`` makes the mutant NAME (``mutants --list`` shows the catalogue).
Modules: ``catalogue`` (the mutants and the edits that make them), ``variants`` (a reference engine
built with an edit), ``herd`` (fuzz against several mutants at once), ``scoring`` (fixtures and fuzz
against each mutant, on worker processes or a cluster) and ``commands`` (the ``mutants`` command).
"""

from __future__ import annotations

import importlib
from typing import Any


def __getattr__(name: str) -> Any:
    """The factory of the mutant ``name``, for ``--engine harness.mutants:NAME``."""
    if name.startswith("_"):
        raise AttributeError(name)
    # import_module, not ``from harness.mutants import``: that would ask this very function again.
    return getattr(importlib.import_module("harness.mutants.catalogue"), name)
