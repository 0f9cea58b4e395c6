"""A new rule version of a game: the game file copied under the new version, and what needs a decision."""

from __future__ import annotations

import re
from pathlib import Path

from harness.spec import gamespec as specs
from harness.spec.gamefile import GameFileError
from harness.spec.semver import in_range, parse_version
from harness.suite.model import Scenario


def new_version_text(old: specs.GameSpec, to: str) -> str:
    """The old game file's text with the version changed in its ``rule_version`` line and its comments.

    The text is edited, not re-dumped, so comments and layout survive for a human to review.
    """
    text = old.path.read_text(encoding="utf-8")
    line = re.compile(rf"^rule_version:\s*['\"]?{re.escape(old.rule_version)}['\"]?\s*$", re.MULTILINE)
    if not line.search(text):
        raise GameFileError(f"{old.path}: no `rule_version: {old.rule_version}` line to change")
    text = line.sub(f"rule_version: {to}", text, count=1)
    # the header comment names the version too ("Rummy, CardVerse variant 1.1.0: ...")
    return re.sub(rf"^(#.*?)\b{re.escape(old.rule_version)}\b", rf"\g<1>{to}", text, count=1, flags=re.MULTILINE)


def check_versions(old: specs.GameSpec, to: str) -> None:
    """The new version must be a later semantic version that the game does not have yet."""
    try:
        newer = parse_version(to) > parse_version(old.rule_version)
    except ValueError:
        raise GameFileError(f"{to!r} is not a version: write MAJOR.MINOR.PATCH, e.g. 1.2.0") from None
    if not newer:
        raise GameFileError(f"{to} is not later than {old.rule_version}: a new version goes up")
    if any(s.game == old.game and s.rule_version == to for s in specs.game_specs()):
        raise GameFileError(f"{old.game} {to} exists already")


def decisions(old: specs.GameSpec, to: str, out: Path, scenarios: list[Scenario]) -> list[str]:
    """What the author of the new version has to decide or do next, one line each."""
    game = old.game
    mine = [s for s in scenarios if s.game == game]
    both = [s for s in mine if in_range(old.rule_version, s.rule_versions) and in_range(to, s.rule_versions)]
    left = [s for s in mine if in_range(old.rule_version, s.rule_versions) and not in_range(to, s.rule_versions)]
    lines = [
        f"{out}: every clause, option and default is still {old.rule_version}'s: edit what {to} changes "
        "(a changed rule keeps its clause id; a new rule gets a new id)",
        f"`source:` in {out} names {old.data['source']}: point it at the {to} rule text",
        f"{len(both)} of {len(mine)} {game} fixture(s) cover both {old.rule_version} and {to} and run against "
        f"{to} unchanged; after editing, `diff {game}@{old.rule_version} {out}` lists those to revisit",
    ]
    if left:
        lines.append(f"{len(left)} fixture(s) stop at {old.rule_version} (their rule_versions exclude {to}): "
                     + ", ".join(s.id for s in left))
    lines += [
        f"the reference engine plays {to} from {out} while it differs from {old.rule_version} only in data (players, "
        f"options' defaults and ranges, `numbers`); a rule whose text changes needs code in "
        f"reference_engine/{game.replace('-', '_')}/ (`diff` ends with what needs code), and until then every "
        f"command refuses {to} on the reference naming those clauses",
        f"engines: an engine runs {to}'s fixtures once it declares {to} in describe() `rule_versions`; "
        f"one declaring both runs each fixture once per version (`run --game-file {out}`)",
        f"the rule documents: `texts DOC ... --game-file {out}` lists the paragraphs changed since "
        f"{old.rule_version}; record the new ones with `texts DOC ... --record`",
    ]
    return lines
