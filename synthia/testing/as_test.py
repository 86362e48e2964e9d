"""A harness run as a test: the seed and the failure store from the run's settings, saved
failures replayed first, and the failure raised with the line that reproduces it. The
``@given`` decorator, ``Monkey.check`` and the ``@monkey`` class decorator share it."""
from __future__ import annotations

import os
import sys
from typing import Any

from ..engine.database import FailureDatabase
from ..engine.runner import RunOptions
from . import settings
from ..engine.report import TestReport, Unsatisfiable

__all__ = ["SynthiaFailure", "conclude", "check_monkey", "node_id", "with_profile"]


class SynthiaFailure(AssertionError):
    """Raised by a ``@given`` test that failed: the message has the smallest input, the seed
    and the line that reproduces the run; the report is in :attr:`report` (``None`` when an
    explicit ``@example`` failed, before any run)."""

    def __init__(self, message: str, report: TestReport | None) -> None:
        super().__init__(message)
        self.report = report


def node_id() -> str:
    """The pytest node id of the running test (with its parametrization), or ``""``."""
    current = os.environ.get("PYTEST_CURRENT_TEST", "")
    return current.rsplit(" (", 1)[0] if current else ""


def _reproduction(node: str, report: TestReport) -> str:
    line = f"pytest '{node}' --synthia-seed={report.seed}" if node else f"--synthia-seed={report.seed}"
    if report.from_database:
        line += (
            f"\n  (this input was saved by an earlier run in the failure database {settings.database} and replayed "
            "first; while it is saved, every run starts from it. To search afresh: add --synthia-dir= to that command)"
        )
    return line


def conclude(report: TestReport, database: FailureDatabase, key: str, node: str, headline: str) -> None:
    """Save or forget the failure, then pass, or raise what pytest shows.

    ``headline`` is the first line of the failure message, in which ``{status}`` (replaced as
    text, not formatted) becomes "failed" or "is flaky".
    """
    __tracebackhide__ = True
    for note in report.notes:
        if "dropped" in note:
            print(f"synthia: {key}: {note}", file=sys.stderr)
    if report.error is not None:
        raise Unsatisfiable(f"{headline.split(' {status}')[0]}: {report.error}\n{report.summary()}")
    if report.passed:
        database.forget(key)
        return
    if report.tape is not None:
        database.save(key, report.tape, seed=report.seed)
    else:
        database.forget(key)
    status = "is flaky" if report.flaky else "failed"
    message = f"{headline.replace('{status}', status)}\n{report.summary(reproduction=_reproduction(node, report))}"
    if report.interrupted:
        print(message, file=sys.stderr)
        raise KeyboardInterrupt
    raise SynthiaFailure(message, report) from report.exception


def with_profile(options: RunOptions, profile: Any) -> RunOptions:
    """``options`` with what they leave unset taken from the test profile ``profile``."""
    return options.over(RunOptions(
        stop=profile.stop, restarts=profile.restarts, shrink_budget=profile.shrink_budget,
        shrink_time=profile.shrink_time, observe=profile.observe, database=profile.database,
    ))


def check_monkey(monkey: Any, name: str, seed: int | None = None) -> TestReport:
    """Run ``monkey`` as a test (seed from ``--synthia-seed``, options the monkey leaves unset
    from the active profile, failures saved and replayed first, keyed by the pytest node id)
    and raise :class:`SynthiaFailure` with the smallest failing trace as a program if it
    fails; return the report otherwise."""
    __tracebackhide__ = True
    node = node_id()
    key = node or f"monkey:{name}"
    profile = settings.active_profile()
    monkey.options = with_profile(monkey.options, profile)
    if profile.max_steps is not None and not monkey.steps_given:
        monkey.machine.max_steps = profile.max_steps
    database = FailureDatabase(settings.database if monkey.options.database else None)
    if seed is None:
        seed = settings.seed if settings.seed is not None else profile.seed
    report = monkey.run(seed=seed, tapes=database.load(key))
    conclude(report, database, key, node, f"{name} {{status}}: {getattr(report, 'failure', '')}")
    return report  # type: ignore[no-any-return]
