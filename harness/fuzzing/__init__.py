"""Differential fuzzing, engine-agnostic invariants and the mutation score of the fixture suite.

``add_commands(subparsers)`` adds the ``fuzz``, ``properties`` and ``mutants`` commands to the
CLI; ``COMMANDS`` maps each name to its function (argparse Namespace in, exit code out).
Modules: ``campaign`` (Hypothesis runs), ``setups`` (deals and options), ``actions`` (what to
try), ``lockstep`` (two engines compared), ``invariants`` and ``properties`` (one engine alone),
``layouts`` (views to layouts), ``games`` (what the spec says of each game), ``writer`` and
``verify`` (fixtures from findings), ``variants``, ``mutants``, ``mutation`` and ``herd`` (the score),
``engines`` and ``commands`` (the CLI), ``pytest_campaign`` and ``campaign_items`` (xdist).
"""

from __future__ import annotations

from harness.fuzzing.commands import COMMANDS, add_commands

__all__ = ["COMMANDS", "add_commands"]
