"""Docs are tests: every Python block of README.md, CONTRIBUTING.md and docs/*.md runs, and
every output a page shows is what the code prints.

The blocks of one page run in order in one namespace (a page reads top to bottom). A block
whose first line is ``# continues examples/NAME.py`` runs after that example file's code
(its ``main()`` guard left out), so it can use the names the example defines.

A page shows an output in one of three ways, and each is checked:

* ``print(...)  # OUTPUT`` -- the comment is what that print call writes;
* an unlabelled fenced block right after a Python block -- that block's whole output;
  after the line ``<!-- output of examples/NAME.py -->``, the output of that example run as
  a script;
* a ``>>>`` session in a docstring of a class or function a block defines (a doctest).

In a shown output ``...`` stands for any text (an elided part, or one that varies, such as a
time), and a line of only ``...`` for any number of lines. Trailing spaces do not count. A
value shown in a comment on any other statement (``x  # [1, 2]``) is refused: print it, so
that it is checked. Text that is not an output (a command's usage, a benchmark's figures)
goes in a ```` ```text ```` block.
"""
from __future__ import annotations

import ast
import contextlib
import dataclasses
import doctest
import io
import os
import pathlib
import re
import subprocess
import sys
import textwrap
import tokenize
from collections import defaultdict
from typing import Any

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", ROOT / "CONTRIBUTING.md", *sorted((ROOT / "docs").glob("*.md"))]
CONTINUES = re.compile(r"#\s*continues\s+(examples/\w+\.py)")
FENCE = re.compile(r"^([ \t]*)```([^\n`]*)\n(.*?)^[ \t]*```[ \t]*$", re.M | re.S)
OUTPUT_OF = re.compile(r"<!--\s*output of (examples/\w+\.py)\s*-->\s*$")
#: How a comment that shows a value begins (a list, dict, tuple or string).
VALUE_START = re.compile(r"""[\[{('"]""")
SHOWN_PRINT = "__shown_print__"


@dataclasses.dataclass
class Block:
    """A fenced block of a page: its language (``""`` for an output), text and first line."""

    language: str
    text: str
    line: int
    after_python: bool = False  # nothing but blank lines since the previous Python block
    example: str | None = None  # the example whose output an output block quotes


def page_blocks(page: pathlib.Path) -> list[Block]:
    text = page.read_text(encoding="utf-8")
    found: list[Block] = []
    end_of_python = None
    for match in FENCE.finditer(text):
        indent, info, body = match.groups()
        body = "".join(line[len(indent):] if line.startswith(indent) else line for line in body.splitlines(True))
        block = Block(info.split()[0] if info.split() else "", body, text.count("\n", 0, match.start()) + 2)
        before = text[:match.start()]
        block.after_python = end_of_python is not None and not before[end_of_python:].strip()
        quoted = OUTPUT_OF.search(before.rstrip("\n").rsplit("\n", 1)[-1])
        block.example = quoted.group(1) if quoted else None
        end_of_python = match.end() if block.language == "python" else None
        found.append(block)
    return found


def blocks(page: pathlib.Path) -> list[str]:
    return [block.text for block in page_blocks(page) if block.language == "python"]


# -- matching a shown output ---------------------------------------------------------------------
def shown_pattern(shown: str) -> re.Pattern[str]:
    """``shown`` as a pattern: ``...`` any text, a line of only ``...`` any lines."""
    parts = []
    for line in shown.strip("\n").splitlines():
        if line.strip() == "...":
            parts.append(r"(?:[^\n]*\n)*")
        else:
            pieces = line.rstrip().split("...")
            # The spaces around an elision are part of it ("a ... b" may stand for "a\nb").
            trimmed = [piece.lstrip() if i else piece for i, piece in enumerate(pieces)]
            trimmed = [piece.rstrip() if i < len(pieces) - 1 else piece for i, piece in enumerate(trimmed)]
            parts.append(".*?".join(re.escape(piece) for piece in trimmed) + r"\n")
    return re.compile("".join(parts), re.S)


def normalised(output: str) -> str:
    return "".join(line.rstrip() + "\n" for line in output.strip("\n").splitlines())


def shows(shown: str, actual: str) -> bool:
    return shown_pattern(shown).fullmatch(normalised(actual)) is not None


def mismatch(where: str, shown: str, actual: str) -> str:
    return f"{where}: the page shows\n{textwrap.indent(shown.strip(), '    ')}\nbut the code prints\n{textwrap.indent(actual.strip(), '    ')}"


# -- the outputs a block shows -------------------------------------------------------------------
def comments(code: str) -> dict[int, str]:
    """The comment of each line of ``code`` (1-based), without its ``#``."""
    tokens = tokenize.generate_tokens(io.StringIO(code).readline)
    return {token.start[0]: token.string[1:].strip() for token in tokens if token.type == tokenize.COMMENT}


def is_print(node: ast.AST) -> bool:
    return isinstance(node, ast.Expr) and isinstance(node.value, ast.Call) and isinstance(node.value.func, ast.Name) and node.value.func.id == "print"


def shown_prints(tree: ast.Module, notes: dict[int, str]) -> dict[int, str]:
    """The output each ``print(...)  # OUTPUT`` statement shows, by the statement's first line."""
    return {node.lineno: notes[node.end_lineno] for node in ast.walk(tree) if is_print(node) and node.end_lineno in notes}  # type: ignore[operator]


def unprinted_values(tree: ast.Module, code: str, notes: dict[int, str]) -> list[int]:
    """Lines whose comment shows a value of a statement that is not a print (so unchecked):
    on the statement's last line, or alone on the next line."""
    lines = code.splitlines()
    found = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.Expr, ast.Assign)) and not is_print(node):
            last = node.end_lineno or node.lineno
            for line in (last, last + 1):
                alone = line > last and line <= len(lines) and lines[line - 1].lstrip().startswith("#")
                if line in notes and (line == last or alone) and VALUE_START.match(notes[line]):
                    found.append(line)
    return found


class ShownPrints(ast.NodeTransformer):
    """Turns each print call that shows its output into ``__shown_print__(LINE, ...)``."""

    def __init__(self, lines: set[int]) -> None:
        self.lines = lines

    def visit_Expr(self, node: ast.Expr) -> ast.AST:
        if is_print(node) and node.lineno in self.lines:
            call = node.value
            assert isinstance(call, ast.Call)
            call.func = ast.Name(SHOWN_PRINT, ast.Load())
            call.args.insert(0, ast.Constant(node.lineno))
        return self.generic_visit(node)


class Printed:
    """What each print call that shows its output wrote, by line (also written to stdout)."""

    def __init__(self) -> None:
        self.by_line: dict[int, list[str]] = defaultdict(list)

    def __call__(self, line: int, *args: Any, **kwargs: Any) -> None:
        buffer = io.StringIO()
        print(*args, **kwargs, file=buffer)
        self.by_line[line].append(buffer.getvalue())
        sys.stdout.write(buffer.getvalue())


def run_block(code: str, name: str, namespace: dict[str, Any]) -> tuple[str, list[str]]:
    """Run ``code`` in ``namespace``: its whole output, and what it shows that it did not print."""
    tree = ast.parse(code)
    notes = comments(code)
    problems = [
        f"{name} line {line}: the comment `# {notes[line]}` shows a value without printing it: write print(...)  # VALUE"
        for line in unprinted_values(tree, code, notes)
    ]
    shown = shown_prints(tree, notes)
    printed = Printed()
    namespace[SHOWN_PRINT] = printed
    output = io.StringIO()
    with contextlib.redirect_stdout(output):
        # dont_inherit: the page runs as a reader runs it, without this module's
        # ``from __future__ import annotations`` (a dataclass's annotations stay types).
        exec(compile(ast.fix_missing_locations(ShownPrints(set(shown)).visit(tree)), name, "exec", dont_inherit=True), namespace)  # noqa: S102 - the page's own code
    for line, text in sorted(shown.items()):
        where = f"{name} line {line}"
        if line not in printed.by_line:
            problems.append(f"{where}: shows `{text}`, but the print never ran")
        elif not shows(text, "".join(printed.by_line[line])):
            problems.append(mismatch(where, text, "".join(printed.by_line[line])))
    return output.getvalue(), problems


def docstring_sessions(namespace: dict[str, Any], name: str) -> list[str]:
    """Run the ``>>>`` sessions of the docstrings of what the page defined."""
    finder = doctest.DocTestFinder()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    problems = []
    for value in list(namespace.values()):
        if getattr(value, "__module__", None) == namespace["__name__"] and (isinstance(value, type) or callable(value)):
            for test in finder.find(value, value.__name__, module=False, globs=dict(namespace)):
                report = io.StringIO()
                if runner.run(test, out=report.write).failed:
                    problems.append(f"{name}: a docstring session of {value.__name__} fails:\n{report.getvalue()}")
    return problems


def example_output(example: str, cwd: pathlib.Path) -> str:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]), "MPLBACKEND": "Agg"}
    done = subprocess.run([sys.executable, str(ROOT / example)], cwd=cwd, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, f"{example} fails:\n{done.stderr}"
    return done.stdout


def check_page(page: pathlib.Path, cwd: pathlib.Path) -> list[str]:
    """Run every block of ``page``; the problems found (an exception stops the page)."""
    namespace: dict[str, Any] = {"__name__": "__doc__"}
    problems: list[str] = []
    last_output = None
    examples: dict[str, str] = {}
    for block in page_blocks(page):
        where = f"{page.name} line {block.line}"
        if block.language == "python":
            example = CONTINUES.match(block.text.lstrip())
            if example:
                source = (ROOT / example.group(1)).read_text(encoding="utf-8")
                with contextlib.redirect_stdout(io.StringIO()):
                    exec(compile(source, example.group(1), "exec", dont_inherit=True), namespace)  # noqa: S102 - the repository's own example
            try:
                last_output, found = run_block(block.text, f"{page.name} block at line {block.line}", namespace)
            except Exception as error:
                raise AssertionError(f"{where}: the python block fails: {type(error).__name__}: {error}\n{block.text}") from error
            problems += found
        elif block.language == "" and block.example:
            if block.example not in examples:
                examples[block.example] = example_output(block.example, cwd)
            if not shows(block.text, examples[block.example]):
                problems.append(mismatch(f"{where} (output of {block.example})", block.text, examples[block.example]))
        elif block.language == "" and block.after_python:
            if not shows(block.text, last_output or ""):
                problems.append(mismatch(f"{where} (output of the block above)", block.text, last_output or ""))
        elif block.language == "":
            problems.append(f"{where}: an unlabelled block is an output, but it follows no python block and names no example; mark other text ```text")
    return problems + docstring_sessions(namespace, page.name)


def test_the_pages_have_python_blocks() -> None:
    assert sum(len(blocks(page)) for page in PAGES) >= 30


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_every_python_block_of_the_page_runs_and_prints_what_it_shows(page: pathlib.Path, monkeypatch: pytest.MonkeyPatch, tmp_path: pathlib.Path) -> None:
    from synthia.testing import settings

    monkeypatch.chdir(tmp_path)  # blocks that write files write them here
    monkeypatch.setenv("MPLBACKEND", "Agg")
    # A page may register or load a profile (docs/testing.md does): the rest of the suite
    # must not see it.
    monkeypatch.setattr(settings, "_profiles", dict(settings._profiles))
    monkeypatch.setattr(settings, "_active", settings._active)
    try:
        problems = check_page(page, tmp_path)
    finally:
        if "matplotlib.pyplot" in sys.modules:  # figures a page drew
            sys.modules["matplotlib.pyplot"].close("all")
    assert not problems, "\n\n".join(problems)


# -- the checker itself, on small synthetic pages ------------------------------------------------
def synthetic_page(tmp_path: pathlib.Path, text: str) -> list[str]:
    page = tmp_path / "page.md"
    page.write_text(textwrap.dedent(text), encoding="utf-8")
    return check_page(page, tmp_path)


FENCE_MARK = "```"


def test_a_print_that_shows_its_output_rightly_passes_and_wrongly_fails_naming_page_line_shown_and_actual(tmp_path: pathlib.Path) -> None:
    right = synthetic_page(tmp_path, f"""
        {FENCE_MARK}python
        xs = [3, 1, 2]
        print(sorted(xs))    # [1, 2, 3]
        print(xs, len(xs))   # [3, ...] 3
        {FENCE_MARK}
        """)
    assert right == []
    wrong = synthetic_page(tmp_path, f"""
        {FENCE_MARK}python
        xs = [3, 1, 2]
        print(sorted(xs))    # [1, 2, 4]
        {FENCE_MARK}
        """)
    assert wrong == ["page.md block at line 3 line 2: the page shows\n    [1, 2, 4]\nbut the code prints\n    [1, 2, 3]"]


def test_a_shown_print_that_never_runs_fails(tmp_path: pathlib.Path) -> None:
    problems = synthetic_page(tmp_path, f"""
        {FENCE_MARK}python
        if False:
            print("never")   # never
        {FENCE_MARK}
        """)
    assert problems == ["page.md block at line 3 line 2: shows `never`, but the print never ran"]


def test_an_output_block_is_the_whole_output_of_the_python_block_above_it(tmp_path: pathlib.Path) -> None:
    page = f"""
        {FENCE_MARK}python
        for i in range(4):
            print("line", i)
        {FENCE_MARK}

        {FENCE_MARK}
        line 0
        ...
        line 3
        {FENCE_MARK}
        """
    assert synthetic_page(tmp_path, page) == []
    problems = synthetic_page(tmp_path, page.replace("        line 3\n", "        line 4\n"))
    assert problems == ["page.md line 8 (output of the block above): the page shows\n    line 0\n    ...\n    line 4\nbut the code prints\n    line 0\n    line 1\n    line 2\n    line 3"]


def test_a_value_shown_without_print_an_orphan_output_block_and_a_failing_docstring_session_are_refused(tmp_path: pathlib.Path) -> None:
    problems = synthetic_page(tmp_path, f'''
        {FENCE_MARK}python
        sorted([2, 1])   # [1, 2]
        def double(x):
            """
            >>> double(2)
            5
            """
            return 2 * x
        {FENCE_MARK}

        Some prose.

        {FENCE_MARK}
        an output of nothing
        {FENCE_MARK}

        {FENCE_MARK}text
        free text, not checked
        {FENCE_MARK}
        ''')
    assert problems[0] == "page.md block at line 3 line 1: the comment `# [1, 2]` shows a value without printing it: write print(...)  # VALUE"
    assert problems[1].startswith("page.md line 15: an unlabelled block is an output, but it follows no python block")
    assert problems[2].startswith("page.md: a docstring session of double fails:") and "Expected:\n    5\nGot:\n    4" in problems[2]
    assert len(problems) == 3


def test_an_output_block_quoting_an_example_is_checked_against_the_example_run_as_a_script(tmp_path: pathlib.Path) -> None:
    page = f"""
        <!-- output of examples/quickstart.py -->
        {FENCE_MARK}
        ...
        seed:   2026
        ...
        {FENCE_MARK}
        """
    assert synthetic_page(tmp_path, page) == []
    problems = synthetic_page(tmp_path, page.replace("2026", "2027"))
    assert len(problems) == 1 and problems[0].startswith("page.md line 4 (output of examples/quickstart.py): the page shows\n    ...\n    seed:   2027")


@pytest.mark.parametrize(("shown", "actual", "expected"), [
    ("a ... d", "a b c d", True),
    ("a ... d", "a\nb\nd", True),
    ("a ... d", "a b c e", False),
    ("x\n...\ny", "x\ny", True),
    ("x\n...\ny", "x\n1\n2\ny", True),
    ("x\n...\ny", "x\n1\n2\nz", False),
    ("  indented", "indented", False),
    ("trailing   ", "trailing", True),
])
def test_shows_elides_with_dots_and_ignores_only_trailing_spaces(shown: str, actual: str, expected: bool) -> None:
    assert shows(shown, actual) is expected
