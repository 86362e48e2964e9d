"""The migration corpus (tests/migration/): each Hypothesis test, modelled on a pattern of a
real project, is translated by the codemod, finished by hand only where the codemod marked
it, and behaves as the original: it passes on the correct code and fails on the code with
the planted bug.

Four pytest runs in subprocesses, on copies in a temporary folder: the originals and the
translations, each with and without the planted bugs (``SYNTHIA_PLANTED_BUGS=1``). The
originals run under a derandomized Hypothesis profile, the translations under a synthia
profile with a fixed seed, so every run is repeatable. The fraction of tests translated
with no hand edit is printed and must be the one docs/benchmarks.md reports
(``pytest tests/test_migration_corpus.py -s -k fraction`` prints it).
"""
from __future__ import annotations

import ast
import dataclasses
import difflib
import os
import pathlib
import subprocess
import sys
import xml.etree.ElementTree as ElementTree
import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
CORPUS = ROOT / "tests" / "migration" / "corpus"
EXPECTED = ROOT / "tests" / "migration" / "expected"
BENCHMARKS = ROOT / "docs" / "benchmarks.md"
MARK = "# synthia:"

#: The profiles of the runs: repeatable, nothing saved, and no shrinking (a verdict is all
#: the corpus checks; the tests that set their own phases keep them).
ORIGINAL_CONFTEST = """\
from hypothesis import Phase, settings

settings.register_profile("corpus", derandomize=True, database=None, deadline=None, phases=[Phase.explicit, Phase.generate])
settings.load_profile("corpus")
"""

TRANSLATED_CONFTEST = """\
import synthia as sy

sy.register_profile("corpus", max_examples=100, seed=0, database=False, shrink_budget=0)
sy.load_profile("corpus")
"""


def _modules() -> list[pathlib.Path]:
    return sorted(p for p in CORPUS.glob("*.py") if p.name != "__init__.py")


def _tests_of(path: pathlib.Path) -> list[str]:
    """The tests a corpus module defines, named as the pytest runs report them."""
    module = "test_" + path.stem
    found = []
    for node in ast.parse(path.read_text()).body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name.startswith("test"):
            found.append(f"{module}::{node.name}")
        elif isinstance(node, ast.ClassDef) and node.name.startswith("Test"):
            found += [f"{module}.{node.name}::{f.name}" for f in node.body
                      if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef)) and f.name.startswith("test")]
        elif isinstance(node, ast.Assign) and isinstance(node.value, ast.Attribute) and node.value.attr == "TestCase":
            found += [f"{module}.{t.id}" for t in node.targets if isinstance(t, ast.Name)]
    return found


TESTS = [test for path in _modules() for test in _tests_of(path)]


def test_the_corpus_has_at_least_forty_tests() -> None:
    assert len(TESTS) >= 40


# -- translating --------------------------------------------------------------------------------------


@dataclasses.dataclass
class Translation:
    """One corpus module: the codemod's output, and the text run (with the hand edits)."""

    name: str
    original: str
    codemod: str
    finished: str

    @property
    def expected(self) -> pathlib.Path:
        return EXPECTED / f"{self.name}.py"


def _translate() -> dict[str, Translation]:
    from synthia.integrations.migrate import migrate_source, strategy_names

    sources = {p.stem: p.read_text() for p in _modules()}
    known = strategy_names(sources.values())
    out = {}
    for name, source in sources.items():
        codemod = migrate_source(source, known).code
        expected = EXPECTED / f"{name}.py"
        out[name] = Translation(name, source, codemod, expected.read_text() if expected.exists() else codemod)
    return out


def _regions(code: str) -> list[tuple[int, int]]:
    """The marked places of ``code``: from each ``# synthia:`` line to the end of the statement
    under it (0-based line numbers, both included)."""
    lines = code.splitlines()
    statements = [n for n in ast.walk(ast.parse(code)) if isinstance(n, ast.stmt)]
    regions = []
    for number, line in enumerate(lines):
        if line.strip().startswith(MARK):
            below = [n for n in statements if n.lineno - 1 > number or (
                getattr(n, "decorator_list", None) and n.decorator_list[0].lineno - 1 > number)]
            first = min(below, key=lambda n: (min([n.lineno] + [d.lineno for d in getattr(n, "decorator_list", [])]), -(n.end_lineno or 0)))
            regions.append((number, (first.end_lineno or first.lineno) - 1))
    return regions


def _hunks(codemod: str, finished: str) -> list[tuple[int, int]]:
    """The lines of the codemod's output the hand edits change, as ``[start, end)`` ranges
    (an insertion is an empty range at its position)."""
    matcher = difflib.SequenceMatcher(a=codemod.splitlines(), b=finished.splitlines(), autojunk=False)
    return [(i1, i2) for tag, i1, i2, _, _ in matcher.get_opcodes() if tag != "equal"]


def _inside(hunk: tuple[int, int], regions: list[tuple[int, int]]) -> bool:
    start, end = hunk
    if start == end:  # an insertion: inside a region or right after it
        return any(a <= start <= b + 1 for a, b in regions)
    return any(a <= start and end - 1 <= b for a, b in regions)


@pytest.fixture(scope="module")
def translations() -> dict[str, Translation]:
    return _translate()


@pytest.mark.parametrize("name", [p.stem for p in _modules()])
def test_hand_edits_are_only_at_the_places_the_codemod_marked(name: str, translations: dict[str, Translation]) -> None:
    translation = translations[name]
    regions = _regions(translation.codemod)
    if not translation.expected.exists():
        assert not regions, f"the codemod marked {name}: keep the hand edits in {translation.expected}"
        return
    assert regions, f"{translation.expected} holds hand edits, but the codemod marks nothing in {name}"
    outside = [h for h in _hunks(translation.codemod, translation.finished) if not _inside(h, regions)]
    assert outside == [], [translation.codemod.splitlines()[a:b] or translation.finished for a, b in outside]
    assert MARK not in translation.finished  # every mark was dealt with


# -- which tests needed a hand edit ----------------------------------------------------------------------


def _top_level(test: str) -> str:
    """The module-level name a test is defined by: ``test_m::test_x`` -> ``test_x``,
    ``test_m.TestC::test_y`` -> ``TestC``, ``test_m.TestX`` -> ``TestX``."""
    where, _, name = test.partition("::")
    return where.split(".", 1)[1] if "." in where else name


def _edited_tests(translation: Translation) -> set[str]:
    """The corpus tests of the module whose translation needed a hand edit: those whose code
    (or the module-level code they use) a hand edit touched."""
    if not translation.expected.exists():
        return set()
    module = "test_" + translation.name
    tree = ast.parse(translation.codemod)
    spans = []
    previous_end = -1
    for node in tree.body:  # each top-level statement with the comments and blank lines above it
        end = (node.end_lineno or node.lineno) - 1
        spans.append((previous_end + 1, end, node))
        previous_end = end
    tests_of = {t: _top_level(t) for t in _tests_of(CORPUS / f"{translation.name}.py")}
    uses: dict[str, set[str]] = {}
    for node in tree.body:
        names = {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}
        for test, top in tests_of.items():
            if getattr(node, "name", None) == top or (isinstance(node, ast.Assign) and any(getattr(t, "id", None) == top for t in node.targets)):
                uses.setdefault(test, set()).update(names | {top})
    edited = set()
    for start, end in _hunks(translation.codemod, translation.finished):
        touched = [node for a, b, node in spans if a <= start <= b or (start < end and a < end and start <= b)]
        defined = {getattr(n, "name", None) for n in touched} | {t.id for n in touched if isinstance(n, ast.Assign) for t in n.targets if isinstance(t, ast.Name)}
        hit = {test for test, names in uses.items() if defined & names}
        edited |= hit or set(tests_of)
    return {t for t in edited if t.startswith(module)}


def _fraction(translations: dict[str, Translation]) -> tuple[int, int]:
    edited = set().union(*(_edited_tests(t) for t in translations.values()))
    return len(TESTS) - len(edited), len(TESTS)


def test_the_fraction_translated_with_no_hand_edit_is_the_one_reported(translations: dict[str, Translation]) -> None:
    untouched, total = _fraction(translations)
    line = f"{untouched} of {total} corpus tests ({100 * untouched / total:.0f}%) translated with no hand edit"
    print(line)
    assert line in BENCHMARKS.read_text(encoding="utf-8")


# -- running -----------------------------------------------------------------------------------------------


def _identity(case: ElementTree.Element) -> str:
    classname, name = case.get("classname", ""), case.get("name", "")
    return classname if name in ("runTest", "test_monkey") else f"{classname}::{name}"


def _outcomes(report: pathlib.Path) -> dict[str, str]:
    """``{test: "passed" | "failed"}`` from a JUnit XML report (collection errors leave tests out)."""
    outcomes = {}
    for case in ElementTree.parse(report).iter("testcase"):
        if case.get("classname"):
            failed = case.find("failure") is not None or case.find("error") is not None
            skipped = case.find("skipped") is not None
            outcomes[_identity(case)] = "skipped" if skipped else "failed" if failed else "passed"
    return outcomes


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory, translations: dict[str, Translation]) -> dict[tuple[str, bool], dict[str, str]]:
    """The outcome of every corpus test: ``runs[("original" | "translated", buggy)][test]``."""
    root = tmp_path_factory.mktemp("migration-corpus")
    for kind, conftest in (("original", ORIGINAL_CONFTEST), ("translated", TRANSLATED_CONFTEST)):
        folder = root / kind
        folder.mkdir()
        (folder / "conftest.py").write_text(conftest)
        for name, translation in translations.items():
            text = translation.original if kind == "original" else translation.finished
            (folder / f"test_{name}.py").write_text(text)
    processes = {}
    for kind in ("original", "translated"):
        for buggy in (False, True):
            report = root / f"{kind}-{'buggy' if buggy else 'correct'}.xml"
            env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]),
                   "HYPOTHESIS_PROFILE": "corpus", "SYNTHIA_PLANTED_BUGS": "1" if buggy else "0"}
            command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-o", "addopts=", "--continue-on-collection-errors", "--rootdir", str(root / kind),
                       f"--junitxml={report}", str(root / kind)]
            processes[(kind, buggy)] = (subprocess.Popen(command, cwd=root / kind, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True), report)
    outcomes: dict[tuple[str, bool], dict[str, str]] = {}
    for key, (process, report) in processes.items():
        output, _ = process.communicate(timeout=1800)
        assert report.exists(), output[-3000:]
        outcomes[key] = _outcomes(report)
        outcomes[key]["__output__"] = output
    return outcomes


WANTED = {("original", False): "passed", ("original", True): "failed", ("translated", False): "passed", ("translated", True): "failed"}


@pytest.mark.parametrize("test", TESTS)
def test_the_original_and_its_translation_find_the_planted_bug(test: str, runs: dict[tuple[str, bool], dict[str, str]]) -> None:
    wrong = [f"{kind} on {'buggy' if buggy else 'correct'} code: {runs[(kind, buggy)].get(test, 'not run')}, not {wanted}"
             for (kind, buggy), wanted in WANTED.items() if runs[(kind, buggy)].get(test, "not run") != wanted]
    if wrong:
        pytest.fail(f"{test}: " + "; ".join(wrong), pytrace=False)
