"""The codemod over files: each module parsed once, rewritten, its imports fixed, and the
result compared with the source; a summary of what changed and what is left to do by hand."""
from __future__ import annotations

import dataclasses
import difflib
import pathlib
import re
from typing import Iterable, TextIO

from .migrate_build import MetadataWrapper, QualifiedNameProvider, cst

from .migrate_imports import fix_imports
from .migrate_scan import exported, scan
from .migrate_transform import Migrator, Needs, count_by_line


@dataclasses.dataclass
class Migration:
    """The translation of one source: the new text, how many constructs were translated,
    how many strategies stay behind ``sy.from_strategy``, and the marked places
    ``(line, message)`` of the new text."""

    source: str
    code: str
    translated: int
    bridged: int
    marks: list[tuple[int, str]]
    path: pathlib.Path | None = None
    #: why the file could not be translated (it is then left as it is)
    error: str | None = None

    @property
    def changed(self) -> bool:
        return self.code != self.source

    def diff(self) -> str:
        name = str(self.path) if self.path else "source"
        return "".join(difflib.unified_diff(self.source.splitlines(True), self.code.splitlines(True), name, name))


def _qualified(module: cst.Module) -> tuple[MetadataWrapper, dict[cst.CSTNode, object]]:
    wrapper = MetadataWrapper(module)
    return wrapper, dict(wrapper.resolve(QualifiedNameProvider))


def strategy_names(sources: Iterable[str]) -> set[str]:
    """The module-level names that hold or make strategies in ``sources`` (for the modules that
    import them: ``from .strategies import json_values`` then ``json_values.map(f)``)."""
    names: set[str] = set()
    for source in sources:
        try:
            wrapper, qualified = _qualified(cst.parse_module(source))
        except cst.ParserSyntaxError:
            continue
        names |= exported(wrapper.module, qualified)
    return names


def migrate_source(source: str, known: set[str] | None = None) -> Migration:
    """Translate one module's source (``known``: strategy names other files define)."""
    module = cst.parse_module(source)
    wrapper, qualified = _qualified(module)
    found = scan(wrapper.module, qualified, set(known or ()))
    needs = Needs(wrapper.module)
    migrator = Migrator(qualified, found, needs, set(known or ()))
    rewritten = wrapper.module.visit(migrator)
    if rewritten.code == source:
        return Migration(source, source, 0, 0, count_by_line(migrator.counts, rewritten))
    fixed = fix_imports(rewritten, needs.imports)
    return Migration(source, fixed.code, migrator.counts.translated, migrator.counts.bridged, count_by_line(migrator.counts, fixed))


#: A file the codemod reads: one that imports Hypothesis (or synthia, migrated already).
_USES = re.compile(r"^\s*(from|import)\s+(hypothesis|synthia)\b", re.M)


def python_files(paths: Iterable[str | pathlib.Path]) -> list[pathlib.Path]:
    """The ``.py`` files of ``paths`` (directories searched recursively), sorted."""
    files: list[pathlib.Path] = []
    for raw in paths:
        path = pathlib.Path(raw)
        if path.is_dir():
            files.extend(p for p in sorted(path.rglob("*.py")) if not any(part.startswith(".") for part in p.parts))
        elif path.exists():
            files.append(path)
        else:
            raise FileNotFoundError(f"no file or directory {str(path)!r}")
    return files


def migrate_paths(paths: Iterable[str | pathlib.Path], write: bool = True) -> list[Migration]:
    """Translate every Python file under ``paths`` that uses Hypothesis (written back when
    ``write``); files that do not are left alone."""
    files = python_files(paths)
    sources = {}
    for path in files:
        text = path.read_text(encoding="utf-8")
        if _USES.search(text):
            sources[path] = text
    known = strategy_names(sources.values())
    results = []
    for path, text in sources.items():
        try:
            migration = migrate_source(text, known)
        except cst.ParserSyntaxError as error:
            migration = Migration(text, text, 0, 0, [], error=f"libcst cannot parse it: {error.message}")
        except Exception as error:  # a construct the codemod does not handle: the file stays, the run goes on
            migration = Migration(text, text, 0, 0, [], error=f"the codemod failed on it ({type(error).__name__}: {' '.join(str(error).split())[:200]})")
        migration.path = path
        if write and migration.changed:
            path.write_text(migration.code, encoding="utf-8")
        results.append(migration)
    return results


def summary(results: list[Migration], out: TextIO, wrote: bool = True) -> None:
    """Print what changed: files, translations, strategies bridged, places marked (with their lines)."""
    changed = [r for r in results if r.changed]
    translated = sum(r.translated for r in results)
    bridged = sum(r.bridged for r in results)
    marks = [(r.path, line, message) for r in results for line, message in r.marks]
    failed = [r for r in results if r.error]
    verb = "changed" if wrote else "would change"
    print(f"{len(changed)} file{'s' * (len(changed) != 1)} {verb} (of {len(results)} using Hypothesis or synthia), "
          f"{translated} translation{'s' * (translated != 1)}, {bridged} strateg{'ies' if bridged != 1 else 'y'} kept through sy.from_strategy, "
          f"{len(marks)} place{'s' * (len(marks) != 1)} marked '# synthia:' for a hand edit"
          + (f", {len(failed)} file{'s' * (len(failed) != 1)} not translated" if failed else ""), file=out)
    for path, line, message in marks:
        print(f"  {path}:{line}: {message}", file=out)
    for result in results:
        if result.error:
            print(f"  {result.path}: not translated: {result.error}", file=out)
