"""Assert against Hypothesis on the same properties, in one run.

* examples per second on a trivially true property (integers in [0, 1000));
* on three planted bugs: time to the first failure, total time, and the size of the final
  counterexample (elements for lists, the value for integers). Smaller is better.

Targets for the project: at least 100x Hypothesis's examples per second, and
counterexamples no larger than Hypothesis's.
"""
from __future__ import annotations

import time
from typing import Any, Callable

from timing import table

import synthia as sy


def wrong_sort(values: list[int]) -> list[int]:
    out = sorted(values)
    if len(values) > 4 and values[3] + values[4] > 1000:
        out[0], out[-1] = out[-1], out[0]
    return out


def dedupe(values: list[int]) -> list[int]:
    return list(dict.fromkeys(values))[:10]


def bad_abs(x: int) -> int:
    return x if x < 10_000 else -x


def _bugs() -> list[tuple[str, Callable[[Any], bool], Any, Any, Callable[[Any], float]]]:
    from hypothesis import strategies as st

    return [
        (
            "Sort: wrong when l[3] + l[4] > 1000",
            lambda l: wrong_sort(l) == sorted(l),
            sy.ComposeList(sy.RandomInteger(0, 1000), sy.RandomInteger(0, 2000)),
            st.lists(st.integers(0, 999), max_size=1999),
            lambda l: len(l) + sum(l) / 1001,
        ),
        (
            "dedupe keeps at most 10 values",
            lambda l: set(dedupe(l)) == set(l),
            sy.ComposeList(sy.RandomInteger(-1000, 1000), sy.RandomInteger(1, 30)),
            st.lists(st.integers(-1000, 999), min_size=1, max_size=29),
            lambda l: len(l) + sum(abs(x) for x in l) / 10**6,
        ),
        (
            "abs is negative from 10000 on",
            lambda x: bad_abs(x) >= 0,
            sy.RandomInteger(0, 10**6),
            st.integers(0, 10**6 - 1),
            lambda x: x,
        ),
    ]


def synthia_rate(n: int) -> float:
    assertion = sy.Assert(lambda x: x >= 0, sy.RunOptions(stop=sy.FixedCount(n)), x=sy.RandomInteger(0, 1000))
    start = time.perf_counter()
    report = assertion.run(seed=1)
    return report.tried / (time.perf_counter() - start)


def hypothesis_rate(n: int) -> float:
    from hypothesis import HealthCheck, Phase, given, settings
    from hypothesis import strategies as st

    count = [0]

    @settings(max_examples=n, database=None, deadline=None, phases=[Phase.generate], suppress_health_check=list(HealthCheck))
    @given(st.integers(0, 10**9))
    def body(x: int) -> None:
        count[0] += 1
        assert x >= 0

    start = time.perf_counter()
    body()
    return count[0] / (time.perf_counter() - start)


def hypothesis_failure(test: Callable[[Any], bool], strategy: Any, seed: int) -> tuple[float, float, Any]:
    """(seconds to the first failure, total seconds, final counterexample) for Hypothesis."""
    from hypothesis import HealthCheck, given, settings
    from hypothesis import seed as hyp_seed

    first: list[float] = []
    last: list[Any] = []
    start = time.perf_counter()

    @hyp_seed(seed)
    @settings(max_examples=1000, database=None, deadline=None, suppress_health_check=list(HealthCheck), print_blob=False)
    @given(strategy)
    def body(value: Any) -> None:
        if not test(value):
            if not first:
                first.append(time.perf_counter() - start)
            last[:] = [value]
            raise AssertionError

    try:
        body()
    except AssertionError:
        pass
    return (first[0] if first else float("nan")), time.perf_counter() - start, (last[0] if last else None)


def run(quick: bool) -> None:
    n = 500 if quick else 20_000
    ours = synthia_rate(n)
    theirs = hypothesis_rate(min(n, 300 if quick else 2000))
    print("\nExamples per second on a trivially true property:")
    table([("synthia Assert", f"{ours:12,.0f}", f"{ours / theirs:8.0f}x"), ("Hypothesis @given", f"{theirs:12,.0f}", "1x")], ("harness", "examples/s", "ratio"))
    rows = []
    seeds = [1] if quick else [1, 2, 3]
    for label, test, picker, strategy, size in _bugs():
        for seed in seeds:
            start = time.perf_counter()
            report = sy.Assert(lambda x, t=test: t(x), x=picker).run(seed=seed)
            total = time.perf_counter() - start
            ours_first = report.time_to_failure if report.time_to_failure is not None else float('nan')
            h_first, h_total, h_value = hypothesis_failure(test, strategy, seed)
            our_value = report.smallest["x"] if report.smallest else None
            rows.append(
                (
                    f"{label} (seed {seed})",
                    f"{ours_first * 1e3:8.2f} ms",
                    f"{h_first * 1e3:8.1f} ms",
                    f"{total:6.2f} s",
                    f"{h_total:6.2f} s",
                    f"{size(our_value):10.3f}",
                    f"{size(h_value) if h_value is not None else float('nan'):10.3f}",
                )
            )
    print("\nPlanted bugs (size: list length + a fraction for the values, or the integer itself):")
    table(rows, ("bug", "synthia 1st", "hyp. 1st", "synthia all", "hyp. all", "synthia size", "hyp. size"))
    setup_cost(quick)


def setup_cost(quick: bool) -> None:
    """What building and starting an ``Assert`` on a large wiring costs, against one copy of
    that wiring: a sum of 500 records of two integers (1,501 pickers)."""
    parts = [sy.Apply(lambda a, b: a + b, sy.RandomInteger(0, 9), sy.RandomInteger(0, 9)) for _ in range(500)]
    wiring = sy.Apply(lambda *xs: sum(xs), *parts)
    rounds = 3 if quick else 10
    best_copy = best_setup = float("inf")
    for _ in range(rounds):
        start = time.process_time()
        wiring.duplicate()
        best_copy = min(best_copy, time.process_time() - start)
        start = time.process_time()
        sy.Assert(lambda total: True, sy.RunOptions(stop=sy.FixedCount(1), copy_parts=False), total=wiring).run(seed=1)
        best_setup = min(best_setup, time.process_time() - start)
    print(f"\nSetting up an Assert on a wiring of 1,501 pickers (best of {rounds}, CPU time):")
    table([("one copy of the wiring", f"{best_copy * 1e3:7.1f} ms", "1.0x"),
           ("Assert(...) and a run of one input", f"{best_setup * 1e3:7.1f} ms", f"{best_setup / best_copy:4.1f}x")],
          ("what", "time", "in copies"))
