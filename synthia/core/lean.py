"""Lean picks: the stager's code of one picker, held as its fast code from its second pick.

A composite that the stager knows how to write (it has a ``stage`` hook, see
:mod:`synthia.core.emitter`) takes :func:`lean_from_second_pick` as its class's ``_fast``:
its first pick takes the class's reference path (``_pick``) and marks it; its second
generates its lean pick -- the code the stager writes for this one picker, its inputs picked
through their ``pick`` (a described leaf through its held sampler) -- holds it as the
picker's fast code and picks through it. So a picker picked once (one a plain ``Bind``
builds for one value) costs no generation, and copies, which drop fast code, make their own.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

if TYPE_CHECKING:  # pragma: no cover
    from .picker import Picker

__all__ = ["lean_from_second_pick", "generate_lean_picks", "fast_code"]

#: ``generate(picker)``: the lean pick of one picker (installed by the emitter's module).
_generator: list[Callable[["Picker[Any]"], Callable[[], Any]]] = []


def generate_lean_picks(generate: Callable[["Picker[Any]"], Callable[[], Any]]) -> None:
    """Make ``generate`` the maker of the lean picks."""
    _generator[:] = [generate]


def lean_from_second_pick(picker: "Picker[Any]") -> Any:
    """The fast code of a stageable composite until its second pick (see the module)."""
    if getattr(picker, "_picked", False) and _generator:
        fast = _generator[0](picker)
        picker._fast = fast
        return fast()
    picker._picked = True  # type: ignore[attr-defined]
    return picker._pick()


def fast_code(picker: "Picker[Any]") -> Callable[[], Any] | None:
    """The fast code ``picker`` holds for its pick right now (its sampler, the stager's code of
    it, a compiled function), or ``None`` when it holds none yet (it picks through its class).

    >>> from synthia import Apply, RandomInteger
    >>> pair = Apply(lambda a: (a, a), RandomInteger(0, 3))
    >>> fast_code(pair) is None, pair.take(2) and fast_code(pair) is not None
    (True, True)
    """
    fast = getattr(picker, "_fast", None)
    return None if fast is None or getattr(fast, "__self__", None) is picker else fast
