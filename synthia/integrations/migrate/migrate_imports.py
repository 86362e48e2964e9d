"""The imports of a translated module: Hypothesis names no longer used go, ``import synthia
as sy`` comes where the first Hypothesis import was, and the few standard-library names the
translation uses (``math.nextafter``, ``timedelta``...) are imported when the module lacks them."""
from __future__ import annotations

from typing import Any, Iterator, Sequence, cast

from .migrate_build import cst

from .migrate_build import bound_name, name_of


def _names_used(module: cst.Module) -> set[str]:
    used: set[str] = set()

    def walk(node: cst.CSTNode) -> Iterator[cst.CSTNode]:
        if isinstance(node, (cst.Import, cst.ImportFrom)):
            return
        yield node
        if isinstance(node, cst.Attribute):  # a.b uses a, not b
            yield from walk(node.value)
            return
        for child in node.children:
            if isinstance(node, cst.Arg) and child is node.keyword:
                continue
            yield from walk(child)

    for node in walk(module):
        if isinstance(node, cst.Name):
            used.add(node.value)
    return used


def _hypothesis(module_name: str | None) -> bool:
    return module_name is not None and (module_name == "hypothesis" or module_name.startswith("hypothesis."))


def _prune(small: cst.BaseSmallStatement, used: set[str]) -> cst.BaseSmallStatement | None:
    """The import without the Hypothesis names no longer used (``None``: nothing left)."""
    if isinstance(small, cst.ImportFrom) and not small.relative and _hypothesis(name_of(small.module) if small.module else None):
        if not isinstance(small.names, Sequence):
            return small  # from hypothesis import *: kept
        kept = [a for a in small.names if bound_name(a) in used]
        if not kept:
            return None
        if len(kept) == len(small.names):
            return small
        kept = [a.with_changes(comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" ")) if i < len(kept) - 1 else cst.MaybeSentinel.DEFAULT)
                for i, a in enumerate(kept)]
        return small.with_changes(names=kept, lpar=None, rpar=None) if len(kept) == 1 else small.with_changes(names=kept)
    if isinstance(small, cst.Import) and any(_hypothesis(name_of(a.name)) for a in small.names):
        kept = []
        for alias in small.names:
            dotted = name_of(alias.name) or ""
            if not _hypothesis(dotted) or bound_name(alias) in used:
                kept.append(alias)
        if not kept:
            return None
        kept = [a.with_changes(comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" ")) if i < len(kept) - 1 else cst.MaybeSentinel.DEFAULT)
                for i, a in enumerate(kept)]
        return small.with_changes(names=kept)
    return small


def _imports_synthia(module: cst.Module) -> bool:
    for statement in module.body:
        if isinstance(statement, cst.SimpleStatementLine):
            for small in statement.body:
                if isinstance(small, cst.Import) and any(name_of(a.name) == "synthia" and a.asname and a.asname.name.value == "sy" for a in small.names):  # type: ignore[union-attr]
                    return True
    return False


def fix_imports(module: cst.Module, added: Sequence[tuple[str, str | None]]) -> cst.Module:
    """``module`` with its imports fixed (see the module docstring); ``added`` are the
    ``(module, name)`` pairs to import (``name=None``: ``import module``)."""
    used = _names_used(module)
    wants_sy = "sy" in used and not _imports_synthia(module)
    body: list[cst.BaseStatement] = []
    insert_at: int | None = None
    first_import: int | None = None
    carried: list[cst.EmptyLine] = []
    above_insert: list[cst.EmptyLine] = []
    for statement in module.body:
        if isinstance(statement, cst.SimpleStatementLine) and all(isinstance(s, (cst.Import, cst.ImportFrom)) for s in statement.body):
            if first_import is None and not any(isinstance(s, cst.ImportFrom) and name_of(s.module) == "__future__" for s in statement.body if isinstance(s, cst.ImportFrom) and s.module):
                first_import = len(body)
            pruned = [p for p in (_prune(s, used) for s in statement.body) if p is not None]
            touches_hypothesis = pruned != list(statement.body) or any(
                isinstance(s, cst.ImportFrom) and s.module is not None and _hypothesis(name_of(s.module)) or
                isinstance(s, cst.Import) and any(_hypothesis(name_of(a.name)) for a in s.names) for s in statement.body)
            if pruned:
                if pruned[-1] is not statement.body[-1]:
                    pruned[-1] = pruned[-1].with_changes(semicolon=cst.MaybeSentinel.DEFAULT)
                body.append(statement.with_changes(body=pruned, leading_lines=[*carried, *statement.leading_lines]))
                carried = []
                if touches_hypothesis and insert_at is None:
                    insert_at = len(body)  # after the first Hypothesis import, which stays
            else:
                if insert_at is None:
                    insert_at = len(body)
                    above_insert = list(statement.leading_lines)  # they go on the synthia import
                else:
                    carried.extend(statement.leading_lines)  # the comments above a removed line stay
            continue
        if carried:
            statement = statement.with_changes(leading_lines=[*carried, *statement.leading_lines])  # type: ignore[union-attr]
            carried = []
        body.append(statement)
    new_lines: list[cst.SimpleStatementLine] = []
    for module_name, name in added:
        if name is None:
            new_lines.append(cst.SimpleStatementLine(body=[cst.Import(names=[cst.ImportAlias(name=cst.parse_expression(module_name))])]))  # type: ignore[arg-type]
        else:
            new_lines.append(cst.SimpleStatementLine(body=[cst.ImportFrom(module=cst.parse_expression(module_name), names=[cst.ImportAlias(name=cst.Name(name))])]))  # type: ignore[arg-type]
    if wants_sy:
        new_lines.append(cst.parse_statement("import synthia as sy"))  # type: ignore[arg-type]
    if new_lines and above_insert:
        new_lines[0] = new_lines[0].with_changes(leading_lines=above_insert)
    elif above_insert and insert_at is not None and insert_at < len(body):
        target = cast(Any, body[insert_at])
        body[insert_at] = target.with_changes(leading_lines=[*above_insert, *target.leading_lines])
    if new_lines:
        at = insert_at if insert_at is not None else (first_import if first_import is not None else _after_docstring(body))
        body[at:at] = new_lines
    return module.with_changes(body=body)


def _after_docstring(body: list[cst.BaseStatement]) -> int:
    at = 0
    for i, statement in enumerate(body):
        if isinstance(statement, cst.SimpleStatementLine) and len(statement.body) == 1:
            small = statement.body[0]
            if i == 0 and isinstance(small, cst.Expr) and isinstance(small.value, (cst.SimpleString, cst.ConcatenatedString)):
                at = 1
                continue
            if isinstance(small, cst.ImportFrom) and small.module is not None and name_of(small.module) == "__future__":
                at = i + 1
                continue
        break
    return at
