"""Opt-in interception of ``pick()`` on every picker of a wiring.

Provenance recording and per-picker timing must cost nothing when they are off,
so they are not in :meth:`Picker.pick`. Instead, :func:`intercept` installs,
for the duration of a ``with`` block, an instance attribute ``pick`` on every
picker upstream of a root; because consumers call ``self.input.pick()``, the
instance attribute shadows the class method and sees every call. Leaving the
block removes the wrappers (restoring any outer ones), and
:meth:`Picker.__deepcopy__` never copies them.

>>> from synthia import ComposeList, RandomInteger
>>> lists = ComposeList(RandomInteger(0, 10), length=2).set_seed(3)
>>> calls = []
>>> def counting(picker, pick):
...     def wrapper():
...         calls.append(type(picker).__name__)
...         return pick()
...     return wrapper
>>> with intercept(lists, counting):
...     _ = lists.pick()
>>> calls
['ComposeList', 'Constant', 'RandomInteger', 'RandomInteger']
"""
from __future__ import annotations

from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, Callable, Iterator

from .graph import upstream

if TYPE_CHECKING:  # pragma: no cover
    from .picker import Picker

__all__ = [
    "intercept",
    "wrap_one",
    "unwrap_one",
    "watch_resets",
    "unwatch_resets",
    "intercepted",
    "instance_pick",
    "hold",
    "held_pick",
    "lean_pick",
    "generate_lean_picks",
    "start_log",
    "log_kept",
]

_MISSING = object()

#: ``make_wrapper(picker, pick) -> new_pick``: ``pick`` is the callable being replaced.
WrapperFactory = Callable[["Picker[Any]", Callable[[], Any]], Callable[[], Any]]


_SAMPLER = object()


def wrap_one(picker: "Picker[Any]", make_wrapper: WrapperFactory) -> Any:
    """Install a wrapper on one picker; return the token :func:`unwrap_one` needs.

    A random picker may hold its sampler as its instance ``pick`` (:func:`hold`);
    the wrapper then wraps the class's ``pick``, which reads the sampler at each call, so
    that a sampler re-bound while the wrapper is on (a wiring routed inside a recording)
    is still the one called.
    """
    state = picker.__dict__
    previous = state.get("pick", _MISSING)
    if previous is not _MISSING and previous is state.get("_draw"):
        state["pick"] = make_wrapper(picker, type(picker).pick.__get__(picker))
        return _SAMPLER
    state["pick"] = make_wrapper(picker, picker.pick)
    return previous


def unwrap_one(picker: "Picker[Any]", token: Any) -> None:
    """Undo :func:`wrap_one`, restoring the wrapper (or the sampler) that was there before."""
    if token is _SAMPLER:
        picker.__dict__["pick"] = picker.__dict__["_draw"]
        compact(picker)  # other keys of the block (a recording's) may have been deleted
    elif token is _MISSING:
        picker.__dict__.pop("pick", None)
        compact(picker)
    else:
        picker.__dict__["pick"] = token


def intercepted(picker: "Picker[Any]") -> bool:
    """Whether a wrapper (a span, provenance, timing) is on ``picker``'s pick right now: its
    instance ``pick`` is neither missing nor the pick it holds (:func:`hold`).

    >>> from synthia import RandomInteger
    >>> numbers = RandomInteger(0, 10)
    >>> with intercept(numbers, lambda picker, pick: pick):
    ...     inside = intercepted(numbers)
    >>> inside, intercepted(numbers)
    (True, False)
    """
    pick = instance_pick(picker)
    return pick is not None and pick is not held_pick(picker)


# The queries and ``hold`` below read and write attributes, never ``picker.__dict__``: in
# CPython 3.11 an object whose ``__dict__`` was once read keeps slower attribute reads for
# good (a ``Tick``'s pick 2x slower), and compiling a wiring asks them of every picker.


def instance_pick(picker: "Picker[Any]") -> Callable[[], Any] | None:
    """What shadows ``picker``'s class ``pick`` right now (a wrapper or the held pick), or ``None``."""
    pick = picker.pick
    # The class's pick is bound anew at each read; what the instance keeps is the same object.
    return pick if pick is picker.pick else None


def held_pick(picker: "Picker[Any]") -> Callable[[], Any] | None:
    """The pick ``picker`` holds (:func:`hold`), or ``None``."""
    return getattr(picker, "_draw", None)


def hold(picker: "Picker[Any]", fast: Callable[[], Any], *, shortcut: bool = True) -> None:
    """Make ``fast`` (one call doing the whole pick) the pick ``picker`` holds, and its instance
    ``pick`` too while no wrapper is on it (with ``shortcut``), so that a pick is a single call.
    The class's ``pick`` stays the reference path a wrapper wraps (:func:`wrap_one`), and a copy
    drops both (``TRANSIENT_FIELDS``)."""
    if shortcut:
        current = picker.pick  # (instance_pick and intercepted, inlined: called per picker built)
        if current is not picker.pick or current is getattr(picker, "_draw", None):
            setattr(picker, "pick", fast)
    setattr(picker, "_draw", fast)


#: ``generate(picker)``: one generated function doing ``picker``'s whole pick, its inputs
#: picked through their ``pick`` (the stager's code of one picker, set by :mod:`synthia.staging`).
_lean_generator: list[Callable[["Picker[Any]"], Callable[[], Any]]] = []


def generate_lean_picks(generate: Callable[["Picker[Any]"], Callable[[], Any]]) -> None:
    """Make ``generate`` the maker of the lean picks (:func:`lean_pick`). The stager, above the
    pickers, installs its code of one picker here, so that a ``Choice`` or an ``Apply`` holds
    generated code and no hand-kept closure."""
    _lean_generator[:] = [generate]


def lean_pick(picker: "Picker[Any]") -> Callable[[], Any] | None:
    """The lean pick of ``picker``, or ``None`` to take the class's reference path.

    At its first pick a picker takes the reference path; its second generates its lean pick
    (so a picker picked once, one a ``Bind`` builds for one value, costs no generation) and
    holds it (:func:`hold`): from then on it is its instance ``pick``.
    ``None`` too while a wrapper is on it: the class's ``pick`` takes its reference path, so
    that the wrappers on its inputs see every pick.

    >>> from synthia import Apply, Constant
    >>> pair = Apply(lambda a, b: (a, b), Constant(1), Constant(2))
    >>> lean_pick(pair) is None, pair.take(2), lean_pick(pair)() == (1, 2)
    (True, [(1, 2), (1, 2)], True)
    """
    held = getattr(picker, "_draw", None)
    current = picker.pick
    if current is picker.pick:  # an instance pick: a wrapper, or the held pick itself
        return held if current is held else None
    if held is _picked_once:
        fast = _lean_generator[0](picker)
        hold(picker, fast)
        return fast
    if held is None and _lean_generator:  # the first pick: the reference path
        setattr(picker, "_draw", _picked_once)
        return None
    return held


def _picked_once() -> None:
    """What a picker picked once holds: its next pick generates its lean pick (:func:`lean_pick`).
    A mark, not a closure over the picker, so that dropping the picker frees it at once (no
    reference cycle left for the garbage collector)."""


def start_log(picker: "Picker[Any]") -> list[Any]:
    """Begin a new provenance log on ``picker`` (kept on it until the next one, dropped by a
    copy) and return it."""
    log: list[Any] = []
    picker.__dict__["_provenance_log"] = log
    return log


def log_kept(picker: "Picker[Any]") -> list[Any] | None:
    """The provenance log kept on ``picker`` (:func:`start_log`), or ``None``."""
    return picker.__dict__.get("_provenance_log")  # type: ignore[no-any-return]


def compact(picker: "Picker[Any]") -> None:
    """Rebuild the instance dict after a key was removed.

    A dict that had a key deleted keeps a sparse table, and CPython's attribute caches
    handle it more slowly (about 1.4x on a whole wiring, measured by
    ``benchmarks/bench_provenance.py``): a fresh copy restores plain speed.
    """
    picker.__dict__ = dict(picker.__dict__)


def watch_resets(picker: "Picker[Any]", make_wrapper: Callable[[Callable[[], Any]], Callable[[], Any]]) -> Any:
    """Observe the resets of one picker's own state: ``make_wrapper(reset_own_state)``
    returns what runs instead, on :meth:`~Picker.reset`, :meth:`~Picker.set_seed` and
    :func:`~synthia.core.picker.restart` alike. Returns the token :func:`unwatch_resets`
    needs; wrappers nest like those of :func:`wrap_one`.
    """
    previous = picker.__dict__.get("_reset_self", _MISSING)
    picker.__dict__["_reset_self"] = make_wrapper(picker._reset_self)
    return previous


def unwatch_resets(picker: "Picker[Any]", token: Any) -> None:
    """Undo :func:`watch_resets`, restoring the observer that was there before."""
    if token is _MISSING:
        picker.__dict__.pop("_reset_self", None)
        compact(picker)
    else:
        picker.__dict__["_reset_self"] = token


@contextmanager
def intercept(root: "Picker[Any]", make_wrapper: WrapperFactory) -> Iterator[list["Picker[Any]"]]:
    """Wrap ``pick`` of ``root`` and of every picker upstream while the block runs.

    Yields the list of pickers that were wrapped.
    """
    nodes = [node for _, node in upstream(root)]
    tokens = [wrap_one(node, make_wrapper) for node in nodes]
    try:
        yield nodes
    finally:
        for node, token in zip(reversed(nodes), reversed(tokens)):
            unwrap_one(node, token)
