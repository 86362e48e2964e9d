"""``@synthia.given`` and ``@synthia.example``: a test function run by the ``Assert`` harness,
for pytest or plain calls."""
from __future__ import annotations

import dataclasses
import functools
import inspect
import sys
from types import CoroutineType
from typing import Any, Callable, TypeVar, cast

from ..core.parsing import parse
from ..core.picker import Picker
from ..pickers.fields import type_hints
from ..pickers.resolve import from_type
from ..engine.database import FailureDatabase
from ..engine.shrinker import FAIL
from ..testing import settings
from ..testing.harness import Assert, call_test, raised_in
from ..testing.outside import OnlyGiven, given_value
from ..testing.verdict import run_coroutine
from ..engine.report import InvalidTest
from ..testing.as_test import SynthiaFailure, conclude, node_id, with_profile
from ..testing.settings import active_profile
from ..engine.runner import OPTIONS_ATTRIBUTE, RunOptions
from ..engine.stopping import StoppingRule

__all__ = ["given", "example", "SynthiaFailure"]

F = TypeVar("F", bound=Callable[..., Any])

#: Where ``@example`` keeps its inputs, on the test function.
EXAMPLES = "synthia_examples"


def given(options: RunOptions | StoppingRule | None = None, /, **pickers: Any) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Run the decorated test on inputs from ``pickers`` (one keyword argument each: any
    name is an input, ``name``, ``stop`` and ``max_examples`` included).

    An input may be inferred from the test's annotation: ``x=...`` infers ``x``, and
    ``@sy.given()`` with no picker at all infers every parameter that has an annotation
    and no default (``def test(p: Point, n: int)``), through :func:`~synthia.from_type`.
    Other parameters (pytest fixtures, parametrized arguments) are left to pytest: leave
    them without an annotation, or name the inputs (``@sy.given(p=..., n=...)``); the
    arguments of a ``@pytest.mark.parametrize`` written below ``@sy.given`` are left to it.

    A mistake in the decorator's arguments -- a value where a picker is expected
    (``x=5``), a name the test does not have, an annotation no picker can be inferred
    from -- fails that one test, when it runs, with a ``TypeError`` naming the argument;
    the rest of the file is still collected and run.

    The test fails as soon as one input fails; it then reports the smallest failing
    input found by shrinking its draws, the seed, and the command that replays the run.
    Inputs given with :func:`example` are tried first, as written.

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
    >>> @sy.given(sy.RunOptions(max_examples=20))
    ... def test_inferred(n: int, flags: list[bool]):
    ...     assert isinstance(n, int) and all(isinstance(f, bool) for f in flags)
    >>> test_inferred()
    """
    problem: Exception | None = None
    for key, picker in pickers.items():
        if not isinstance(picker, Picker) and picker is not Ellipsis:
            hint = ""
            if key in {f.name for f in dataclasses.fields(RunOptions)} | {"max_examples"}:
                hint = f"; every keyword of given is an input of the test: give the option as @sy.given(sy.RunOptions({key}={picker!r}), ...)"
            problem = TypeError(f"{key} must be a picker, got {picker!r} ({type(picker).__name__}){hint}")
            break
    try:
        given_options = RunOptions.of(options)
    except (TypeError, ValueError) as error:
        problem, given_options = problem or error, RunOptions()
    names = _caller_names()

    def decorate(fn: Callable[..., Any]) -> Callable[..., Any]:
        signature = inspect.signature(fn)
        error = problem
        chosen = {k: v for k, v in pickers.items() if isinstance(v, Picker)}
        inferred = [name for name in _to_infer(signature, pickers) if pickers or name not in _parametrized(fn)]
        missing = [name for name in pickers if name not in signature.parameters]
        if error is None and missing and not any(p.kind is p.VAR_KEYWORD for p in signature.parameters.values()):
            error = TypeError(f"{fn.__qualname__} has no parameter named {', '.join(missing)}")
        if error is None and inferred:
            try:
                chosen.update(_infer(fn, inferred, names))
            except TypeError as failure:
                error = failure
        taken = set(pickers) | set(inferred)

        @functools.wraps(fn)
        def wrapper(*args: Any, **kwargs: Any) -> None:
            __tracebackhide__ = True
            if error is not None:
                raise error

            def test(**values: Any) -> None:
                __tracebackhide__ = True
                try:
                    result = fn(*args, **kwargs, **values)
                    if type(result) is CoroutineType:  # an async def test: run on a loop of its own
                        result = run_coroutine(result)
                except NameError as error:
                    if raised_in(error, fn.__code__):
                        raise InvalidTest(
                            f"{fn.__qualname__} raised NameError in its own body ({error}): an error in the test, "
                            "not a bug found by an input"
                        ) from error
                    raise
                if inspect.isgenerator(result) or inspect.isasyncgen(result):
                    raise InvalidTest(f"{fn.__qualname__} returned a generator, so its body never ran: a test must not yield")
                if result is not None:
                    raise InvalidTest(
                        f"{fn.__qualname__} returned {result!r}: a @given test passes unless it raises, and must "
                        "return None (assert what it checks instead)"
                    )

            # The options given here, over those of @RunOptions on the test, over the profile's.
            on_test = getattr(wrapper, OPTIONS_ATTRIBUTE, None)
            options = given_options if on_test is None else given_options.over(on_test)
            profile = active_profile()
            run = with_profile(options, profile)
            run = dataclasses.replace(
                run, name=run.name or fn.__qualname__, observe=bool(run.observe) or settings.observations is not None,
                timing=True if settings.statistics else run.timing,
            )
            node = node_id()
            key = node or f"{fn.__module__}.{fn.__qualname__}"
            failing = _check_examples(fn.__qualname__, test, getattr(wrapper, EXAMPLES, ()), chosen)
            store = FailureDatabase(settings.database if run.database else None)
            assertion = Assert(test, run, **cast(dict[str, Any], chosen))
            seed = settings.seed if settings.seed is not None else profile.seed
            if failing is not None:  # shrunk when it parses, else reported as it is
                _shrink_example(fn.__qualname__, failing, assertion, seed, (store, key, node))
            report = assertion.run(seed=seed, tapes=store.load(key))
            wrapper.synthia_report = report  # type: ignore[attr-defined]
            if settings.observations is not None and report.observations:
                report.write_observations(settings.observations)
            if settings.statistics:
                settings.reports.append((key, report))
            conclude(report, store, key, node, f"{fn.__qualname__} {{status}} on {report.smallest!r}")

        parameters = [p for name, p in signature.parameters.items() if name not in taken]
        wrapper.__signature__ = signature.replace(parameters=parameters)  # type: ignore[attr-defined]
        return wrapper

    return decorate


def _to_infer(signature: inspect.Signature, pickers: dict[str, Any]) -> list[str]:
    """The parameters whose pickers come from their annotations: those given as ``...``, or,
    when ``given`` has no keyword at all, every annotated parameter without a default."""
    if pickers:
        return [name for name, value in pickers.items() if value is Ellipsis]
    return [
        name for name, p in signature.parameters.items()
        if p.annotation is not p.empty and p.default is p.empty and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)
    ]  # fmt: skip


def _parametrized(fn: Callable[..., Any]) -> set[str]:
    """The arguments ``@pytest.mark.parametrize`` marks already on ``fn`` give (left to pytest)."""
    names: set[str] = set()
    for mark in getattr(fn, "pytestmark", ()):
        if getattr(mark, "name", None) == "parametrize" and getattr(mark, "args", None):
            argnames = mark.args[0]
            if isinstance(argnames, str):
                argnames = argnames.split(",")
            names.update(str(n).strip() for n in argnames)
    return names


def _infer(fn: Callable[..., Any], names: list[str], namespace: dict[str, Any]) -> dict[str, Picker[Any]]:
    """The pickers of the parameters ``names`` of ``fn``, from their annotations."""
    hints = type_hints(fn, namespace)
    out: dict[str, Picker[Any]] = {}
    for name in names:
        if name not in hints:
            raise TypeError(f"{fn.__qualname__}'s parameter {name} has no annotation to infer its picker from: annotate it, or give {name}=<a picker>")
        try:
            out[name] = from_type(hints[name])
        except TypeError as error:
            raise TypeError(f"{fn.__qualname__}'s parameter {name}: {error} (or give {name}=<a picker>)") from None
    return out


def _caller_names() -> dict[str, Any]:
    """The names where ``given`` was called (the test module's, and the enclosing function's
    locals), for annotations written as strings."""
    frame = sys._getframe(2)
    return {**frame.f_globals, **frame.f_locals}


def example(*args: Any, **values: Any) -> Callable[[F], F]:
    """An explicit input for a :func:`given` test, tried before any drawn one (one keyword
    argument per picker of ``given``). Stack several; they run in the order written. A
    failing example fails the test: when every argument's picker can parse its value
    (:mod:`synthia.core.parsing`), the example is shrunk like a failure the run found and the
    failure names both the example and the smallest input; otherwise it is reported as it is.

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


def _check_examples(name: str, test: Callable[..., Any], examples: Any, pickers: dict[str, Any]) -> tuple[dict[str, Any], str, BaseException | None] | None:
    """The first example that fails: its values, what it did (raised, returned ``False``) and
    its exception; ``None`` when none fails."""
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
            return values, raised, exception
    return None


def _shrink_example(
    name: str, failing: tuple[dict[str, Any], str, BaseException | None], assertion: Assert, seed: int | None, saving: tuple[Any, str, str]
) -> None:
    """Raise the failure of an explicit example: shrunk as a found failure when every argument
    parses (:mod:`synthia.core.parsing`), with the example as given and the smallest input;
    as it is otherwise (or when it does not fail again)."""
    __tracebackhide__ = True
    values, raised, exception = failing
    tape = parse(assertion.wiring, {arg: values[arg] for arg in assertion.wiring.kwargs})  # in the wiring's order
    if tape is not None:
        # Only the example is tested: a failure discovery finds is not the example's.
        only = Assert(assertion.test, dataclasses.replace(assertion.options, stop=OnlyGiven(), restarts=0), **assertion.inputs)
        report = given_value(only.run(seed=seed, tapes=[tape]), "the explicit example")
        if not report.passed and report.smallest is not None:
            headline = f"{name} {{status}} on the explicit example {_show(values)}, shrunk to {_show(report.smallest)}"
            conclude(report, *saving, headline)
    raise SynthiaFailure(f"{name} failed on the explicit example {_show(values)}: {raised}", None) from exception


def _show(values: dict[str, Any]) -> str:
    return ", ".join(f"{k}={v!r}" for k, v in values.items())
