"""benchmarks/mine_shortcuts.py on a tiny budget: each shortcut is scored, and disagrees where the fixtures say."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "benchmarks" / "mine_shortcuts.py"


def _mine():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("mine_shortcuts", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _mask(cards: str) -> int:
    from reference_engine.cards import parse_card

    return sum(1 << parse_card(c) for c in cards.split())


def test_the_shortcuts_disagree_with_the_rules_on_the_mined_hands() -> None:
    mine = _mine()
    ten = _mask("3C 3D 4S 5C 5D 5S 6C 6D 6H 6S 7S")  # gin-rummy.mined.greedy-drop-misses-knock-at-ten
    assert mine.exact(ten, 10)[:1] == (True,) and mine.exact(ten, 10)[3] == 10
    assert mine.greedy(ten, 10)[0] is False and mine.greedy(ten, 10)[3] == 11
    eleven = _mask("AC AD AH AS 2C 2D 2S 3D 3H 4C 4D")  # gin-rummy.mined.eleven-card-deadwood-misses-knock
    assert (mine.exact(eleven, 10)[3], mine.eleven(eleven, 10)[3]) == (7, 11)
    wrap = _mask("AC AD 2C 2H 3H 6S 7C 7D 7H 7S KC")  # gin-rummy.mined.king-ace-two-not-a-run
    assert (mine.exact(wrap, 10)[3], mine.other_melds("wrap", mine.WRAPS)(wrap, 10)[3]) == (15, 6)


def test_a_tiny_run_scores_every_shortcut() -> None:
    done = subprocess.run([sys.executable, str(SCRIPT), "--hands", "400", "--show", "1"], capture_output=True,
                          text=True, cwd=ROOT, check=True, env={"PYTHONPATH": str(ROOT), "PATH": ""})
    names = [line.split()[0] for line in done.stdout.splitlines() if not line.startswith(" ")]
    assert names == ["greedy", "openspiel", "eleven", "split", "keeps-split", "wrap", "ace-high"]
    eleven = next(line for line in done.stdout.splitlines() if line.startswith("eleven"))
    assert int(eleven.split()[1]) > 0


def test_every_greedy_trap_of_the_fuzz_positions_is_one_at_its_knock_limit() -> None:
    from harness.fuzzing.positions.gin_rummy import MINED, card, greedy_traps

    mine = _mine()
    traps = greedy_traps()
    assert {0, 4, 10, 20} <= set(traps)
    for limit, hand in traps.items():
        mask = _mask(" ".join(card(r, s) for r, s in hand))
        assert mine.exact(mask, limit)[0] and not mine.greedy(mask, limit)[0], limit
    eleven, wrap = (_mask(" ".join(card(r, s) for r, s in hand)) for hand in MINED)
    assert mine.exact(eleven, 10)[0] and not mine.eleven(eleven, 10)[0]
    assert not mine.exact(wrap, 10)[0] and mine.other_melds("wrap", mine.WRAPS)(wrap, 10)[0]
