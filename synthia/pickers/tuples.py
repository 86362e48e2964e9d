"""Tuples built from pickers: :class:`ArrayPicker`."""
from __future__ import annotations

from typing import Any

from ..core.emitter import Emitter, lean_from_second_pick
from ..core.inputs import variadic_inputs
from ..core.parsing import Parse
from ..core.shrinking import Shrinkable

__all__ = ["ArrayPicker"]


class ArrayPicker(Shrinkable[tuple[Any, ...]]):
    """A tuple with one value from each picker, in order.

    Plain values stand for themselves: ``ArrayPicker("push", RandomInteger(0, 9))``
    gives ``("push", n)``.

    Shrinking lowers each component's draws.

    >>> from synthia import Tick, Constant
    >>> ArrayPicker(Tick(0, 1), Constant("x")).take(2)
    [(0, 'x'), (1, 'x')]
    """

    inputs_fields = ("pickers",)
    #: From its second pick, the stager's code of this picker (:mod:`synthia.core.emitter`).
    _fast = lean_from_second_pick

    def __init__(self, *pickers: Any) -> None:
        if not pickers:
            raise ValueError("ArrayPicker needs at least one picker, got none")
        self.pickers = variadic_inputs(pickers, "pickers", "ArrayPicker")

    def _pick(self) -> tuple[Any, ...]:
        return tuple([p.pick() for p in self.pickers])

    def stage(self, e: Emitter, out: list[str], ind: str) -> str:
        """The stager's code of a pick: each component picked in order, then the tuple."""
        e.staged += 1
        items = [e.pick(p, out, ind) for p in self.pickers]
        v = e.var("t")
        out.append(f"{ind}{v} = ({', '.join(items)}{',' if len(items) == 1 else ''})  # ArrayPicker")
        return v

    def parse_draws(self, value: Any, parse: Parse) -> list[Any] | None:
        """Each component's draws, in order (:mod:`synthia.core.parsing`)."""
        if type(value) is not tuple or len(value) != len(self.pickers):
            return None
        draws: list[Any] = []
        for picker, part in zip(self.pickers, value):
            theirs = parse(picker, part)
            if theirs is None:
                return None
            draws += theirs
        return draws

    def arguments(self) -> tuple[list[Any], dict[str, Any]]:
        return list(self.pickers), {}


