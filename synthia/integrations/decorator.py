"""``@synthia.given``: a test function run by the ``Assert`` harness, for pytest or plain calls."""
from __future__ import annotations

import functools
import inspect
import os
import sys
from typing import Any, Callable

from ..core.picker import Picker
from ..engine.database import FailureDatabase
from ..testing.harness import Assert
from ..testing.report import TestReport, Unsatisfiable
from ..testing.stopping import StoppingRule
from . import settings

__all__ = ["given", "SynthiaFailure"]


class SynthiaFailure(AssertionError):
    """Raised by a ``@given`` test that failed: the message has the smallest input, the seed
    and the line that reproduces the run; the report is in :attr:`report`."""

    def __init__(self, message: str, report: TestReport) -> None:
        super().__init__(message)
        self.report = report


def _node_id() -> str:
    """The pytest node id of the running test (with its parametrization), or ``""``."""
    current = os.environ.get("PYTEST_CURRENT_TEST", "")
    return current.rsplit(" (", 1)[0] if current else ""


def _reproduction(node: str, seed: int) -> str:
    return f"pytest '{node}' --synthia-seed={seed}" if node else f"--synthia-seed={seed}"


def conclude(report: TestReport, database: FailureDatabase, key: str, node: str, headline: str) -> None:
    """Save or forget the failure, then pass, or raise what pytest shows.

    ``headline`` is the first line of the failure message, in which ``{status}`` (replaced as
    text, not formatted) becomes "failed" or "is flaky".
    """
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
    message = f"{headline.replace('{status}', status)}\n{report.summary()}\n  reproduce with: {_reproduction(node, report.seed)}"
    if report.interrupted:
        print(message, file=sys.stderr)
        raise KeyboardInterrupt
    raise SynthiaFailure(message, report) from report.exception


def check_monkey(monkey: Any, name: str, seed: int | None = None) -> TestReport:
    """Run ``monkey`` as a test (seed from ``--synthia-seed``, failures saved and replayed
    first, keyed by the pytest node id) and raise :class:`SynthiaFailure` with the smallest
    failing trace as a program if it fails; return the report otherwise."""
    node = _node_id()
    key = node or f"monkey:{name}"
    database = FailureDatabase(settings.database)
    report = monkey.run(seed=settings.seed if seed is None else seed, tapes=database.load(key))
    conclude(report, database, key, node, f"{name} {{status}}: {getattr(report, 'failure', '')}")
    return report  # type: ignore[no-any-return]


def given(
    stop: StoppingRule | None = None,
    *,
    restarts: int = 0,
    shrink_budget: int = 20_000,
    shrink_time: float = 5.0,
    **pickers: Picker[Any],
) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Run the decorated test on inputs from ``pickers`` (one keyword argument each).

    The test fails as soon as one input fails; it then reports the smallest failing
    input found by shrinking its draws, the seed, and the command that replays the run.
    Other parameters of the test (pytest fixtures, parametrized arguments) are left to
    pytest. The draws of the smallest failing input are saved (JSON, in ``.synthia/``)
    under the test's pytest id -- its parametrization included -- and tried first on
    the next run; a saved failure that no longer fits the wiring or no longer fails is
    dropped with a one-line note on standard error. A run in which no input reached the
    test raises :class:`~synthia.testing.Unsatisfiable`; a ``KeyboardInterrupt`` while
    shrinking prints the smallest failure found so far, then stops the session.

    >>> import synthia as sy
    >>> @sy.given(x=sy.RandomInteger(0, 100))
    ... def test_small(x):
    ...     assert x < 100
    >>> test_small()
    """
    for name, picker in pickers.items():
        if not isinstance(picker, Picker):
            raise TypeError(f"{name} must be a picker, got {picker!r} ({type(picker).__name__})")
    if not pickers:
        raise ValueError("given needs at least one picker, as a keyword argument (x=RandomInteger(0, 10))")

    def decorate(fn: Callable[..., Any]) -> Callable[..., Any]:
        signature = inspect.signature(fn)
        missing = [name for name in pickers if name not in signature.parameters]
        if missing and not any(p.kind is p.VAR_KEYWORD for p in signature.parameters.values()):
            raise TypeError(f"{fn.__qualname__} has no parameter named {', '.join(missing)}")

        @functools.wraps(fn)
        def wrapper(*args: Any, **kwargs: Any) -> None:
            def test(**values: Any) -> Any:
                return fn(*args, **kwargs, **values)

            node = _node_id()
            key = node or f"{fn.__module__}.{fn.__qualname__}"
            database = FailureDatabase(settings.database)
            assertion = Assert(
                test, stop, restarts=restarts, shrink_budget=shrink_budget, shrink_time=shrink_time,
                name=fn.__qualname__, **pickers,
            )
            report = assertion.run(seed=settings.seed, tapes=database.load(key))
            wrapper.synthia_report = report  # type: ignore[attr-defined]
            conclude(report, database, key, node, f"{fn.__qualname__} {{status}} on {report.smallest!r}")

        parameters = [p for name, p in signature.parameters.items() if name not in pickers]
        wrapper.__signature__ = signature.replace(parameters=parameters)  # type: ignore[attr-defined]
        wrapper.synthia_pickers = dict(pickers)  # type: ignore[attr-defined]
        return wrapper

    return decorate
