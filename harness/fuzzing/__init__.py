"""Differential fuzzing, engine-agnostic invariants and the mutation score of the fixture suite.

``add_commands(subparsers)`` adds the ``fuzz``, ``properties`` and ``mutants`` commands to the
CLI; ``COMMANDS`` maps each name to its function (argparse Namespace in, exit code out).
Modules: ``campaign`` (Hypothesis runs), ``lockstep`` (two engines compared), ``invariants``,
``properties`` (one engine alone), ``actions`` (what to try), ``layouts`` (views to layouts),
``writer`` / ``verify`` (fixtures from findings), ``variants`` / ``mutants`` / ``mutation``.
"""

from __future__ import annotations

from typing import Any

from harness.fuzzing.commands import COMMANDS, add_commands

__all__ = ["COMMANDS", "add_commands"]
