"""The Hypothesis bridge, both ways: a picker as a strategy, a strategy as a picker.

Both directions stand on synthia's typed draws (:mod:`synthia.core.draws`), and Hypothesis
is imported only when a bridge is used (``pip install 'synthia[hypothesis]'``).

* :func:`to_strategy` -- a Hypothesis strategy whose values are picks of a copy of the
  wiring whose every typed draw is **dictated by Hypothesis's data**: an integer draw in
  ``[low, high)`` is ``data.draw(st.integers(low, high - 1))``, a float draw is
  ``st.floats(low, high, exclude_max=True)``, a weighted index is ``st.sampled_from`` of
  the indices of positive weight, a boolean is a boolean choice of the same probability,
  and every ``pick()`` of the wiring is a span. Hypothesis generates, shrinks and stores
  its own choices; since a draw's simplest value is the picker's simplest value, its
  shrinking reaches the same minima as a native strategy.
* :func:`from_strategy` -- a picker (:class:`StrategyPicker`) whose values come from a
  Hypothesis strategy, every choice Hypothesis asks for being taken from the picker's
  own typed draws (through Hypothesis's alternative-backend interface,
  ``PrimitiveProvider``). The picker is seeded, resettable and duplicable like any other,
  its draws are recorded and replayed, and so it shrinks through synthia's generic
  shrinker; Hypothesis's spans (a list element, a drawn strategy) become spans of the
  tape, so the shrinker deletes and simplifies them as units. For speed the strategy
  draws on a lean stand-in for Hypothesis's data object, which makes the same draws
  (see :func:`_light_data_class`).

>>> import synthia as sy
>>> from hypothesis import strategies as st
>>> words = sy.from_strategy(st.lists(st.sampled_from(["a", "b"]), max_size=3), seed=1)
>>> first = words.take(3); words.reset(); words.take(3) == first
True
>>> sy.find(sy.from_strategy(st.integers()), lambda n: n > 1000, seed=0)
1001
"""
from __future__ import annotations

import functools
import hashlib
import threading
from typing import Any, Sequence

from ..core.draws import FLOAT, INTEGER, DrawSource, routed
from ..core.exceptions import GiveUp
from ..core.leaves import DrawSpec
from ..core.picker import Picker, described
from .strategy_picker import StrategyPicker, from_strategy, hypothesis_strategies

__all__ = ["to_strategy", "from_strategy", "StrategyPicker"]

# -- a picker as a strategy ------------------------------------------------------------------
class _DataSource(DrawSource):
    """Every typed draw of the routed wiring taken from Hypothesis's data (it dictates).

    The spans of the wiring (each ``pick()`` of each picker) become spans of Hypothesis's
    choice sequence, so its shrinker sees list elements and sub-trees as units.
    """

    dictates = True

    def __init__(self, data: Any) -> None:
        self.data = data
        self.st = hypothesis_strategies()

    def integer(self, stream: Any, low: int, high: int) -> int:
        if high - low == 1:
            return low
        return int(self.data.draw(self.st.integers(low, high - 1)))

    def floating(self, stream: Any, low: float, high: float) -> float:
        return float(self.data.draw(_floats(self.st, low, high)))

    def boolean(self, stream: Any, p: float) -> bool:
        if p <= 0.0:
            return False
        if p >= 1.0:
            return True
        return bool(self.data.draw_boolean(p))

    def weighted(self, stream: Any, cumulative: Sequence[float]) -> int:
        indices = _positive_indices(tuple(cumulative))
        if len(indices) == 1:
            return indices[0]
        return int(self.data.draw(self.st.sampled_from(indices)))

    def open_span(self, label: Any) -> None:
        self.data.start_span(_span_label_for_hypothesis(label))

    def close_span(self) -> None:
        self.data.stop_span()


@functools.lru_cache(maxsize=4096)
def _span_label_for_hypothesis(label: Any) -> int:
    # Hypothesis labels spans with 64-bit ints; synthia's (a picker position, or a
    # hashable naming a part) are hashed the same way in every process.
    digest = hashlib.blake2b(f"synthia-span:{label!r}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big")


def _floats(st: Any, low: float, high: float) -> Any:
    return st.floats(low, high, exclude_max=True, allow_nan=False, allow_infinity=False)


@functools.lru_cache(maxsize=256)
def _positive_indices(cumulative: tuple[float, ...]) -> tuple[int, ...]:
    out = tuple(i for i, c in enumerate(cumulative) if c > (cumulative[i - 1] if i else 0.0))
    return out or (0,)


class _Copies:
    """Fresh copies of a wiring, reused across examples (one per concurrent draw)."""

    def __init__(self, picker: Picker[Any]) -> None:
        self.template = picker.duplicate()
        self._free: list[Picker[Any]] = []
        self._lock = threading.Lock()

    def take(self) -> Picker[Any]:
        with self._lock:
            twin = self._free.pop() if self._free else None
        if twin is None:
            return self.template.duplicate()
        twin.reset()
        return twin

    def give_back(self, twin: Picker[Any]) -> None:
        with self._lock:
            self._free.append(twin)


def to_strategy(picker: Picker[Any]) -> Any:
    """A Hypothesis strategy of ``picker``'s values, every draw taken from Hypothesis's data.

    Each value is the first pick of a fresh copy of the wiring (in its initial state; a
    stateful picker such as ``Tick`` gives its first value), so the user's picker is
    never moved. Hypothesis generates, shrinks, replays and stores the choices; each
    ``pick()`` of the wiring is a span of Hypothesis's choice sequence. Integer, float
    and weighted draws are uniform over what the picker allows (Hypothesis adds its own
    bias towards edge values); booleans keep their probability. A picker whose values are a
    known finite set (:meth:`~synthia.Picker.finite_values`: a ``Choice`` of values, a
    ``RandomBoolean``) is drawn as ``st.sampled_from`` of them, simplest first, so that
    Hypothesis stops once it has tried each. A leaf that describes its draw
    (``draw_spec()``: a ``RandomInteger``, a ``RandomFloat``, a date...) is drawn as the
    strategy of that draw mapped to its values (``st.integers(low, high - 1).map(value)``),
    with no copy of the picker. A picker that gives up (a filter that found nothing) rejects
    the example, like ``assume(False)``.

    >>> import synthia as sy
    >>> from hypothesis import find
    >>> find(to_strategy(sy.ComposeList(sy.RandomInteger(0, 2000), sy.RandomInteger(0, 20))), lambda l: sum(l) > 1000)
    [1001]
    >>> to_strategy(sy.RandomInteger(0, 10))
    to_strategy(RandomInteger(0, 10))
    """
    if not isinstance(picker, Picker):
        raise TypeError(f"picker must be a picker, got {picker!r} ({type(picker).__name__})")
    return _strategy_class()(picker)


def _native(st: Any, spec: DrawSpec) -> Any:
    """The strategy of a leaf's described draw, mapped to its values (``None`` for a draw
    Hypothesis has no plain strategy of: an unbounded float range)."""
    kind, args = spec.kind, spec.args
    if kind == INTEGER:
        low, high = args
        native = st.just(low) if high - low == 1 else st.integers(low, high - 1)
    elif kind == FLOAT and args[1] - args[0] < float("inf"):
        native = _floats(st, *args)
    else:  # booleans and indices are finite values; an unbounded float range is routed
        return None
    return native if spec.value is None else native.map(spec.value)


@functools.lru_cache(maxsize=1)
def _strategy_class() -> type:
    """The strategy class, built when first needed (Hypothesis is imported lazily).

    Hypothesis documents its strategy base class as not meant for subclassing; the bridge
    needs its data object to open spans and draw booleans with their probability, which
    a composite strategy does not give. The tests pin the behaviour on each version.
    """
    st = hypothesis_strategies()
    from hypothesis import reject

    class PickerStrategy(st.SearchStrategy):  # type: ignore[misc, name-defined]
        def __init__(self, picker: Picker[Any]) -> None:
            super().__init__()
            self.copies = _Copies(picker)
            self.picker_repr = repr(picker)
            values = picker.finite_values()
            # A float decision hides a finite domain from Hypothesis (it would run all its
            # examples on 18 values); drawn as an index, the domain ends where it ends.
            self.finite = None if values is None else st.sampled_from(values)
            spec = described(picker) if self.finite is None and not picker.inputs else None
            self.native = None if spec is None else _native(st, spec)

        def do_draw(self, data: Any) -> Any:
            if self.finite is not None:
                return data.draw(self.finite)
            if self.native is not None:
                return data.draw(self.native)
            copies = self.copies
            twin = copies.take()
            try:
                with routed(twin, _DataSource(data)):
                    return twin.pick()
            except GiveUp:
                reject()
            finally:
                copies.give_back(twin)

        def __repr__(self) -> str:
            return f"to_strategy({self.picker_repr})"

    return PickerStrategy


