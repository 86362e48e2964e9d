"""Issue 33, the small tools: ``sy.note``, ``sy.target``, and a test's prints shown for the
smallest failure only."""
from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import synthia as sy

LISTS = sy.ComposeList(sy.RandomInteger(0, 1000), sy.RandomInteger(0, 13))


def test_notes_are_those_of_the_smallest_failure() -> None:
    def test(l: list[int]) -> None:
        sy.note(f"length {len(l)}")
        sy.note(sorted(l))
        assert sum(l) < 1000

    report = sy.Assert(test, l=LISTS).run(seed=1)
    smallest = report.smallest["l"]  # type: ignore[index]
    assert report.test_notes == [f"length {len(smallest)}", repr(sorted(smallest))]
    assert f"note: length {len(smallest)}" in report.summary()


def test_notes_in_a_monkey_are_those_of_the_smallest_trace() -> None:
    class Stack:
        def __init__(self) -> None:
            self.items: list[int] = []

        def push(self, x: int) -> None:
            sy.note(f"push {x} onto {self.items}")
            self.items.append(x)
            assert len(self.items) < 3

    report = sy.Monkey(Stack, [sy.Action("push", x=sy.RandomInteger(0, 9))]).run(seed=1)
    assert report.test_notes == ["push 0 onto []", "push 0 onto [0]", "push 0 onto [0, 0]"]
    assert "note: push 0 onto [0, 0]" in report.summary()


def test_target_finds_what_plain_search_misses() -> None:
    def plain(l: list[int]) -> bool:
        return sum(l) < 9_000

    def targeted(l: list[int]) -> bool:
        sy.target(sum(l), label="sum")
        return sum(l) < 9_000

    options = sy.RunOptions(max_examples=300)
    assert all(sy.Assert(plain, options, l=LISTS).run(seed=s).passed for s in range(5))
    reports = [sy.Assert(targeted, options, l=LISTS).run(seed=s) for s in range(5)]
    assert all(not r.passed and not r.flaky for r in reports)
    assert all(r.smallest == {"l": [9] + [999] * 9} for r in reports)  # shrunk as any failure
    assert all(r.targets["sum"] >= 9_000 for r in reports)


def test_target_is_deterministic_and_reported_when_the_run_passes() -> None:
    def test(x: int) -> None:
        sy.target(x % 97)

    one = sy.Assert(test, x=sy.RandomInteger(0, 10**6)).run(seed=4)
    two = sy.Assert(test, x=sy.RandomInteger(0, 10**6)).run(seed=4)
    assert one.passed and one.targets == two.targets and 0 < one.targets[""] <= 96
    assert "highest targets: (no label)=" in one.summary()


@pytest.mark.parametrize("bad, error", [("x", TypeError), (float("nan"), ValueError), (True, TypeError)])
def test_target_refuses_what_is_no_number(bad: object, error: type) -> None:
    with pytest.raises(error, match="observation"):
        sy.target(bad)  # type: ignore[arg-type]


def test_one_observation_per_label_and_input() -> None:
    def twice(x: int) -> None:
        sy.target(x, "a")
        sy.target(x, "a")

    report = sy.Assert(twice, x=sy.RandomInteger(0, 9)).run(seed=1)
    assert not report.passed and "given twice" in str(report.exception)


def test_prints_are_shown_for_the_smallest_failure_only(capsys: pytest.CaptureFixture[str]) -> None:
    def test(l: list[int]) -> None:
        print("testing", l)
        assert sum(l) < 1000

    report = sy.Assert(test, l=LISTS).run(seed=1)
    assert capsys.readouterr().out == ""  # nothing reached the screen while searching
    assert report.output == f"testing {report.smallest['l']}\n"  # type: ignore[index]
    assert f"testing {report.smallest['l']}" in report.summary()  # type: ignore[index]
    loud = sy.Assert(test, sy.RunOptions(capture_output=False), l=LISTS).run(seed=1)
    assert capsys.readouterr().out.count("testing") > loud.shrink_tries // 2 > 50 and loud.output == ""  # every play printed


def test_given_shows_one_print_under_pytest(tmp_path: Path) -> None:
    (tmp_path / "test_prints.py").write_text(textwrap.dedent('''
        import synthia as sy

        @sy.given(l=sy.ComposeList(sy.RandomInteger(0, 1000), sy.RandomInteger(0, 13)))
        def test_sum(l):
            print("testing", l)
            assert sum(l) < 1000
    '''))
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--synthia-seed=1", "test_prints.py"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert done.returncode == 1
    failures = done.stdout.split("short test summary info")[0]  # (with CI set, pytest's summary repeats the report)
    assert failures.count("testing [") == 1, done.stdout
