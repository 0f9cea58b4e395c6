"""Differential fuzzing and engine-agnostic invariants: random games on an engine, beside the reference or alone.

``add_commands(subparsers)`` adds the ``fuzz`` and ``properties`` commands to the CLI; ``COMMANDS``
maps each name to its function (argparse Namespace in, exit code out). Modules: ``campaign``
(Hypothesis runs), ``setups`` (deals and options), ``positions/`` (mid-game positions), ``actions``
(what to try), ``lockstep`` (two engines compared), ``blame`` (the clauses a divergence is charged
to), ``invariants`` and ``properties`` (one engine alone), ``seeds`` (seed ranges and clusters),
``commands`` (the CLI), ``pytest_campaign`` and ``campaign_items`` (xdist). What a finding is and
how it becomes a fixture is ``harness.findings``; the mutation score is ``harness.mutants``.
"""

from __future__ import annotations

from harness.fuzzing.commands import COMMANDS, add_commands

__all__ = ["COMMANDS", "add_commands"]
