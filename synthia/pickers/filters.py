"""Filters: :class:`PickIf`."""
from __future__ import annotations

from typing import Any, Callable, TypeVar

from ..core.checks import check_callable, check_int
from ..core.exceptions import GiveUp
from ..core.picker import Picker, as_picker

__all__ = ["PickIf"]

T = TypeVar("T")


class PickIf(Picker[T]):
    """The values of ``picker`` that satisfy ``predicate`` (rejection sampling).

    Raises :class:`~synthia.GiveUp` when ``max_tries`` values in a row are
    rejected (``None``: never give up).

    >>> from synthia import RandomInteger
    >>> PickIf(RandomInteger(0, 100, seed=1), lambda x: x % 2 == 1).take(4)
    [97, 37, 49, 37]
    """

    inputs_fields = ("picker",)

    def __init__(self, picker: Picker[T], predicate: Callable[[T], Any], max_tries: int | None = 10_000) -> None:
        self.picker = as_picker(picker, "picker", numbers=False)
        self.predicate = check_callable(predicate, "predicate")
        self.max_tries = None if max_tries is None else check_int(max_tries, "max_tries", minimum=1)

    def pick(self) -> T:
        pick, accept = self.picker.pick, self.predicate
        tries = self.max_tries
        if tries is None:
            while True:
                value = pick()
                if accept(value):
                    return value
        for _ in range(tries):
            value = pick()
            if accept(value):
                return value
        raise GiveUp(f"{self!r} rejected {tries} values in a row")

    def _arguments(self) -> tuple[list[Any], dict[str, Any]]:
        kwargs = {} if self.max_tries == 10_000 else {"max_tries": self.max_tries}
        return [self.picker, self.predicate], kwargs
