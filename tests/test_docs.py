"""Docs are tests: every Python block of README.md, CONTRIBUTING.md and docs/*.md runs.

The blocks of one page run in order in one namespace (a page reads top to bottom). A block
whose first line is ``# continues examples/NAME.py`` runs after that example file's code
(its ``main()`` guard left out), so it can use the names the example defines.

What a page shows is checked too. A ``print(...)`` line with a trailing comment shows its
output there: ``print(x)   # [1, 2, 3]``. The comment is what the line prints (all its calls,
lines joined by a space, spaces collapsed), up to an optional note after `` -- ``; ``...``
stands for an elided part (the parts around it must appear in that order, the first at the
start and the last at the end). A bare expression whose comment looks like a value (``x  #
[1, 2]``) is refused: a page prints what it shows.
"""
from __future__ import annotations

import ast
import contextlib
import io
import pathlib
import re
import sys
import textwrap
import tokenize
from typing import Any

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", ROOT / "CONTRIBUTING.md", *sorted((ROOT / "docs").glob("*.md"))]
CONTINUES = re.compile(r"#\s*continues\s+(examples/\w+\.py)")
#: A comment that starts like a value: a literal, a container, a bool or None.
VALUE_LIKE = re.compile(r"""^(?:[\[{('"]|-?\d|True\b|False\b|None\b)""")


def blocks(page: pathlib.Path) -> list[str]:
    return [textwrap.dedent(m.group(1)) for m in re.finditer(r"```python\n(.*?)```", page.read_text(encoding="utf-8"), re.S)]


def _comment_of(line: str) -> str | None:
    """The trailing comment of a code line (``None`` without one), outside strings."""
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(line).readline))
    except (tokenize.TokenError, SyntaxError):
        return None
    for token in tokens:
        if token.type == tokenize.COMMENT:
            return token.string[1:].strip()
    return None


def shown_outputs(code: str) -> tuple[dict[int, str], list[int]]:
    """``({line: shown output}, [lines showing a value without printing it])`` of a block."""
    shown: dict[int, str] = {}
    unprinted: list[int] = []
    lines = code.splitlines()
    for statement in ast.walk(ast.parse(code)):
        if not isinstance(statement, ast.Expr) or statement.lineno != statement.end_lineno:
            continue
        comment = _comment_of(lines[statement.lineno - 1])
        if not comment:
            continue
        call = statement.value
        if isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id == "print":
            shown[statement.lineno] = comment.split(" -- ")[0].strip()
        elif VALUE_LIKE.match(comment):
            unprinted.append(statement.lineno)
    return shown, unprinted


def _collapsed(text: str) -> str:
    return " ".join(text.split())


def matches(printed: str, shown: str) -> bool:
    """Whether ``printed`` is what ``shown`` shows (``...`` elides a part)."""
    printed, parts = _collapsed(printed), [_collapsed(p) for p in shown.split("...")]
    if len(parts) == 1:
        return printed == parts[0]
    if not (printed.startswith(parts[0]) and printed.endswith(parts[-1])):
        return False
    at = len(parts[0])
    for part in parts[1:-1]:
        at = printed.find(part, at)
        if at < 0:
            return False
        at += len(part)
    return at <= len(printed) - len(parts[-1])


def run_block(code: str, name: str, namespace: dict[str, Any]) -> dict[int, list[str]]:
    """Run a block; what each of its lines printed (prints made in the block's own code)."""
    printed: dict[int, list[str]] = {}

    def recording_print(*args: Any, sep: str | None = " ", end: str | None = "\n", **kwargs: Any) -> None:
        caller = sys._getframe(1)
        if caller.f_code.co_filename == name:
            printed.setdefault(caller.f_lineno, []).append((sep or " ").join(str(a) for a in args))
        print(*args, sep=sep, end=end, **kwargs)

    namespace["print"] = recording_print
    try:
        exec(compile(code, name, "exec"), namespace)  # noqa: S102 - the page's own code
    finally:
        namespace.pop("print", None)
    return printed


def check_block(code: str, name: str, namespace: dict[str, Any]) -> list[str]:
    """Run a block and compare what it printed with what it shows; the mismatches."""
    shown, unprinted = shown_outputs(code)
    problems = [f"{name}, line {line}: shows a value without printing it: {code.splitlines()[line - 1].strip()}" for line in unprinted]
    printed = run_block(code, name, namespace)
    for line, output in shown.items():
        actual = " ".join(printed.get(line, []))
        if not matches(actual, output):
            problems.append(f"{name}, line {line}: shows {output!r}, prints {_collapsed(actual)!r}")
    return problems


def test_the_check_finds_a_wrong_output_and_a_value_not_printed() -> None:
    page = "xs = [3, 1, 2]\nprint(sorted(xs))   # [1, 2, 3]\nprint(len(xs))   # 4\nxs[0]   # 3\nprint(xs, xs)  # [3, ... 2]\n"
    problems = check_block(page, "page block 0", {})
    assert problems == [
        "page block 0, line 4: shows a value without printing it: xs[0]   # 3",
        "page block 0, line 3: shows '4', prints '3'",
    ]
    assert matches("a b\nc d", "a ... d") and matches("x", "x") and not matches("ab", "a ... b ... c")
    assert shown_outputs("print(1)  # 1 -- the first\n")[0] == {1: "1"}


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
                problems = check_block(code, f"{page.name} block {number}", namespace)
            except Exception as error:
                raise AssertionError(f"{page.name}, python block {number} fails: {type(error).__name__}: {error}\n{code}") from error
        assert not problems, "\n".join(problems)
    if "matplotlib.pyplot" in sys.modules:  # figures a page drew
        sys.modules["matplotlib.pyplot"].close("all")
