"""Collections built from pickers: :class:`ComposeList`."""
from __future__ import annotations

from typing import Any, TypeVar

from ..core.checks import check_int
from ..core.picker import Picker, as_picker

__all__ = ["ComposeList", "PickList"]

T = TypeVar("T")


class ComposeList(Picker[list[T]]):
    """A list: one pick of ``length``, then that many picks of ``element``.

    ``length`` is a non-negative int or a picker of them.

    >>> from synthia import RandomInteger
    >>> ComposeList(RandomInteger(0, 10, seed=1), RandomInteger(1, 4, seed=2)).take(2)
    [[4], [6, 4]]
    """

    inputs_fields = ("element", "length")

    def __init__(self, element: Picker[T], length: Any) -> None:
        self.element = as_picker(element, "element", numbers=False)
        if not isinstance(length, Picker):
            check_int(length, "length", minimum=0)
        self.length = as_picker(length, "length")

    def pick(self) -> list[T]:
        n = self.length.pick()
        if not isinstance(n, int) or n < 0:
            raise ValueError(f"length must pick non-negative ints, got {n!r} from {self.length!r}")
        pick = self.element.pick
        return [pick() for _ in range(n)]

    def _arguments(self) -> tuple[list[Any], dict[str, Any]]:
        from ..core.constant import Constant

        length = self.length.value if type(self.length) is Constant else self.length
        return [self.element], {"length": length}


#: The Java name of :class:`ComposeList`.
PickList = ComposeList
