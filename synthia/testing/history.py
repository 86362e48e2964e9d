"""What the calls of a concurrent run did: a :class:`History` -- each call with its logical
invocation and response times, what it returned or raised (or that it never returned), the
schedule that ran them -- checked for linearizability against a sequential model and shown
side by side."""
from __future__ import annotations

import asyncio
import functools
import inspect
import sys
from types import CoroutineType
from typing import Any, Callable, Sequence

from ..engine.report import safe_repr
from .actions import variable_name
from .eventloop import VirtualLoop, close_loop, run_loop
from .linearizability import Call, Linearization, linearize
from .primitives import Abort

__all__ = ["History"]


class History:
    """What the calls of a concurrent run did: :attr:`calls` (the prefix's, then each branch's,
    each a :class:`~synthia.testing.linearizability.Call` with its logical invocation and
    response times; a call that never returned -- blocked by a deadlock -- has ``returned ==
    -1``), the decisions taken (:attr:`schedule`, :attr:`choices`) and the preemptions among
    them, and :attr:`deadlock`, what every branch waited for when none could go on."""

    def __init__(self, texts: list[list[str]] | None = None, system: Any = None, variable: str = "system") -> None:
        self.calls: list[Call] = []
        self.clock = 0
        #: Per branch, per call, the point where it was to be preempted (``0``: never).
        self.schedule: list[list[int]] = []
        #: The choices among ready branches the scheduler made.
        self.choices: list[int] = []
        self.preemptions = 0
        #: Where the threads could be preempted: ``"line"``, ``"opcode"`` or ``"action"``.
        self.preemption = "line"
        #: Why no branch could go on (the wait-for cycle), or ``None``.
        self.deadlock: str | None = None
        self._texts = texts
        self._system = system
        self._variable = variable

    def _text(self, branch: int, index: int, call: Callable[[], Any]) -> str:
        if self._texts is not None:
            return self._texts[branch + 1][index]
        return _call_text(call, self._system, self._variable)

    def begin(self, branch: int, index: int, call: Callable[[], Any]) -> Call:
        """A call of ``branch`` (``-1``: the prefix) starts."""
        self.clock += 1
        record = Call(branch, index, self._text(branch, index, call), _no_model, None, None, self.clock, -1)
        self.calls.append(record)
        return record

    def end(self, record: Call) -> None:
        self.clock += 1
        record.returned = self.clock

    def perform(self, branch: int, index: int, call: Callable[[], Any], tracer: Any = None) -> Call:
        """Make the call (traced by ``tracer`` for line or opcode points) and record it."""
        record = self.begin(branch, index, call)
        try:
            if tracer is not None:
                sys.settrace(tracer)
            try:
                record.result = call()
            finally:
                if tracer is not None:
                    sys.settrace(None)
        except Abort:
            raise
        except BaseException as exc:  # noqa: B036 - whatever a call raises is its result
            record.exception = exc
        self.end(record)
        return record

    async def perform_async(self, branch: int, index: int, call: Callable[[], Any]) -> Call:
        record = self.begin(branch, index, call)
        try:
            result = call()
            record.result = await result if type(result) is CoroutineType else result
        except asyncio.CancelledError:
            raise
        except BaseException as exc:  # noqa: B036
            record.exception = exc
        self.end(record)
        return record

    def branch(self, number: int) -> list[Call]:
        """The calls of branch ``number`` (``-1``: the prefix), in order."""
        return [c for c in self.calls if c.branch == number]

    @property
    def blocked(self) -> list[Call]:
        """The calls that never returned (a deadlock left them waiting)."""
        return [c for c in self.calls if c.returned < 0]

    def linearizable(self, model: Any, steps: Sequence[Sequence[Callable[[Any], Any]]], prefix: Sequence[Callable[[Any], Any]] = ()) -> bool:
        """Whether some sequential order of the calls, consistent with real time, gives the
        observed results on ``model``; ``steps[k][i]`` performs branch ``k``'s call ``i`` on
        a model, ``prefix[i]`` the prefix's call ``i``. ``model`` is a model object or a
        class of them."""
        return self.linearization(model, steps, prefix) is not None

    def linearization(
        self, model: Any, steps: Sequence[Sequence[Callable[[Any], Any]]], prefix: Sequence[Callable[[Any], Any]] = (),
        fresh: Callable[[], Any] | None = None,
    ) -> Linearization | None:
        """The order that explains the history (see :meth:`linearizable`), or ``None``;
        ``fresh`` makes a new model when ``model`` cannot be copied. ``model`` may also be
        a class (a factory of fresh models)."""
        if isinstance(model, type):
            fresh = fresh or model
            model = model()
        for call in self.calls:
            call.model_step = prefix[call.index] if call.branch < 0 else steps[call.branch][call.index]
        loop: VirtualLoop | None = None

        def settle(value: Any) -> Any:
            nonlocal loop
            if type(value) is not CoroutineType:
                return value
            if loop is None:
                loop = VirtualLoop()
            return run_loop(loop, value)

        try:
            return linearize(self.calls, model, settle, fresh)
        finally:
            if loop is not None:
                close_loop(loop)

    def side_by_side(self) -> str:
        """The prefix, then the branches in columns, each call with its result."""
        lines = [f"prefix: {c.text} {c.said()}" for c in self.branch(-1)]
        branches = [self.branch(k) for k in range(max((c.branch for c in self.calls), default=-1) + 1)]
        if not branches:
            return "\n".join(lines)
        width = max([len(f"{c.text} {c.said()}") for c in self.calls if c.branch >= 0] + [8])
        lines.append(" | ".join(f"{f'branch {k + 1}':<{width}}" for k in range(len(branches))).rstrip())
        for row in range(max((len(b) for b in branches), default=0)):
            cells = [f"{b[row].text} {b[row].said()}" if row < len(b) else "" for b in branches]
            lines.append(" | ".join(f"{cell:<{width}}" for cell in cells).rstrip())
        return "\n".join(lines)

    def __repr__(self) -> str:
        return f"History({len(self.calls)} calls, schedule={self.schedule}, choices={self.choices}, preemptions={self.preemptions})"

    def __str__(self) -> str:
        shown = self.side_by_side()
        return shown if self.deadlock is None else f"deadlock: {self.deadlock}\n{shown}"


def _no_model(model: Any) -> Any:  # pragma: no cover - replaced before a linearization
    raise RuntimeError("no model step given for this call")


def _call_text(call: Callable[[], Any], system: Any = None, variable: str = "system") -> str:
    """A call as a line of Python: ``counter.increment()`` for ``partial(counter.increment)``
    (a function the system holds as an attribute is named by it: ``quotes.quote()``)."""
    if isinstance(call, functools.partial):
        fn = call.func
        held = None
        if system is not None and not inspect.ismethod(fn):
            try:
                held = next((name for name, value in vars(system).items() if value is fn), None)
            except TypeError:
                held = None
        if inspect.ismethod(fn):
            name = f"{variable_name(fn.__self__)}.{fn.__name__}"
        elif held is not None:
            name = f"{variable}.{held}"
        else:
            name = getattr(fn, "__qualname__", getattr(fn, "__name__", "call"))
        shown = [safe_repr(a) for a in call.args] + [f"{k}={safe_repr(v)}" for k, v in call.keywords.items()]
        return f"{name}({', '.join(shown)})"
    return getattr(call, "__qualname__", repr(call))
