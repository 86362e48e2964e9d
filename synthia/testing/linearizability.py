"""Linearizability: do the results of calls made in parallel match *some* sequential order?

A concurrent history is a set of calls, each with the logical times of its invocation and of
its response and what it returned (or raised). It is **linearizable** against a sequential
model when some order of all the calls (1) respects real time -- a call that returned before
another was invoked comes first -- and (2) gives, when the calls are applied to the model one
after the other in that order, the same result for every call (exceptions of the same type
agree). The search is Wing and Gong's, with the memoisation Porcupine adds: a state of the
search is the set of calls already placed and the model's state, and a state seen once is
never searched again.

>>> class Register:
...     def __init__(self): self.value = 0
...     def write(self, v): self.value = v
...     def read(self): return self.value
>>> calls = [Call(0, 0, "write(1)", lambda m: m.write(1), None, None, 0, 3),
...          Call(1, 0, "read()", lambda m: m.read(), 1, None, 1, 2)]
>>> linearize(calls, Register()).order    # the read saw the write: the write goes first
[0, 1]
>>> calls[1] = Call(1, 0, "read()", lambda m: m.read(), 2, None, 1, 2)
>>> linearize(calls, Register()) is None  # no order gives 2
True
"""
from __future__ import annotations

import copy
import pickle
from dataclasses import dataclass, field
from typing import Any, Callable, Hashable

from ..engine.report import safe_repr

__all__ = ["Call", "Linearization", "linearize", "ANY_RESULT"]


class _AnyResult:
    def __repr__(self) -> str:
        return "ANY_RESULT"


#: What a model step returns when the call has no counterpart on the model: any result agrees.
ANY_RESULT: Any = _AnyResult()


@dataclass
class Call:
    """One call of a concurrent history: which ``branch`` made it (``-1`` for the sequential
    prefix) and its ``index`` there, its ``text``, the ``model_step`` that performs it on a
    model (a function of the model, returning the model's result or :data:`ANY_RESULT`),
    what the system returned or raised, the logical times of its invocation and response
    (``-1``: it never returned, blocked), and how many preemption points it reached."""

    branch: int
    index: int
    text: str
    model_step: Callable[[Any], Any]
    result: Any
    exception: BaseException | None
    invoked: int
    returned: int
    points: int = 0

    def said(self) -> str:
        """What the call gave, as a report shows it: ``-> 2``, ``raised KeyError``, or
        ``blocked`` (it never returned)."""
        if self.returned < 0:
            return "blocked"
        if self.exception is not None:
            return f"raised {type(self.exception).__name__}"
        return f"-> {safe_repr(self.result)}"


@dataclass
class Linearization:
    """A sequential order that explains a history: the calls' positions in ``order``, and the
    model after them all."""

    order: list[int]
    model: Any = field(repr=False)


def _agrees(call: Call, result: Any, raised: BaseException | None) -> bool:
    if result is ANY_RESULT:
        return True
    if call.exception is not None or raised is not None:
        return call.exception is not None and raised is not None and type(call.exception) is type(raised)
    try:
        return bool(call.result == result)
    except Exception:
        return safe_repr(call.result) == safe_repr(result)


def _state(model: Any) -> Hashable:
    """A key for the model's state: its pickle (equal states pickle alike in practice, and
    different states never pickle alike) -- or its attributes' pickle, for an instance of a
    class pickle cannot name (defined in a function) -- or ``None`` when neither pickles."""
    for state in (model, getattr(model, "__dict__", None)):
        if state is None:
            continue
        try:
            return (type(model).__qualname__, pickle.dumps(state, protocol=4))
        except Exception:
            continue
    return None


def linearize(
    calls: list[Call], model: Any, settle: Callable[[Any], Any] | None = None, fresh: Callable[[], Any] | None = None,
) -> Linearization | None:
    """A sequential order of ``calls`` consistent with real time whose results on ``model``
    (copied, never changed) are the observed ones, or ``None`` when no order explains them.
    ``settle`` runs a model step that returns a coroutine (an async model). A model that
    cannot be copied (it holds a lock, a file) is made afresh by ``fresh`` and replayed
    along the order so far instead."""
    n = len(calls)
    # before[i]: the calls that returned before call i was invoked, so must precede it.
    before = [sum(1 << j for j in range(n) if 0 <= calls[j].returned < calls[i].invoked) for i in range(n)]
    everything = (1 << n) - 1
    seen: set[tuple[int, Hashable]] = set()

    def perform(state: Any, call: Call) -> tuple[Any, BaseException | None]:
        try:
            result = call.model_step(state)
            return (settle(result) if settle is not None else result), None
        except Exception as exc:  # the model raising is a result, compared by type
            return None, exc

    def step(state: Any, order: list[int], call: Call) -> tuple[Any, Any, BaseException | None]:
        try:
            state = copy.deepcopy(state)
        except Exception:
            if fresh is None:
                raise
            state = fresh()
            for i in order:
                perform(state, calls[i])
        result, raised = perform(state, call)
        return state, result, raised

    def search(placed: int, state: Any, order: list[int]) -> Linearization | None:
        if placed == everything:
            return Linearization(order, state)
        key = _state(state)
        if key is not None:
            if (placed, key) in seen:
                return None
            seen.add((placed, key))
        for i in range(n):
            if placed >> i & 1 or before[i] & ~placed:
                continue
            after, result, raised = step(state, order, calls[i])
            if _agrees(calls[i], result, raised):
                found = search(placed | 1 << i, after, order + [i])
                if found is not None:
                    return found
        return None

    return search(0, model, [])
