"""What a pytest user meets: profiles, explicit examples, errors of the test itself, statistics,
observations, health warnings, hidden frames, and a reproduction line that reproduces."""
from __future__ import annotations

import json
import re
import subprocess
import sys
from typing import Any, Iterator

import pytest

import synthia as sy
from synthia.testing import harness, settings


@pytest.fixture
def profile() -> Iterator[None]:
    """Tests that load a profile get the default one back."""
    yield
    sy.load_profile("default")


def test_built_in_profiles() -> None:
    default, ci = settings.get_profile("default"), settings.get_profile("ci")
    assert repr(default.stop) == "FixedCount(100)" and default.database and default.seed is None
    assert isinstance(ci.stop, sy.Bayesian) and not ci.database and ci.seed == 0


def test_a_registered_profile_inherits_from_its_parent() -> None:
    sy.register_profile("quick-ci", parent="ci", max_examples=10, shrink_time=1.0)
    quick = settings.get_profile("quick-ci")
    assert repr(quick.stop) == "FixedCount(10)" and quick.shrink_time == 1.0
    assert not quick.database and quick.seed == 0  # from ci
    assert "quick-ci" in settings.profile_names()


@pytest.mark.parametrize(
    "values, error, words",
    [
        ({"max_examples": 0}, ValueError, "max_examples"),
        ({"stop": 100}, TypeError, "stop"),
        ({"stop": sy.FixedCount(3), "max_examples": 3}, TypeError, "not both"),
        ({"shrink_time": -1}, ValueError, "shrink_time"),
        ({"database": "yes"}, TypeError, "database"),
        ({"seed": -1}, ValueError, "seed"),
        ({"deadline": 1}, TypeError, "deadline"),
    ],
)
def test_bad_profile_settings_are_named(values: dict[str, Any], error: type, words: str) -> None:
    with pytest.raises(error, match=words):
        sy.register_profile("bad", **values)


def test_an_unknown_profile_is_refused_with_the_known_ones() -> None:
    with pytest.raises(ValueError, match="no synthia profile named 'nope'.*ci, default"):
        sy.load_profile("nope")


def test_given_takes_its_settings_from_the_profile_unless_it_gives_them(profile: None) -> None:
    @sy.given(x=sy.RandomInteger(0, 10))
    def check(x: int) -> None:
        pass

    @sy.given(sy.RunOptions(max_examples=7), x=sy.RandomInteger(0, 10))
    def seven(x: int) -> None:
        pass

    check()
    assert check.synthia_report.tried == 100  # type: ignore[attr-defined]
    sy.load_profile("ci")
    check()
    seven()
    # The Bayesian rule would stop an all-pass run at 58 passes for 0.95/0.95; the ci profile
    # never tests less than the default's 100.
    assert check.synthia_report.tried == 100 and check.synthia_report.seed == 0  # type: ignore[attr-defined]
    assert "above 0.95 with probability 0.95" in check.synthia_report.guarantee  # type: ignore[attr-defined]
    assert seven.synthia_report.tried == 7  # type: ignore[attr-defined]


def test_given_checks_its_settings_when_it_is_written() -> None:
    with pytest.raises(ValueError, match="max_examples"):
        sy.given(sy.RunOptions(max_examples=-1), x=sy.Tick())
    with pytest.raises(TypeError, match="not both"):
        sy.given(sy.RunOptions(stop=sy.FixedCount(3), max_examples=3), x=sy.Tick())
    with pytest.raises(ValueError, match="shrink_budget"):
        sy.given(sy.RunOptions(shrink_budget=-5), x=sy.Tick())


def test_explicit_examples_run_first_in_the_order_written() -> None:
    seen: list[int] = []

    @sy.given(sy.RunOptions(max_examples=3), x=sy.RandomInteger(100, 200))
    @sy.example(x=1)
    @sy.example(x=2)
    def check(x: int) -> None:
        seen.append(x)

    check()
    assert seen[:2] == [1, 2] and len(seen) == 5 and all(100 <= v < 200 for v in seen[2:])


def test_an_example_above_given_counts_too() -> None:
    seen: list[int] = []

    @sy.example(x=-1)
    @sy.given(sy.RunOptions(max_examples=1), x=sy.RandomInteger(0, 5))
    def check(x: int) -> None:
        seen.append(x)

    check()
    assert seen[0] == -1


def test_a_failing_example_fails_with_that_input_unshrunk() -> None:
    @sy.given(sy.RunOptions(max_examples=5), x=sy.RandomInteger(0, 10))
    @sy.example(x=1000)
    def check(x: int) -> None:
        assert x < 500

    with pytest.raises(sy.SynthiaFailure, match="failed on the explicit example x=1000: AssertionError") as info:
        check()
    assert info.value.report is None and isinstance(info.value.__cause__, AssertionError)


def test_an_example_must_give_exactly_the_arguments() -> None:
    @sy.given(sy.RunOptions(max_examples=1), x=sy.Tick(), y=sy.Tick())
    @sy.example(x=1, z=2)
    def check(x: int, y: int) -> None:
        pass

    with pytest.raises(TypeError, match=r"unknown \['z'\]; missing \['y'\]"):
        check()
    with pytest.raises(TypeError, match="keyword arguments"):
        sy.example(1)


def test_a_test_that_returns_a_value_is_an_error_of_the_test() -> None:
    @sy.given(x=sy.RandomInteger(0, 10))
    def check(x: int) -> bool:
        return x >= 0

    with pytest.raises(sy.InvalidTest, match="returned True: a @given test passes unless it raises"):
        check()


def test_a_name_error_in_the_test_body_is_an_error_of_the_test_not_a_bug() -> None:
    @sy.given(x=sy.RandomInteger(0, 10))
    def check(x: int) -> None:
        assert undefined_helper(x)  # type: ignore[name-defined] # noqa: F821

    with pytest.raises(sy.InvalidTest, match="NameError in its own body"):
        check()


def test_a_name_error_inside_the_code_under_test_is_a_bug_found() -> None:
    def buggy(x: int) -> int:
        if x > 5:
            return missing_name  # type: ignore[name-defined] # noqa: F821
        return x

    @sy.given(x=sy.RandomInteger(0, 10))
    def check(x: int) -> None:
        buggy(x)

    with pytest.raises(sy.SynthiaFailure) as info:
        check()
    assert info.value.report is not None and info.value.report.smallest == {"x": 6}


def test_a_plain_assert_test_returning_false_still_fails() -> None:
    report = sy.Assert(lambda x: x < 5, x=sy.RandomInteger(0, 10)).run(seed=1)
    assert not report.passed and report.smallest == {"x": 5}


def test_a_filter_that_rejects_most_values_is_reported() -> None:
    wiring = sy.PickIf(sy.RandomInteger(0, 1000), lambda v: v < 20)
    with pytest.warns(sy.HealthWarning, match=r"kept 50 of the \d+ values"):
        report = sy.Assert(lambda x: True, x=wiring).run(seed=1)
    assert any("sy.guided" in line for line in report.health)
    gentle = sy.Assert(lambda x: True, x=sy.PickIf(sy.RandomInteger(0, 1000), lambda v: v < 900)).run(seed=1)
    assert not gentle.health


def test_slow_generation_is_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    import time

    monkeypatch.setattr(harness, "SLOW_GENERATION", 0.0005)
    monkeypatch.setattr(harness, "SLOW_TOTAL", 0.01)
    slow = sy.Apply(lambda v: time.sleep(0.001) or v, sy.RandomInteger(0, 9))
    with pytest.warns(sy.HealthWarning, match="generating inputs is slow"):
        report = sy.Assert(lambda x: True, sy.FixedCount(20), x=slow).run(seed=1)
    assert report.time_generating > report.time_testing


def test_the_report_times_generation_and_the_test_apart() -> None:
    import time

    report = sy.Assert(lambda x: time.sleep(0.002), sy.FixedCount(10), x=sy.RandomInteger(0, 9)).run(seed=1)
    assert report.time_testing >= 0.02 > report.time_generating
    assert any("s in the test" in line for line in report.statistics())


FAILING = """
import synthia as sy

@sy.given(xs=sy.ComposeList(sy.RandomInteger(-1000, 1000), sy.RandomInteger(0, 8)))
def test_sorted_twice(xs):
    assert sum(xs) < 1000
"""


def _pytest(path: Any, *args: str) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *args], cwd=path, capture_output=True, text=True, timeout=120
    )
    return done.stdout + done.stderr


def test_the_printed_reproduction_reproduces_in_a_new_process(tmp_path: Any) -> None:
    (tmp_path / "test_repro.py").write_text(FAILING)
    first = _pytest(tmp_path, "--synthia-dir=")
    smallest = re.search(r"smallest failing input: (.*)", first)
    command = re.search(r"reproduce: pytest '([^']+)' (--synthia-seed=\d+)", first)
    assert smallest and command, first
    again = _pytest(tmp_path, command.group(1), command.group(2), "--synthia-dir=")
    assert f"smallest failing input: {smallest.group(1)}" in again
    assert len(first.splitlines()) < 50  # one screen
    assert "harness.py" not in first and "runner.py" not in first  # synthia's frames are hidden


def test_a_failure_replayed_from_the_database_says_so(tmp_path: Any) -> None:
    (tmp_path / "test_repro.py").write_text(FAILING)
    _pytest(tmp_path)
    second = _pytest(tmp_path)
    assert "saved by an earlier run in the failure database" in second and "--synthia-dir=" in second


def test_profiles_statistics_and_observations_from_the_command_line(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        test_stats="""
import synthia as sy

@sy.given(x=sy.RandomInteger(0, 100))
def test_fine(x):
    sy.event("big" if x > 50 else "small")
"""
    )
    result = pytester.runpytest("-p", "no:cacheprovider", "--synthia-profile=ci", "--synthia-statistics", "--synthia-observe")
    result.assert_outcomes(passed=1)
    text = result.stdout.str()
    assert "synthia: profile ci" in text and "synthia statistics" in text
    assert "100 inputs tested" in text and "s generating inputs" in text and "labels: " in text
    observed = list((pytester.path / ".synthia" / "observed").glob("*_testcases.jsonl"))
    lines = [json.loads(line) for line in observed[0].read_text().splitlines()]
    assert len(lines) == 100 and {line["type"] for line in lines} == {"test_case"}
    assert settings.active_profile().name == "default"  # the inner session restored it


def test_the_ini_option_chooses_the_profile_and_a_wrong_name_is_a_usage_error(pytester: pytest.Pytester) -> None:
    pytester.makeini("[pytest]\nsynthia_profile = ci\n")
    pytester.makepyfile(test_ini="import synthia as sy\n\n@sy.given(x=sy.Tick())\ndef test_t(x):\n    pass\n")
    assert "synthia: profile ci" in pytester.runpytest("-p", "no:cacheprovider").stdout.str()
    wrong = pytester.runpytest("-p", "no:cacheprovider", "--synthia-profile=nightly")
    assert "no synthia profile named 'nightly'" in wrong.stderr.str()


def test_long_runs_show_a_bar_only_where_a_person_watches(capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("tqdm")
    sy.Assert(lambda x: True, sy.RunOptions(stop=sy.FixedCount(600), progress=True), x=sy.RandomInteger(0, 9)).run(seed=1)
    assert "inputs" in capsys.readouterr().err  # tqdm's bar, on standard error
    sy.Monkey(list, [sy.Action("append", x=sy.Tick())], stop=sy.FixedCount(40), progress=True).run(seed=1)
    assert "traces" in capsys.readouterr().err
    sy.Assert(lambda x: True, sy.FixedCount(600), x=sy.RandomInteger(0, 9)).run(seed=1)  # under pytest: silent
    assert capsys.readouterr().err == ""
    with pytest.raises(TypeError, match="progress"):
        sy.Assert(lambda x: True, sy.RunOptions(progress="yes"), x=sy.Tick())
