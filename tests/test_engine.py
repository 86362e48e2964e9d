"""The generic shrinker, on its own: every accepted candidate is smaller, it keeps to one
failure, it stops, and it respects its budgets."""
from __future__ import annotations

import time
from typing import Any, Callable

import pytest
from hypothesis import given
from hypothesis import strategies as st

import synthia as sy
import synthia.core.draws as sd
from synthia.core.draws import INTEGER, Draw, Tape, clamp
from synthia.engine import FAIL, INVALID, PASS, Attempt, Shrinker, largest_true
from synthia.engine.shrinker import far_end

RANGE = (0, 1000)


def integers_attempt(
    condition: Callable[[list[int]], Any], size: int, log: list[Tape] | None = None
) -> Callable[[int, list[Any], int | None], Attempt]:
    """A "wiring" of ``size`` integer draws in ``RANGE``, with no picker behind it."""

    def attempt(picks: int, entries: list[Any], max_draws: int | None) -> Attempt:
        values = []
        for k in range(size):
            entry = entries[k] if k < len(entries) else None
            value = RANGE[0] if entry is None or isinstance(entry, sd.Flex) else clamp(INTEGER, RANGE, entry.value)[0]
            values.append(value)
        tape = Tape([Draw(INTEGER, v, RANGE) for v in values], (), picks, [0])
        if log is not None:
            log.append(tape)
        outcome = condition(values)
        if outcome == "other":
            return Attempt(FAIL, tape, values, None, ("another bug",))
        return Attempt(FAIL if outcome else PASS, tape, values, None, ("the bug",))

    return attempt


def start(attempt: Callable[..., Attempt], values: list[int]) -> Attempt:
    return attempt(1, [Draw(INTEGER, v, RANGE) for v in values], None)


@given(st.lists(st.integers(0, 999), min_size=1, max_size=6), st.integers(0, 3000))
def test_every_accepted_candidate_is_strictly_smaller(values: list[int], threshold: int) -> None:
    attempt = integers_attempt(lambda vs: sum(vs) >= threshold, len(values))
    initial = start(attempt, values)
    if initial.status != FAIL:
        return
    shrinker = Shrinker(attempt, initial)
    keys = [initial.tape.key()]  # type: ignore[union-attr]
    original = shrinker.consider

    def watched(picks: int, entries: Any, shorter_than: int | None = None) -> bool:
        accepted = original(picks, entries, shorter_than)
        if accepted:
            keys.append(shrinker.tape.key())
        return accepted

    shrinker.consider = watched  # type: ignore[method-assign]
    best = shrinker.shrink()
    assert all(b < a for a, b in zip(keys, keys[1:]))
    assert sum(best.value) >= threshold
    assert shrinker.stopped_by == "a full round of passes found nothing smaller"


def test_the_shrinker_keeps_to_one_failure() -> None:
    # Values below 100 fail "another way": shrinking the first bug must not slip into it.
    attempt = integers_attempt(lambda vs: "other" if vs[0] < 100 else vs[0] >= 500, 1)
    best = Shrinker(attempt, start(attempt, [900])).shrink()
    assert best.value == [500] and best.origin == ("the bug",)


def test_it_reaches_coupled_minima_without_knowing_the_values() -> None:
    attempt = integers_attempt(lambda vs: vs[0] + vs[1] > 1000, 2)
    assert Shrinker(attempt, start(attempt, [600, 700])).shrink().value == [2, 999]  # b is at most 999


def test_the_candidate_budget_stops_it() -> None:
    attempt = integers_attempt(lambda vs: sum(vs) > 3000, 8)
    shrinker = Shrinker(attempt, start(attempt, [999] * 8), max_calls=5)
    shrinker.shrink()
    assert shrinker.calls == 5 and "candidate budget" in shrinker.stopped_by


def test_the_time_budget_stops_it() -> None:
    def slow(picks: int, entries: list[Any], max_draws: int | None) -> Attempt:
        time.sleep(0.002)
        return integers_attempt(lambda vs: sum(vs) > 10, 30)(picks, entries, max_draws)

    shrinker = Shrinker(slow, start(slow, [999] * 30), deadline=time.perf_counter() + 0.05)
    shrinker.shrink()
    assert shrinker.stopped_by == "the time budget"


def test_the_same_proposal_is_never_replayed_twice() -> None:
    log: list[Tape] = []
    attempt = integers_attempt(lambda vs: vs[0] % 7 == 3 and vs[1] > 5, 2, log)
    Shrinker(attempt, start(attempt, [703, 900])).shrink()
    replayed = [tuple(t.values()) for t in log]
    assert len(replayed) == len(set(replayed))


def test_invalid_candidates_are_not_candidates() -> None:
    def attempt(picks: int, entries: list[Any], max_draws: int | None) -> Attempt:
        inner = integers_attempt(lambda vs: vs[0] >= 10, 1)(picks, entries, max_draws)
        if inner.value[0] < 50:
            return Attempt(INVALID, inner.tape)  # the wiring cannot make these values
        return inner

    assert Shrinker(attempt, start(attempt, [700])).shrink().value == [50]


def test_it_needs_a_failing_start() -> None:
    with pytest.raises(ValueError, match="initial"):
        Shrinker(integers_attempt(bool, 1), Attempt(PASS))


@given(st.integers(0, 10_000))
def test_largest_true_finds_the_boundary(n: int) -> None:
    calls: list[int] = []

    def holds(k: int) -> bool:
        calls.append(k)
        return k <= n

    assert largest_true(holds) == n
    assert len(calls) <= 2 * (n.bit_length() + 2)


def test_far_ends() -> None:
    assert far_end(Draw(INTEGER, 3, (-10, 5))) == -10
    assert far_end(Draw("float", 0.5, (0.0, 2.0))) == 2.0 - 2**-52
    assert far_end(Draw("weighted", 0, ((1.0, 3.0, 3.0),))) == 1
