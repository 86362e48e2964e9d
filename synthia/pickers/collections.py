"""Lists and sets built from pickers: :class:`ComposeList`, :class:`ListPicker`,
:class:`SetPicker`, :class:`RandomSubList`. (Tuples are in :mod:`synthia.pickers.tuples`.)"""
from __future__ import annotations

import functools
import math

from typing import Any, Iterable, Sequence, TypeVar, overload

from ..core.checks import check_count_pick, check_hashable, check_int, check_probability, check_values, describe
from ..core.draws import open_span
from ..core.emitter import SIMPLE, Emitter, described, is_pure, lean_from_second_pick
from ..core.tapes import INTEGER
from ..core.exceptions import GiveUp
from ..core.random import Stream
from ..core.inputs import count_input, element_input, variadic_inputs
from ..core.parsing import Parse, in_order
from ..core.picker import Picker, RandomPicker
from ..core.shrinking import Shrinkable

__all__ = ["ComposeList", "ListPicker", "SetPicker", "RandomSubList"]

T = TypeVar("T")


class ComposeList(Shrinkable[list[T]]):
    """A list: one pick of ``length``, then that many picks of ``element``.

    ``element`` is a picker or a plain value (``ComposeList(7, 3)`` gives ``[7, 7, 7]``;
    a list, tuple, set or range is ambiguous and refused). ``length`` is a non-negative
    int or a picker of them.

    Simplest value: the list of the length picker's simplest length, of the element
    picker's simplest values (``[]`` when the length can be 0); shrinking deletes elements
    (their spans, with the length lowered) and lowers each element's draws.

    >>> from synthia import RandomInteger
    >>> ComposeList(RandomInteger(0, 10, seed=1), RandomInteger(1, 4, seed=2)).take(2)
    [[4], [6, 4]]
    """

    inputs_fields = ("element", "length")
    #: From its second pick, the stager's code of this picker (:mod:`synthia.core.emitter`).
    _fast = lean_from_second_pick

    @overload
    def __init__(self, element: Picker[T], length: Any) -> None: ...
    @overload
    def __init__(self, element: T, length: Any) -> None: ...
    def __init__(self, element: Any, length: Any) -> None:
        self.element = element_input(element, "element", "ComposeList")
        self.length = count_input(length, "length")

    def _pick(self) -> list[T]:
        n = self.length.pick()
        if n.__class__ is not int or n < 0:  # the usual case stays one test
            n = check_count_pick(n, "length", self.length)
        pick = self.element.pick
        return [pick() for _ in range(n)]

    def stage(self, e: Emitter, out: list[str], ind: str) -> str:
        """The stager's code of a pick: the length, checked unless its picker can only give
        non-negative ints, then a loop (a comprehension when the element is one expression)."""
        e.staged += 1
        length = self.length
        n = e.pick(length, out, ind)
        spec = described(length)
        safe = (spec is not None and spec.kind == INTEGER and spec.value is None and spec.sample is None and spec.args[0] >= 0) or (
            is_pure(length) and type(length.pick()) is int and length.pick() >= 0
        )
        if not safe:
            check = e.bind("check_count_pick", check_count_pick, "check_count_pick")
            source = e.bind("length", length, ("length", id(self)))
            out.append(f"{ind}if {n}.__class__ is not int or {n} < 0:")
            out.append(f"{ind}    {n} = {check}({n}, 'length', {source})")
        v = e.var("l")
        body: list[str] = []
        element = e.pick(self.element, body, ind + "    ")
        simple = SIMPLE.match(body[0]) if len(body) == 1 else None
        if not body:
            out.append(f"{ind}{v} = [{element} for _ in range({n})]  # ComposeList")
        elif simple is not None and simple.group(1) == element:
            out.append(f"{ind}{v} = [{simple.group(2)} for _ in range({n})]  # ComposeList")
        else:
            append = e.var("append")
            out.append(f"{ind}{v} = []  # ComposeList")
            out.append(f"{ind}{append} = {v}.append")
            out.append(f"{ind}for _ in range({n}):")
            out.extend(body)
            out.append(f"{ind}    {append}({element})")
        return v

    def parse_draws(self, value: Any, parse: Parse) -> list[Any] | None:
        """The length's draws, then each element's (:mod:`synthia.core.parsing`)."""
        return _parse_sequence(value, self.length, lambda i: self.element, parse)

    def arguments(self) -> tuple[list[Any], dict[str, Any]]:
        return [self.element], {"length": self.length}


def _parse_sequence(value: Any, length: Picker[Any], element: Any, parse: Parse) -> list[Any] | None:
    """The draws of a list: ``length``'s draws for its size, then the draws of each item ``i``
    by the picker ``element(i)``."""
    if type(value) is not list:
        return None
    draws = parse(length, len(value))
    for i, item in enumerate(value):
        if draws is None:
            return None
        theirs = parse(element(i), item)
        if theirs is None:
            return None
        draws += theirs
    return draws


class ListPicker(Shrinkable[list[Any]]):
    """A list whose element ``i`` comes from ``pickers[i % len(pickers)]``.

    ``length`` (an int or a picker) defaults to the number of pickers, giving one
    value from each. Shrinking: shorter first (truncated to lengths ``length`` can
    produce), then element by element, each through the picker of its position.

    >>> from synthia import Tick, Choice
    >>> ListPicker(Tick(0, 1), Choice("a", "b").set_seed(1), length=5).pick()
    [0, 'a', 1, 'a', 2]
    """

    inputs_fields = ("pickers", "length")

    def __init__(self, *pickers: Any, length: Any = None) -> None:
        if not pickers:
            raise ValueError("ListPicker needs at least one picker, got none")
        self.pickers = variadic_inputs(pickers, "pickers", "ListPicker")
        self.length = count_input(len(pickers) if length is None else length, "length")

    def _pick(self) -> list[Any]:
        n = check_count_pick(self.length.pick(), "length", self.length)
        pickers, k = self.pickers, len(self.pickers)
        return [pickers[i % k].pick() for i in range(n)]

    def parse_draws(self, value: Any, parse: Parse) -> list[Any] | None:
        """The length's draws, then each element's by the picker of its position."""
        pickers = self.pickers
        return _parse_sequence(value, self.length, lambda i: pickers[i % len(pickers)], parse)

    def arguments(self) -> tuple[list[Any], dict[str, Any]]:
        return list(self.pickers), {"length": self.length}


class SetPicker(Shrinkable[set[Any]]):
    """A set of ``size`` **distinct** values of ``element``.

    Duplicates are drawn again; after ``max_tries`` draws in a row that add
    nothing, :class:`~synthia.GiveUp` says the element domain looks too small
    for the size asked (a harness discards that input and goes on).

    Simplest value: a set of the size picker's simplest size.

    >>> from synthia import RandomInteger
    >>> sorted(SetPicker(RandomInteger(0, 10, seed=3), 4).pick())
    [0, 1, 2, 6]
    >>> SetPicker(RandomInteger(0, 2, seed=1), 3, max_tries=50).pick()
    Traceback (most recent call last):
    ...
    synthia.core.exceptions.GiveUp: SetPicker found only 2 distinct values of RandomInteger(0, 2) for a size of 3 (50 draws in a row added nothing)
    """

    inputs_fields = ("element", "size")

    def __init__(self, element: Any, size: Any, max_tries: int = 1000) -> None:
        self.element = element_input(element, "element", "SetPicker")
        if not isinstance(element, Picker):
            check_hashable(element, "element")
        self.size = count_input(size, "size")
        self.max_tries = check_int(max_tries, "max_tries", minimum=1)

    def _pick(self) -> set[Any]:
        n = check_count_pick(self.size.pick(), "size", self.size)
        out: set[Any] = set()
        pick, misses = self.element.pick, 0
        while len(out) < n:
            before = len(out)
            value = pick()
            try:
                out.add(value)
            except TypeError:
                raise TypeError(f"SetPicker's element must pick hashable values, got {describe(value)} from {self.element!r}") from None
            if len(out) == before:
                misses += 1
                if misses >= self.max_tries:
                    raise GiveUp(
                        f"SetPicker found only {len(out)} distinct values of {self.element!r} for a size of {n}"
                        f" ({misses} draws in a row added nothing)"
                    )
            else:
                misses = 0
        return out

    def parse_draws(self, value: Any, parse: Parse) -> list[Any] | None:
        """The size's draws, then each element's (sorted where the elements sort, else in an
        order of their own that no hashing changes). A list of distinct items parses too:
        what ``Apply(frozenset, SetPicker(...))`` gives its input."""
        if type(value) is list:
            try:
                distinct = set(value)
            except TypeError:  # items that do not hash
                return None
            if len(distinct) != len(value):
                return None
            value = distinct
        if type(value) is not set:
            return None
        return _parse_sequence(in_order(value), self.size, lambda i: self.element, parse)

    def arguments(self) -> tuple[list[Any], dict[str, Any]]:
        kwargs = {} if self.max_tries == 1000 else {"max_tries": self.max_tries}
        return [self.element, self.size], kwargs




class RandomSubList(RandomPicker[list[T]], Shrinkable[list[T]]):
    """A sub-list of ``values`` in their order: each element is kept with probability ``keep``.

    Draws: for each kept element, a boolean (one more?) and its position (a weighted draw
    among the positions after the previous one, with the geometric chances that make each
    element kept independently), then a last ``False``. So the simplest draws give the
    shortest sub-list of the earliest elements: shrinking deletes an element (its span)
    without moving the others, and lowers a position to move an element earlier.

    >>> RandomSubList([1, 2, 3, 4, 5, 6], seed=2).take(2)
    [[1, 3, 4], [2, 4, 5, 6]]
    """

    opens_parts = True

    def __init__(self, values: Iterable[T], keep: float = 0.5, *, seed: int | None = None) -> None:
        self.values = check_values(values)
        self.keep = check_probability(keep, "keep")
        self._init_stream(seed)

    def _pick(self) -> list[T]:
        stream, values = self._stream, self.values
        n, skip = len(values), 1.0 - self.keep
        out: list[T] = []
        after = -1  # the position of the last kept element
        if type(stream) is Stream:
            # Plain generation: the same draws, with the position located in closed form.
            random = stream.random
            log_skip = math.log(skip) if 0.0 < skip < 1.0 else 0.0
            while True:
                left = n - after - 1
                if not random() < _more_chance(left, skip):
                    return out
                u = random()
                # _next_kept's guess; when it is exact (nearly always) no more work.
                t = u * _kept_sum(left, skip)
                if log_skip and t < 1.0:
                    g = min(max(math.ceil(math.log1p(-t) / log_skip), 1), left)
                    if _kept_sum(g, skip) > t and (g == 1 or not _kept_sum(g - 1, skip) > t):
                        after += g
                        out.append(values[after])
                        continue
                after = _next_kept(u, after, n, skip)
                out.append(values[after])
        boolean, weighted = stream.boolean, stream.weighted
        while True:
            source = open_span(stream, _SUBLIST_ELEMENT)
            try:
                left = n - after - 1
                if not boolean(_more_chance(left, skip)):
                    return out
                after = weighted(_NextKept(after, n, skip))
                out.append(values[after])
            finally:
                if source is not None:
                    source.close_span()

    def arguments(self) -> tuple[list[Any], dict[str, Any]]:
        return [self.values], ({} if self.keep == 0.5 else {"keep": self.keep})


#: The label of the span of one kept element of a :class:`RandomSubList` (its two draws).
_SUBLIST_ELEMENT = "sublist element"


#: The least chance that each position after the last kept one has (when ``0 < keep < 1``).
#: The geometric chance ``keep * skip**k`` of the ``k``-th position rounds away in the running
#: sum once ``k`` passes ~53 (for ``keep = 0.5``), and the chance ``skip**left`` of keeping
#: no more does too: every later position had no weight and every sub-list of a long list
#: had to end within 53 of its end -- out of reach of generation and of the shrinker (a
#: replayed zero-weight index moves back to a position of positive weight, a replayed
#: ``False`` of probability 1 becomes ``True``: ``RandomSubList(range(200))`` shrank to
#: ``[146]``, never to ``[]``). ``2**-40`` is some 4000 units in the last place of 1.0, so
#: every step of the running sum stays a positive weight; plain generation changes only
#: when a uniform draw falls within ``n * 2**-40`` of 1.
_LEAST_CHANCE = 2.0**-40


@functools.lru_cache(maxsize=64)
def _tail_start(skip: float) -> int:
    """The last gap whose geometric chance ``keep * skip**(g - 1)`` is at least
    :data:`_LEAST_CHANCE` (the gaps after it have that chance instead); ``-1`` when
    ``keep`` is 0 or 1 (no floor: the law is exact)."""
    keep = 1.0 - skip
    if not 0.0 < skip < 1.0:
        return -1
    if keep <= _LEAST_CHANCE:
        return 0
    return 1 + math.floor(math.log(_LEAST_CHANCE / keep) / math.log(skip))


def _kept_sum(g: int, skip: float) -> float:
    """The running sum of the chances of the first ``g`` positions after the last kept one:
    ``1 - skip**g`` (the geometric law) up to :func:`_tail_start`, then
    :data:`_LEAST_CHANCE` per position. The one expression every caller evaluates, so that
    plain generation and weighted draws agree."""
    tail = _tail_start(skip)
    if tail < 0 or g <= tail:
        return 1.0 - skip**g
    return (1.0 - skip**tail) + (g - tail) * _LEAST_CHANCE


def _more_chance(left: int, skip: float) -> float:
    """The chance that one more element is kept among the ``left`` last ones: ``1 - skip**left``,
    short of 1 by at least :data:`_LEAST_CHANCE` when ``0 < keep < 1`` (so that ``False``,
    the end of the sub-list, stays possible however many are left)."""
    if not left:
        return 0.0
    stop = skip**left
    if 0.0 < skip < 1.0 and stop < _LEAST_CHANCE:
        stop = _LEAST_CHANCE
    return 1.0 - stop


class _NextKept(Sequence[float]):
    """The running sums of the chances that the next kept element is at each position.

    Position ``j`` after ``after`` is the next kept one with chance ``keep * skip**(j - after - 1)``
    (those between are skipped, each with chance ``skip = 1 - keep``): the running sum is
    ``1 - skip**(j - after)`` (:func:`_kept_sum`, which keeps every weight positive however
    far the position), computed when asked (a draw bisects it), never as a list.
    Positions up to ``after`` have no chance, so a position is absolute: it stays valid when
    an earlier element is deleted.

    >>> sums = _NextKept(-1, 200, 0.5)
    >>> all(sums[j] > sums[j - 1] for j in range(1, 200))
    True
    """

    __slots__ = ("after", "n", "skip")

    def __init__(self, after: int, n: int, skip: float) -> None:
        self.after, self.n, self.skip = after, n, skip

    def __len__(self) -> int:
        return self.n

    @overload
    def __getitem__(self, j: int) -> float: ...

    @overload
    def __getitem__(self, j: slice) -> list[float]: ...

    def __getitem__(self, j: int | slice) -> float | list[float]:
        if isinstance(j, slice):
            return [self[i] for i in range(*j.indices(self.n))]
        if j < 0:
            j += self.n
        if not 0 <= j < self.n:
            raise IndexError(j)
        return 0.0 if j <= self.after else _kept_sum(j - self.after, self.skip)

    def __repr__(self) -> str:
        return f"_NextKept({self.after}, {self.n}, {self.skip})"


def _next_kept(u: float, after: int, n: int, skip: float) -> int:
    """``weighted_index(u, _NextKept(after, n, skip))`` -- the position a weighted draw of
    ``u`` gives -- guessed from the closed form of the geometric law, then found by
    bisection over the same running sums, so that plain generation and recorded draws
    agree exactly.

    >>> from synthia.core.random import weighted_index
    >>> [_next_kept(u, 2, 10, 0.5) for u in (0.0, 0.4, 0.7, 0.999)]
    [3, 3, 4, 9]
    >>> all(_next_kept(u / 97, 2, 10, 0.5) == weighted_index(u / 97, _NextKept(2, 10, 0.5)) for u in range(97))
    True
    >>> all(_next_kept(u / 97, -1, 200, 0.5) == weighted_index(u / 97, _NextKept(-1, 200, 0.5)) for u in range(97))
    True
    """
    left = n - after - 1
    t = u * _kept_sum(left, skip)
    # The first gap g in [1, left] whose running sum exceeds t (bisect_right): guessed by
    # inverting the law, else bisected. The sums rise strictly, every weight being positive.
    if 0.0 < skip < 1.0 and 0.0 < t < 1.0:
        g = min(max(math.ceil(math.log1p(-t) / math.log(skip)), 1), left)
        if _kept_sum(g, skip) > t and (g == 1 or not _kept_sum(g - 1, skip) > t):
            return after + g
    if not _kept_sum(left, skip) > t:
        return after + left  # u * total rounded up to the total: the last position, as a weighted draw gives
    lo, hi = 0, left  # the sum at lo does not exceed t (at 0 it is 0), the one at hi does
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if _kept_sum(mid, skip) > t:
            hi = mid
        else:
            lo = mid
    return after + hi
