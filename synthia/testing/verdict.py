"""One verdict rule for every harness: what a test's return value means.

======================================  ===================================================
the test (an invariant, an expectation)  verdict
======================================  ===================================================
returns ``None`` or ``True``             pass
returns a numpy ``True`` (``np.True_``)  pass
returns ``False`` or ``np.False_``       fail
raises (anything, ``SystemExit`` too)    fail (the exception is kept)
calls :func:`~synthia.assume` falsely    discard (neither a pass nor a fail)
is an ``async def`` (returns a           the coroutine runs to completion on an event loop of
coroutine)                               its own (in a worker thread when one already runs in
                                         the caller's thread: Jupyter), then this table
                                         applies to its result
returns a generator                      :class:`~synthia.testing.InvalidTest`: its body
                                         never ran
returns an array, a Series, a DataFrame  :class:`~synthia.testing.InvalidTest`: its truth is
or any other value                       ambiguous or meaningless; return a bool
                                         (``(a == b).all()``) or assert
======================================  ===================================================

The same table decides ``Assert``, ``@given``, ``find``, ``property_coverage``, and a
``Monkey``'s expectations and invariants (docs/testing.md has it).
"""
from __future__ import annotations

import asyncio
import inspect
import threading
from types import CoroutineType
from typing import Any, Callable, Iterable

from ..engine.proposals import DISCARD, FAIL, PASS
from ..engine.report import InvalidTest, RunInterrupted, safe_repr
from .context import UnsatisfiedAssumption

__all__ = ["verdict", "call_test", "raised", "returned", "origin_of", "is_false", "check_parameters", "raised_in", "run_coroutine", "RETURNED_FALSE"]

#: What identifies a test that returned ``False`` (its failure has no exception).
RETURNED_FALSE = ("returned False",)


def verdict(result: Any, what: str = "the test") -> str:
    """``PASS`` or ``FAIL`` for what ``what`` returned (see the module's table); raises
    :class:`InvalidTest` for a value that is no verdict. A coroutine must be run first
    (:func:`run_coroutine`).

    >>> import numpy as np
    >>> verdict(None), verdict(True), verdict(np.True_), verdict(False), verdict(np.False_)
    ('pass', 'pass', 'pass', 'fail', 'fail')
    >>> verdict(np.array([True, False]))
    Traceback (most recent call last):
    ...
    synthia.engine.report.InvalidTest: the test returned array([ True, False]) (a numpy ndarray), which is no verdict: return True or False (for an array, (a == b).all()), or None and assert
    """
    if result is None or result is True:
        return PASS
    if result is False:
        return FAIL
    kind = type(result)
    if kind.__module__ == "numpy" and kind.__name__ in ("bool", "bool_"):
        return PASS if result else FAIL
    raise InvalidTest(_no_verdict(result, what))


def _no_verdict(result: Any, what: str) -> str:
    kind = type(result)
    if inspect.isgenerator(result) or inspect.isasyncgen(result):
        return f"{what} returned a generator ({kind.__name__}), so its body never ran: a test must not yield"
    module = kind.__module__.split(".")[0]
    shown = safe_repr(result, 200)
    if module in ("numpy", "pandas"):
        return (
            f"{what} returned {shown} (a {module} {kind.__name__}), which is no verdict: return True or False "
            "(for an array, (a == b).all()), or None and assert"
        )
    return f"{what} returned {shown} ({kind.__name__}), which is no verdict: return True or False, or None and assert"


def run_coroutine(coroutine: Any) -> Any:
    """Run ``coroutine`` to completion on an event loop of its own and return its result; in
    a worker thread when an event loop already runs in this thread (Jupyter, pytest-asyncio)."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return _run_on_own_loop(coroutine)
    box: dict[str, Any] = {}

    def target() -> None:
        try:
            box["result"] = _run_on_own_loop(coroutine)
        except BaseException as exc:  # noqa: B036 - given back to the caller's thread
            box["error"] = exc

    worker = threading.Thread(target=target, name="synthia-coroutine", daemon=True)
    worker.start()
    worker.join()
    if "error" in box:
        raise box["error"]
    return box["result"]


def _run_on_own_loop(coroutine: Any) -> Any:
    loop = asyncio.new_event_loop()
    try:
        return loop.run_until_complete(coroutine)
    finally:
        try:
            loop.run_until_complete(loop.shutdown_asyncgens())
        finally:
            loop.close()


def origin_of(exception: BaseException | None) -> Any:
    """What identifies a failure: the exception's type and the place it was raised.

    Shrinking keeps to one origin, so a smaller input is the same bug, not another one
    met on the way.
    """
    if exception is None:
        return RETURNED_FALSE
    tb = exception.__traceback__
    if tb is None:
        return (type(exception), None, None)
    while tb.tb_next is not None:
        tb = tb.tb_next
    return (type(exception), tb.tb_frame.f_code.co_filename, tb.tb_lineno)


def _is_skip(exception: BaseException) -> bool:
    # pytest.skip() inside a test skips it; it is not a failure of the property.
    return type(exception).__name__ == "Skipped" and type(exception).__module__.startswith("_pytest")


def call_test(test: Callable[..., Any], values: dict[str, Any]) -> tuple[str, BaseException | None]:
    """Run ``test(**values)``: ``("pass", None)``, ``("fail", exception or None)`` or
    ``("discard", UnsatisfiedAssumption)``, by the module's table.

    ``KeyboardInterrupt``, :class:`~synthia.testing.InvalidTest`,
    :class:`~synthia.engine.report.RunInterrupted` and pytest's skip go through. An error of
    the test itself, whatever its input, raises :class:`~synthia.testing.InvalidTest`: a
    ``TypeError`` from calling it (its parameters do not take the inputs), a ``NameError`` in
    its own body (a name it uses is not defined), a return value that is no verdict.
    """
    __tracebackhide__ = True
    try:
        result = test(**values)
    except BaseException as exc:  # noqa: B036 - a test that exits or aborts has failed
        return raised(test, values, exc)
    if result is None or result is True:
        return PASS, None
    return returned(test, values, result)


def raised(test: Callable[..., Any], values: dict[str, Any], exc: BaseException) -> tuple[str, BaseException | None]:
    """What ``test(**values)`` raising ``exc`` means: a failure, a discard, or (re-raised) an
    interruption, a skip or an error of the test itself."""
    __tracebackhide__ = True
    if isinstance(exc, (KeyboardInterrupt, InvalidTest, RunInterrupted)) or _is_skip(exc):
        raise exc
    if isinstance(exc, UnsatisfiedAssumption):
        return DISCARD, exc
    _check_usage(test, values, exc)
    return FAIL, exc


def returned(test: Callable[..., Any], values: dict[str, Any], result: Any) -> tuple[str, BaseException | None]:
    """What ``test(**values)`` returning ``result`` means (a coroutine is run first)."""
    __tracebackhide__ = True
    if type(result) is CoroutineType:
        try:
            result = run_coroutine(result)
        except BaseException as exc:  # noqa: B036 - the coroutine's body raised
            return raised(test, values, exc)
    if result is False:
        return FAIL, None
    return verdict(result, _name(test)), None


def _name(test: Callable[..., Any]) -> str:
    return f"the test {getattr(test, '__qualname__', None) or repr(test)}"


def is_false(result: Any) -> bool:
    """Whether a result says a test failed: ``False``, or a numpy boolean that is false.

    >>> import numpy as np
    >>> is_false(False), is_false(np.False_), is_false(np.True_), is_false(None)
    (True, True, False, False)
    """
    if result is False:
        return True
    kind = type(result)
    return kind.__module__ == "numpy" and kind.__name__ in ("bool", "bool_") and not result


def _check_usage(test: Callable[..., Any], values: dict[str, Any], exc: BaseException) -> None:
    """Raise :class:`InvalidTest` when ``exc`` is an error of the test, not of its input."""
    __tracebackhide__ = True
    name = getattr(test, "__qualname__", repr(test))
    tb = exc.__traceback__
    if isinstance(exc, TypeError) and tb is not None and tb.tb_next is None:
        raise InvalidTest(
            f"{name} cannot be called with the inputs {', '.join(values) or '(none)'}: {exc} -- an error of the test, "
            "not a bug found by an input"
        ) from exc
    code = getattr(test, "__code__", None)
    if isinstance(exc, NameError) and code is not None and raised_in(exc, code):
        raise InvalidTest(f"{name} raised NameError in its own body ({exc}): an error of the test, not a bug found by an input") from exc


def raised_in(error: BaseException, code: Any) -> bool:
    """Whether ``error`` was raised by the code object ``code`` itself (its last frame)."""
    tb = error.__traceback__
    while tb is not None and tb.tb_next is not None:
        tb = tb.tb_next
    return tb is not None and tb.tb_frame.f_code is code


def check_parameters(test: Callable[..., Any], names: Iterable[str], what: str = "input") -> None:
    """Raise :class:`InvalidTest` when ``test`` cannot take one keyword argument per name in
    ``names`` (a name it has no parameter for, or a parameter without default it is not
    given); a callable without a signature (a builtin) is not checked."""
    try:
        signature = inspect.signature(test)
    except (TypeError, ValueError):
        return
    parameters = signature.parameters
    names = list(names)
    keyword = (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)
    takes_any = any(p.kind is inspect.Parameter.VAR_KEYWORD for p in parameters.values())
    unknown = [n for n in names if not takes_any and (n not in parameters or parameters[n].kind not in keyword)]
    missing = [n for n, p in parameters.items() if p.kind in keyword and p.default is p.empty and n not in names]
    if unknown or missing:
        name = getattr(test, "__qualname__", repr(test))
        told = [f"no parameter for the {what}{'s' if len(unknown) > 1 else ''} {', '.join(unknown)}"] if unknown else []
        told += [f"no {what} for the parameter{'s' if len(missing) > 1 else ''} {', '.join(missing)}"] if missing else []
        raise InvalidTest(f"{name}{signature} does not match its {what}s {', '.join(names)}: {'; '.join(told)}")
