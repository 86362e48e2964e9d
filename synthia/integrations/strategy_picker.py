"""A strategy as a picker: :func:`from_strategy` (a :class:`StrategyPicker`), whose values come
from a Hypothesis strategy, every choice Hypothesis asks for being one of the picker's own
typed draws (through Hypothesis's alternative-backend interface, ``PrimitiveProvider``, or a
lean stand-in for its data object, see :func:`_light_data_class`). The picker is seeded,
resettable and duplicable like any other, its draws are recorded and replayed, and so it
shrinks through synthia's generic shrinker. Hypothesis is imported only when used.

>>> import synthia as sy
>>> from hypothesis import strategies as st
>>> words = sy.from_strategy(st.lists(st.sampled_from(["a", "b"]), max_size=3), seed=1)
>>> first = words.take(3); words.reset(); words.take(3) == first
True
"""
from __future__ import annotations

import functools
import math
from typing import Any, Callable

from ..core.checks import check_int
from ..core.draws import DrawSource, is_routed, open_span
from ..core.exceptions import GiveUp
from ..core.picker import RandomPicker
from ..pickers.floats import FloatSpace
from ..pickers.text import spell
from ..pickers.times import toward

__all__ = ["from_strategy", "StrategyPicker", "draw_integer", "hypothesis_strategies"]

INT_SIZES = (8, 16, 32, 64, 128)
INT_SIZE_WEIGHTS = (4.0, 8.0, 1.0, 1.0, 0.5)
#: The longest string or bytes drawn beyond ``min_size`` (a uniform length in ``[0, 10]``,
#: 5 on average, like Hypothesis's own average).
TEXT_LENGTH = 10
#: A string's characters come from the first 256 of the alphabet in shrink order (ASCII
#: first), or from all of it with this probability (one boolean per string).
WIDE_TEXT = 0.2


def hypothesis_strategies() -> Any:
    """``hypothesis.strategies``, or an ``ImportError`` saying how to install it."""
    try:
        import hypothesis  # noqa: F401
        from hypothesis import strategies
    except ImportError as err:  # pragma: no cover - exercised without the extra
        raise ImportError("the Hypothesis bridge needs Hypothesis: pip install 'synthia[hypothesis]'") from err
    return strategies


# -- a strategy as a picker ------------------------------------------------------------------
def _draw_boolean(stream: Any, p: float) -> bool:
    """Hypothesis's boolean choice with probability ``p`` as a synthia draw (none when certain)."""
    if p <= 0.0:
        return False
    if p >= 1.0:
        return True
    return bool(stream.boolean(p))


@functools.lru_cache(maxsize=1)
def _provider_class() -> type:
    """The ``PrimitiveProvider`` whose choices are a synthia stream's typed draws (built lazily)."""
    hypothesis_strategies()
    from hypothesis.internal.conjecture.providers import PrimitiveProvider

    class SynthiaProvider(PrimitiveProvider):  # type: ignore[misc, valid-type]
        """Hypothesis's choices as synthia draws, each mapped so that its minimal draw is
        Hypothesis's simplest choice; spans forwarded to the route's source."""

        lifetime = "test_case"

        def __init__(self, data: Any, stream: Any = None) -> None:
            super().__init__(data)
            self.stream = stream
            self.sources: list[DrawSource | None] = []

        def draw_boolean(self, p: float = 0.5) -> bool:
            return _draw_boolean(self.stream, p)

        def draw_integer(
            self,
            min_value: int | None = None,
            max_value: int | None = None,
            *,
            weights: dict[int, float] | None = None,
            shrink_towards: int = 0,
        ) -> int:
            return draw_integer(self.stream, min_value, max_value, shrink_towards)

        def draw_float(
            self,
            *,
            min_value: float = -math.inf,
            max_value: float = math.inf,
            allow_nan: bool = True,
            smallest_nonzero_magnitude: float = 5e-324,
        ) -> float:
            return _space(min_value, max_value, allow_nan, smallest_nonzero_magnitude).draw(self.stream)

        def draw_string(self, intervals: Any, *, min_size: int = 0, max_size: int = 8 * 1024) -> str:
            return _draw_string(self.stream, intervals, min_size, max_size)

        def draw_bytes(self, min_size: int = 0, max_size: int = 8 * 1024) -> bytes:
            return _draw_bytes(self.stream, min_size, max_size)

        def span_start(self, label: int, /) -> None:
            self.sources.append(open_span(self.stream, ("hypothesis", label)))

        def span_end(self, discard: bool, /) -> None:
            if self.sources:
                source = self.sources.pop()
                if source is not None:
                    source.close_span()

        def close_spans(self) -> None:
            """Close the spans left open (so the tape's spans stay nested)."""
            while self.sources:
                self.span_end(True)

    return SynthiaProvider


class _NeedsRealData(BaseException):
    """The light data object was asked for something only Hypothesis's ``ConjectureData`` has.

    A ``BaseException`` so that no ``except Exception`` of a strategy swallows it: the pick
    is abandoned and drawn again on a real ``ConjectureData``.
    """


#: The most draws of one try (Hypothesis's own data overruns at a similar size).
MAX_DRAWS = 8 * 1024
#: Strategies already validated, with their unwrapped form and label (bounded: strategies
#: made during a draw, by ``flatmap`` or ``composite``, are new objects each time).
_PREPARED: dict[int, tuple[Any, Any, int]] = {}
_PREPARED_SIZE = 4096


@functools.lru_cache(maxsize=1)
def _light_data_class() -> type:
    """A lean stand-in for Hypothesis's ``ConjectureData`` (built lazily).

    Strategies draw from their data object (``draw``, ``draw_integer``..., spans,
    ``mark_invalid``); Hypothesis's own object also keeps a choice sequence, span records
    and structural coverage for its engine, which costs most of the time of a pick when
    no engine runs. This subclass skips its constructor and answers the calls strategies
    make straight from the picker's stream, with the same draws and the same spans as the
    provider behind a real ``ConjectureData`` (so both give the same values). Any other
    attribute raises :class:`_NeedsRealData`, and the pick is drawn again on a real one.
    """
    from collections import defaultdict

    from hypothesis.internal.observability import PredicateCounts
    from hypothesis.errors import StopTest
    from hypothesis.internal.conjecture.data import MAX_DEPTH, TOP_LABEL, ConjectureData, DataObserver, Status
    from hypothesis.internal.floats import float_to_int, int_to_float
    from hypothesis.strategies._internal.lazy import unwrap_strategies
    from hypothesis.utils.conventions import not_set

    lazy: dict[str, Callable[[], Any]] = {
        "events": dict,
        "draw_times": dict,
        "_stateful_run_times": lambda: defaultdict(float),
        "target_observations": dict,
        "tags": set,
        "labels_for_structure_stack": list,
        "arg_slices": set,
        "slice_comments": dict,
        "_observability_args": dict,
        "_observability_predicates": lambda: defaultdict(PredicateCounts),
        "_shared_strategy_draws": dict,
        "observer": DataObserver,
        "notes": list,
        "arg_spans": set,
        "span_comments": dict,
    }
    prepared = _PREPARED
    provider_class = _provider_class()

    class LightData(ConjectureData):  # type: ignore[misc, valid-type]
        # The constant part of ConjectureData's state (the versions setup.cfg pins), shared by
        # every instance; a strategy that assigns one makes its own.
        max_choices = None
        max_length = MAX_DRAWS
        overdraw = 0
        _random = None
        length = 0
        index = 0
        output = ""
        status = Status.VALID
        frozen = False
        testcounter = 0
        max_depth = 0
        has_discards = False
        interesting_origin = None
        prefix = None
        nodes = ()
        misaligned_at = None
        cannot_proceed_scope = None
        _sampled_from_all_strategies_elements_message = None
        _shared_data_strategy = None
        _stateful_repr_parts = None
        states_for_ids = None
        seeds_to_states = None
        expected_exception = None
        expected_traceback = None
        hypothesis_runner = not_set
        unique_element_depth = 0
        simplest_index = 0
        invalid_location = None
        _last_rejected_filter = None
        _inverting = False

        def __init__(self, stream: Any) -> None:
            # ConjectureData.__init__ is what this class skips.
            self.stream = stream
            # Spans matter only to a draw source (a recording, a replay): plain generation
            # skips them.
            self.routed = is_routed(stream)
            self.sources: list[DrawSource | None] = []
            self.depth = -1
            self.draws = 0
            self.span_count = 0
            self.start_span(TOP_LABEL)

        def __getattr__(self, name: str) -> Any:
            make = lazy.get(name)
            if make is not None:
                value = make()
            elif name == "provider":
                value = provider_class(None, self.stream)
                value.sources = self.sources
            elif name.startswith("__"):
                raise AttributeError(name)
            else:
                raise _NeedsRealData(name)
            setattr(self, name, value)
            return value

        # What only Hypothesis's engine reads: the choice sequence and the span records.
        @property
        def choices(self) -> Any:
            raise _NeedsRealData("choices")

        @property
        def spans(self) -> Any:
            raise _NeedsRealData("spans")

        @property
        def next_span_index(self) -> int:
            return self.span_count

        def draw(self, strategy: Any, label: int | None = None, observe_as: str | None = None) -> Any:
            # Keyed by identity (a strategy may define __eq__ without __hash__), kept alive.
            entry = prepared.get(id(strategy))
            if entry is None or entry[0] is not strategy:
                strategy.validate()
                if strategy.is_empty:
                    self.mark_invalid(f"empty strategy {strategy!r}")
                unwrapped = unwrap_strategies(strategy)
                entry = (strategy, unwrapped, unwrapped.label)
                if len(prepared) >= _PREPARED_SIZE:
                    prepared.clear()
                prepared[id(strategy)] = entry
            if self.depth >= MAX_DEPTH:
                self.mark_invalid("max depth exceeded")
            self.start_span(entry[2] if label is None else label)
            try:
                return entry[1].do_draw(self)
            finally:
                self.stop_span()

        def start_span(self, label: int) -> None:
            if self.routed:
                self.sources.append(open_span(self.stream, ("hypothesis", label)))
            self.depth += 1
            self.span_count += 1

        def stop_span(self, *, discard: bool = False) -> None:
            self.depth -= 1
            if self.routed and self.sources:
                source = self.sources.pop()
                if source is not None:
                    source.close_span()

        def close_spans(self) -> None:
            sources = self.sources
            while sources:
                source = sources.pop()
                if source is not None:
                    source.close_span()

        def _count(self) -> None:
            """One more draw; past ``MAX_DRAWS`` the try overruns (as Hypothesis's data does)."""
            self.draws += 1
            if self.draws > MAX_DRAWS:
                self.mark_overrun()

        def draw_integer(
            self,
            min_value: int | None = None,
            max_value: int | None = None,
            *,
            weights: dict[int, float] | None = None,
            shrink_towards: int = 0,
            forced: int | None = None,
            observe: bool = True,
        ) -> int:
            if forced is not None:
                return forced
            self._count()
            return draw_integer(self.stream, min_value, max_value, shrink_towards)

        def draw_boolean(self, p: float = 0.5, *, forced: bool | None = None, observe: bool = True) -> bool:
            if forced is not None:
                return forced
            self._count()
            return _draw_boolean(self.stream, p)

        def draw_float(
            self,
            min_value: float = -math.inf,
            max_value: float = math.inf,
            *,
            allow_nan: bool = True,
            smallest_nonzero_magnitude: float = 5e-324,
            forced: float | None = None,
            observe: bool = True,
        ) -> float:
            if forced is not None:
                return forced
            self._count()
            value = _space(min_value, max_value, allow_nan, smallest_nonzero_magnitude).draw(self.stream)
            if value != value:
                # Like Hypothesis: never the same NaN object twice (list membership).
                value = int_to_float(float_to_int(value))
            return value

        def draw_string(
            self,
            intervals: Any,
            *,
            min_size: int = 0,
            max_size: int = 8 * 1024,
            forced: str | None = None,
            observe: bool = True,
        ) -> str:
            if forced is not None:
                return forced
            self._count()
            return _draw_string(self.stream, intervals, min_size, max_size)

        def draw_bytes(
            self, min_size: int = 0, max_size: int = 8 * 1024, *, forced: bytes | None = None, observe: bool = True
        ) -> bytes:
            if forced is not None:
                return forced
            self._count()
            return _draw_bytes(self.stream, min_size, max_size)

        def conclude_test(self, status: Any, interesting_origin: Any = None) -> Any:
            self.status = status
            self.interesting_origin = interesting_origin
            raise StopTest(0)

        def freeze(self) -> None:
            self.frozen = True

        def __repr__(self) -> str:
            return f"LightData({self.draws} draws)"

    return LightData


@functools.lru_cache(maxsize=1024)
def _space(min_value: float, max_value: float, allow_nan: bool, smallest: float) -> FloatSpace:
    return FloatSpace(min_value, max_value, allow_nan=allow_nan, smallest_nonzero=smallest)


def _length(stream: Any, min_size: int, max_size: int) -> int:
    top = min(max_size, min_size + TEXT_LENGTH)
    return min_size if top == min_size else int(stream.integer(min_size, top + 1))


def _draw_string(stream: Any, intervals: Any, min_size: int, max_size: int) -> str:
    # A length, then code points in Hypothesis's shrink order (ASCII first).
    size = len(intervals)
    if size == 0:
        return ""
    n = _length(stream, min_size, max_size)
    if size > 256 and not stream.boolean(WIDE_TEXT):
        size = 256
    char = intervals.char_in_shrink_order
    if not is_routed(stream):
        pick = stream.below
        return "".join([char(pick(size)) for _ in range(n)])
    return _Characters(stream, intervals, size).spell(n)


class _Characters:
    """The characters of a string drawn from a routed stream (recorded, replayed, guided): the
    same draws from the stream, but each character recorded as its general category and its
    rank in it (in Hypothesis's shrink order), in a span of its own, as
    :class:`~synthia.RandomText` records them -- so that lowering the rank gives the
    simplest character of the category (a failing ``'À'`` shrinks to ``'A'``)."""

    def __init__(self, stream: Any, intervals: Any, size: int) -> None:
        self.stream, self.intervals, self.size = stream, intervals, size
        self.classes = _character_classes(intervals.intervals)
        self.rank = 0

    def spell(self, n: int) -> str:
        return spell(self.stream, self.classes, n, self._sample_class, self._sample_rank)

    def _sample_class(self, stream: Any) -> int:
        c, self.rank = self.classes.locate(self.intervals.char_in_shrink_order(stream.below(self.size)))
        return c

    def _sample_rank(self, stream: Any) -> int:
        return self.rank


@functools.lru_cache(maxsize=256)
def _character_classes(intervals: tuple[tuple[int, int], ...]) -> Any:
    """The classes of a Hypothesis interval set, its shrink order described as runs of code
    points (``IntervalSet.char_in_shrink_order``): by index in the set, those from the
    first code point at or above ``'0'`` to the first at or above ``'Z'`` up, those before
    them down, then the rest up."""
    from ..pickers.text import CharacterClasses

    starts, size = [], 0
    for a, b in intervals:
        starts.append(size)
        size += b - a + 1

    def above(cp: int) -> int:  # the index of the first code point >= cp (size if none)
        for (a, b), start in zip(intervals, starts):
            if cp <= b:
                return start + max(cp - a, 0)
        return size

    def runs(i: int, j: int) -> list[tuple[int, int, int]]:  # indices i..j, up
        out = []
        for (a, b), start in zip(intervals, starts):
            lo, hi = max(i, start), min(j, start + b - a)
            if lo <= hi:
                out.append((a + lo - start, a + hi - start, 1))
        return out

    zero, z = above(ord("0")), min(above(ord("Z")), size - 1)
    down = [(b, a, -1) for a, b, _ in reversed(runs(0, min(zero, z + 1) - 1))]
    return CharacterClasses(runs(zero, z) + down + runs(z + 1, size - 1))


def _draw_bytes(stream: Any, min_size: int, max_size: int) -> bytes:
    n = _length(stream, min_size, max_size)
    pick = stream.below
    return bytes([pick(256) for _ in range(n)])


_INT_SIZE_CUMULATIVE = [sum(INT_SIZE_WEIGHTS[: i + 1]) for i in range(len(INT_SIZE_WEIGHTS))]


def draw_integer(stream: Any, min_value: int | None, max_value: int | None, shrink_towards: int = 0) -> int:
    """An integer of ``[min_value, max_value]`` (a ``None`` bound is open) from ``stream``'s draws.

    The draw is the distance to ``shrink_towards`` (brought into the range), so its
    simplest value gives Hypothesis's simplest integer; an open range first draws a bit
    width (a weighted index, the smallest width first).

    >>> from synthia.core.random import Stream
    >>> draw_integer(Stream(1), 5, 5), 0 <= draw_integer(Stream(1), 0, 10) <= 10
    (5, True)
    """
    if min_value is not None and max_value is not None:
        return min_value if min_value == max_value else toward(stream, min_value, max_value + 1, shrink_towards)
    bits = INT_SIZES[stream.weighted(_INT_SIZE_CUMULATIVE)]
    if min_value is None and max_value is None:
        return shrink_towards + int(stream.integer(-(1 << (bits - 1)), 1 << (bits - 1)))
    if min_value is not None:
        centre = max(shrink_towards, min_value)
        return centre + int(stream.integer(min_value - centre, 1 << bits))
    assert max_value is not None
    centre = min(shrink_towards, max_value)
    return centre + int(stream.integer(-(1 << bits), max_value - centre + 1))


class StrategyPicker(RandomPicker[Any]):
    """The values of a Hypothesis ``strategy``, every choice taken from this picker's draws.

    Hypothesis's engine is not involved: the strategy draws from a lean stand-in for
    Hypothesis's data object (or, for a strategy that needs more, from a real one whose
    backend, a ``PrimitiveProvider``, makes the same draws), which answers each choice with
    one of this picker's typed draws -- an integer as its distance to Hypothesis's shrink target, a float from a
    :class:`~synthia.pickers.floats.FloatSpace`, a string as a length and code points in
    Hypothesis's shrink order. So the picker is seeded, resettable, duplicable, recorded,
    replayed and shrunk like any picker, and all-minimal draws give the strategy's
    simplest value. A strategy that rejects a value (a filter, ``assume``) is drawn again,
    up to ``max_tries`` times, then the picker gives up (:class:`~synthia.GiveUp`).

    >>> from hypothesis import strategies as st
    >>> StrategyPicker(st.integers(0, 9), seed=4).take(5)
    [6, 7, 3, 7, 8]
    """

    opens_parts = True

    def __init__(self, strategy: Any, *, max_tries: int = 100, seed: int | None = None) -> None:
        st = hypothesis_strategies()
        if not isinstance(strategy, st.SearchStrategy):
            raise TypeError(f"strategy must be a Hypothesis strategy, got {strategy!r} ({type(strategy).__name__})")
        self.strategy = strategy
        self.max_tries = check_int(max_tries, "max_tries", minimum=1)
        self._init_stream(seed)

    def _pick(self) -> Any:
        from hypothesis.control import BuildContext
        from hypothesis.errors import StopTest

        light_class = _light_data_class()
        strategy = self.strategy
        stream = self._stream
        for _ in range(self.max_tries):
            data = light_class(stream)
            try:
                with BuildContext(data, is_final=False, wrapped_test=_no_test):
                    return data.draw(strategy)
            except StopTest:
                continue  # a rejected value: draw again
            except _NeedsRealData:
                data.close_spans()
                return self._pick_on_real_data(stream)
            finally:
                # Hypothesis leaves some spans open for its engine to close at the end.
                data.close_spans()
        raise GiveUp(f"{self.strategy!r} rejected {self.max_tries} values in a row")

    def _pick_on_real_data(self, stream: Any) -> Any:
        """The rest of the pick on Hypothesis's own ``ConjectureData`` (a strategy that
        needs more than the light data object has)."""
        from hypothesis.control import BuildContext
        from hypothesis.errors import StopTest
        from hypothesis.internal.conjecture.data import ConjectureData

        provider_class = _provider_class()
        for _ in range(self.max_tries):
            provider = provider_class(None, stream)
            data = ConjectureData(random=None, provider=provider)
            try:
                with BuildContext(data, is_final=False, wrapped_test=_no_test):
                    return data.draw(self.strategy)
            except StopTest:
                continue
            finally:
                provider.close_spans()
        raise GiveUp(f"{self.strategy!r} rejected {self.max_tries} values in a row")

    def arguments(self) -> tuple[list[Any], dict[str, Any]]:
        return [_StrategyRepr(self.strategy)], ({} if self.max_tries == 100 else {"max_tries": self.max_tries})

    def __deepcopy__(self, memo: dict[int, Any]) -> "StrategyPicker":
        # Strategies are immutable descriptions: copies share them (deepcopy of one can fail).
        memo[id(self.strategy)] = self.strategy
        return super().__deepcopy__(memo)  # type: ignore[return-value]


def _no_test() -> None:  # pragma: no cover - a build context needs a test; no test runs here
    pass


class _StrategyRepr:
    def __init__(self, strategy: Any) -> None:
        self.strategy = strategy

    def __repr__(self) -> str:
        return repr(self.strategy)


def from_strategy(strategy: Any, *, max_tries: int = 100, seed: int | None = None) -> StrategyPicker:
    """A picker of ``strategy``'s values (a :class:`StrategyPicker`): seeded, resettable, shrinkable.

    >>> import synthia as sy
    >>> from hypothesis import strategies as st
    >>> names = sy.from_strategy(st.text("abc", min_size=1, max_size=4), seed=2)
    >>> first = names.take(3); names.reset(); names.take(3) == first
    True
    """
    return StrategyPicker(strategy, max_tries=max_tries, seed=seed)
