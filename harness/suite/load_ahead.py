"""Fixture files loaded and linted in a second process while this one runs the files before them.

On a large suite loading (YAML and lint, or the cache) and running take about as long each, so
with a second core the two overlap. The loader process (``python -m harness.suite.load_ahead``) writes
each file's result to its stdout in file order, pickled; the pipe holds only a few files ahead,
so memory stays flat. If it dies, this process loads the files it did not send itself.
"""

from __future__ import annotations

import os
import pickle
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any, BinaryIO

from harness.host.cores import usable_cores
from harness.spec import gamespec as specs
from harness.spec.gamefile import load_game_file
from harness.suite.model import to_record
from harness.suite.reading import load_file
from harness.suite.scenario_cache import ScenarioCache

THRESHOLD = 1000  # files: fewer, and starting a process (about 0.15 s) costs more than it saves

Loaded = tuple[Any, list[Any]]  # a scenario as plain data (or None), and the file's lint errors


def wanted(files: int) -> bool:
    """Whether ``files`` fixture files are worth a loader process: enough of them, and a second core."""
    return files >= THRESHOLD and usable_cores() > 1


def loaded(files: list[Path], names: list[str], cache: ScenarioCache | None) -> Iterator[Loaded]:
    """Each file's result, in order, from a loader process (the rest loaded here, with ``cache``, if it stops early)."""
    extra = [str(game.path) for game in specs.extra_game_specs()]
    try:
        process = subprocess.Popen([sys.executable, "-m", "harness.suite.load_ahead"], stdin=subprocess.PIPE,
                                   stdout=subprocess.PIPE)
    except OSError:
        yield from _here(files, names, cache)
        return
    assert process.stdin and process.stdout
    done = 0
    try:
        try:
            pickle.dump((files, names, cache.path if cache is not None else None, extra), process.stdin)
            process.stdin.close()
            while done < len(files):
                result = pickle.load(process.stdout)
                yield result
                done += 1
        except (EOFError, OSError, pickle.UnpicklingError):
            pass  # it died (killed, out of memory): what it did not send is loaded here
        if done == len(files):
            process.wait(timeout=10)  # its last cache writes
    except subprocess.TimeoutExpired:
        pass
    finally:
        if process.poll() is None:  # the run stopped early, or the writes hang
            process.kill()
            process.wait()
        process.stdout.close()
    yield from _here(files[done:], names[done:], cache)


def _here(files: list[Path], names: list[str], cache: ScenarioCache | None) -> Iterator[Loaded]:
    """Files loaded in this process."""
    for path, name in zip(files, names):
        scenario, errors = load_file(path, cache, name)
        yield (to_record(scenario) if scenario is not None else None), errors


def main(stdin: BinaryIO, stdout: BinaryIO) -> None:
    """The loader process: the game files the caller had added, then every file, in order."""
    files, names, cache_path, extra = pickle.load(stdin)
    specs.use_extra_game_specs([load_game_file(path) for path in extra])
    cache = ScenarioCache(cache_path) if cache_path is not None else None
    for result in _here(files, names, cache):
        pickle.dump(result, stdout, protocol=pickle.HIGHEST_PROTOCOL)
    stdout.flush()
    if cache is not None:
        cache.flush()


if __name__ == "__main__":
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the caller's to handle: it ends this process
    try:
        main(sys.stdin.buffer, sys.stdout.buffer)
    except BrokenPipeError:  # the caller stopped reading (it ended early): nothing to say
        os._exit(0)
