"""Collections built from pickers: :class:`ComposeList`."""
from __future__ import annotations

from typing import Any, TypeVar

from ..core.checks import check_int
from ..core.constant import Nothing
from ..core.picker import Picker, RandomPicker, Shrinkable, as_picker
from ..core.shrinking import shrink_seed, simplicity
from .scalars import check_magnitude

__all__ = ["ComposeList", "PickList"]

T = TypeVar("T")


class ComposeList(Shrinkable[list[T]]):
    """A list: one pick of ``length``, then that many picks of ``element``.

    ``length`` is a non-negative int or a picker of them.

    Shrinking order: shorter lists first, then element by element in the element
    picker's order. ``shrink(v)`` gives a :class:`SmallerList`: lists made from
    ``v`` by cutting elements (keeping lengths the length picker can produce) or
    by shrinking one element through the element picker, so every value stays in
    this picker's domain.

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

    def in_domain(self, value: Any) -> bool | None:
        if not isinstance(value, list):
            return False
        if self.length.in_domain(len(value)) is False:
            return False
        verdicts = [self.element.in_domain(v) for v in value]
        if False in verdicts:
            return False
        return None if None in verdicts or self.length.in_domain(len(value)) is None else True

    def shrink(self, value: list[T], decision: Picker[float] | None = None, magnitude: float = 1.0) -> Picker[list[T]]:
        """Lists simpler than ``value`` in this picker's domain (see the class docstring)."""
        check_magnitude(magnitude)
        candidate = SmallerList(self.element, self.length, list(value), magnitude, seed=shrink_seed(decision))
        return candidate if candidate.can_shrink() else Nothing()

    def _arguments(self) -> tuple[list[Any], dict[str, Any]]:
        return [self.element], {"length": self.length}


class SmallerList(RandomPicker[list[T]], Shrinkable[list[T]]):
    """Lists simpler than ``reference``, built from it: what shrinking a :class:`ComposeList` gives.

    Each pick either cuts ``reference`` shorter (truncating it, or removing one run
    of elements; only to lengths ``length`` can produce) or replaces one element by
    a value of ``element.shrink(that element)`` (positions before it unchanged, so
    the result is smaller element by element). Smaller ``magnitude`` cuts harder.
    """

    inputs_fields = ("element", "length")

    def __init__(
        self,
        element: Picker[T] | list[Picker[T]],
        length: Picker[int],
        reference: list[T],
        magnitude: float = 1.0,
        *,
        seed: int | None = None,
    ) -> None:
        # Several element pickers are used in turn by position (a ListPicker); then only
        # truncation keeps every element with the picker of its position.
        self._cycle = list(element) if isinstance(element, list) else [element]
        self.element = self._cycle[0] if len(self._cycle) == 1 else self._cycle
        self.length = length
        self.reference = reference
        self.magnitude = magnitude
        n = len(reference)
        self._lengths = [k for k in range(n) if length.in_domain(k) is not False]
        self._allowed = set(self._lengths)
        self._shrinkable = all(isinstance(e, Shrinkable) for e in self._cycle)
        self._init_stream(seed)

    def can_shrink(self) -> bool:
        """Whether some simpler list exists (a shorter length, or an element that can shrink)."""
        if self._lengths:
            return True
        if not self._shrinkable:
            return False
        return any(not isinstance(self._at(i).shrink(v), Nothing) for i, v in enumerate(self.reference))  # type: ignore[attr-defined]

    def _at(self, position: int) -> Picker[T]:
        return self._cycle[position % len(self._cycle)]

    def in_domain(self, value: Any) -> bool | None:
        if not isinstance(value, list) or self.length.in_domain(len(value)) is False:
            return False
        verdicts = [self._at(i).in_domain(v) for i, v in enumerate(value)]
        if False in verdicts:
            return False
        return None if None in verdicts or self.length.in_domain(len(value)) is None else True

    def pick(self) -> list[T]:
        stream, ref = self._stream, self.reference
        n = len(ref)
        for _ in range(100):
            # Cut often when asked for much smaller lists, rarely at full magnitude.
            cut = self._lengths and (not self._shrinkable or stream.unit() < 1.0 - 0.75 * self.magnitude)
            if cut:
                lengths = self._lengths
                if len(self._cycle) > 1 or stream.unit() < 0.5:
                    # Truncate; magnitude below 1 favours the shortest allowed lengths.
                    top = max(1, round(len(lengths) * self.magnitude))
                    return ref[: lengths[stream.below(top)]]
                # Remove one run whose size is log-uniform: single elements as often as big blocks.
                size = 1 + stream.below(1 << stream.below(n.bit_length()))
                if n - size not in self._allowed:
                    size = n - lengths[stream.below(len(lengths))]
                start = stream.below(n - size + 1)
                return ref[:start] + ref[start + size :]
            if not self._shrinkable or n == 0:
                break
            i = stream.below(n)
            smaller = self._at(i).shrink(ref[i], _StreamDecision(stream), self.magnitude)  # type: ignore[attr-defined]
            try:
                replacement = smaller.pick()
            except Exception:  # nothing smaller at this position (Nothing, or a filter giving up)
                continue
            return ref[:i] + [replacement] + ref[i + 1 :]
        from ..core.exceptions import GiveUp

        raise GiveUp(f"found no list simpler than {ref!r}")

    def shrink(self, value: list[T], decision: Picker[float] | None = None, magnitude: float = 1.0) -> Picker[list[T]]:
        check_magnitude(magnitude)
        candidate = SmallerList(self._cycle, self.length, list(value), magnitude, seed=shrink_seed(decision))
        return candidate if candidate.can_shrink() else Nothing()

    def _arguments(self) -> tuple[list[Any], dict[str, Any]]:
        return [self.element, self.length, self.reference], {}


class _StreamDecision(Picker[float]):
    """A decision picker reading another picker's stream (so nested shrinks stay repeatable)."""

    def __init__(self, stream: Any) -> None:
        self._source = stream

    def pick(self) -> float:
        return self._source.unit()


#: The Java name of :class:`ComposeList`.
PickList = ComposeList
