"""Game files named by the user: a path, or ``GAME@VERSION`` for a bundled one; checked before use."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from harness.host.files import FileRefused, parse_data, read_utf8
from harness.spec import gamespec as specs
from harness.spec.paths import local_games_dir, spec_dir

FILE_LIMIT = 4 << 20  # bytes of a game file: the bundled ones are about 35 KB


class GameFileError(Exception):
    """A game file that cannot be used, with what to do."""


def load_game_file(path: str | Path) -> specs.GameSpec:
    """A game file from disk, checked against spec/schemas/game-spec.schema.json."""
    path = Path(path)
    try:
        data = parse_data(path, read_utf8(path, FILE_LIMIT), "yaml")
    except FileRefused as error:
        raise GameFileError(f"{error}; give a game file (spec/games/ has the bundled ones)") from None
    except OSError as error:
        raise GameFileError(f"{path}: cannot read it ({error.strerror or error})") from None
    problems = sorted(specs.validator("game-spec.schema.json").iter_errors(data), key=lambda e: list(e.absolute_path))
    if problems:
        first = problems[0]
        where = "$" + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in first.absolute_path)
        raise GameFileError(f"{path}: {where}: {first.message} (spec/schemas/game-spec.schema.json; "
                            f"{len(problems)} problem(s) in all)")
    return specs.GameSpec(data, path)


def resolve(name: str) -> specs.GameSpec:
    """``GAME@VERSION`` (a bundled game file, or one given with --game-file) or a path to a game file."""
    if "@" in name and not Path(name).exists():
        game, _, version = name.partition("@")
        for spec in specs.game_specs():
            if spec.game == game and spec.rule_version == version:
                return spec
        for path in local_game_files([]):  # one new-version wrote in ./spec/games
            spec = load_game_file(path)
            if spec.game == game and spec.rule_version == version:
                return spec
        known = ", ".join(f"{s.game}@{s.rule_version}" for s in specs.game_specs())
        raise GameFileError(f"no game file for {name}: the kit has {known}; or give the path of a game file")
    return load_game_file(name)


def local_game_files(given: Sequence[str]) -> list[Path]:
    """The game files of ./spec/games (where ``new-version`` writes) not bundled and not given already."""
    folder = local_games_dir()
    if not folder.is_dir() or folder.resolve() == (spec_dir() / "games").resolve():
        return []  # none, or the working directory is the kit's checkout: they are bundled
    named = {Path(path).resolve() for path in given}
    bundled = {(s.game, s.rule_version) for s in specs.game_specs()}
    found = []
    for path in sorted(folder.glob("*.yaml")):
        if path.resolve() in named:
            continue
        spec = load_game_file(path)
        if (spec.game, spec.rule_version) not in bundled:  # a copy of a bundled version adds nothing
            found.append(path)
    return found


@contextmanager
def extra_game_files(paths: Sequence[str] | None) -> Iterator[None]:
    """The bundled game files, these and those of ./spec/games, while inside; a clash with a bundled version is an error."""
    named: list[str | Path] = [*(paths or []), *local_game_files(paths or [])]
    extra = [load_game_file(path) for path in named]
    bundled = {(s.game, s.rule_version): s.path for s in specs.game_specs()}
    for spec in extra:
        if (spec.game, spec.rule_version) in bundled:
            raise GameFileError(f"{spec.path}: {spec.game} {spec.rule_version} is already in the kit "
                                f"({bundled[spec.game, spec.rule_version]}); give it another rule_version")
        bundled[spec.game, spec.rule_version] = spec.path
    specs.use_extra_game_specs(extra)
    try:
        yield
    finally:
        specs.use_extra_game_specs([])
