"""``python -m synthia migrate FILE_OR_DIR``: Hypothesis tests rewritten as synthia tests.

The codemod (libcst, ``pip install 'synthia[migrate]'``) translates the mechanical part --
imports, strategies to pickers (the rows of the migration table of docs/testing.md),
``@given``, ``@settings``, ``@example``, ``assume``/``note``/``event``/``target``, and
``RuleBasedStateMachine`` classes with their rules, bundles, preconditions, invariants,
initialize rules and teardown -- keeping comments and layout, and puts a ``# synthia: ...``
comment above each place it leaves for a hand edit. Running it twice changes nothing.

Nothing here imports libcst until a migration runs: ``import synthia`` stays light.
"""
from __future__ import annotations

import pathlib
import sys
import warnings
from typing import Any, Iterable

__all__ = ["migrate_source", "migrate_paths", "migrate_command", "strategy_names"]


def _files() -> Any:
    try:
        with warnings.catch_warnings():  # libcst's metadata package imports a module that warns on import
            warnings.simplefilter("ignore", DeprecationWarning)
            from . import migrate_files
    except ImportError as error:  # pragma: no cover - exercised without the extra
        if getattr(error, "name", "") == "libcst":
            raise ImportError("python -m synthia migrate needs libcst: pip install 'synthia[migrate]'") from error
        raise
    return migrate_files


def migrate_source(source: str, known: set[str] | None = None) -> Any:
    """The :class:`~.migrate_files.Migration` of one module's source text.

    >>> result = migrate_source("from hypothesis import given, strategies as st\\n\\n@given(st.integers(0, 9))\\ndef test_digit(x):\\n    assert 0 <= x <= 9\\n")
    >>> print(result.code)
    import synthia as sy
    <BLANKLINE>
    @sy.given(x=sy.RandomInteger(0, 10))
    def test_digit(x):
        assert 0 <= x <= 9
    <BLANKLINE>
    """
    return _files().migrate_source(source, known)


def strategy_names(sources: Iterable[str]) -> set[str]:
    """The module-level names that hold or make strategies in ``sources`` (what a module
    importing them needs to know, ``known`` of :func:`migrate_source`)."""
    return _files().strategy_names(sources)  # type: ignore[no-any-return]


def migrate_paths(paths: Iterable[str | pathlib.Path], write: bool = True) -> list[Any]:
    """The migrations of every Python file under ``paths`` that uses Hypothesis, written back when ``write``."""
    return _files().migrate_paths(paths, write)  # type: ignore[no-any-return]


def migrate_command(paths: list[str], diff: bool = False, check: bool = False) -> int:
    """The ``migrate`` command: rewrite (or, with ``diff``/``check``, only show) and print
    the summary; exit status 1 when a file could not be translated, or, with ``check``,
    when a file would change."""
    files = _files()
    try:
        results = files.migrate_paths(paths, write=not (diff or check))
    except (FileNotFoundError, SyntaxError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    if diff:
        for result in results:
            if result.changed:
                sys.stdout.write(result.diff())
    files.summary(results, sys.stdout, wrote=not (diff or check))
    if any(r.error for r in results):
        return 1
    return 1 if check and any(r.changed for r in results) else 0
