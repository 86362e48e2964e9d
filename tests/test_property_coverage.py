"""property_coverage: properties against mutants of the function under test."""
from __future__ import annotations

import time
from typing import Any

import pytest

import synthia as sy
from synthia.testing.mutation import argument_mutants, output_mutants

lists = sy.ComposeList(sy.RandomInteger(-20, 20), sy.RandomInteger(0, 8))


def same_length(f: Any, xs: list[int]) -> None:
    assert len(f(xs)) == len(xs)


def is_sorted(f: Any, xs: list[int]) -> None:
    out = f(xs)
    assert all(a <= b for a, b in zip(out, out[1:]))


def test_kills_survivors_equivalents_and_inapplicable_mutants_are_told_apart() -> None:
    mutants = [
        sy.Mutant("drops the last", lambda xs: sorted(xs)[:-1]),
        sy.Mutant("reversed", lambda xs: sorted(xs, reverse=True)),
        sy.Mutant("same, written differently", lambda xs: sorted(list(xs))),
        *output_mutants(sorted, {"+ 1": sy.Offset(1)}),
    ]
    result = sy.property_coverage([same_length, is_sorted], sorted, mutants, xs=lists)
    assert result.equivalent == ["same, written differently"]
    # A mutant that raises on every call is killed at the first input, not set aside.
    assert result.not_applicable == {} and result.run("same_length", "+ 1").status == "killed"
    assert result.run("same_length", "+ 1").inputs == 1
    assert result.mutants == ["drops the last", "reversed", "+ 1"]
    assert result.run("same_length", "drops the last").status == "killed"
    assert result.run("same_length", "reversed").status == "survived"
    assert result.run("same_length", "reversed").inputs == 58  # the Bayesian rule's stop
    assert result.run("is_sorted", "reversed").status == "killed"
    assert result.killed("same_length") == ["+ 1", "drops the last"] and result.kill_rate() == 1.0
    table = result.table()
    assert "possibly equivalent" in table and "killed 2/3 (67%)" in table


def test_possibly_equivalent_is_not_decided_on_the_recorded_calls_alone() -> None:
    def non_negative(f: Any, n: int) -> None:
        assert f(n) == abs(n)

    sneaky = sy.Mutant("differs at 1000 only", lambda n: abs(n) + (n == 1000))
    result = sy.property_coverage(non_negative, abs, [sneaky], stop=sy.FixedCount(3000), n=sy.RandomInteger(0, 2000))
    # The first 200 recorded calls never meet 1000; the property does, later.
    assert result.equivalent == [] and result.run("non_negative", "differs at 1000 only").status == "killed"


def test_inputs_to_kill_count_up_to_the_killing_input() -> None:
    # Only lists of 7 or more elements reveal the mutant: it takes several inputs to kill.
    mutant = sy.Mutant("wrong when long", lambda xs: sorted(xs)[:6] if len(xs) > 6 else sorted(xs))
    result = sy.property_coverage(same_length, sorted, [mutant], seed=3, xs=lists)
    run = result.run("same_length", "wrong when long")
    assert run.status == "killed" and run.inputs > 1
    check = sy.Assert(lambda xs: same_length(mutant.function, xs), sy.RunOptions(stop=sy.Bayesian(), shrink_budget=0), xs=lists).run(seed=3)
    assert run.inputs == check.first_index + 1


def test_a_mutant_that_hangs_is_a_timeout() -> None:
    def endless(xs: list[int]) -> list[int]:
        while len(xs) > 3:
            pass
        return sorted(xs)

    start = time.perf_counter()
    result = sy.property_coverage(same_length, sorted, [sy.Mutant("hangs", endless)], time_limit_per_mutant=0.3, xs=lists)
    assert result.run("same_length", "hangs").status == "timeout"
    assert time.perf_counter() - start < 5
    assert "T" in result.table().splitlines()[2]


def test_a_property_that_fails_on_the_original_is_reported_and_not_run() -> None:
    def wrong(f: Any, xs: list[int]) -> None:
        assert f(xs) == xs

    result = sy.property_coverage([wrong, same_length], sorted, [sy.Mutant("empty", lambda xs: [])], xs=lists)
    assert "wrong" in result.failing_on_original
    assert all(r.property == "same_length" for r in result.runs)
    assert "FAILS on the original" in result.table()


def test_default_mutants_cover_result_and_arguments() -> None:
    import bisect

    names = [m.name for m in output_mutants(sorted)] + [m.name for m in argument_mutants(bisect.insort)]
    assert "result + 1" in names and "argument 1 + 1" in names
    lost = next(m for m in argument_mutants(bisect.insort) if m.name == "argument 0 with an element deleted")
    xs = [1, 2, 3]
    lost.function(xs, 9)
    assert xs == [1, 2, 3]  # the mutant inserted into a copy: a lost update


def test_the_same_seed_gives_the_same_result() -> None:
    a = sy.property_coverage([same_length, is_sorted], sorted, seed=5, xs=lists).table()
    b = sy.property_coverage([same_length, is_sorted], sorted, seed=5, xs=lists).table()
    assert a == b


@pytest.mark.parametrize(
    "call, error, words",
    [
        (lambda: sy.property_coverage(3, sorted, xs=lists), TypeError, "properties"),
        (lambda: sy.property_coverage({}, sorted, xs=lists), ValueError, "at least one property"),
        (lambda: sy.property_coverage(same_length, 3, xs=lists), TypeError, "function"),
        (lambda: sy.property_coverage(same_length, sorted), ValueError, "input picker"),
        (lambda: sy.property_coverage(same_length, sorted, [sorted], xs=lists), TypeError, r"mutants\[0\]"),
        (lambda: sy.property_coverage(same_length, sorted, time_limit_per_mutant=0, xs=lists), ValueError, "time_limit_per_mutant"),
        (lambda: sy.Mutant("off", 3), TypeError, "function"),
        (lambda: sy.Mutant("", sorted), TypeError, "name"),
        (lambda: sy.Mutant("off", sorted, kind="other"), ValueError, "kind"),
    ],
)
def test_bad_arguments_are_named(call: Any, error: type, words: str) -> None:
    with pytest.raises(error, match=words):
        call()
