"""Basic plumbing: :class:`Choice`, :class:`Apply`.

:class:`~synthia.Constant` and :class:`~synthia.Nothing` live in the core and are re-exported
here; :class:`Freeze` and :class:`Once` live in :mod:`synthia.pickers.holding`,
:class:`Deferred` in :mod:`synthia.pickers.deferred`.
"""
from __future__ import annotations

import math

from typing import Any, Callable, Iterator, Sequence, TypeVar, overload

from ..core.checks import accepted, check_callable, checked_weights, describe, positional_order
from ..core.constant import Constant, Nothing
from ..core.inputs import AMBIGUOUS, unit_input, variadic_inputs
from ..core.instrument import WATCHED
from ..core.emitter import UNROLL, Emitter, lean_from_second_pick
from ..core.picker import Picker
from ..core.parsing import Parse, in_order, same_value
from ..core.shrinking import Shrinkable
from ..core.random import DERIVING, ROUTE, weighted_index
from .scalars import RandomFloat, claimed_unit
from .shared import _Shared, _immutable

__all__ = ["Constant", "Nothing", "Choice", "Apply"]

T = TypeVar("T")


def _claimed_first(choice: "Choice[Any]") -> Any:
    """Choice's fast code: :func:`~synthia.core.emitter.lean_from_second_pick`, whose first pick from
    a claimed decision (a Choice a plain Bind builds, picked once) is made here, as ``_pick``
    makes it, without a second call: the claim's first float, then the alternative it chooses.
    Called while nothing watches (``pick`` is ``_fast`` then, core/picker.py)."""
    if choice._decision is not None:  # built, or drawn from: a Choice like any other
        return lean_from_second_pick(choice)
    choice._picked = 1
    choice._decision = False
    root, index = choice._slot  # first_unit(root, index), inlined: two SplitMix64 finalisers
    z = (root + index * 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
    z = ((z ^ (z >> 31)) + 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
    u = ((z ^ (z >> 31)) >> 11) * (1.0 / 9007199254740992.0)
    if choice._uniform:  # index_of(u), inlined (as in Choice._pick)
        n = choice._count
        i = int(u * n)
        if i >= n:
            i = n - 1
    else:
        sums = choice._cumulative
        if choice._count == 2:  # weighted_index(u, sums), for two
            i = 1 if u * sums[1] >= sums[0] and sums[1] != sums[0] else 0  # type: ignore[index]
        else:
            i = weighted_index(u, sums)  # type: ignore[arg-type]
    values = choice._values
    if values is not None:
        return values[i]
    chosen = choice._held[i]  # type: ignore[index]
    return chosen._fast() if isinstance(chosen, Picker) else chosen  # (a plain value of a pair, read as it is)


#: Read by ``Picker.__init_subclass__``: a subclass that picks its own way holds no lean pick.
_claimed_first.needs_hook = True  # type: ignore[attr-defined]


class Choice(Shrinkable[T]):
    """One of several alternatives, chosen by weight.

    Alternatives are plain values or pickers (a picker alternative is picked from
    when chosen, so alternatives compose). A single list, tuple, set or range is
    ambiguous and refused: ``Choice(*values)`` chooses one of its elements.
    ``weights`` are finite non-negative numbers, one per alternative, not all zero;
    they are **normalised** (they need not sum to 1, and huge ones do not overflow).
    Without weights the choice is uniform. ``decision`` is the picker of floats in
    ``[0, 1)`` that chooses (or such a float), a fresh :class:`RandomFloat` by default.

    A choice among plain values (Hypothesis's ``sampled_from``) keeps them as data, not as
    pickers: building, copying and picking cost the same for 65,536 values as for two (a
    copy shares values that cannot change: numbers, strings, ``None``...).

    Simplest value: the first alternative of positive weight (its simplest value), so
    shrinking moves a choice towards earlier alternatives.

    >>> Choice("a", "b", "c", weights=[1, 2, 1]).set_seed(4).take(6)
    ['b', 'c', 'b', 'b', 'b', 'c']
    >>> Choice("a", weights=[-1])
    Traceback (most recent call last):
    ...
    ValueError: weights[0] must be non-negative, got -1
    """

    inputs_fields = ("alternatives", "decision")
    #: From its second pick, the stager's code of this picker (:mod:`synthia.core.emitter`); its
    #: first, from a claimed decision, made at once (:func:`_claimed_first`).
    _fast = _claimed_first
    #: The alternatives as pickers (a plain value among them as a ``Constant``, see :attr:`_pickers`);
    #: the pair given, for two of which one is a plain value not wrapped yet; ``None`` for a
    #: choice among immutable plain values, kept in :attr:`values`.
    _held: list[Picker[Any]] | tuple[Any, Any] | None
    _values: "_Shared | None"
    #: The decision; ``None`` while claimed and not drawn from, ``False`` once drawn from, and
    #: ``_slot`` the claim (:mod:`synthia.core.claims`).
    _decision: Any
    _slot: tuple[int, int]

    def __init__(
        self, *alternatives: Any, weights: Sequence[float] | None = None, decision: Picker[float] | None = None
    ) -> None:
        if not alternatives:
            raise ValueError("Choice needs at least one alternative, got none")
        count = len(alternatives)
        # (the loop of _alternatives, unrolled for two: a recursive wiring's "a leaf or a node")
        pickers = isinstance(alternatives[0], Picker) + isinstance(alternatives[1], Picker) if count == 2 else 0
        if pickers == 2:
            self._held, self._values = list(alternatives), None
        elif pickers == 1:  # (the plain value's Constant made only if read, see _pickers)
            self._held, self._values = alternatives, None
        else:
            self._alternatives(alternatives, count)
        if weights is None:  # uniform: the index is int(u * n), no running sums (a Bind builds many)
            self._weights: tuple[Any, ...] | None = None
            self._uniform = True
            self._cumulative: tuple[float, ...] | None = None
        else:  # (numbers: nothing changes inside them, copies share them)
            known = None
            if count == 2 and weights.__class__ is list and len(weights) == 2 and weights[0].__class__ is int and weights[1].__class__ is int:
                known = _PAIRS.get((weights[0], weights[1]))  # (two ints, one look-up: a Bind builds many; not 1.0, equal to 1 but shown as 1.0)
            if known is None:
                known = _two_weights(weights) if count == 2 else checked_weights(weights, count, _Shared)
            self._uniform, self._weights, self._cumulative = known
        self._count = count
        if decision is not None:
            self._decision = unit_input(decision, "decision")
            return
        # The default decision: inside a plain Bind's pick, the stream it would get claimed (claim(),
        # inlined: a Bind builds many) and the RandomFloat built only if read.
        deriving = DERIVING.get()
        if deriving is None or not deriving.light or ROUTE.get() is not None:
            self._decision = RandomFloat()
        else:
            index = deriving.count = deriving.count + 1
            self._decision, self._slot = None, (deriving.root, index)

    def _alternatives(self, alternatives: tuple[Any, ...], count: int) -> None:
        for a in alternatives:  # a picker among them: the alternatives as pickers
            if isinstance(a, Picker):
                self._held, self._values = [v if isinstance(v, Picker) else Constant(v) for v in alternatives], None
                return
        self._held = self._values = None
        if not _immutable(alternatives) or (count == 1 and isinstance(alternatives[0], AMBIGUOUS)):
            self._held = variadic_inputs(alternatives, "alternatives", "Choice")
        else:
            self._values = _Shared(alternatives)

    @property
    def decision(self) -> Picker[float]:
        """The picker of floats in ``[0, 1)`` that chooses (a default one claimed inside a ``Bind``'s
        pick, :mod:`synthia.core.claims`, is built at its first read, after its pick if made)."""
        decision = self._decision
        if decision is None or decision is False:
            decision = self._decision = claimed_unit(self._slot, decision is False)
        return decision  # type: ignore[no-any-return]

    @decision.setter
    def decision(self, value: Picker[float]) -> None:
        self._decision = value

    @property
    def _pickers(self) -> list[Picker[Any]] | None:
        # The alternatives as pickers: a pair given with a plain value (_held, a tuple) is
        # wrapped at the first read, once (a pick reads the tuple as it is, while nothing watches).
        held = self._held
        if held.__class__ is tuple:
            held = self._held = [v if isinstance(v, Picker) else Constant(v) for v in held]  # type: ignore[union-attr]
        return held  # type: ignore[return-value]

    @property
    def alternatives(self) -> list[Picker[Any]]:
        """The alternatives as pickers (a plain value as a ``Constant``: made on each read for
        a choice among plain values, which keeps them as :attr:`values`)."""
        pickers = self._pickers
        return [Constant(v) for v in self._values] if pickers is None else pickers  # type: ignore[union-attr]

    @property
    def values(self) -> tuple[Any, ...] | None:
        """The alternatives of a choice among immutable plain values (numbers, strings, ``None``,
        tuples of them...), which it keeps as data; ``None`` otherwise."""
        return self._values

    @property
    def weights(self) -> list[Any]:
        """The weights given (all ``1`` for a uniform choice)."""
        return [1] * self._count if self._weights is None else list(self._weights)

    def named_inputs(self) -> Iterator[tuple[str, Picker[Any]]]:
        pickers = self._pickers
        if pickers is not None:
            for i, alternative in enumerate(pickers):
                yield f"alternatives[{i}]", alternative
        yield "decision", self.decision

    def choose(self) -> int:
        """Draw the index of the next alternative (one decision pick)."""
        return self.index_of(self.decision.pick())

    def index_of(self, u: Any) -> int:
        """The index of the alternative the decision's value ``u`` chooses (``ValueError``
        out of ``[0, 1)``).

        >>> Choice("a", "b", "c", weights=[1, 0, 3]).index_of(0.3)
        2
        """
        try:
            valid = 0.0 <= u < 1.0
        except TypeError:
            valid = False
        if not valid:
            raise ValueError(f"decision must pick floats in [0, 1), got {describe(u)} from {self.decision!r}")
        if self._uniform:
            # Equal weights: the same index weighted_index gives, without the search.
            n = self._count
            i = int(u * n)
            return i if i < n else n - 1
        return weighted_index(float(u), self._cumulative)  # type: ignore[arg-type]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if cls._fast is _claimed_first and cls._pick is not Choice._pick:  # (_claimed_first makes Choice's first pick)
            cls._fast = lean_from_second_pick  # type: ignore[assignment]

    def _pick(self) -> T:
        if self._decision is None and not WATCHED:  # claimed, not built: drawn from the claim
            return _claimed_first(self)  # type: ignore[no-any-return]
        u = self.decision.pick()
        if u.__class__ is not float or not 0.0 <= u < 1.0:  # (a claimed decision's always is)
            i = self.index_of(u)
            return self._pickers[i].pick() if self._values is None else self._values[i]  # type: ignore[index]
        # index_of(u), inlined for a float of [0, 1) (and in _claimed_first)
        if self._uniform:
            n = self._count
            i = int(u * n)
            if i >= n:
                i = n - 1
        else:
            sums = self._cumulative
            if self._count == 2:  # weighted_index(u, sums), for two: the second unless u * total < sums[0] or its weight is 0
                i = 1 if u * sums[1] >= sums[0] and sums[1] != sums[0] else 0  # type: ignore[index]
            else:
                i = weighted_index(u, sums)  # type: ignore[arg-type]
        values = self._values
        if values is not None:
            return values[i]  # type: ignore[no-any-return]
        if WATCHED:
            return self._pickers[i].pick()  # type: ignore[index]
        # While nothing watches, a picker's pick is its _fast (core/picker.py, FAST_PICK): called
        # without the property's look-ups; a pair with a plain value, not wrapped, read as it is.
        chosen = self._held[i]  # type: ignore[index]
        return chosen._fast() if isinstance(chosen, Picker) else chosen  # type: ignore[no-any-return]

    def parse_draws(self, value: Any, parse: Parse) -> list[Any] | None:
        """The decision that chooses the first alternative able to make ``value``, then that
        alternative's draws (:mod:`synthia.core.parsing`)."""
        values, weights = self._values, self.weights
        for i in range(self._count):
            if not weights[i] > 0:
                continue
            if values is not None:
                if not same_value(values[i], value):
                    continue
                rest: list[Any] | None = []
            else:
                rest = parse(self._pickers[i], value)  # type: ignore[index]
                if rest is None:
                    continue
            head = parse(self.decision, self.decision_of(i))
            return None if head is None else head + rest  # type: ignore[operator]
        parse.fail(self, f"has no alternative that can make {value!r:.60}")
        return None

    def decision_of(self, index: int) -> float:
        """The simplest decision in ``[0, 1)`` that chooses alternative ``index``.

        >>> Choice("a", "b", "c").decision_of(2), Choice("a", "b", weights=[1, 3]).decision_of(1)
        (0.6666666666666666, 0.25)
        """
        if self._uniform:
            u = index / self._count
        else:
            sums = self._cumulative
            u = sums[index - 1] / sums[-1] if index else 0.0  # type: ignore[index]
        for _ in range(64):  # rounding may put the bound's float just below it
            if u >= 1.0 or self.index_of(u) >= index:
                break
            u = math.nextafter(u, 1.0)
        return min(u, math.nextafter(1.0, 0.0))

    def stage(self, e: Emitter, out: list[str], ind: str) -> str:
        """The stager's code of a pick: the decision drawn, then an ``if`` chain comparing it
        with the running sums (a tuple indexed beyond a dozen alternatives)."""
        e.staged += 1
        decision, n = self.decision, self._count
        values = self._values
        alternatives: list[Picker[Any]]
        if values is not None:
            alternatives = [_Value(self, i) for i in range(n)] if n <= UNROLL else []
        else:
            alternatives = self._pickers  # type: ignore[assignment]
        bounds = decision.value_range()
        if bounds is not None and bounds[0] >= 0.0 and bounds[1] <= 1.0:  # in [0, 1): compared as it is
            chosen = e.choose(self, decision, None if self._uniform else self._weights, n, out, ind)
            if n == 1:
                return _alternative(e, self, alternatives, 0, out, ind)
            if isinstance(chosen, tuple):
                test, indices = chosen[1], chosen[2]
                return e.branches(alternatives, indices, out, ind, test)
            i = chosen
        else:  # a decision of another range: its value checked and mapped as the pick does
            u = e.pick(decision, out, ind)
            i = e.var("i")
            index_of = e.bind("index_of", self.index_of, ("index_of", id(self)))
            out.append(f"{ind}{i} = {index_of}({u})  # Choice of {n}: its decision checked")
            if n == 1:
                return _alternative(e, self, alternatives, 0, out, ind)
        if values is not None and n > UNROLL:  # a long choice among values: a tuple indexed
            v = e.var("c")
            out.append(f"{ind}{v} = {e.bind('values', values)}[{i} if {i} < {n} else {n - 1}]")
            return v
        return e.branches(alternatives, list(range(n)), out, ind, lambda j: f"{i} == {j}", index=i)

    def take_array(self, n: int) -> Any:
        """The next ``n`` values as a numpy array, for a choice among plain numbers whose
        decision can batch (the default one can): the values of ``take(n)``, in one
        vectorised batch (see :meth:`~synthia.Picker.take_array`).

        >>> Choice(1, 2, 3, weights=[1, 2, 1]).set_seed(4).take_array(6).tolist()
        [2, 3, 2, 2, 2, 3]
        """
        import numpy as np

        values = self._values
        if values is None or not all(type(v) in (int, float, bool) for v in values):
            return super().take_array(n)
        if WATCHED:  # pick by pick, so the wrappers see each
            return np.array(self.take(n))
        try:
            units = self.decision.take_array(n)
        except TypeError:
            raise TypeError(f"Choice cannot batch: its decision {self.decision!r} cannot (take_array needs a RandomFloat or another batchable picker of floats)") from None
        if not ((units >= 0.0) & (units < 1.0)).all():
            bad = units[~((units >= 0.0) & (units < 1.0))][0]
            raise ValueError(f"decision must pick floats in [0, 1), got {describe(float(bad))} from {self.decision!r}")
        count = self._count
        if self._uniform:
            index = (units * count).astype(np.intp)
            np.minimum(index, count - 1, out=index)
        else:
            sums = self._cumulative
            index = np.searchsorted(np.array(sums), units * sums[-1], side="right")  # type: ignore[index, call-overload]
            np.minimum(index, count - 1, out=index)
            back = list(range(count))  # a zero weight is never chosen: back to the last positive one
            for i in range(1, count):
                if sums[i] == sums[i - 1]:  # type: ignore[index]
                    back[i] = back[i - 1]
            index = np.array(back)[index]
        return np.array(values)[index]

    def finite_values(self) -> tuple[Any, ...] | None:
        # Every alternative of positive weight is reachable only if the decision spans [0, 1).
        if self.decision.value_range() != (0.0, 1.0):
            return None
        weights = self._weights
        if self._values is not None:
            return self._values if weights is None else tuple(v for v, w in zip(self._values, weights) if w > 0)
        values: list[Any] = []
        for alternative, weight in zip(self._pickers, self.weights):  # type: ignore[arg-type]
            theirs = alternative.finite_values() if weight > 0 else ()
            if theirs is None:
                return None
            values.extend(theirs)
        return tuple(values)

    def value_range(self) -> tuple[Any, Any] | None:
        if self._values is not None:
            numbers = [v for v, w in zip(self._values, self.weights) if w > 0]
            if not all(type(v) in (int, float) for v in numbers) or any(v != v for v in numbers):
                return None
            ranges = [Constant(v).value_range() for v in (min(numbers), max(numbers))]
        else:
            ranges = [a.value_range() for a, w in zip(self._pickers, self.weights) if w > 0]  # type: ignore[arg-type]
        if any(r is None for r in ranges):
            return None
        return min(r[0] for r in ranges), max(r[1] for r in ranges)  # type: ignore[index]

    def arguments(self) -> tuple[list[Any], dict[str, Any]]:
        if self._values is not None:
            args: list[Any] = list(self._values)
        else:
            args = [a.value if type(a) is Constant else a for a in self._pickers]  # type: ignore[union-attr]
        kwargs: dict[str, Any] = {}
        if not self._uniform:
            kwargs["weights"] = self.weights
        if not (type(self.decision) is RandomFloat and self.decision.low == 0.0 and self.decision.high == 1.0):
            kwargs["decision"] = self.decision
        return args, kwargs


def _two_weights(weights: Any) -> tuple[bool, Any, Any]:
    """``checked_weights(weights, 2, _Shared)``, kept in :data:`_PAIRS` for a list of two ints."""
    known = checked_weights(weights, 2, _Shared)
    if weights.__class__ is list and len(_PAIRS) < 512 and weights[0].__class__ is int and weights[1].__class__ is int:
        _PAIRS[weights[0], weights[1]] = known
    return known


#: :func:`_two_weights`' outcomes per pair of int weights (a recursive wiring's "a leaf or a node").
_PAIRS: dict[tuple[int, int], tuple[bool, Any, Any]] = {}


class _Value(Picker[Any]):
    """Alternative ``index`` of a choice among values, as the stager writes it (a value, bound)."""

    pure = True

    def __init__(self, choice: Choice[Any], index: int) -> None:
        self.choice, self.index = choice, index

    def _pick(self) -> Any:
        return self.choice._values[self.index]  # type: ignore[index]

    def stage(self, e: Emitter, out: list[str], ind: str) -> str:
        e.staged += 1
        return e.bind("const", self._pick(), ("value", id(self.choice), self.index))


def _alternative(e: Emitter, choice: Choice[Any], alternatives: list[Picker[Any]], index: int, out: list[str], ind: str) -> str:
    if choice._values is not None:
        return _Value(choice, index).stage(e, out, ind)
    return e.pick(alternatives[index], out, ind)


def _first_of_three(apply: "Apply[Any]") -> Any:
    """Apply's fast code: :func:`~synthia.core.emitter.lean_from_second_pick`, whose first pick of
    three inputs and no keyword (a recursive wiring's node, picked once: a Bind builds many) is
    made here, as ``_pick`` makes it, without a second call."""
    if apply._picked == 0 and len(apply.args) == 3 and not apply.kwargs:
        apply._picked = 1
        a, b, c = apply.args  # (while nothing watches: what calls _fast; pick is _fast, see Choice._pick)
        return apply.fn(a.value if a.__class__ is Constant else a._fast(), b.value if b.__class__ is Constant else b._fast(), c.value if c.__class__ is Constant else c._fast())
    return lean_from_second_pick(apply)


#: Read by ``Picker.__init_subclass__``: a subclass that picks its own way holds no lean pick.
_first_of_three.needs_hook = True  # type: ignore[attr-defined]


class Apply(Picker[T]):
    """``fn(*picks, **named_picks)``: a value computed from one pick of each input.

    Inputs that are not pickers are passed as constants. This is how Python
    users compose: build a dataclass, a dict, a tuple from upstream pickers. ``fn``
    must accept the inputs given (checked against its signature at construction).

    >>> from synthia import RandomInteger
    >>> Apply(lambda a, b: a + b, RandomInteger(0, 10, seed=1), 100).take(3)
    [104, 106, 104]
    >>> Apply(dict, x=RandomInteger(0, 5, seed=2), y="fixed").pick()
    {'x': 1, 'y': 'fixed'}
    """

    inputs_fields = ("args", "kwargs")
    #: From its second pick, the stager's code of this picker (:mod:`synthia.core.emitter`); its
    #: first, for a node of three inputs, made at once (:func:`_first_of_three`).
    _fast = _first_of_three
    #: The inputs' values that make a value (``inverse(value)``), for parsing: see :meth:`parse_draws`.
    inverse: Callable[[Any], Any] | None = None

    def __init__(self, fn: Callable[..., T], /, *args: Any, inverse: Callable[[Any], Any] | None = None, **kwargs: Any) -> None:
        if kwargs or not accepted(fn, len(args)):
            self._inputs(fn, args, kwargs)
        else:  # _inputs, inlined for a function already checked (one a Bind calls at every pick)
            self.fn = fn
            if len(args) == 3:  # (the comprehension, unrolled: a recursive wiring's node, two sub-trees and a key)
                a, b, c = args
                self.args = [a if isinstance(a, Picker) else Constant(a), b if isinstance(b, Picker) else Constant(b), c if isinstance(c, Picker) else Constant(c)]
            else:
                self.args = [a if isinstance(a, Picker) else Constant(a) for a in args]
            self.kwargs: dict[str, Picker[Any]] = {}
        if inverse is not None:
            self.inverse = check_callable(inverse, "inverse", arguments=1)

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if cls._fast is _first_of_three and cls._pick is not Apply._pick:  # (_first_of_three makes Apply's first pick)
            cls._fast = lean_from_second_pick  # type: ignore[assignment]

    def _inputs(self, fn: Callable[..., T], args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
        if kwargs or not accepted(fn, len(args)):
            fn = check_callable(fn, "fn", arguments=len(args), keywords=kwargs, source="the args and kwargs given to Apply")
        self.fn = fn
        # (value_input, inlined: a value input is never refused, and a Bind builds many)
        self.args = [a if isinstance(a, Picker) else Constant(a) for a in args]
        self.kwargs = {k: v if isinstance(v, Picker) else Constant(v) for k, v in kwargs.items()} if kwargs else {}

    def parse_draws(self, value: Any, parse: Parse) -> list[Any] | None:
        """With an ``inverse``, the draws of the inputs' values it gives for ``value``: a tuple of
        the positional inputs' values, a dict of the keyword inputs' values, or a pair
        ``(tuple, dict)`` when ``Apply`` has both (the parse is checked by a replay, so an
        inverse that is wrong only makes the parse fail).

        >>> from synthia import RandomInteger
        >>> from synthia.core.parsing import parse
        >>> parse(Apply(str, RandomInteger(0, 100), inverse=lambda s: (int(s),)), "42").values()
        [42]
        """
        inverse = self.inverse
        if inverse is None and not self.args and not self.kwargs:  # no input: its one value
            return [] if same_value(self.fn(), value) else None
        if inverse is None and self.fn in _CONTAINERS and len(self.args) == 1 and not self.kwargs:
            if type(value) is not self.fn:
                return None
            inverse = _CONTAINERS[self.fn]  # tuple(xs), frozenset(xs): the items, as a list
        if inverse is None:
            parse.fail(self, "has no inverse (give Apply(..., inverse=...) to parse its values)")
            return None
        inputs = inverse(value)
        if self.args and self.kwargs:
            positional, named = inputs
        elif self.kwargs:
            positional, named = (), inputs
        else:
            positional, named = inputs, {}
        return self._parse_inputs(tuple(positional), dict(named), parse)

    def _parse_inputs(self, positional: tuple[Any, ...], named: dict[str, Any], parse: Parse) -> list[Any] | None:
        if len(positional) != len(self.args) or set(named) != set(self.kwargs):
            return None
        draws: list[Any] = []
        pairs = list(zip(self.args, positional)) + [(p, named[k]) for k, p in self.kwargs.items()]
        for picker, part in pairs:
            theirs = parse(picker, part)
            if theirs is None:
                return None
            draws += theirs
        return draws

    def _pick(self) -> T:
        if WATCHED:
            args = [a.pick() for a in self.args]
        elif len(self.args) == 3 and not self.kwargs:  # (below, unrolled: a recursive wiring's node; pick is _fast, see Choice._pick)
            a, b, c = self.args
            return self.fn(a.value if a.__class__ is Constant else a._fast(), b.value if b.__class__ is Constant else b._fast(), c.value if c.__class__ is Constant else c._fast())
        else:  # (while nothing watches picks, a constant's value is read as it is: a Bind builds many)
            args = [a.value if a.__class__ is Constant else a._fast() for a in self.args]
        if self.kwargs:
            return self.fn(*args, **{k: v.pick() for k, v in self.kwargs.items()})
        return self.fn(*args)

    def stage(self, e: Emitter, out: list[str], ind: str) -> str:
        """The stager's code of a pick: the inputs picked in order, then a direct call of
        ``fn`` (keywords naming the next positional parameters passed by position)."""
        e.staged += 1
        args = [e.pick(a, out, ind) for a in self.args]
        order = positional_order(self.fn, len(args), list(self.kwargs)) if self.kwargs else None
        if order is not None:  # keywords naming the next positional parameters: passed by position
            picked = [e.pick(p, out, ind) for p in self.kwargs.values()]
            slots = [""] * len(picked)
            for i, slot in enumerate(order):
                slots[slot] = picked[i]
            fn = e.bind("fn", self.fn, ("fn", id(self)))
            v = e.var("a")
            out.append(f"{ind}{v} = {fn}({', '.join(args + slots)})  # Apply")
            return v
        keywords = [(e.bind("key", k), e.pick(p, out, ind)) for k, p in self.kwargs.items()]
        v = e.var("a")
        if self.fn is dict and not args:
            out.append(f"{ind}{v} = {{{', '.join(f'{k}: {x}' for k, x in keywords)}}}  # Apply(dict, ...)")
            return v
        fn = e.bind("fn", self.fn, ("fn", id(self)))
        parts = list(args)
        if keywords:
            parts.append("**{" + ", ".join(f"{k}: {x}" for k, x in keywords) + "}")
        out.append(f"{ind}{v} = {fn}({', '.join(parts)})  # Apply")
        return v

    def arguments(self) -> tuple[list[Any], dict[str, Any]]:
        def plain(p: Picker[Any]) -> Any:
            return p.value if type(p) is Constant else p

        kwargs = {k: plain(v) for k, v in self.kwargs.items()}
        if self.inverse is not None:
            kwargs["inverse"] = self.inverse
        return [self.fn] + [plain(a) for a in self.args], kwargs


def _items(value: Any) -> tuple[list[Any]]:
    return (in_order(value),)  # (never the hash order: it changes from one process to the next)


#: Containers built from one list whose items ``Apply`` parses without an ``inverse``.
_CONTAINERS: dict[Any, Callable[[Any], Any]] = {tuple: lambda v: (list(v),), frozenset: _items, set: _items}
