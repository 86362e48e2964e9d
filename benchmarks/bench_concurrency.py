"""The concurrent Monkey against free-running threads, on the races of examples/concurrency_races.py.

For each planted race (a counter's ``+=``, a cache's check-then-set ``get_or_set``, an
asyncio account whose ``transfer`` awaits between check and debit, a queue whose ``size``
reads two counters), over 10 seeds and at most 2,000 schedules per seed:

* **controlled**: ``Monkey(..., threads=2 | tasks=2)``: the seeds that find the race, the
  median number of schedules to the first failure, the median seconds to the minimal report
  (discovery and shrinking), and the shrunk report's calls per branch and preemptions;
* **free**: the same objects and actions, two branches of three calls run by plain threads
  started together (asyncio tasks on a plain loop for the account) -- what a stress test
  does -- checked for linearizability the same way: the seeds that find a race and the
  median number of runs to the first.

The figures are counts, not times, except the time to the minimal report (seconds on this
machine, for scale). ``--quick`` runs 2 seeds and 200 schedules.
"""
from __future__ import annotations

import asyncio
import itertools
import pathlib
import random
import statistics
import sys
import threading
import time
from typing import Any, Callable

from timing import table

import synthia as sy
from synthia.testing.linearizability import Call, linearize

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "examples"))
import concurrency_races  # noqa: E402


def controlled(name: str, seed: int, schedules: int) -> tuple[int | None, float, list[int], int]:
    start = time.perf_counter()
    report = concurrency_races.race_monkey(name, schedules=schedules).run(seed=seed)
    seconds = time.perf_counter() - start
    if report.passed or report.history is None:
        return None, seconds, [], 0
    return report.tried, seconds, [len(report.history.branch(k)) for k in range(2)], report.history.preemptions


def _branches(actions: list[sy.Action], rng: random.Random, pickers: dict[tuple[str, str], Any]) -> list[list[tuple[sy.Action, dict[str, Any]]]]:
    out = []
    for _ in range(2):
        branch = []
        for _ in range(3):
            action = rng.choice(actions)
            branch.append((action, {arg: pickers[(action.name, arg)].pick() for arg in action.args}))
        out.append(branch)
    return out


def free(name: str, seed: int, schedules: int) -> int | None:
    """Runs (of two branches of three calls in plain threads) until the first that no
    sequential order explains, or ``None`` within ``schedules`` runs."""
    system, _, model, actions, options = concurrency_races.RACES[name]
    rng = random.Random(seed)
    pickers = {(a.name, arg): p.duplicate().set_seed(seed) for a in actions for arg, p in a.args.items()}
    for run in range(1, schedules + 1):
        branches = _branches(actions, rng, pickers)
        obj = system()
        clock = itertools.count(1)  # next() on a count is atomic: the real-time order of the calls
        calls: list[Call] = []

        def perform(k: int, i: int, action: sy.Action, args: dict[str, Any], result: Callable[[], Any]) -> None:
            invoked = next(clock)
            value, raised = None, None
            try:
                value = result()
            except Exception as exc:  # a raise is a result
                raised = exc
            step = (lambda m, a=action, g=args: getattr(m, a.fn)(**g))  # type: ignore[misc]
            calls.append(Call(k, i, action.name, step, value, raised, invoked, next(clock)))

        if options.get("tasks"):
            async def branch(k: int, steps: list[tuple[sy.Action, dict[str, Any]]]) -> None:
                for i, (action, args) in enumerate(steps):
                    invoked = next(clock)
                    value = await getattr(obj, str(action.fn))(**args)
                    step = (lambda m, a=action, g=args: getattr(m, a.fn)(**g))  # type: ignore[misc]
                    calls.append(Call(k, i, action.name, step, value, None, invoked, next(clock)))

            async def both() -> None:
                await asyncio.gather(*(branch(k, b) for k, b in enumerate(branches)))

            asyncio.run(both())
        else:
            barrier = threading.Barrier(2)

            def body(k: int, steps: list[tuple[sy.Action, dict[str, Any]]]) -> None:
                barrier.wait()
                for i, (action, args) in enumerate(steps):
                    perform(k, i, action, args, lambda a=action, g=args: getattr(obj, str(a.fn))(**g))  # type: ignore[misc]

            threads = [threading.Thread(target=body, args=(k, b)) for k, b in enumerate(branches)]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
        if linearize(calls, model()) is None:
            return run
    return None


def _median(values: list[float]) -> str:
    return f"{statistics.median(values):.3g}" if values else "-"


def run(quick: bool) -> None:
    seeds = range(2 if quick else 10)
    schedules = 200 if quick else 2000
    rows = []
    for name in concurrency_races.RACES:
        found = [controlled(name, seed, schedules) for seed in seeds]
        hits = [f for f in found if f[0] is not None]
        free_runs = [free(name, seed, schedules) for seed in seeds]
        free_hits = [r for r in free_runs if r is not None]
        shapes = sorted({(tuple(f[2]), f[3]) for f in hits})
        rows.append((
            name,
            f"{len(hits)}/{len(found)}",
            _median([float(f[0]) for f in hits if f[0] is not None]),
            _median([f[1] for f in hits]),
            " ".join(f"{'+'.join(map(str, calls))}/{p}" for calls, p in shapes),
            f"{len(free_hits)}/{len(free_runs)}",
            _median([float(r) for r in free_hits]),
        ))
    print(f"{len(seeds)} seeds, at most {schedules} schedules each")
    table(rows, ("race", "controlled found", "schedules to 1st", "s to minimal", "calls/preemptions", "free found", "runs to 1st"))
