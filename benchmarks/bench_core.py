"""Core benchmarks: the random generator choice, picks/s of three wirings, and a choice among
65,536 values.

Each wiring is measured beside the same shape written by hand on ``random.Random``
and beside Hypothesis generating the same shape under ``@given`` (examples/s), all in
the same run. Targets for the project: unstaged wirings within 5x of the hand-written
loop, and at least 100x Hypothesis. The big choice (Hypothesis's ``sampled_from`` of
65,536 values) is a whole test run of each library at the same number of examples.
"""
from __future__ import annotations

import random
import time
from typing import Any, Callable

import numpy as np
from timing import per_call, table

import synthia as sy


def generator_choice(quick: bool) -> None:
    n = 20_000 if quick else 500_000
    rng = random.Random(1)
    gen = np.random.default_rng(1)
    small = max(n // 20, 1000)
    rows = []

    def loop(draw: Callable[[], object]) -> Callable[[int], None]:
        def body(count: int) -> None:
            for _ in range(count):
                draw()

        return body

    base = per_call(loop(rng.random), n)
    for label, fn, count in [
        ("random.Random.random()", rng.random, n),
        ("random.Random.getrandbits(10)", lambda: rng.getrandbits(10), n),
        ("random.Random.randrange(1000)", lambda: rng.randrange(1000), n),
        ("random.Random.randint(0, 999)", lambda: rng.randint(0, 999), n),
        ("numpy Generator.random() scalar", gen.random, small),
        ("numpy Generator.integers(0, 1000) scalar", lambda: gen.integers(0, 1000), small),
        ("synthia RandomInteger(0, 1000).pick()", sy.RandomInteger(0, 1000, seed=1).pick, n),
        ("synthia RandomFloat().pick()", sy.RandomFloat(seed=1).pick, n),
    ]:
        cost = per_call(loop(fn), count)
        rows.append((label, f"{cost * 1e9:8.1f} ns", f"{cost / base:6.2f}x"))
    print("\nCost of one draw (ratio to random.Random.random()):")
    table(rows, ("draw", "per call", "ratio"))


def hypothesis_rate(strategy: Any, examples: int) -> float:
    """Examples per second Hypothesis generates for ``strategy`` inside ``@given``."""
    from hypothesis import HealthCheck, Phase, given, settings

    seen = [0]

    @settings(
        max_examples=examples,
        database=None,
        deadline=None,
        phases=[Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    @given(strategy)
    def body(value: Any) -> None:
        seen[0] += 1

    start = time.perf_counter()
    body()
    elapsed = time.perf_counter() - start
    return seen[0] / elapsed


def wirings(quick: bool) -> None:
    from hypothesis import strategies as st

    n = 2_000 if quick else 100_000
    examples = 200 if quick else 2_000
    rng = random.Random(5)

    # The hand-written loops use the algorithm and distribution of the pickers they are
    # compared with (synthia.core.random): an int in [0, n) is getrandbits(k) with
    # k = (n - 1).bit_length(), rejected while >= n (what CPython's randrange does
    # internally, without its pure-Python wrapper); a uniform Choice of two takes the first
    # alternative when int(random() * 2) == 0, i.e. random() * 2.0 < 1.0 (compared, as the
    # generated code does, without int()'s call), and both sides call the same pair function.
    # Only the stream differs: one Random here, one stream per picker there.
    getrandbits, random_ = rng.getrandbits, rng.random

    def hand_int(count: int) -> None:
        for _ in range(count):
            r = getrandbits(10)
            while r >= 1000:
                r = getrandbits(10)

    def hand_list(count: int) -> None:
        for _ in range(count):
            n = getrandbits(5)
            while n >= 20:
                n = getrandbits(5)
            out = []
            for _ in range(n):
                r = getrandbits(10)
                while r >= 1000:
                    r = getrandbits(10)
                out.append(r)

    def hand_leaf() -> int:
        r = getrandbits(7)
        while r >= 100:
            r = getrandbits(7)
        return r

    def pair(l: Any, r: Any) -> Any:  # the function the wiring's Apply calls, called here too
        return (l, r)

    def hand_tree(count: int) -> None:
        def tree(depth: int) -> Any:
            if depth >= 4 or random_() * 2.0 < 1.0:  # int(random() * 2) == 0, without int()
                return hand_leaf()
            return pair(tree(depth + 1), tree(depth + 1))

        for _ in range(count):
            tree(0)

    leaf = sy.RandomInteger(0, 100)
    tree_picker: sy.Picker = sy.Deferred(
        lambda: sy.Choice(leaf, sy.Apply(pair, tree_picker, tree_picker)),
        max_depth=4,
        fallback=leaf,
    )
    cases = [
        ("RandomInteger(0, 1000)", sy.RandomInteger(0, 1000), hand_int, st.integers(0, 999)),
        (
            "ComposeList(RandomInteger(0, 1000), RandomInteger(0, 20))",
            sy.ComposeList(sy.RandomInteger(0, 1000), sy.RandomInteger(0, 20)),
            hand_list,
            st.lists(st.integers(0, 999), max_size=19),
        ),
        (
            "binary tree, Deferred depth <= 4",
            tree_picker,
            hand_tree,
            st.recursive(st.integers(0, 99), lambda c: st.tuples(c, c), max_leaves=16),
        ),
    ]
    rows = []
    for label, picker, hand, strategy in cases:
        picker.take(3)  # (a composite holds its fast code from its second pick)
        picker.set_seed(1)

        def picks(count: int, pick: Callable[[], Any] = picker.pick) -> None:
            for _ in range(count):
                pick()

        ours = 1.0 / per_call(picks, n)
        by_hand = 1.0 / per_call(hand, n)
        hyp = hypothesis_rate(strategy, examples)
        rows.append(
            (label, f"{ours:12,.0f}", f"{by_hand:12,.0f}", f"{by_hand / ours:5.2f}x", f"{hyp:10,.0f}", f"{ours / hyp:7.0f}x")
        )
    print("\nValues per second (hand-written = the same shape, same algorithm, on one random.Random):")
    table(rows, ("wiring", "synthia/s", "by hand/s", "hand/synthia", "hypothesis/s", "synthia/hypothesis"))
    print("targets: hand/synthia <= 5x (unstaged), synthia/hypothesis >= 100x")


def big_choice(quick: bool) -> None:
    """A choice among 65,536 values (Hypothesis's ``sampled_from``): building it, copying it,
    and a whole ``Assert`` run against a whole ``@given`` run at the same number of examples,
    beside the same runs with two values (building and copying must not grow with the number
    of values)."""
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    examples = 200 if quick else 2_000
    rows = []
    for n in (2, 65_536):
        values = list(range(n))
        start = time.perf_counter()
        choice = sy.Choice(*values)
        built = time.perf_counter() - start
        start = time.perf_counter()
        for _ in range(100):
            choice.duplicate()
        copied = (time.perf_counter() - start) / 100
        start = time.perf_counter()
        report = sy.Assert(lambda x: x >= 0, sy.RunOptions(stop=sy.FixedCount(examples)), x=choice).run(seed=1)
        ours = time.perf_counter() - start
        assert report.passed and report.tried == examples

        @settings(max_examples=examples, database=None, deadline=None, suppress_health_check=list(HealthCheck))
        @given(st.sampled_from(values))
        def body(x: int) -> None:
            assert x >= 0

        start = time.perf_counter()
        body()
        theirs = time.perf_counter() - start
        rows.append((f"Choice of {n:,} values", f"{built * 1e3:8.2f} ms", f"{copied * 1e6:8.1f} us", f"{ours:7.3f} s", f"{theirs:7.3f} s", f"{theirs / ours:7.2f}x"))
    print(f"\nA choice among many values ({examples:,} examples per run):")
    table(rows, ("choice", "build", "copy", "Assert run", "Hypothesis run", "Hypothesis/Assert"))


def run(quick: bool) -> None:
    generator_choice(quick)
    wirings(quick)
    big_choice(quick)
