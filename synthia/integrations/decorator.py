"""``@synthia.given``: a test function run by the ``Assert`` harness, for pytest or plain calls."""
from __future__ import annotations

import functools
import inspect
import os
from typing import Any, Callable

from ..core.picker import Picker
from ..testing.harness import Assert
from ..testing.report import TestReport
from ..testing.stopping import StoppingRule
from . import database, settings

__all__ = ["given", "SynthiaFailure"]


class SynthiaFailure(AssertionError):
    """Raised by a ``@given`` test that failed: the message has the smallest input, the seed
    and the line that reproduces the run; the report is in :attr:`report`."""

    def __init__(self, message: str, report: TestReport) -> None:
        super().__init__(message)
        self.report = report


def _reproduction(seed: int) -> str:
    current = os.environ.get("PYTEST_CURRENT_TEST", "")
    node = current.rsplit(" (", 1)[0] if current else ""
    return f"pytest '{node}' --synthia-seed={seed}" if node else f"--synthia-seed={seed}"


def given(stop: StoppingRule | None = None, *, restarts: int = 1, **pickers: Picker[Any]) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Run the decorated test on inputs from ``pickers`` (one keyword argument each).

    The test fails as soon as one input fails; it then reports the smallest failing
    input found by shrinking, the seed, and the command that replays the run. Other
    parameters of the test (pytest fixtures) are left to pytest. The failing input is
    saved in ``.synthia/`` and tried first on the next run.

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
        key = f"{fn.__module__}.{fn.__qualname__}"

        @functools.wraps(fn)
        def wrapper(*args: Any, **kwargs: Any) -> None:
            def test(**values: Any) -> Any:
                return fn(*args, **kwargs, **values)

            assertion = Assert(test, stop, restarts=restarts, name=fn.__qualname__, **pickers)  # type: ignore[arg-type]
            report = assertion.run(seed=settings.seed, first=database.load(settings.database, key))
            wrapper.synthia_report = report  # type: ignore[attr-defined]
            if report.passed:
                database.forget(settings.database, key)
                return
            assert report.smallest is not None
            database.save(settings.database, key, report.smallest)
            message = (
                f"{fn.__qualname__} failed on {report.smallest!r}\n{report.summary()}\n"
                f"  reproduce with: {_reproduction(report.seed)}"
            )
            raise SynthiaFailure(message, report) from report.exception

        parameters = [p for name, p in signature.parameters.items() if name not in pickers]
        wrapper.__signature__ = signature.replace(parameters=parameters)  # type: ignore[attr-defined]
        wrapper.synthia_pickers = dict(pickers)  # type: ignore[attr-defined]
        return wrapper

    return decorate
