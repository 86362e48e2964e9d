"""The picker contract: the base class and the traits a picker can have.

A subclass of :class:`Picker` says two things and nothing more:

* its **inputs**: the names of the attributes that hold upstream pickers, in
  the class attribute ``inputs_fields`` (an attribute may hold a picker, or a
  list, tuple or dict of pickers);
* its **own state**: :meth:`Picker._reset_self` puts back the state that belongs
  to this picker alone (a counter, a frozen value), never its inputs'.

Everything else is generic. :meth:`Picker.reset` and :meth:`Picker.set_seed`
walk the upstream graph once (:func:`synthia.core.graph.upstream`) and ask
each picker to reset or reseed itself. :meth:`Picker.duplicate` is a
:func:`copy.deepcopy`, whose memo keeps a shared input shared (a diamond copies
into a diamond) and survives cycles; functions such as predicates are kept by
reference.
"""
from __future__ import annotations

import copy
import threading
from typing import Any, Callable, ClassVar, Generic, Iterator, TypeVar

from .exceptions import NoMoreElements
from .graph import upstream
from .routing import _ROUTE, RoutedStream, current_route
from .instrument import hold
from .random import _DERIVING, MixStream, Stream, check_seed, mix64, derive_seed, fresh_seed, stream_seed

__all__ = [
    "Picker",
    "Bounded",
    "Shrinkable",
    "Seedable",
    "Reactive",
    "Resettable",
    "RandomPicker",
    "restart",
    "UNSET",
]

T = TypeVar("T")
P = TypeVar("P", bound="Picker[Any]")

class _Unset:
    """The marker of a value not drawn yet; it survives copying as itself."""

    _instance: "_Unset | None" = None

    def __new__(cls) -> "_Unset":
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __copy__(self) -> "_Unset":
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> "_Unset":
        return self

    def __reduce__(self) -> str:
        return "UNSET"

    def __repr__(self) -> str:
        return "UNSET"


#: Marks state not drawn yet (a Freeze before its first pick); ``is UNSET`` holds in copies too.
UNSET: Any = _Unset()

#: Instance attributes that belong to an instrumentation session, never to a copy.
TRANSIENT_FIELDS = frozenset({"pick", "_draw", "_reset_self", "_provenance_log", "_built"})

_repr_guard = threading.local()


class Resettable:
    """Anything with a ``reset()`` that restores its initial state (a picker, a system under test)."""

    def reset(self) -> None:  # pragma: no cover - interface
        raise NotImplementedError


class Picker(Resettable, Generic[T]):
    """A small stateful source of values, wired to other pickers.

    >>> from synthia import ComposeList, RandomInteger
    >>> lists = ComposeList(RandomInteger(0, 10), length=3).set_seed(1)
    >>> first = lists.take(2)
    >>> lists.reset(); lists.take(2) == first
    True
    >>> lists
    ComposeList(RandomInteger(0, 10), length=3)
    """

    #: Names of the attributes holding this picker's inputs (pickers, or containers of them).
    inputs_fields: ClassVar[tuple[str, ...]] = ()
    #: Whether a pick opens spans for parts of its value (:func:`~synthia.core.draws.open_span`:
    #: a grammar's derivations, a Hypothesis strategy's draws), which a harness may copy over
    #: one another even when this picker is the only one.
    opens_parts: ClassVar[bool] = False

    # -- the contract ---------------------------------------------------------------
    def pick(self) -> T:
        """Return the next value; raise :class:`NoMoreElements` when there is none."""
        raise NotImplementedError(f"{type(self).__name__} does not implement pick()")

    def _reset_self(self) -> None:
        """Restore this picker's own initial state (not its inputs'). Default: stateless."""

    def named_inputs(self) -> Iterator[tuple[str, "Picker[Any]"]]:
        """Yield ``(name, picker)`` for each input, in declaration order.

        A field holding a list gives ``field[i]`` names, a dict ``field[key]`` names.
        """
        for field in type(self).inputs_fields:
            value = getattr(self, field)
            if isinstance(value, Picker):
                yield field, value
            elif isinstance(value, (list, tuple)):
                for i, item in enumerate(value):
                    if isinstance(item, Picker):
                        yield f"{field}[{i}]", item
            elif isinstance(value, dict):
                for k, item in value.items():
                    if isinstance(item, Picker):
                        yield f"{field}[{k}]", item

    def finite_values(self) -> tuple[Any, ...] | None:
        """Every value this picker can give, simplest first, when they are a known finite set;
        ``None`` (the default) means unknown or not finite.

        The Hypothesis bridge draws such a picker as ``st.sampled_from(values)``, so that
        Hypothesis sees the domain end and stops when it has tried every value.

        >>> from synthia import Choice, RandomInteger
        >>> Choice("a", "b", weights=[1, 3]).finite_values()
        ('a', 'b')
        >>> print(Choice("a", RandomInteger(0, 10**6)).finite_values())
        None
        """
        return None

    def value_range(self) -> tuple[Any, Any] | None:
        """Bounds ``(low, high)`` of the numbers this picker gives, when known: every value
        ``v`` has ``low <= v < high``, and values come as close as a pick can to both ends.

        ``None`` (the default) means unknown. Constructors use it to refuse at once an
        input that could only give wrong values (a decision picker of ints in ``[5, 10)``
        where floats in ``[0, 1)`` are needed, a length picker that gives negative ints).

        >>> from synthia import RandomInteger
        >>> RandomInteger(5, 10).value_range()
        (5, 10)
        """
        return None

    @property
    def inputs(self) -> list["Picker[Any]"]:
        """The upstream pickers this picker draws from, in declaration order."""
        return [p for _, p in self.named_inputs()]

    def reset(self) -> None:
        """Put this picker and everything upstream back in the initial state.

        The values picked after ``reset()`` are exactly those picked after construction
        (or after the last :meth:`set_seed`).
        """
        for _, node in upstream(self):
            node._reset_self()

    def duplicate(self: P, with_state: bool = False) -> P:
        """An independent copy of this picker and its whole upstream wiring.

        With ``with_state=False`` the copy starts from the initial state; with ``True``
        it continues exactly where this picker is. Pickers shared inside the wiring stay
        shared inside the copy; nothing is shared between the copy and the original.
        """
        twin = copy.deepcopy(self)
        if not with_state:
            twin.reset()
        return twin

    def set_seed(self: P, seed: int) -> P:
        """Reseed every random source upstream from ``seed``, reset the wiring, return ``self``.

        Each random picker gets the seed :func:`~synthia.core.random.derive_seed` gives
        for its key (the input names leading to it), so the same seed on the same wiring
        gives the same values on every machine.
        """
        check_seed(seed)
        for key, node in upstream(self):
            if isinstance(node, Seedable):
                node._seed_self(derive_seed(seed, key))
            node._reset_self()
        self._seed = seed
        return self

    @property
    def seed(self) -> int | None:
        """The seed last given to :meth:`set_seed` (or drawn at construction for random pickers)."""
        return getattr(self, "_seed", None)  # not __dict__: see core.instrument.instance_pick

    # -- conveniences ---------------------------------------------------------------
    def take(self, n: int) -> list[T]:
        """The next ``n`` values as a list (fewer if a bounded picker runs out first).

        >>> from synthia import Playback
        >>> Playback([1, 2, 3], loop=False).take(5)
        [1, 2, 3]
        """
        if isinstance(n, bool) or not isinstance(n, int) or n < 0:
            raise ValueError(f"n must be a non-negative int, got {n!r}")
        out: list[T] = []
        try:
            for _ in range(min(n, 2)):  # a Choice or an Apply holds its lean pick from its second
                out.append(self.pick())  # (core.instrument.lean_pick): read it after that
            pick = self.pick
            for _ in range(n - 2):
                out.append(pick())
        except NoMoreElements:
            pass
        return out

    def take_array(self, n: int) -> Any:
        """The next ``n`` values as a numpy array, drawn in one vectorised batch.

        Only flat numeric pickers can batch: :class:`~synthia.RandomInteger`,
        :class:`~synthia.RandomFloat`, :class:`~synthia.RandomBoolean`,
        :class:`~synthia.GaussianFloat`, a :class:`~synthia.Choice` among plain numbers,
        and a compiled picker of one of these. They give **the same values as**
        ``take(n)`` (the same draws of the same stream, mapped the same way; a
        ``GaussianFloat`` may differ in the last bit, because numpy's ``log``, ``sin`` and
        ``cos`` may round differently from the C library's) and leave the picker where
        ``take(n)`` would. Anything else raises ``TypeError`` (use ``numpy.array(p.take(n))``).

        >>> from synthia import Apply, RandomInteger
        >>> p = RandomInteger(0, 100, seed=3)
        >>> p.take_array(5).tolist() == RandomInteger(0, 100, seed=3).take(5)
        True
        >>> Apply(abs, p).take_array(5)
        Traceback (most recent call last):
        ...
        TypeError: Apply cannot batch: take_array works on RandomInteger, RandomFloat, RandomBoolean, GaussianFloat and a Choice of numbers (numpy.array(p.take(n)) works for any wiring)
        """
        raise TypeError(
            f"{type(self).__name__} cannot batch: take_array works on RandomInteger, RandomFloat, RandomBoolean, "
            "GaussianFloat and a Choice of numbers (numpy.array(p.take(n)) works for any wiring)"
        )

    def __iter__(self) -> Iterator[T]:
        return self

    def __next__(self) -> T:
        try:
            return self.pick()
        except NoMoreElements:
            raise StopIteration from None

    # -- copying and printing ---------------------------------------------------------
    def __deepcopy__(self, memo: dict[int, Any]) -> "Picker[T]":
        cls = type(self)
        twin = cls.__new__(cls)
        memo[id(self)] = twin
        state = {k: v for k, v in self.__dict__.items() if k not in TRANSIENT_FIELDS}
        twin.__dict__.update(copy.deepcopy(state, memo))
        if isinstance(twin, Seedable) and "_stream" in twin.__dict__:
            twin._bind()  # a cached draw of the original's stream must not be kept
        return twin

    def __getstate__(self) -> dict[str, Any]:
        # Pickling (Dask ships wirings to workers) leaves out what belongs to a session or is
        # rebuilt from the rest: wrappers, held samplers and lean picks (local functions).
        return {k: v for k, v in self.__dict__.items() if k not in TRANSIENT_FIELDS}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        if isinstance(self, Seedable) and "_stream" in state:
            self._bind()

    def arguments(self) -> tuple[list[Any], dict[str, Any]]:
        """The positional and keyword arguments that build this picker again: what ``repr``
        shows, ``Name(*args, **kwargs)``. The default is the inputs (``inputs_fields``); a
        picker whose constructor takes more (a range, a probability, an alphabet) overrides
        it, and leaves out arguments at their default.

        It also decides which pickers are **of one kind**: two pickers of one class with the
        same ``repr`` make the same values from the same draws, so the shrinker may swap their
        parts and a harness may copy one's part over the other's
        (:func:`~synthia.core.graph.kinds_of`). Arguments that change the values must show.

        >>> from synthia import RandomInteger, RandomBoolean
        >>> RandomInteger(0, 10).arguments(), RandomBoolean(0.5).arguments()
        (([0, 10], {}), ([], {}))
        """
        return [getattr(self, f) for f in type(self).inputs_fields], {}

    def __repr__(self) -> str:
        active = _repr_guard.__dict__.setdefault("active", set())
        if id(self) in active:
            return f"{type(self).__name__}(...)"
        active.add(id(self))
        try:
            args, kwargs = self.arguments()
            parts = [_show(a) for a in args] + [f"{k}={_show(v)}" for k, v in kwargs.items()]
            return f"{type(self).__name__}({', '.join(parts)})"
        finally:
            active.discard(id(self))


def _show(value: Any) -> str:
    from .constant import Constant

    if type(value) is Constant:
        # Inside a wiring a constant reads as the plain value the user typed.
        return repr(value.value)
    if callable(value) and not isinstance(value, Picker):
        name = getattr(value, "__name__", None)
        if name:
            return name
    return repr(value)


class Bounded(Picker[T]):
    """A picker whose stream can end: :meth:`is_done` tells whether it is exhausted."""

    def is_done(self) -> bool:  # pragma: no cover - interface
        """True when the next :meth:`pick` would raise :class:`NoMoreElements`."""
        raise NotImplementedError

    def ends(self) -> bool:
        """Whether the stream ends after finitely many values (from its initial state).

        ``True`` by default; a bounded picker that can loop says ``False`` when it does
        (``Playback(values)`` loops by default), and so do wirings over such pickers.
        Inputs that are drained to their end (``Scramble`` without a count,
        ``AllPickers``) must end.

        >>> from synthia import Playback
        >>> Playback([1, 2]).ends(), Playback([1, 2], loop=False).ends()
        (False, True)
        """
        return True


class Shrinkable(Picker[T]):
    """A picker that can propose values smaller than one it produced (the original library's
    interface): ``shrink(value, decision=None, magnitude=1.0)`` returns a **new** picker of
    this picker's values simpler than ``value`` (by :func:`~synthia.core.shrinking.simplicity`),
    or :class:`~synthia.Nothing` when none is. One mechanism serves every picker: the values
    are made from this picker's own draws, lowered (:class:`~synthia.core.shrinking.Smaller`).
    ``decision`` (a picker of floats in ``[0, 1)``) seeds the shrink, so the same decision
    seed gives the same shrink; ``magnitude`` in ``(0, 1]`` asks for a wide search (1) or much
    simpler values (towards 0). The harnesses do not use it: they shrink recorded draws.

    >>> from synthia import RandomInteger
    >>> RandomInteger(-50, 50).shrink(-20).take(5)
    [4, -5, -4, -12, 0]
    """

    def shrink(self, value: T, decision: "Picker[float] | None" = None, magnitude: float = 1.0) -> "Picker[T]":
        from .shrinking import smaller

        return smaller(self, value, decision, magnitude)


class Seedable(Picker[T]):
    """A picker that owns a random :class:`~synthia.core.random.Stream`.

    It takes its randomness only through the stream's typed draws (``below``,
    ``integer``, ``unit``, ``floating``, ``boolean``, ``weighted``), so that a recorder, a
    replayer or another source can stand behind them (:mod:`synthia.core.draws`).
    """

    _stream: Stream
    #: Whether this picker takes a light stream even in a wiring a ``Bind`` keeps (it draws
    #: little: a ``Bind`` draws only the roots of the streams of the pickers it builds).
    _light_stream: ClassVar[bool] = False
    #: The pick a picker holds (see :meth:`sampler`).
    _draw: Callable[[], Any]

    def _init_stream(self, seed: int | None) -> None:
        """Create the stream; a picker built without a seed draws a fresh one.

        A picker created while a wiring is routed (inside a pick) joins the route. One built
        without a seed inside a ``Bind``'s pick gets a light stream
        (:class:`~synthia.core.random.MixStream`, see
        :class:`~synthia.core.random.derived_seeds`): nothing to hash or seed.
        """
        if seed is None:
            deriving = _DERIVING.get()
            if deriving is not None and deriving.light is not None:
                count = deriving.count = deriving.count + 1
                if deriving.light or self._light_stream:
                    stream: Any = MixStream(None, deriving.root, count)  # deriving.next_stream(), inlined
                    self._seed = self._stream_seed = None  # type: ignore[assignment] # the stream's key (see the seed property)
                else:  # a wiring a Bind keeps: a Mersenne Twister, seeded once, drawn from often
                    key = self._seed = self._stream_seed = mix64(deriving.root + count * 0x9E3779B97F4A7C15)
                    stream = Stream(key)
                route = _ROUTE.get()  # current_route(), inlined: a Bind builds many pickers a pick
                self._stream = stream if route is None else RoutedStream(stream, route)  # type: ignore[assignment]
                if _holds_its_sampler(type(self)):
                    # _bind() and hold(), inlined for a picker being built (nothing wraps it yet).
                    fast = self.sampler()
                    if fast is not None:
                        if _sampler_is_the_pick(type(self)):
                            self.pick = fast  # type: ignore[method-assign]
                        self._draw = fast
                else:
                    self._bind()
                return
        self._seed = fresh_seed() if seed is None else check_seed(seed)
        self._stream_seed = stream_seed(self._seed)
        self._stream = Stream(self._stream_seed)
        route = current_route()
        if route is not None:
            self._stream = RoutedStream(self._stream, route)  # type: ignore[assignment]
        self._bind()

    def sampler(self) -> Callable[[], T] | None:
        """The one hook a random picker may define for speed: its whole pick as one callable
        on :attr:`stream` -- a typed draw with its arguments bound
        (``self.stream.integer_sampler(low, high)``, ``floating_sampler``, ``boolean_sampler``)
        or a closure over them -- or ``None`` (the default: the class's ``pick`` runs).

        The core calls it whenever the stream is replaced (construction, copy, routing,
        reseeding; call ``self._bind()`` after changing an argument, as ``tell`` does) and
        holds what it returns as the picker's pick while nothing wraps it, so a pick is one
        call. A picker that defines ``sampler`` and no ``pick`` gets this class's ``pick``,
        which calls the held sampler: the reference path a wrapper (spans, provenance)
        wraps. A subclass that defines its own ``pick`` keeps it.

        >>> import synthia as sy
        >>> class Die(sy.RandomPicker[int]):
        ...     def __init__(self, *, seed=None):
        ...         self._init_stream(seed)
        ...     def sampler(self):
        ...         return self.stream.integer_sampler(1, 7)
        >>> Die(seed=1).take(4)
        [3, 4, 3, 5]
        """
        return None

    def pick(self) -> T:
        """One value: the sampler the picker holds (see :meth:`sampler`)."""
        draw = getattr(self, "_draw", None)
        if draw is None:
            raise NotImplementedError(f"{type(self).__name__} must define pick() or sampler()")
        return draw()  # type: ignore[no-any-return]

    def _bind(self) -> None:
        # The stream was replaced: hold the picker's sampler on it (see sampler()).
        fast = self.sampler()
        if fast is not None:
            hold(self, fast, shortcut=_sampler_is_the_pick(type(self)))

    @property
    def stream(self) -> Stream:
        """The stream this picker draws from now (read-only): its own seeded
        :class:`~synthia.core.random.Stream`, or, while the wiring is routed, the
        :class:`~synthia.core.draws.RoutedStream` in front of it.

        >>> from synthia import RandomInteger
        >>> RandomInteger(0, 10, seed=1).stream.getrandbits(4) in range(16)
        True
        """
        return self._stream

    def _batch_stream(self, n: Any) -> Stream | None:
        """For ``take_array(n)``: the stream to draw a batch from, or ``None`` when the picks
        must go one by one (the wiring is routed, so its draws are recorded or replayed, or
        this picker's picks are intercepted). Checks ``n``."""
        if isinstance(n, bool) or not isinstance(n, int) or n < 0:
            raise ValueError(f"n must be a non-negative int, got {n!r}")
        state = self.__dict__
        if type(state["_stream"]) is not Stream or ("pick" in state and state["pick"] is not state.get("_draw")):
            return None
        return self._stream

    def _seed_self(self, seed: int) -> None:
        self._seed = seed
        self._stream_seed = stream_seed(seed)
        current: Any = self._stream
        inner = current
        while isinstance(inner, RoutedStream):
            inner = inner.inner
        if type(inner) is MixStream:
            # Built inside a Bind's pick: a seed of its own gives it a Mersenne Twister, as
            # a picker built with that seed has (behind the routes it is on, if any).
            own = Stream(self._stream_seed)
            if isinstance(current, RoutedStream):
                while isinstance(current.inner, RoutedStream):
                    current = current.inner
                current.inner = own
            else:
                self._stream = own
            self._bind()
        else:
            self._stream.seed(self._stream_seed)

    def _reset_self(self) -> None:
        self._stream.seed(self._stream_seed)

    @property
    def seed(self) -> int:
        """The seed of this picker's stream: ``type(p)(...).set_seed(p.seed)`` replays ``p``. For a
        picker a ``Bind`` built while picking, the key of its light stream
        (:class:`~synthia.core.random.MixStream`), which that stream replays from."""
        seed = self._seed
        if seed is None:
            stream = self._stream
            while isinstance(stream, RoutedStream):
                stream = stream.inner
            seed = stream.key  # type: ignore[attr-defined]
        return seed


_SAMPLER_IS_THE_PICK: dict[type, bool] = {}
_HOLDS_ITS_SAMPLER: dict[type, bool] = {}


def _holds_its_sampler(cls: type) -> bool:
    """Whether ``cls``'s ``_bind`` is the one that holds its sampler (not one of its own, as a
    ``Bind``'s): a picker of ``cls`` being built may then hold its sampler directly."""
    known = _HOLDS_ITS_SAMPLER.get(cls)
    if known is None:
        known = _HOLDS_ITS_SAMPLER[cls] = cls._bind is Seedable._bind  # type: ignore[attr-defined]
    return known


def _sampler_is_the_pick(cls: type) -> bool:
    """Whether a picker of ``cls`` may hold its sampler as its instance ``pick``: ``sampler`` is
    defined where ``pick`` is or below (a subclass that overrides ``pick`` keeps its own)."""
    known = _SAMPLER_IS_THE_PICK.get(cls)
    if known is None:
        pick_owner = next(c for c in cls.__mro__ if "pick" in c.__dict__)
        sampler_owner = next(c for c in cls.__mro__ if "sampler" in c.__dict__)
        known = _SAMPLER_IS_THE_PICK[cls] = issubclass(sampler_owner, pick_owner)
    return known


class RandomPicker(Seedable[T]):
    """Base of the pickers whose values come straight from their own stream."""


class Reactive(Picker[T]):
    """A picker that takes outside information through ``tell(x)`` (a bound, a probability)."""

    def tell(self, value: Any) -> None:  # pragma: no cover - interface
        raise NotImplementedError


def restart(root: Picker[Any]) -> None:
    """Reset the state of ``root`` and of everything upstream, except random sources, whose
    streams go on: the next round of a repeating process (a behaviour tree run again) makes
    new choices instead of replaying the last round.

    >>> from synthia import Freeze, RandomInteger
    >>> frozen = Freeze(RandomInteger(0, 10**6, seed=1))
    >>> first = frozen.pick(); restart(frozen)
    >>> frozen.pick() != first
    True
    """
    for _, node in upstream(root):
        if not isinstance(node, Seedable):
            node._reset_self()
