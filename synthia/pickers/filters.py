"""Filters: :class:`PickIf` and :class:`PickSmaller`."""
from __future__ import annotations

from typing import Any, Callable, TypeVar, overload

from ..core.checks import check_callable, check_int, describe
from ..core.exceptions import GiveUp
from ..core.inputs import value_input
from ..core.parsing import Parse
from ..core.picker import Picker
from ..core.shrinking import Shrinkable

__all__ = ["PickIf", "PickSmaller"]

T = TypeVar("T")


class PickIf(Shrinkable[T]):
    """The values of ``picker`` that satisfy ``predicate`` (rejection sampling).

    Raises :class:`~synthia.GiveUp` when ``max_tries`` values in a row are
    rejected (``None``: never give up).

    Shrinking keeps the filter: every shrunk input is one the predicate accepted (odd
    numbers shrink to smaller odd numbers).

    >>> from synthia import RandomInteger
    >>> PickIf(RandomInteger(0, 100, seed=1), lambda x: x % 2 == 1).take(4)
    [97, 37, 49, 37]
    """

    inputs_fields = ("picker",)

    @overload
    def __init__(self, picker: Picker[T], predicate: Callable[[T], Any], max_tries: int | None = 10_000) -> None: ...
    @overload
    def __init__(self, picker: T, predicate: Callable[[T], Any], max_tries: int | None = 10_000) -> None: ...
    def __init__(self, picker: Any, predicate: Callable[[T], Any], max_tries: int | None = 10_000) -> None:
        self.picker = value_input(picker, "picker")
        self.predicate = check_callable(predicate, "predicate", arguments=1)
        self.max_tries = None if max_tries is None else check_int(max_tries, "max_tries", minimum=1)

    def _pick(self) -> T:
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

    def parse_draws(self, value: Any, parse: Parse) -> list[Any] | None:
        """Its input's draws for ``value``, when the predicate accepts it (the first try)."""
        if not self.predicate(value):
            parse.fail(self, f"refuses {value!r:.60} (its predicate is false)")
            return None
        return parse(self.picker, value)

    def arguments(self) -> tuple[list[Any], dict[str, Any]]:
        kwargs = {} if self.max_tries == 10_000 else {"max_tries": self.max_tries}
        return [self.picker, self.predicate], kwargs


class PickSmaller(PickIf[T]):
    """The values of ``picker`` strictly smaller than ``reference`` (by ``<``, or by ``key``).

    The general-purpose way to get "something smaller" from any picker of
    comparable values: rejection sampling, so :class:`~synthia.GiveUp` after
    ``max_tries`` rejections in a row when smaller values are rare or absent.

    >>> from synthia import RandomInteger
    >>> PickSmaller(RandomInteger(0, 100, seed=1), 10).take(4)
    [0, 4, 6, 0]
    >>> PickSmaller(RandomInteger(-100, 100, seed=1), 10, key=abs).take(3)
    [-1, -9, -3]
    """

    def __init__(
        self, picker: Any, reference: T, key: Callable[[T], Any] | None = None, max_tries: int | None = 10_000
    ) -> None:
        self.reference = reference
        self.key = None if key is None else check_callable(key, "key", arguments=1)
        if key is None:
            compared: Any = reference
            predicate: Callable[[T], Any] = self._smaller
        else:
            try:
                compared = self._key_reference = key(reference)
            except Exception as error:  # the user's key: its failure is about this reference
                raise TypeError(f"key must accept the reference, but key({describe(reference)}) raised {error!r}") from None
            predicate = self._smaller_by_key
        try:
            compared < compared  # noqa: B015 - checks at construction that the order exists
        except TypeError:
            raise TypeError(f"reference must support < (through key, if given), got {describe(compared)}") from None
        super().__init__(picker, predicate, max_tries)

    def _smaller(self, value: T) -> bool:
        try:
            return value < self.reference  # type: ignore[operator]
        except TypeError:
            raise TypeError(f"PickSmaller cannot compare {describe(value)} from picker {self.picker!r} with the reference {self.reference!r}") from None

    def _smaller_by_key(self, value: T) -> bool:
        try:
            return self.key(value) < self._key_reference  # type: ignore[misc]
        except TypeError as error:
            raise TypeError(f"PickSmaller cannot order {describe(value)} from picker {self.picker!r} by key: {error}") from error

    def arguments(self) -> tuple[list[Any], dict[str, Any]]:
        kwargs: dict[str, Any] = {}
        if self.key is not None:
            kwargs["key"] = self.key
        if self.max_tries != 10_000:
            kwargs["max_tries"] = self.max_tries
        return [self.picker, self.reference], kwargs


