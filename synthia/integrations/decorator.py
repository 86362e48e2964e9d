"""``@synthia.given`` and ``@synthia.example``: a test function run by the ``Assert`` harness,
for pytest or plain calls."""
from __future__ import annotations

import dataclasses
import functools
import inspect
from typing import Any, Callable, TypeVar, cast

from ..core.picker import Picker
from ..engine.database import FailureDatabase
from ..engine.shrinker import FAIL
from ..testing import settings
from ..testing.harness import Assert, call_test, raised_in
from ..engine.report import InvalidTest
from ..testing.as_test import SynthiaFailure, conclude, node_id, with_profile
from ..testing.settings import active_profile
from ..engine.runner import OPTIONS_ATTRIBUTE, RunOptions
from ..engine.stopping import StoppingRule

__all__ = ["given", "example", "SynthiaFailure"]

F = TypeVar("F", bound=Callable[..., Any])

#: Where ``@example`` keeps its inputs, on the test function.
EXAMPLES = "synthia_examples"


def given(options: RunOptions | StoppingRule | None = None, /, **pickers: Picker[Any]) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Run the decorated test on inputs from ``pickers`` (one keyword argument each: any
    name is an input, ``name``, ``stop`` and ``max_examples`` included).

    The test fails as soon as one input fails; it then reports the smallest failing
    input found by shrinking its draws, the seed, and the command that replays the run.
    Other parameters of the test (pytest fixtures, parametrized arguments) are left to
    pytest. Inputs given with :func:`example` are tried first, as written.

    The run's options are a :class:`~synthia.RunOptions` (or a stopping rule alone) given
    as the first argument, or put on the test with ``@sy.RunOptions(...)`` as a decorator
    (as Hypothesis's ``@settings``). What they leave unset comes from the active profile
    (:func:`~synthia.testing.settings.load_profile`, ``pytest --synthia-profile``):
    ``stop`` (or ``max_examples=n``, short for ``FixedCount(n)``), ``restarts``,
    ``shrink_budget``, ``shrink_time``, ``observe`` and ``database``: whether the draws of
    the smallest failing input are saved (JSON, in ``.synthia/``) under the test's pytest id
    -- its parametrization included -- and tried first on the next run; a saved failure that
    no longer fits the wiring or no longer fails is dropped with a one-line note on standard
    error. A run in which no input reached the test raises
    :class:`~synthia.testing.Unsatisfiable`; a ``KeyboardInterrupt`` while shrinking
    prints the smallest failure found so far, then stops the session.

    As in pytest, the test passes unless it raises: one that returns a value (``False``
    included) is an error of the test, raised as :class:`~synthia.testing.InvalidTest`,
    and so is a ``NameError`` raised in the test's own body -- these are never shrunk or
    reported as a bug found by an input.

    >>> import synthia as sy
    >>> @sy.given(sy.RunOptions(max_examples=20), x=sy.RandomInteger(0, 100), name=sy.Choice("ada", "alan"))
    ... def test_small(x, name):
    ...     assert x < 100 and name in ("ada", "alan")
    >>> test_small()
    """
    for key, picker in pickers.items():
        if not isinstance(picker, Picker):
            hint = ""
            if key in {f.name for f in dataclasses.fields(RunOptions)} | {"max_examples"}:
                hint = f"; every keyword of given is an input of the test: give the option as @sy.given(sy.RunOptions({key}={picker!r}), ...)"
            raise TypeError(f"{key} must be a picker, got {picker!r} ({type(picker).__name__}){hint}")
    if not pickers:
        raise ValueError("given needs at least one picker, as a keyword argument (x=RandomInteger(0, 10))")
    given_options = RunOptions.of(options)

    def decorate(fn: Callable[..., Any]) -> Callable[..., Any]:
        signature = inspect.signature(fn)
        missing = [name for name in pickers if name not in signature.parameters]
        if missing and not any(p.kind is p.VAR_KEYWORD for p in signature.parameters.values()):
            raise TypeError(f"{fn.__qualname__} has no parameter named {', '.join(missing)}")

        @functools.wraps(fn)
        def wrapper(*args: Any, **kwargs: Any) -> None:
            __tracebackhide__ = True

            def test(**values: Any) -> None:
                __tracebackhide__ = True
                try:
                    result = fn(*args, **kwargs, **values)
                except NameError as error:
                    if raised_in(error, fn.__code__):
                        raise InvalidTest(
                            f"{fn.__qualname__} raised NameError in its own body ({error}): an error in the test, "
                            "not a bug found by an input"
                        ) from error
                    raise
                if result is not None:
                    raise InvalidTest(
                        f"{fn.__qualname__} returned {result!r}: a @given test passes unless it raises, and must "
                        "return None (assert what it checks instead)"
                    )

            # The options given here, over those of @RunOptions on the test, over the profile's.
            on_test = getattr(wrapper, OPTIONS_ATTRIBUTE, None)
            chosen = given_options if on_test is None else given_options.over(on_test)
            profile = active_profile()
            run = with_profile(chosen, profile)
            run = dataclasses.replace(
                run, name=run.name or fn.__qualname__, observe=bool(run.observe) or settings.observations is not None,
                timing=True if settings.statistics else run.timing,
            )
            node = node_id()
            key = node or f"{fn.__module__}.{fn.__qualname__}"
            _check_examples(fn.__qualname__, test, getattr(wrapper, EXAMPLES, ()), pickers)
            store = FailureDatabase(settings.database if run.database else None)
            assertion = Assert(test, run, **cast(dict[str, Any], pickers))
            seed = settings.seed if settings.seed is not None else profile.seed
            report = assertion.run(seed=seed, tapes=store.load(key))
            wrapper.synthia_report = report  # type: ignore[attr-defined]
            if settings.observations is not None and report.observations:
                report.write_observations(settings.observations)
            if settings.statistics:
                settings.reports.append((key, report))
            conclude(report, store, key, node, f"{fn.__qualname__} {{status}} on {report.smallest!r}")

        parameters = [p for name, p in signature.parameters.items() if name not in pickers]
        wrapper.__signature__ = signature.replace(parameters=parameters)  # type: ignore[attr-defined]
        return wrapper

    return decorate


def example(*args: Any, **values: Any) -> Callable[[F], F]:
    """An explicit input for a :func:`given` test, tried before any drawn one (one keyword
    argument per picker of ``given``). Stack several; they run in the order written. A
    failing example fails the test with that input as it is (it is not shrunk).

    >>> import synthia as sy
    >>> @sy.given(sy.FixedCount(5), x=sy.RandomInteger(1, 10))
    ... @sy.example(x=0)
    ... def test_reciprocal(x):
    ...     assert 1 / x
    >>> try:
    ...     test_reciprocal()
    ... except sy.SynthiaFailure as failure:
    ...     print(str(failure).splitlines()[0])
    test_reciprocal failed on the explicit example x=0: ZeroDivisionError: division by zero
    """
    if args:
        raise TypeError(f"example takes keyword arguments, one per picker of @given (x=0), got positional {args!r}")
    if not values:
        raise ValueError("example needs at least one keyword argument, one per picker of @given (x=0)")

    def decorate(fn: F) -> F:
        if not callable(fn):
            raise TypeError(f"example decorates a test function, got {fn!r}")
        # Decorators apply from the bottom up: inserting first keeps the order they are written in.
        examples = getattr(fn, EXAMPLES, None)
        if examples is None:
            examples = []
            setattr(fn, EXAMPLES, examples)
        examples.insert(0, values)
        return fn

    return decorate


def _check_examples(name: str, test: Callable[..., Any], examples: Any, pickers: dict[str, Any]) -> None:
    __tracebackhide__ = True
    for values in examples:
        if set(values) != set(pickers):
            unknown, absent = sorted(set(values) - set(pickers)), sorted(set(pickers) - set(values))
            raise TypeError(
                f"@example({_show(values)}) of {name} must give exactly the arguments of @given "
                f"({', '.join(pickers)}): " + "; ".join(
                    part for part in (f"unknown {unknown}" if unknown else "", f"missing {absent}" if absent else "") if part
                )
            )
        status, exception = call_test(test, dict(values))
        if status == FAIL:
            raised = "returned False" if exception is None else f"{type(exception).__name__}: {exception}"
            raise SynthiaFailure(f"{name} failed on the explicit example {_show(values)}: {raised}", None) from exception


def _show(values: dict[str, Any]) -> str:
    return ", ".join(f"{k}={v!r}" for k, v in values.items())
