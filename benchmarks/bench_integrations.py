"""The ecosystem: the Hypothesis bridge, Faker through synthia, and Dask scale-out.

Each figure is a ratio against a baseline measured in the same run:

* ``from_strategy``: values/s of ``sy.from_strategy(s).take(n)`` against
  ``s.example()`` called ``n`` times (Hypothesis's own way to get values outside a test),
  the same strategy and the same number of values. Goal: at least 10x.
* ``to_strategy``: seconds of a ``@given`` test over ``sy.to_strategy(picker)`` against
  the same test over the native strategy for the same domain, at equal example counts
  (``max_examples``, ``phases=[generate]``, no database): the bridge's overhead.
* ``from_type``: seconds of ``Assert`` over ``sy.from_type(T)`` against ``@given`` over
  Hypothesis's ``st.from_type(T)``, the same number of examples and a test body that does
  nothing, for a dataclass of 10 fields with nested types and a pydantic model with field
  constraints. Goal: at least 20x.
* ``sy.Faker``: names/s of ``sy.Faker("name")`` against idiomatic ``faker.Faker().name()``.
* Dask: wall time of a bulk generation (``to_dask_bag(...).count()``) and of an ``Assert``
  campaign (``run_campaign``) on a ``LocalCluster`` of 2 single-threaded worker
  processes, against the same work on 1 such worker. Goal: at least 1.8x on 2 workers
  (this machine has 2 cores shared with other work: expect noise).
"""
from __future__ import annotations

import dataclasses
import datetime as dt
import decimal
import time
from typing import Any, Optional

import pydantic

from timing import per_call, table

import synthia as sy


def _strategies() -> list[tuple[str, Any]]:
    from hypothesis import strategies as st

    return [
        ("integers()", st.integers()),
        ("lists(integers(0, 100))", st.lists(st.integers(0, 100))),
        ("text()", st.text()),
        ("fixed_dictionaries", st.fixed_dictionaries({"name": st.text(max_size=8), "age": st.integers(0, 120)})),
    ]


def bench_from_strategy(quick: bool) -> None:
    import warnings

    from hypothesis.errors import NonInteractiveExampleWarning

    n = 50 if quick else 500
    rows = []
    for name, strategy in _strategies():
        picker = sy.from_strategy(strategy, seed=1)
        ours = per_call(lambda k: picker.take(k), n, repeat=3)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", NonInteractiveExampleWarning)
            strategy.example()  # warm-up: Hypothesis builds its example cache once
            theirs = per_call(lambda k: [strategy.example() for _ in range(k)], max(n // 10, 10), repeat=1)
        rows.append((name, f"{1 / ours:,.0f}", f"{1 / theirs:,.0f}", f"{theirs / ours:.0f}x"))
    table(rows, ("strategy", "from_strategy values/s", ".example() values/s", "ratio"))


def bench_to_strategy(quick: bool) -> None:
    from hypothesis import HealthCheck, Phase, given, settings
    from hypothesis import strategies as st

    examples = 50 if quick else 500
    conf = settings(max_examples=examples, phases=[Phase.generate], database=None, deadline=None, suppress_health_check=list(HealthCheck))
    cases = [
        ("integers in a range", sy.RandomInteger(0, 1000), st.integers(0, 999)),
        ("list of integers", sy.ComposeList(sy.RandomInteger(0, 1000), sy.RandomInteger(0, 20)), st.lists(st.integers(0, 999), max_size=19)),
        ("record", sy.Struct(dict, a=sy.RandomInteger(0, 9), b=sy.Choice("x", "y")), st.fixed_dictionaries({"a": st.integers(0, 8), "b": st.sampled_from("xy")})),
    ]
    rows = []
    for name, picker, native in cases:
        times = []
        for strategy in (sy.to_strategy(picker), native):

            @conf
            @given(v=strategy)
            def test(v: Any) -> None:
                pass

            start = time.perf_counter()
            test()
            times.append(time.perf_counter() - start)
        rows.append((name, f"{times[0]:.3f} s", f"{times[1]:.3f} s", f"{times[0] / times[1]:.2f}x"))
    table(rows, (f"@given, {examples} examples", "to_strategy", "native strategy", "bridge / native"))


@dataclasses.dataclass
class Address:
    street: str
    city: str
    zip_code: int


@dataclasses.dataclass
class Customer:
    """The dataclass of ``bench_from_type``: 10 fields, nested types (at module level: its
    annotations are strings, resolved in this module)."""

    id: int
    name: str
    email: Optional[str]
    age: int
    score: float
    tags: list[str]
    address: Address
    active: bool
    created: dt.datetime
    balance: decimal.Decimal


class Street(pydantic.BaseModel):
    name: str = pydantic.Field(min_length=1, max_length=40)
    number: int = pydantic.Field(ge=1, le=9999)


class Account(pydantic.BaseModel):
    """The pydantic model of ``bench_from_type``: field constraints Hypothesis's ``from_type``
    also meets (it ignores ``pattern``, so none is used), a nested model."""

    id: int = pydantic.Field(gt=0)
    owner: str = pydantic.Field(min_length=1, max_length=30)
    email: Optional[str] = None
    age: int = pydantic.Field(ge=0, le=130)
    rate: float = pydantic.Field(ge=0, le=1)
    tags: list[str] = pydantic.Field(default=[], max_length=5)  # (Hypothesis passes a default_factory's marker itself)
    street: Street
    active: bool = True


def _typed_records() -> list[tuple[str, Any]]:
    return [("10-field dataclass, nested", Customer), ("pydantic model, constraints", Account)]


def bench_from_type(quick: bool) -> None:
    """``sy.from_type(T)`` under ``Assert`` against ``st.from_type(T)`` under ``@given``: the same
    number of examples, a test that does nothing, the picker or strategy made inside the timed
    run (as a test pays for it). Each library is warmed up first (imports, caches), then the
    best of several runs is kept."""
    from hypothesis import HealthCheck, Phase, given, settings
    from hypothesis import strategies as st

    examples = 50 if quick else 500
    repeat = 1 if quick else 3

    def ours(kind: Any, n: int) -> float:
        start = time.perf_counter()
        report = sy.Assert(lambda value: None, sy.FixedCount(n), value=sy.from_type(kind)).run(seed=1)
        elapsed = time.perf_counter() - start
        assert report.passed and report.tried == n, report
        return elapsed

    def theirs(kind: Any, n: int) -> float:
        conf = settings(max_examples=n, phases=[Phase.generate], database=None, deadline=None, suppress_health_check=list(HealthCheck))
        start = time.perf_counter()

        @conf
        @given(st.from_type(kind))
        def test(value: Any) -> None:
            pass

        test()
        return time.perf_counter() - start

    rows = []
    for name, kind in _typed_records():
        ours(kind, 20), theirs(kind, 20)  # warm-up
        synthia = min(ours(kind, examples) for _ in range(repeat + 2))
        hypothesis = min(theirs(kind, examples) for _ in range(repeat))
        rows.append((name, f"{synthia:.3f} s", f"{hypothesis:.3f} s", f"{hypothesis / synthia:.1f}x"))
    table(rows, (f"from_type, {examples} examples", "sy.from_type + Assert", "st.from_type + @given", "speed-up"))


def bench_faker(quick: bool) -> None:
    import faker

    n = 500 if quick else 20_000
    fake = faker.Faker()
    fake.seed_instance(1)
    theirs = per_call(lambda k: [fake.name() for _ in range(k)], n, repeat=3)
    picker = sy.Faker("name", seed=1)
    ours = per_call(lambda k: picker.take(k), n, repeat=3)
    table([("names", f"{1 / ours:,.0f}", f"{1 / theirs:,.0f}", f"{theirs / ours:.2f}x")], ("Faker", "sy.Faker/s", "faker.name()/s", "ratio"))


def _slow_test(x: int, l: list[int]) -> bool:
    # A test that does a little real work per input, as tests do.
    return sum(i * i for i in range(200)) >= 0 and x >= 0


def _warm_up(record: sy.Picker) -> int:
    return len(record.duplicate().set_seed(0).take(100))


def bench_dask(quick: bool) -> None:
    from distributed import Client, LocalCluster

    n = 20_000 if quick else 400_000
    inputs = 400 if quick else 100_000
    record = sy.Struct(dict, name=sy.Choice("ada", "alan", "grace"), age=sy.RandomInteger(0, 120), day=sy.RandomDate(), text=sy.RandomText(8))
    assertion = sy.Assert(_slow_test, sy.FixedCount(inputs), x=sy.RandomInteger(0, 10**6), l=sy.ComposeList(sy.RandomInteger(0, 9), 5))
    results: dict[int, tuple[float, float]] = {}
    for workers in (1, 2):
        with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, Client(cluster) as client:
            # Warm-up on every worker: the import of synthia and its wiring is not generation.
            client.run(_warm_up, record)
            start = time.perf_counter()
            count = sy.to_dask_bag(record, n, seed=1, block_size=n // 8).count().compute()
            bulk = time.perf_counter() - start
            assert count == n
            start = time.perf_counter()
            report = sy.run_campaign(assertion, client, seed=1, tasks=8)
            campaign = time.perf_counter() - start
            assert report.passed and report.tried == inputs
            results[workers] = (bulk, campaign)
    rows = [
        (f"bulk: {n:,} records in 8 blocks", f"{results[1][0]:.2f} s", f"{results[2][0]:.2f} s", f"{results[1][0] / results[2][0]:.2f}x"),
        (f"campaign: {inputs:,} inputs in 8 tasks", f"{results[1][1]:.2f} s", f"{results[2][1]:.2f} s", f"{results[1][1] / results[2][1]:.2f}x"),
    ]
    table(rows, ("Dask LocalCluster", "1 worker", "2 workers", "speed-up"))


def run(quick: bool) -> None:
    print("\n# from_strategy against strategy.example()")
    bench_from_strategy(quick)
    print("\n# to_strategy against the native strategy")
    bench_to_strategy(quick)
    print("\n# sy.from_type against Hypothesis's st.from_type, each under its own harness")
    bench_from_type(quick)
    print("\n# sy.Faker against Faker")
    bench_faker(quick)
    print("\n# Dask: 1 worker against 2" + (" (quick run: sizes too small to mean anything)" if quick else ""))
    bench_dask(quick)
