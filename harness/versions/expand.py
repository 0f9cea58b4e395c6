"""One run of a fixture per rule version: the versions the fixture covers, the spec has and the engine declares."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from harness.spec import gamespec as specs
from harness.suite.model import Scenario


def wanted(choices: Sequence[str] | None) -> list[tuple[str | None, str]]:
    """``--rule-version`` values as (game or None, version)."""
    pairs: list[tuple[str | None, str]] = []
    for choice in choices or []:
        game, _, version = choice.rpartition("@")
        pairs.append((game or None, version))
    return pairs


def unknown_versions(choices: Sequence[str] | None) -> list[str]:
    """A message for each ``--rule-version`` naming a game or a version the spec (with --game-file) does not have."""
    from harness.spec.names import unknown

    problems = []
    for game, version in wanted(choices):
        if game is not None and game not in specs.games():
            problems.append(specs.unknown_game(game))
            continue
        known = [s.rule_version for s in specs.game_specs() if game in (None, s.game)]
        if version not in known:
            problems.append(unknown(f"rule version of {game}" if game else "rule version", version, known)
                            + "; a new one is written with `cardverse-conformance new-version`")
    return problems


def per_version(scenarios: list[Scenario], description: dict[str, Any],
                choices: Sequence[str] | None = None) -> list[Scenario]:
    """Each scenario once per version to run it for, pinned to that version (``rule_versions: "=V"``).

    With ``choices`` (``--rule-version``) only those versions, and a fixture covering none of them
    is left out. Otherwise every version the engine declares; a fixture with no such version is
    kept as it is, for the runner to skip with its reason.
    """
    picked = wanted(choices)
    out = []
    for scenario in scenarios:
        covered = [s.rule_version for s in specs.specs_in_range(scenario.game, scenario.rule_versions)]
        if picked:
            versions = [v for v in covered if any(g in (None, scenario.game) and v == w for g, w in picked)]
            if not versions:
                continue
        else:
            declared = set((description.get("games") or {}).get(scenario.game, {}).get("rule_versions") or [])
            versions = [v for v in covered if v in declared]
            if len(versions) <= 1:
                out.append(scenario)  # the runner picks that one version, or says why there is none
                continue
        out.extend(replace(scenario, rule_versions=f"={version}") for version in versions)
    return out
