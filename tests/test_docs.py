"""Docs are tests: every Python block of README.md, CONTRIBUTING.md and docs/*.md runs.

The blocks of one page run in order in one namespace (a page reads top to bottom). A block
whose first line is ``# continues examples/NAME.py`` runs after that example file's code
(its ``main()`` guard left out), so it can use the names the example defines.
"""
from __future__ import annotations

import contextlib
import io
import pathlib
import re
import sys
import textwrap
from typing import Any

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", ROOT / "CONTRIBUTING.md", *sorted((ROOT / "docs").glob("*.md"))]
CONTINUES = re.compile(r"#\s*continues\s+(examples/\w+\.py)")


def blocks(page: pathlib.Path) -> list[str]:
    return [textwrap.dedent(m.group(1)) for m in re.finditer(r"```python\n(.*?)```", page.read_text(encoding="utf-8"), re.S)]


def test_the_pages_have_python_blocks() -> None:
    assert sum(len(blocks(page)) for page in PAGES) >= 30


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_every_python_block_of_the_page_runs(page: pathlib.Path, monkeypatch: pytest.MonkeyPatch, tmp_path: pathlib.Path) -> None:
    from synthia.testing import settings

    monkeypatch.chdir(tmp_path)  # blocks that write files write them here
    monkeypatch.setenv("MPLBACKEND", "Agg")
    # A page may register or load a profile (docs/testing.md does): the rest of the suite
    # must not see it.
    monkeypatch.setattr(settings, "_profiles", dict(settings._profiles))
    monkeypatch.setattr(settings, "_active", settings._active)
    namespace: dict[str, Any] = {"__name__": "__doc__"}
    for number, code in enumerate(blocks(page)):
        example = CONTINUES.match(code.lstrip())
        with contextlib.redirect_stdout(io.StringIO()):
            if example:
                source = (ROOT / example.group(1)).read_text(encoding="utf-8")
                exec(compile(source, example.group(1), "exec"), namespace)  # noqa: S102 - the repository's own example
            try:
                exec(compile(code, f"{page.name} block {number}", "exec"), namespace)  # noqa: S102 - the page's own code
            except Exception as error:
                raise AssertionError(f"{page.name}, python block {number} fails: {type(error).__name__}: {error}\n{code}") from error
    if "matplotlib.pyplot" in sys.modules:  # figures a page drew
        sys.modules["matplotlib.pyplot"].close("all")
