"""The pytest integration: the decorator, the plugin options, and the store of failures."""
from __future__ import annotations

import pathlib
import re

import pytest

import synthia as sy

EXAMPLE = pathlib.Path(__file__).resolve().parent.parent / "examples" / "pytest_example" / "test_example.py"

FAILING = """
import synthia as sy

@sy.given(x=sy.RandomInteger(0, 10**6), y=sy.RandomInteger(0, 10**6))
def test_sum_is_small(x, y):
    assert x + y < 1000

@sy.given(x=sy.RandomInteger(0, 100))
def test_with_fixture(tmp_path, x):
    assert tmp_path.exists() and 0 <= x < 100
"""


def test_given_runs_as_a_plain_function() -> None:
    calls = []

    @sy.given(x=sy.RandomInteger(0, 5))
    def check(x: int) -> None:
        calls.append(x)

    check()
    assert len(calls) == 100 and set(calls) <= set(range(5))


def test_given_raises_with_the_smallest_input_and_seed() -> None:
    @sy.given(x=sy.RandomInteger(0, 10**6))
    def check(x: int) -> None:
        assert x < 1000

    with pytest.raises(sy.SynthiaFailure) as info:
        check()
    assert info.value.report.smallest == {"x": 1000}
    assert "--synthia-seed=" in str(info.value) and "x=1000" in str(info.value)


def test_given_rejects_unknown_parameters() -> None:
    mistaken = sy.given(y=sy.Tick())(lambda x: None)  # decorating works: the test fails when it runs
    with pytest.raises(TypeError, match="no parameter named y"):
        mistaken()


def test_plugin_prints_smallest_input_seed_and_reproduction(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_failing=FAILING)
    result = pytester.runpytest("-p", "no:cacheprovider")
    result.assert_outcomes(passed=1, failed=1)
    text = result.stdout.str()
    assert "smallest failing input" in text
    seed = int(re.search(r"--synthia-seed=(\d+)", text).group(1))  # type: ignore[union-attr]
    smallest = re.search(r"smallest failing input: x=(\d+), y=(\d+)", text)
    assert smallest and int(smallest.group(1)) + int(smallest.group(2)) == 1000
    # The same seed replays the same run, with no code edit.
    replay = pytester.runpytest("-p", "no:cacheprovider", f"--synthia-seed={seed}", "--synthia-dir=")
    assert f"seed: {seed}" in replay.stdout.str()
    assert "synthia: seed" in replay.stdout.str()


def test_failures_are_saved_and_replayed_first(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        test_rare="""
import synthia as sy

@sy.given(x=sy.RandomInteger(0, 10**9))
def test_rare(x):
    assert x != 123456789 or False
    assert x < 10**9 - 10
"""
    )
    first = pytester.runpytest("-p", "no:cacheprovider", "--synthia-seed=1")
    first.assert_outcomes(passed=1)
    store = pytester.path / ".synthia" / "failures"
    assert not store.exists() or not list(store.iterdir())
    pytester.makepyfile(
        test_saved="""
import synthia as sy

@sy.given(x=sy.RandomInteger(0, 10**6))
def test_saved(x):
    assert x < 500_000
"""
    )
    failed = pytester.runpytest("-p", "no:cacheprovider", "-k", "saved")
    failed.assert_outcomes(failed=1)
    assert list(store.iterdir()), "the failing input is saved"
    # The next run tries the saved (already shrunk) input before drawing any.
    again = pytester.runpytest("-p", "no:cacheprovider", "-k", "saved", "--synthia-seed=7")
    again.assert_outcomes(failed=1)
    assert "first failing input:    x=500000" in again.stdout.str()


def test_the_example_file_shows_its_failure(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_example=EXAMPLE.read_text())
    result = pytester.runpytest("-p", "no:cacheprovider")
    result.assert_outcomes(passed=1, failed=1)
    text = result.stdout.str()
    assert "test_dedupe_keeps_every_value failed on" in text
    assert "reproduce: pytest 'test_example.py::test_dedupe_keeps_every_value' --synthia-seed=" in text
