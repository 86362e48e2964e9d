"""Scale-out on Dask (``pip install 'synthia[dask]'``): bulk data and test campaigns.

**Bulk data whose bytes do not depend on the cluster.** :func:`to_dask_bag` and
:func:`to_dask_dataframe` cut the ``n`` values into fixed-size *blocks* of
``block_size`` values. Block ``i`` is made by a fresh copy of the wiring seeded with
``derive_seed(seed, "block:i")``, from its initial state; a partition is a run of whole
blocks. So a value depends only on ``seed``, ``block_size`` and its position -- never on
the number of partitions or workers, nor on which worker made it. Stateful pickers
(``Tick``, ``Playback``, a ``MarkovChain``, ``Knit`` instances) therefore **restart at
every block**: a ``Tick`` counts ``0 .. block_size - 1`` in each block. Choose a
``block_size`` that is a multiple of what must stay together.

**Campaigns.** :func:`run_campaign` spreads the *discovery* of an :class:`~synthia.Assert`
or a :class:`~synthia.Monkey` over a Dask client: the run's budget is split into ``tasks``
sub-runs, sub-run ``k`` seeded with ``derive_seed(seed, "task:k")``; each returns, once its
inputs are tried, a portable summary (its counts, and the tape of its first failure as
JSON, unshrunk); the client keeps the smallest failure by its tape's key (fewest choices,
then the simplest ones) and shrinks it there, so a worker that dies cannot take a failure
another task found with it. A task whose worker dies is retried by Dask (``retries``); a task that
still fails is listed in :attr:`CampaignReport.lost` and never hides a failure found by
another task. The harnesses are driven from outside: nothing in them changes.
"""
from __future__ import annotations

import copy
import dataclasses
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator

from ..core.checks import check_count, check_float, check_int, check_picker
from ..core.draws import Tape
from ..core.picker import Picker
from ..core.random import check_seed, derive_seed, fresh_seed
from ..engine.stopping import FixedCount
from .tables import rows

__all__ = ["block_seed", "make_block", "to_dask_bag", "to_dask_dataframe", "run_campaign", "CampaignReport"]


def block_seed(seed: int, index: int) -> int:
    """The seed of block ``index`` of a bulk generation seeded with ``seed``."""
    return derive_seed(seed, f"block:{index}")


def make_block(picker: Picker[Any], seed: int, index: int, block_size: int, n: int) -> list[Any]:
    """The values of block ``index``: ``min(block_size, n - index * block_size)`` picks of a
    fresh copy of ``picker`` seeded with :func:`block_seed`.

    >>> import synthia as sy
    >>> make_block(sy.Tick(), 1, 2, 4, 10)
    [0, 1]
    """
    count = max(0, min(block_size, n - index * block_size))
    return picker.duplicate().set_seed(block_seed(seed, index)).take(count)


def _plan(n: int, block_size: int, npartitions: int | None) -> list[list[int]]:
    n = check_count(n, "n")
    block_size = check_count(block_size, "block_size", minimum=1)
    blocks = list(range((n + block_size - 1) // block_size))
    parts = len(blocks) if npartitions is None else max(1, min(check_int(npartitions, "npartitions", minimum=1), len(blocks) or 1))
    if not blocks:
        return [[]]
    size, extra = divmod(len(blocks), parts)
    out, start = [], 0
    for p in range(parts):
        end = start + size + (1 if p < extra else 0)
        out.append(blocks[start:end])
        start = end
    return out


def to_dask_bag(picker: Picker[Any], n: int, *, seed: int = 0, block_size: int = 10_000, npartitions: int | None = None) -> Any:
    """A ``dask.bag`` of ``n`` values of ``picker``, identical for any ``npartitions`` (see the module docstring).

    >>> import synthia as sy
    >>> bag = to_dask_bag(sy.RandomInteger(0, 100), 6, seed=3, block_size=2, npartitions=2)
    >>> bag.compute(scheduler="sync") == to_dask_bag(sy.RandomInteger(0, 100), 6, seed=3, block_size=2, npartitions=3).compute(scheduler="sync")
    True
    """
    import dask.bag as db

    check_picker(picker, "picker")
    check_seed(seed)
    n, block_size = check_count(n, "n"), check_count(block_size, "block_size", minimum=1)
    template = picker.duplicate()

    def partition(blocks: list[int]) -> list[Any]:
        return [v for i in blocks for v in make_block(template, seed, i, block_size, n)]

    return db.from_delayed([_delayed(partition, blocks) for blocks in _plan(n, block_size, npartitions)])


def _delayed(fn: Callable[..., Any], *args: Any) -> Any:
    from dask import delayed

    return delayed(fn, pure=True)(*args)


def to_dask_dataframe(picker: Picker[Any], n: int, *, seed: int = 0, block_size: int = 10_000, npartitions: int | None = None) -> Any:
    """A ``dask.dataframe`` of ``n`` records of ``picker`` (rows as in :func:`synthia.to_dataframe`),
    indexed by row number, identical for any ``npartitions``.

    Its columns have the types :func:`synthia.to_dataframe` gives the same values: dates stay
    ``datetime.date``, decimals ``decimal.Decimal`` (Dask's ``dataframe.convert-string``, which
    would turn every object column into text, is off for this frame).

    >>> import datetime, synthia as sy
    >>> days = sy.Struct(dict, day=sy.Apply(lambda n: datetime.date(2024, 1, 1 + n), sy.RandomInteger(0, 28)))
    >>> frame = to_dask_dataframe(days, 3, seed=1).compute(scheduler="sync")
    >>> type(frame["day"][0]).__name__, frame["day"].dtype
    ('date', dtype('O'))
    """
    import dask
    import dask.dataframe as dd
    import pandas as pd

    check_picker(picker, "picker")
    check_seed(seed)
    n, block_size = check_count(n, "n"), check_count(block_size, "block_size", minimum=1)
    template = picker.duplicate()
    plan = _plan(n, block_size, npartitions)
    columns = getattr(picker, "columns", None)

    def partition(blocks: list[int]) -> Any:
        values = [v for i in blocks for v in make_block(template, seed, i, block_size, n)]
        start = blocks[0] * block_size if blocks else 0
        frame = pd.DataFrame.from_records(rows(values), columns=columns)
        frame.index = pd.RangeIndex(start, start + len(values))
        return frame

    meta = partition([0])[:0] if n else pd.DataFrame(columns=columns)
    divisions = [p[0] * block_size for p in plan if p] + [n - 1] if n else None
    if divisions is not None and len(divisions) != len(plan) + 1:
        divisions = None
    # Dask reads convert-string when the frame is built: with it on, object columns of dates
    # or decimals would come back as strings, unlike to_dataframe's.
    with dask.config.set({"dataframe.convert-string": False}):
        return dd.from_map(partition, plan, meta=meta, divisions=divisions, enforce_metadata=False)


# -- campaigns ---------------------------------------------------------------------------------
@dataclass
class CampaignReport:
    """The merged result of :func:`run_campaign`.

    ``smallest`` is the smallest failing input over all sub-runs (by tape key), ``tape``
    its draws, ``task_seed`` the seed of the sub-run that found it; ``report`` is that
    sub-run's full report (a ``TestReport``, or a ``MonkeyReport`` with its program), run
    again on the client, and ``exception`` what the test raised there. ``lost`` lists ``(task, seed, error)`` of sub-runs that
    did not finish; a campaign with a lost task has not ``passed``, even without a failure.
    ``error`` says why the campaign stopped waiting for its tasks (the cluster had no worker
    left), ``None`` when every task ended.
    """

    __test__ = False

    passed: bool
    seed: int
    tasks: int
    tried: int = 0
    failures: int = 0
    smallest: dict[str, Any] | None = None
    tape: Tape | None = None
    task_seed: int | None = None
    exception: BaseException | None = None
    report: Any = None
    lost: list[tuple[int, int, str]] = field(default_factory=list)
    summaries: list[dict[str, Any]] = field(default_factory=list, repr=False)
    error: str | None = None

    def summary(self) -> str:
        """A few lines for a person."""
        head = "passed" if self.passed else ("FAILED" if self.tape is not None else "INCOMPLETE")
        lines = [f"{head}: {self.tried} inputs in {self.tasks} tasks ({self.failures} failing), seed {self.seed}"]
        if self.error is not None:
            lines.append(f"  {self.error}")
        if self.smallest is not None:
            lines.append(f"  smallest failing input: {self.smallest!r} (task seed {self.task_seed})")
        for task, seed, error in self.lost:
            lines.append(f"  lost task {task} (seed {seed}): {error}")
        return "\n".join(lines)


def _with_budget(harness: Any, count: int) -> Any:
    """A shallow copy of an ``Assert`` or ``Monkey`` that tries ``count`` inputs and does not shrink."""
    sub = copy.copy(harness)
    sub.options = dataclasses.replace(harness.options, stop=FixedCount(count), shrink_budget=0)
    return sub


def _sub_run(harness: Any, seed: int, count: int) -> dict[str, Any]:
    """Discover on a worker (no shrinking) and return a picklable summary with the failure's tape."""
    report = _with_budget(harness, count).run(seed=seed)
    return {
        "seed": seed,
        "count": count,
        "passed": report.passed,
        "tried": report.tried,
        "failures": report.failures,
        "tape": None if report.tape is None else report.tape.to_json(),
        "reason": report.reason,
        "error": report.error,
    }


#: Seconds between two looks at the cluster while a campaign waits for its tasks.
POLL = 0.25


def _workers(client: Any) -> int:
    """How many workers the scheduler has now (0 when it cannot be asked)."""
    try:
        return len(client.scheduler_info().get("workers", {}))
    except Exception:  # noqa: BLE001 - a scheduler that does not answer has no worker for us
        return 0


def _check_harness(assertion: Any) -> Any:
    from ..testing.harness import Assert
    from ..testing.monkey import Monkey

    if not isinstance(assertion, (Assert, Monkey)):
        raise TypeError(f"assertion must be an Assert or a Monkey, got {assertion!r} ({type(assertion).__name__})")
    return assertion


def run_campaign(
    assertion: Any,
    client: Any,
    *,
    seed: int | None = None,
    tasks: int | None = None,
    retries: int = 2,
    worker_timeout: float = 10.0,
) -> CampaignReport:
    """Spread ``assertion`` (an :class:`~synthia.Assert` or a :class:`~synthia.Monkey`) over a
    Dask ``client``; return the merged :class:`CampaignReport`.

    The budget is the harness's ``FixedCount`` (other rules: 100 inputs per task),
    split evenly over ``tasks`` sub-runs (default: twice the number of workers). The
    sub-run that found the smallest failure is run again on the client (the same seed
    gives the same run), and its full report is :attr:`CampaignReport.report`.

    **Lost workers.** A task whose worker dies is run again by Dask on another worker, up to
    ``retries`` times. When the cluster has **no worker at all** for ``worker_timeout``
    seconds (all of them died or were retired, and none came back), the campaign stops
    waiting: the unfinished tasks are cancelled and listed in :attr:`CampaignReport.lost`,
    :attr:`CampaignReport.error` says what happened, and the report has not passed (the
    failures the finished tasks found are kept and shrunk). It never waits forever.
    """
    _check_harness(assertion)
    if not (callable(getattr(client, "submit", None)) and callable(getattr(client, "scheduler_info", None))):
        raise TypeError(f"client must be a dask.distributed Client, got {client!r} ({type(client).__name__})")
    seed = fresh_seed() if seed is None else check_seed(seed)
    retries = check_count(retries, "retries")
    worker_timeout = check_float(worker_timeout, "worker_timeout")
    if not worker_timeout > 0:
        raise ValueError(f"worker_timeout must be a number of seconds > 0, got {worker_timeout!r}")
    if tasks is None:
        tasks = 2 * max(1, _workers(client))
    tasks = check_count(tasks, "tasks", minimum=1)
    total = assertion.stop.n if isinstance(assertion.stop, FixedCount) else 100 * tasks
    counts = [total // tasks + (1 if k < total % tasks else 0) for k in range(min(tasks, max(total, 1)))]
    seeds = [derive_seed(seed, f"task:{k}") for k in range(len(counts))]
    futures = {
        client.submit(_sub_run, assertion, seeds[k], counts[k], pure=False, retries=retries): k
        for k in range(len(counts))
        if counts[k] > 0
    }
    report = CampaignReport(passed=True, seed=seed, tasks=len(futures))
    best_key: Any = None
    unfinished = dict(futures)
    for future in _as_completed(client, list(futures), worker_timeout, report):
        k = unfinished.pop(future)
        try:
            summary = future.result()
        except Exception as err:  # a worker died too often, or the sub-run could not start
            report.lost.append((k, seeds[k], f"{type(err).__name__}: {err}"))
            continue
        report.summaries.append(summary)
        report.tried += summary["tried"]
        report.failures += summary["failures"]
        if summary["tape"] is not None:
            tape = Tape.from_json(summary["tape"])
            key = (tape.key(), k)  # equal tapes: the first task wins, whatever finished first
            if best_key is None or key < best_key:
                best_key, report.tape, report.task_seed = key, tape, summary["seed"]
    for k in unfinished.values():  # given up on: no worker left to run it
        report.lost.append((k, seeds[k], f"cancelled: no Dask worker for {worker_timeout:g} s"))
    report.lost.sort()
    report.passed = report.tape is None and not report.lost  # a lost task is not a pass
    if report.tape is not None:
        # Shrink on the client, from the smallest failure the workers sent back.
        report.passed = False
        report.report = assertion.run(seed=report.task_seed, tapes=[report.tape])
        report.smallest = report.report.smallest
        report.exception = report.report.exception
        report.tape = report.report.tape or report.tape
    return report


def _as_completed(client: Any, futures: list[Any], worker_timeout: float, report: CampaignReport) -> Iterator[Any]:
    """The futures as they finish; when the cluster has had no worker for ``worker_timeout``
    seconds, the rest are cancelled, ``report.error`` says so, and the iteration ends."""
    from distributed import wait

    pending = set(futures)
    alone_since: float | None = None
    while pending:
        try:
            done, pending = wait(pending, timeout=POLL, return_when="FIRST_COMPLETED")
        except TimeoutError:
            done = set()
        yield from (f for f in futures if f in done)  # in submission order: the same report
        if not pending:
            return
        if _workers(client) > 0:
            alone_since = None
            continue
        now = time.monotonic()
        alone_since = now if alone_since is None else alone_since
        if now - alone_since >= worker_timeout:
            report.error = (
                f"no Dask worker for {worker_timeout:g} s (all workers died or were retired, and none came back):"
                f" {len(pending)} unfinished task{'s' if len(pending) != 1 else ''} cancelled"
            )
            client.cancel(list(pending))
            return
