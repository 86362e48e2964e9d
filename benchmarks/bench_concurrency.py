"""The concurrent Monkey with its default settings against free-running threads, on the ten
races of benchmarks/race_subjects.py (each modelled on a real-world bug report).

For each race, over 10 seeds and at most 2,000 schedules per seed:

* **controlled**: ``Monkey(system, actions, model=..., threads=2)`` (``tasks=2`` for the
  asyncio race, ``within=["tinycache"]`` for the race inside a library) and nothing else:
  the seeds that find the race, the median number of schedules to the first failure, the
  median seconds to the minimal report (discovery and shrinking), the seeds whose report is
  minimal (at most 2 calls per branch, and the fewest preemptions the race needs), and the
  shapes of the reports (calls per branch / preemptions);
* **correct**: the race's correct version, 2,000 schedules (seed 0): ``ok`` when it passes;
* **free**: the same objects and actions, two branches of three calls run by plain threads
  started together by a barrier (asyncio tasks gathered on a plain loop for the asyncio
  race) -- what a stress test does -- checked for linearizability the same way (a run whose
  threads do not end within 2 s counts as a deadlock found): the seeds that find a race and
  the median number of runs to the first, at most 2,000 runs and 10 s per seed.

A second table compares where threads are preempted -- ``"line"``, ``"opcode"`` and the
default ``"auto"`` (lines, then opcodes in one schedule in three after 250) -- on the races
most sensitive to it: a counter's ``self.value += 1`` (one line, several opcodes; from
examples/concurrency_races.py), the work list (a one-line window between two lines), the
race deep in a call and the one inside a library: the seeds that find each, and the median
schedules to the first.

The figures are counts, not times, except the seconds to the minimal report (on this
machine, for scale). ``--quick`` runs 2 seeds and 200 schedules.
"""
from __future__ import annotations

import asyncio
import functools
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

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "examples"))
import concurrency_races  # noqa: E402
import race_subjects  # noqa: E402

#: The races shown by a history without any preemption (a blocking call, a timer).
NO_PREEMPTION = {"buffer", "limiter"}


def controlled(name: str, seed: int, schedules: int) -> tuple[int | None, float, list[int], int]:
    start = time.perf_counter()
    report = race_subjects.race_monkey(name, schedules=schedules).run(seed=seed)
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


def _step(action: sy.Action, args: dict[str, Any]) -> Callable[[Any], Any]:
    return lambda model: getattr(model, str(action.fn))(**args)


def free(name: str, seed: int, runs: int, seconds: float = 10.0) -> int | None:
    """Runs (of two branches of three calls in plain threads) until the first that no
    sequential order explains, or that deadlocks, or ``None`` within ``runs`` runs."""
    subject = race_subjects.SUBJECTS[name]
    rng = random.Random(seed)
    pickers = {(a.name, arg): p.duplicate().set_seed(seed) for a in subject.actions for arg, p in a.args.items()}
    deadline = time.perf_counter() + seconds
    for run in range(1, runs + 1):
        if time.perf_counter() > deadline:
            return None
        branches = _branches(subject.actions, rng, pickers)
        obj = subject.system()
        clock = itertools.count(1)  # next() on a count is atomic: the real-time order of the calls
        calls: list[Call] = []
        if "tasks" in subject.options:
            async def branch(k: int, steps: list[tuple[sy.Action, dict[str, Any]]]) -> None:
                for i, (action, args) in enumerate(steps):
                    invoked = next(clock)
                    value, raised = None, None
                    try:
                        value = await getattr(obj, str(action.fn))(**args)
                    except Exception as exc:  # a raise is a result
                        raised = exc
                    calls.append(Call(k, i, action.name, _step(action, args), value, raised, invoked, next(clock)))

            async def both() -> None:
                await asyncio.gather(*(branch(k, b) for k, b in enumerate(branches)))

            asyncio.run(both())
        else:
            barrier = threading.Barrier(2)

            def body(k: int, steps: list[tuple[sy.Action, dict[str, Any]]]) -> None:
                barrier.wait()
                for i, (action, args) in enumerate(steps):
                    invoked = next(clock)
                    value, raised = None, None
                    try:
                        value = getattr(obj, str(action.fn))(**args)
                    except Exception as exc:  # a raise is a result
                        raised = exc
                    calls.append(Call(k, i, action.name, _step(action, args), value, raised, invoked, next(clock)))

            threads = [threading.Thread(target=body, args=(k, b), daemon=True) for k, b in enumerate(branches)]
            for t in threads:
                t.start()
            for t in threads:
                t.join(2.0)
            if any(t.is_alive() for t in threads):
                return run  # a deadlock (its threads stay blocked: daemons)
        if linearize(calls, subject.model()) is None:
            return run
    return None


def _median(values: list[float]) -> str:
    return f"{statistics.median(values):.3g}" if values else "-"


def run(quick: bool) -> None:
    seeds = range(2 if quick else 10)
    schedules = 200 if quick else 2000
    rows = []
    for name, subject in race_subjects.SUBJECTS.items():
        found = [controlled(name, seed, schedules) for seed in seeds]
        hits = [f for f in found if f[0] is not None]
        fewest = 0 if name in NO_PREEMPTION else 1
        minimal = [f for f in hits if max(f[2]) <= 2 and f[3] <= fewest]
        correct = race_subjects.race_monkey(name, locked=True, schedules=schedules).run(seed=0)
        free_runs = [free(name, seed, schedules) for seed in seeds]
        free_hits = [r for r in free_runs if r is not None]
        shapes = sorted({(tuple(f[2]), f[3]) for f in hits})
        rows.append((
            name,
            subject.kind,
            f"{len(hits)}/{len(found)}",
            _median([float(f[0]) for f in hits if f[0] is not None]),
            _median([f[1] for f in hits]),
            f"{len(minimal)}/{len(found)}",
            " ".join(f"{'+'.join(map(str, calls))}/{p}" for calls, p in shapes),
            "ok" if correct.passed and correct.tried == schedules else "FAILED",
            f"{len(free_hits)}/{len(free_runs)}",
            _median([float(r) for r in free_hits]),
        ))
    print(f"{len(seeds)} seeds, at most {schedules} schedules each; the defaults (threads=2 or tasks=2; within for the library)")
    table(rows, ("race", "kind", "found", "schedules to 1st", "s to minimal", "minimal", "calls/preemptions", "correct", "free found", "runs to 1st"))
    granularity(seeds, schedules)


def granularity(seeds: range, schedules: int) -> None:
    rows = []
    monkeys = {
        "counter (+=)": lambda **options: concurrency_races.race_monkey("counter", schedules=schedules, **options),
        **{name: functools.partial(race_subjects.race_monkey, name, schedules=schedules) for name in ("worklist", "deep", "stampede")},
    }
    for name, monkey in monkeys.items():
        row = [name]
        for preemption in ("line", "opcode", "auto"):
            firsts = [report.first_index for report in (monkey(preemption=preemption).run(seed=seed) for seed in seeds) if not report.passed]
            row += [f"{len(firsts)}/{len(seeds)}", _median([float(f) for f in firsts if f is not None])]
        rows.append(tuple(row))
    print()
    table(rows, ("race", "line found", "to 1st", "opcode found", "to 1st", "auto found", "to 1st"))
