"""Hypothesis's own ``minimal(...)`` tests, translated by synthia's codemod and run on seeds.

``python benchmarks/hypothesis_suite.py PATH [--seeds 5]``: ``PATH`` is a clone of
https://github.com/HypothesisWorks/hypothesis (a work tree, or a bare repository whose
``HEAD`` is read). Each file of ``FILES`` is translated with
``synthia.integrations.migrate.migrate_source`` into a temporary directory, beside a
``tests.common.debug`` whose ``minimal(strategy, condition)`` is ``sy.find`` with the seed of
the round (a strategy the codemod kept is drawn through ``sy.from_strategy``). Only the tests
that call ``minimal`` run. The table lists every test that failed on some seed, with the
first error: a miss of the shrinker, a value synthia's order makes differently, a
translation the codemod cannot make (a collection error), or an input discovery did not
find. It is not part of ``run.py`` (it needs Hypothesis's repository); docs/benchmarks.md
reads its last run.
"""
from __future__ import annotations

import argparse
import collections
import os
import pathlib
import subprocess
import sys
import tempfile

FILES = (
    "quality/test_shrink_quality.py quality/test_widening_shrinks.py quality/test_deferred_strategies.py "
    "quality/test_float_shrinking.py nocover/test_simple_numbers.py nocover/test_recursive.py nocover/test_find.py "
    "nocover/test_sampled_from.py nocover/test_flatmap.py nocover/test_sharing.py nocover/test_uuids.py "
    "cover/test_datetimes.py cover/test_complex_numbers.py cover/test_simple_collections.py "
    "cover/test_direct_strategies.py cover/test_simple_strings.py cover/test_composite.py "
    "cover/test_deferred_strategies.py cover/test_float_nastiness.py cover/test_simple_characters.py "
    "cover/test_slices.py cover/test_recursive.py cover/test_permutations.py cover/test_numerics.py cover/test_nothing.py"
).split()

DEBUG = '''
import os
import synthia as sy

SEED = int(os.environ["SUITE_SEED"])


def _picker(definition):
    return definition if isinstance(definition, sy.Picker) else sy.from_strategy(definition)


def minimal(definition, condition=lambda x: True, settings=None, **ignored):
    return sy.find(_picker(definition), lambda x: bool(condition(x)), seed=SEED)


def find_any(definition, condition=lambda x: True, settings=None):
    return sy.find(_picker(definition), lambda x: bool(condition(x)), seed=SEED, shrink_budget=0)


def assert_all_examples(strategy, predicate, settings=None):
    picker = _picker(strategy).set_seed(SEED)
    assert all(predicate(picker.pick()) for _ in range(100))


assert_simple_property = assert_all_examples


def assert_no_examples(strategy, condition=lambda x: True):
    picker = _picker(strategy).set_seed(SEED)
    assert not any(condition(picker.pick()) for _ in range(100))


def check_can_generate_examples(strategy, settings=None):
    _picker(strategy).set_seed(SEED).pick()
'''

UTILS = '''
def _keep(*args, **kwargs):
    if len(args) == 1 and callable(args[0]) and not kwargs:
        return args[0]
    return lambda f: f


class _Reasons:
    def __getattr__(self, name):
        return name


Why = _Reasons()
from hypothesis import Phase as _Phase

no_shrink = tuple(set(_Phase) - {_Phase.shrink, _Phase.explain})


def __getattr__(name):
    return _keep
'''

CONFTEST = '''
import inspect


def pytest_collection_modifyitems(config, items):
    items[:] = [item for item in items if "minimal(" in _source(item)]


def _source(item):
    try:
        return inspect.getsource(item.function)
    except (OSError, TypeError, AttributeError):
        return ""
'''


def _read(repo: pathlib.Path, name: str) -> str | None:
    path = repo / "hypothesis-python" / "tests" / name
    if not path.exists():
        path = repo / "hypothesis" / "tests" / name
    if path.exists():
        return path.read_text()
    for prefix in ("hypothesis-python/tests/", "hypothesis/tests/"):
        shown = subprocess.run(["git", f"--git-dir={repo}", "show", f"HEAD:{prefix}{name}"], capture_output=True, text=True)
        if shown.returncode == 0:
            return shown.stdout
    return None


def translate(repo: pathlib.Path, into: pathlib.Path) -> None:
    from synthia.integrations.migrate import migrate_source

    common = into / "tests" / "common"
    common.mkdir(parents=True)
    (into / "tests" / "__init__.py").write_text("")
    (common / "__init__.py").write_text("")
    (common / "debug.py").write_text(DEBUG)
    (common / "utils.py").write_text(UTILS)
    (into / "conftest.py").write_text(CONFTEST)
    for name in FILES:
        source = _read(repo, name)
        if source is None:
            print(f"not in this clone: {name}")
            continue
        migrated = migrate_source(source)
        (into / "tests" / name.replace("/", "_")).write_text(migrated.code or source)


def run_seed(into: pathlib.Path, seed: int) -> dict[str, str]:
    """The failing tests of one seed, each with its first error line."""
    env = dict(os.environ, SUITE_SEED=str(seed), PYTHONPATH=os.pathsep.join([str(into), *sys.path]), COLUMNS="400")
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-o", "python_files=*.py", "--tb=line",
         "--continue-on-collection-errors", "--ignore", "tests/common", "tests"],
        cwd=into, env=env, capture_output=True, text=True, errors="replace",
    )
    failed: dict[str, str] = {}
    for line in done.stdout.splitlines():
        if line.startswith(("FAILED ", "ERROR ")):
            test = line.split()[1]
            failed[test] = line.split(" - ", 1)[1] if " - " in line else ""
    summary = [line for line in done.stdout.splitlines() if " passed" in line or " failed" in line]
    print(f"seed {seed}: {summary[-1] if summary else done.stdout[-300:]}")
    return failed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("hypothesis", type=pathlib.Path, help="a clone of Hypothesis's repository (work tree or bare)")
    parser.add_argument("--seeds", type=int, default=5)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        into = pathlib.Path(tmp)
        translate(args.hypothesis, into)
        misses: dict[str, list[int]] = collections.defaultdict(list)
        errors: dict[str, str] = {}
        for seed in range(args.seeds):
            for test, error in run_seed(into, seed).items():
                misses[test].append(seed)
                errors.setdefault(test, error)
    print(f"\n{len(misses)} tests failed on some seed of {args.seeds}:")
    for test in sorted(misses):
        print(f"  {len(misses[test])}/{args.seeds}  {test}  {errors[test][:150]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
