"""The picker contract: the base class and the traits a picker can have.

A subclass of :class:`Picker` says three things and nothing more:

* its **inputs**: the names of the attributes that hold upstream pickers, in
  the class attribute ``inputs_fields`` (an attribute may hold a picker, or a
  list, tuple or dict of pickers);
* its **pick**: :meth:`Picker._pick` makes one value (picking its inputs through their
  ``pick()``); a random leaf whose pick is one typed draw describes that draw instead
  (``draw_spec()``, :mod:`synthia.core.leaves`) and needs no ``_pick``;
* its **own state**: :meth:`Picker._reset_self` puts back the state that belongs
  to this picker alone (a counter, a frozen value), never its inputs'.

:meth:`Picker.pick` is final: it checks one variable (the registry of watched picks,
:data:`synthia.core.instrument.WATCHED`) and runs the class's ``_pick()``, or the fast code
the picker holds for it (a leaf's sampler, the stager's code of the picker, see
:mod:`synthia.core.emitter`). Spans, provenance and timing watch the call from outside,
through that registry; routing changes the stream a picker draws from
(:mod:`synthia.core.routing`). A class that defines ``pick`` itself (the original library's
form) keeps working: at class creation its ``pick`` becomes its ``_pick``.

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
from operator import attrgetter
from typing import Any, Callable, ClassVar, Generic, Iterator, TypeVar

from .exceptions import NoMoreElements
from .graph import upstream
from .instrument import RESETS, WATCHED, on_watching
from .leaves import DrawSpec, batch, draw_once, finite_draws, sampler
from .overrides import adopt_pick
from .random import DERIVING, ROUTE, MixStream, Stream, check_seed, derive_seed, fresh_seed, mix64, stream_seed
from .tapes import BOOLEAN, FLOAT, INTEGER, WEIGHTED

__all__ = [
    "Picker",
    "Bounded",
    "Seedable",
    "Reactive",
    "Resettable",
    "RandomPicker",
    "restart",
    "described",
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

#: Instance attributes that a copy (and a pickle) leaves out: fast code made for this object
#: and its streams (rebuilt at the copy's next pick), logs of a recording.
TRANSIENT_FIELDS = frozenset({"_fast", "_picked", "_provenance_log", "_built", "_made"})

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
    #: Whether a pick opens spans for parts of its value (a grammar's derivations: a harness
    #: may copy them over one another even when this picker is the only one).
    opens_parts: ClassVar[bool] = False
    #: Whether one pick's draws spell one string, bytes or float, one choice in the shrinker's
    #: order (:meth:`~synthia.core.tapes.Tape.key`); its value must be a function of its draws.
    atomic: ClassVar[bool] = False
    #: The fast code of this picker's pick, what a pick runs while nothing is watched: held by
    #: the picker (a leaf's sampler, the stager's code of the picker: copies drop it and the
    #: picker makes it again; never an observer's), else its class's (the class's ``_pick``,
    #: or what makes the held code at the first pick).
    _fast: Callable[[], Any]
    #: How far a picker making its fast code as it picks has got (0 before its first pick).
    _picked: int = 0
    #: The stager's hook of a composite, ``stage(emitter, out, ind) -> name``: it appends the
    #: code of one pick to ``out`` and returns the name of the value (:mod:`synthia.core.emitter`).
    #: ``None``: the stager writes the described draw of a leaf, or calls the picker as it is.
    stage: ClassVar[Any] = None
    #: Whether a pick neither draws nor changes any state (a ``Constant``): the stager may
    #: write it anywhere, even inside another picker's lean pick.
    pure: ClassVar[bool] = False
    #: Whether the class's ``stage`` hook writes its pick (the hook is defined at or below the
    #: class's ``_pick``: a subclass with a pick of its own is called as it is).
    _stages: ClassVar[bool] = False
    #: Whether a picker of the class may hold fast code of its own (else its fast code is its
    #: class's ``_pick``, which generated code then calls directly).
    _holds: ClassVar[bool] = False

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        own = cls.__dict__.get("pick")
        if own is not None:
            adopt_pick(cls, own)
        pick_owner = next(c for c in cls.__mro__ if "_pick" in c.__dict__)
        stage_owner = next(c for c in cls.__mro__ if "stage" in c.__dict__)
        cls._stages = stage_owner.__dict__["stage"] is not None and issubclass(stage_owner, pick_owner)
        explicit = "_fast" in cls.__dict__
        if getattr(cls.__dict__["_fast"] if explicit else getattr(cls, "_fast", None), "needs_hook", False):
            if not cls._stages:  # a lean pick is the hook's code: a class with a pick of its own runs it
                cls._fast = cls._pick  # type: ignore[assignment]
        elif not explicit:
            cls._fast = cls._pick  # type: ignore[assignment]
        if "_holds" not in cls.__dict__:
            cls._holds = cls._fast is not cls._pick  # (a held sampler or lean pick made at its first picks)

    # -- the contract ---------------------------------------------------------------
    def pick(self) -> T:
        """Return the next value; raise :class:`NoMoreElements` when there is none.

        Final: a picker class defines :meth:`_pick` (or describes its draw) and never ``pick``.
        While picks are watched (:mod:`synthia.core.instrument`), this method checks the
        registry and runs the wrappers watching the picker around its class's ``_pick``,
        or, for an unwatched picker, its class's ``_pick`` (so that the picks of its inputs
        are seen). While nothing is watched, ``pick`` is the picker's fast code itself (see
        :data:`FAST_PICK`): a pick pays for no check.
        """
        watched = WATCHED.get(id(self))
        if watched is not None:
            return watched()  # type: ignore[no-any-return]
        return self._pick() if WATCHED else self._fast()  # type: ignore[no-any-return]

    def _pick(self) -> T:
        """The value of one pick, from the inputs' picks (the reference path)."""
        raise NotImplementedError(f"{type(self).__name__} does not implement _pick()")

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
        if RESETS:
            for _, node in upstream(self):
                RESETS.get(id(node), node._reset_self)()
            return
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
            RESETS.get(id(node), node._reset_self)() if RESETS else node._reset_self()
        self._seed = seed
        return self

    @property
    def seed(self) -> int | None:
        """The seed last given to :meth:`set_seed` (or drawn at construction for random pickers)."""
        return getattr(self, "_seed", None)

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
            for _ in range(min(n, 2)):  # a picker makes its fast code at its first or second pick:
                out.append(self.pick())  # read its pick after that
            pick = self.pick
            for _ in range(n - 2):
                out.append(pick())
        except NoMoreElements:
            pass
        return out

    def take_array(self, n: int) -> Any:
        """The next ``n`` values as a numpy array, drawn in one vectorised batch.

        A picker whose pick is one typed draw (it describes it: ``draw_spec()``, as
        :class:`~synthia.RandomInteger`, :class:`~synthia.RandomFloat` and
        :class:`~synthia.RandomBoolean` do) batches, and so do
        :class:`~synthia.GaussianFloat`, a :class:`~synthia.Choice` among plain numbers, and a
        compiled picker of one of these. They give **the same values as** ``take(n)`` (the
        same draws of the same stream, mapped the same way; a ``GaussianFloat`` may differ in
        the last bit, because numpy's ``log``, ``sin`` and ``cos`` may round differently from
        the C library's) and leave the picker where ``take(n)`` would. Anything else raises
        ``TypeError`` (use ``numpy.array(p.take(n))``).

        >>> from synthia import Apply, RandomInteger
        >>> p = RandomInteger(0, 100, seed=3)
        >>> p.take_array(5).tolist() == RandomInteger(0, 100, seed=3).take(5)
        True
        >>> Apply(abs, p).take_array(5)
        Traceback (most recent call last):
        ...
        TypeError: Apply cannot batch: take_array works on pickers of one described draw (RandomInteger, RandomFloat, RandomBoolean...), GaussianFloat and a Choice of numbers (numpy.array(p.take(n)) works for any wiring)
        """
        raise TypeError(
            f"{type(self).__name__} cannot batch: take_array works on pickers of one described draw (RandomInteger, "
            "RandomFloat, RandomBoolean...), GaussianFloat and a Choice of numbers (numpy.array(p.take(n)) works for any wiring)"
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
        if isinstance(twin, Seedable) and twin._rebinds and "_stream" in twin.__dict__:
            twin._bind()  # what the original made of its streams is made again on the copy's
        return twin

    def __getstate__(self) -> dict[str, Any]:
        # Pickling (Dask ships wirings to workers) leaves out what belongs to a session or is
        # rebuilt from the rest: fast code (local functions), provenance logs.
        return {k: v for k, v in self.__dict__.items() if k not in TRANSIENT_FIELDS}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        if isinstance(self, Seedable) and type(self)._rebinds and "_stream" in state:
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

    def wiring_repr(self) -> str:
        """How this picker reads as an argument inside another picker's ``repr`` (its own
        ``repr``; a ``Constant`` reads as the plain value the user typed)."""
        return repr(self)

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
    if isinstance(value, Picker):
        return value.wiring_repr()
    if callable(value):
        name = getattr(value, "__name__", None)
        if name:
            return name  # type: ignore[no-any-return]
    return repr(value)


Picker._fast = Picker._pick  # type: ignore[assignment]
#: ``Picker.pick`` while picks are watched: the registry checked at each pick.
WATCHED_PICK = Picker.pick
#: ``Picker.pick`` while nothing is watched: ``picker.pick`` is the picker's fast code itself
#: (``picker._fast``: its held sampler or lean pick, else its class's ``_pick``), read by C code
#: (a property over an attribute getter), so a pick costs what its own code costs.
FAST_PICK = property(attrgetter("_fast"), doc=Picker.pick.__doc__)


def _switch(watching: bool) -> None:
    """Make ``Picker.pick`` the form for a registry of watched picks that is (not) empty."""
    type.__setattr__(Picker, "pick", WATCHED_PICK if watching else FAST_PICK)


on_watching(_switch)


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


class Seedable(Picker[T]):
    """A picker that owns a random :class:`~synthia.core.random.Stream`.

    It takes its randomness only through the stream's typed draws (``below``,
    ``integer``, ``unit``, ``floating``, ``boolean``, ``weighted``), so that a recorder, a
    replayer or another source can stand behind them (:mod:`synthia.core.draws`). A leaf
    whose pick is one typed draw describes it (:meth:`draw_spec`) and needs no ``_pick``.
    """

    _stream: Stream
    #: Whether this picker takes a light stream even in a wiring a ``Bind`` keeps (it draws
    #: little: a ``Bind`` draws only the roots of the streams of the pickers it builds).
    _light_stream: ClassVar[bool] = False
    #: Whether the class's pick is its described draw or its sampler (defined at or below the
    #: class's ``_pick``): a subclass that defines its own ``_pick`` keeps it.
    _samples: ClassVar[bool] = True
    #: Whether the class does something of its own when its stream changes (``_bind``).
    _rebinds: ClassVar[bool] = False
    #: No seed of its own (a picker a ``Bind`` builds: its stream's key stands for it).
    _seed: int = None  # type: ignore[assignment]
    _stream_seed: int = None  # type: ignore[assignment]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        pick_owner = next(c for c in cls.__mro__ if "_pick" in c.__dict__)
        fast_owner = next(c for c in cls.__mro__ if "draw_spec" in c.__dict__ or "sampler" in c.__dict__)
        cls._samples = issubclass(fast_owner, pick_owner)
        cls._rebinds = cls._bind is not Seedable._bind
        if cls._samples and cls.__dict__.get("_fast") is cls._pick:  # (the default Picker gave it)
            # A picker of the class makes its fast code at its first pick (not at construction:
            # a picker a Bind builds for one value is picked once).
            cls._fast = held_sampler  # type: ignore[assignment]
            cls._holds = True

    def _init_stream(self, seed: int | None) -> None:
        """Create the stream; a picker built without a seed draws a fresh one.

        A picker created while a wiring is routed (inside a pick) joins the route. One built
        without a seed inside a ``Bind``'s pick gets a light stream
        (:class:`~synthia.core.random.MixStream`, see
        :class:`~synthia.core.random.derived_seeds`): nothing to hash or seed.
        """
        if seed is None:
            deriving = DERIVING.get()
            if deriving is not None and deriving.light is not None:
                count = deriving.count = deriving.count + 1
                if deriving.light or self._light_stream:  # (the seed: the stream's key, see the seed property)
                    stream: Any = MixStream(None, deriving.root, count)
                else:  # a wiring a Bind keeps: a Mersenne Twister, seeded once, drawn from often
                    key = self._seed = self._stream_seed = mix64(deriving.root + count * 0x9E3779B97F4A7C15)
                    stream = Stream(key)
                route = ROUTE.get()
                self._stream = stream if route is None else route.join(stream)
                if self._rebinds:
                    self._bind()
                return
        self._seed = fresh_seed() if seed is None else check_seed(seed)
        self._stream_seed = stream_seed(self._seed)
        stream = Stream(self._stream_seed)
        route = ROUTE.get()
        self._stream = stream if route is None else route.join(stream)
        if self._rebinds:
            self._bind()
        elif self._samples:
            # Built by the user (not inside a Bind's pick): its fast code made now, so that a
            # pick read before the first (``f = picker.pick``) is the sampler itself.
            try:
                fast = self._make_fast()
            except AttributeError:  # what its draw reads is set after this call
                fast = None
            if fast is not None:
                self._fast = fast
                self._picked = 2

    def draw_spec(self) -> DrawSpec | None:
        """The description of this picker's one typed draw (:class:`~synthia.core.leaves.DrawSpec`:
        its kind, its range, the mapping to a value), or ``None`` (the default: the class's
        ``_pick`` makes the value).

        A picker that describes its draw needs no other code for its pick: the core makes the
        pick from it, the stager writes the draw inline, ``take_array`` batches it and the
        Hypothesis bridge draws it as a strategy. Call ``self._bind()`` after changing an
        argument it reads (as ``tell`` does).

        >>> import synthia as sy
        >>> from synthia.core.leaves import DrawSpec
        >>> class Die(sy.RandomPicker[int]):
        ...     def __init__(self, *, seed=None):
        ...         self._init_stream(seed)
        ...     def draw_spec(self):
        ...         return DrawSpec.integer(1, 7)
        >>> Die(seed=1).take(4), Die(seed=1).take_array(4).tolist()
        ([3, 4, 3, 5], [3, 4, 3, 5])
        """
        return None

    def sampler(self) -> Callable[[], T] | None:
        """Another hook for speed, for a pick of several draws: the whole pick as one callable
        on :attr:`stream` (a closure over the stream's samplers, ``integer_sampler``,
        ``floating_sampler``, ``boolean_sampler``), or ``None`` (the default).

        The core holds it as the picker's fast code, makes it again whenever the stream
        changes, and calls it when nothing watches the picker. Prefer :meth:`draw_spec` for
        a pick of one draw: the stager, ``take_array`` and the Hypothesis bridge read it too.
        """
        return None

    def _make_fast(self) -> Callable[[], T] | None:
        """The fast code of this picker's pick: its described draw's sampler, or its sampler."""
        if not self._samples:
            return None
        spec = self.draw_spec()
        if spec is not None:
            return sampler(self._stream, spec)
        return self.sampler()

    def _pick(self) -> T:
        """One value: the described draw (or the sampler) on the current stream."""
        return self._fast()  # type: ignore[no-any-return]

    def _bind(self) -> None:
        """The stream was replaced, or an argument the pick reads changed: the fast code is
        made again on the new stream."""
        if self._samples:
            fast = self._make_fast()
            if fast is not None:
                self._fast = fast

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

    # -- what the description gives for free -------------------------------------------------
    def value_range(self) -> tuple[Any, Any] | None:
        spec = self.draw_spec() if self._samples else None
        if spec is not None and spec.value is None and spec.kind in (INTEGER, FLOAT):
            return spec.args  # type: ignore[return-value]
        return None

    def finite_values(self) -> tuple[Any, ...] | None:
        spec = self.draw_spec() if self._samples else None
        if spec is None or spec.kind not in (BOOLEAN, WEIGHTED):
            return None
        draws = finite_draws(spec)
        if draws is None:
            return None
        value = spec.value
        return draws if value is None else tuple(value(d) for d in draws)

    def take_array(self, n: int) -> Any:
        spec = self.draw_spec() if self._samples else None
        if spec is None:
            return super().take_array(n)
        import numpy as np

        stream = self._batch_stream(n)
        values = None if stream is None else batch(stream, spec, n)
        return np.array(self.take(n)) if values is None else values

    def _batch_stream(self, n: Any) -> Stream | None:
        """For ``take_array(n)``: the stream to draw a batch from, or ``None`` when the picks
        must go one by one (the wiring is routed, so its draws are recorded or replayed; picks
        are watched; a light stream, which has no batches). Checks ``n``."""
        if isinstance(n, bool) or not isinstance(n, int) or n < 0:
            raise ValueError(f"n must be a non-negative int, got {n!r}")
        stream = self._stream
        return stream if not WATCHED and type(stream) is Stream else None

    def _seed_self(self, seed: int) -> None:
        self._seed = seed
        self._stream_seed = stream_seed(seed)
        current: Any = self._stream
        if type(current.own()) is MixStream:
            # Built inside a Bind's pick: a seed of its own gives it a Mersenne Twister, as
            # a picker built with that seed has (behind the routes it is on, if any).
            self._stream = current.rebase(Stream(self._stream_seed))
            self._bind()
        else:
            current.seed(self._stream_seed)

    def _reset_self(self) -> None:
        self._stream.seed(self._stream_seed)

    @property
    def seed(self) -> int:
        """The seed of this picker's stream: ``type(p)(...).set_seed(p.seed)`` replays ``p``. For a
        picker a ``Bind`` built while picking, the key of its light stream
        (:class:`~synthia.core.random.MixStream`), which that stream replays from."""
        seed = self._seed
        if seed is None:
            seed = self._stream.own().key  # type: ignore[attr-defined]
        return seed


def held_sampler(self: Seedable[Any]) -> Any:
    """A random leaf's pick until it holds its fast code (the class's ``_fast`` until then): its
    first pick makes its described draw once, directly (a picker a ``Bind`` builds for one
    value is picked once); its second makes the fast code (:meth:`Seedable._make_fast`), holds
    it and picks through it (a leaf that makes its first draw itself calls it from its second)."""
    picked = self._picked
    if picked == 0:
        self._picked = 1
        spec = self.draw_spec()
        if spec is not None:
            return draw_once(self._stream, spec)
    elif picked == 2:
        return self._fast()  # made already (called through a reference read before)
    fast = self._make_fast()
    if fast is None:
        raise NotImplementedError(f"{type(self).__name__} must define pick() or _pick(), draw_spec() or sampler()")
    self._fast = fast
    self._picked = 2
    return fast()


def described(picker: Picker[Any]) -> DrawSpec | None:
    """The description of ``picker``'s one typed draw when its class picks through it (a leaf
    that describes its draw, see :meth:`Seedable.draw_spec`), else ``None``.

    >>> from synthia import Choice, RandomInteger
    >>> described(RandomInteger(0, 10)), described(Choice(1, 2))
    (DrawSpec.integer(0, 10), None)
    """
    if isinstance(picker, Seedable) and picker._samples:
        return picker.draw_spec()
    return None


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
            RESETS.get(id(node), node._reset_self)() if RESETS else node._reset_self()
