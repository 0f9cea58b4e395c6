"""The README's install lines name the kit as it can be found: from a checkout, its git URL or a wheel (not on PyPI)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).parent.parent
NAMED = re.compile(r"""pip install (?:-e )?["']?cardverse-conformance(\[[\w,]+\])?([^"'`\n]*)""")


def test_every_install_of_the_kit_by_name_gives_its_git_url() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    named = NAMED.findall(readme)
    assert named  # the extras are installed by name somewhere
    assert all(rest.strip().startswith("@ git+https://") for _, rest in named), named


def test_every_extra_the_readme_installs_exists() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")  # tomllib is 3.11's; the kit runs on 3.10
    optional = pyproject.split("[project.optional-dependencies]")[1].split("\n[")[0]
    extras = set(re.findall(r"^([\w-]+) = \[", optional, re.MULTILINE))
    named = {e for group in re.findall(r"pip install [^`\n]*?\[([\w,]+)\]", readme) for e in group.split(",")}
    assert named and named <= extras, named - extras


def test_the_errors_that_ask_for_an_extra_give_the_readmes_install_line() -> None:
    from harness import install_line

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for extra in ("zstd", "cluster", "browser"):
        assert install_line(extra) in readme
    code = "\n".join(p.read_text(encoding="utf-8") for p in (ROOT / "harness").rglob("*.py"))
    assert not re.search(r"pip install '?\"?cardverse-conformance\[\w+\]'", code)  # by name alone: no such distribution

