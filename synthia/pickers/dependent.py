"""Dependent wirings: :class:`Bind`, a picker chosen from a value picked earlier."""
from __future__ import annotations

from types import FunctionType
from typing import Any, Callable, TypeVar, overload

from ..core.checks import accepted, check_bool, check_callable, check_hashable, describe
from ..core.constant import Constant
from ..core.emitter import Emitter, described, fast_pick
from ..core.instrument import WATCHED
from ..core.routing import follow_routes, open_span, pick_in_parts, route_key
from ..core.inputs import value_input
from ..core.parsing import Parse
from ..core.picker import Picker, RandomPicker
from ..core.random import DERIVING, ROUTE, MixStream, Stream, derived_seeds
from .basic import Apply

__all__ = ["Bind"]

T = TypeVar("T")
U = TypeVar("U")


def _as_inner(value: Any) -> Picker[Any]:
    return value_input(value, "fn(value)")


class Bind(RandomPicker[U]):
    """Picks ``v`` from ``picker``, asks ``fn(v)`` for a picker, and returns one pick of it.

    The second picker depends on the first value: a list and an index into it, an interval
    and a value inside it, a tree whose keys narrow at each level. A plain value returned
    by ``fn`` is a constant. Hypothesis's ``flatmap``.

    Pickers that ``fn`` builds without a seed each get a light stream of their own
    (:class:`~synthia.core.random.MixStream`, SplitMix64), keyed from 64 bits this picker
    draws from its own stream at each pick: nothing is hashed and no Mersenne Twister is
    seeded per picker, so the same seed gives the same values, ``reset()`` replays them, and
    each inner picker replays alone (``duplicate()``). Their draws are made inside this
    picker's pick, so a recorder logs them in its span and the shrinker lowers the first
    value and the inner draws together: the result stays valid (an index stays inside its
    list). Recorded, each pick is also a part labelled by ``fn``'s code (:meth:`part_label`),
    the same for the ``Bind`` pickers a recursive wiring builds while picking, so sub-trees are
    deleted, swapped and replaced by smaller sub-trees. A picker ``fn`` returns from elsewhere (built once, outside), or builds with a
    seed, keeps its own stream and state.

    Without ``cache``, ``fn`` builds new pickers on every pick, and building them is most of
    the cost: on the red-black trees of ``python benchmarks/run.py speed`` (about 40 pickers
    built per tree of about 5 nodes) a ``Bind`` makes about 17,000 trees per CPU second, a flat
    wiring of the same trees (a list of keys inserted by a function) about 200,000, and the
    same wiring as bare closures (nothing checked, seeded or recorded) about 60,000.
    ``cache=True`` declares ``fn`` a function of its value (the same value, the same
    wiring): the wiring ``fn(v)`` gives is then built once per value, at the value's first
    pick, kept, and picked from again whenever ``v`` comes again; ``reset()`` and
    ``set_seed()`` drop what was kept, so they replay the same values. The ``Bind`` pickers
    built while picking from a ``Bind`` (the nested ones of a recursive wiring) share its kept
    wirings per function: two whose ``fn`` has the same code, defaults and closure values
    (the same range of keys, reached through different parents) keep one wiring per value
    between them, so nested caches fill. A kept wiring's pickers get Mersenne Twisters, seeded
    once (C-speed draws on every later pick). At most ``KEPT_LIMIT`` (2048) wirings are kept
    per outermost ``Bind``; past it a wiring is built for its pick only (light streams). Kept,
    the red-black trees run about 1.7 times as fast as built again, and 10 times as fast
    with keys below 20, where every wiring met is kept (0.77 of the flat wiring's speed); where
    values rarely come again it gains nothing (0.9 to 1.0 times).
    Values must be hashable (a ``TypeError`` says so otherwise); values that compare equal
    and have the same type share one wiring. A ``Bind`` with ``cache=True`` is staged by :func:`~synthia.compile` (each
    kept wiring compiled once); without it, the ``Bind`` is called as it is.

    >>> from synthia import ComposeList, RandomInteger
    >>> lists = ComposeList(RandomInteger(0, 100), RandomInteger(1, 6))
    >>> with_index = Bind(lists, lambda l: Apply(lambda i: (l, i), RandomInteger(0, len(l))))
    >>> with_index.set_seed(3).take(2)
    [([75, 79, 71, 31, 16], 2), ([99, 45, 12, 64, 42], 1)]
    >>> pairs = Bind(RandomInteger(0, 4), lambda x: Apply(lambda y: (x, y), RandomInteger(0, x + 1)), cache=True)
    >>> first = pairs.set_seed(1).take(8); first
    [(0, 0), (1, 1), (0, 0), (1, 1), (1, 0), (1, 0), (1, 1), (2, 0)]
    >>> pairs.reset(); pairs.take(8) == first, len(pairs.kept)
    (True, 3)
    """

    inputs_fields = ("maker",)
    _light_stream = True  # it draws only the roots of the streams of the pickers it builds
    #: The first value that made a value (``inverse(value)``), for parsing (:meth:`parse_draws`).
    inverse: Callable[[Any], Any] | None = None
    #: Whether ``fn`` is declared a function of its value (one wiring kept per value).
    cache: bool = False
    #: The wirings kept per value (``cache=True``): ``{(type(v), v): fn(v)}``, shared by the
    #: Binds of one family whose ``fn`` is the same function (see the class docstring); for
    #: a plain ``Bind``, one empty table for all (it never writes there).
    kept: dict[Any, Picker[Any]] = {}
    # The routes each kept wiring was last put on (serials), to put it on this Bind's routes
    # when it is picked from while they differ.
    _on: dict[Any, tuple[int, ...]] = {}
    #: Their compiled picks, ``{v: (type(v), pick)}``, filled by :func:`~synthia.compile`
    #: (dropped with ``kept``, and in a copy, whose streams are its own).
    compiled: dict[Any, tuple[type, Callable[[], Any]]] = {}
    # The same picks, ``{v: pick}``, read by the staged code when the picker gives one type of value.
    _picks: dict[Any, Callable[[], Any]] = {}
    _fn_key: Any = None
    #: The routes this picker is on (serials, see :func:`~synthia.core.routing.route_key`).
    _route_key: tuple[int, ...] = ()
    _maker: "Picker[Picker[Any]] | None" = None
    _family: "_Family"
    #: Whether built while picking from another Bind (whose family it joins).
    _nested: bool = False

    @property
    def maker(self) -> Picker[Picker[U]]:
        """The picker of the inner pickers (``fn`` of the picker's value): the input through
        which provenance recording follows the pickers made while picking. A plain ``Bind``
        makes it when it is first read (its picks call ``fn`` directly)."""
        maker = self._maker
        if maker is None:
            fn = self.fn
            maker = self._maker = _apply(lambda value: _as_inner(fn(value)), self.picker)
        return maker

    @maker.setter
    def maker(self, value: Picker[Picker[U]]) -> None:
        self._maker = value

    @overload
    def __init__(
        self, picker: Picker[T], fn: Callable[[T], Any], *, cache: bool = False, inverse: Callable[[Any], T] | None = None, seed: int | None = None
    ) -> None: ...
    @overload
    def __init__(
        self, picker: T, fn: Callable[[T], Any], *, cache: bool = False, inverse: Callable[[Any], T] | None = None, seed: int | None = None
    ) -> None: ...
    def __init__(
        self, picker: Any, fn: Callable[[Any], Any], *, cache: bool = False, inverse: Callable[[Any], Any] | None = None, seed: int | None = None
    ) -> None:
        self.picker = picker if isinstance(picker, Picker) else Constant(picker)  # (value_input, inlined)
        self.fn = fn if accepted(fn, 1) else check_callable(fn, "fn", arguments=1)
        if inverse is not None:
            self.inverse = check_callable(inverse, "inverse", arguments=1)
        deriving = DERIVING.get() if seed is None else None
        #: The kept wirings of this Bind and of the Binds built while picking from it (the
        #: nested Binds of a recursive wiring), per function, and how many they are.
        if deriving is None or deriving.light is None:
            self._init_stream(seed)
            self._family = _Family()
        else:
            # Built inside a Bind's pick (one per node of a recursive wiring): _init_stream's
            # light stream (a Bind takes one, _light_stream), inlined; off any route, _bind
            # would leave _route_key at ().
            count = deriving.count = deriving.count + 1
            stream: Any = MixStream(None, deriving.root, count)
            route = ROUTE.get()
            if route is None:
                self._stream = stream
            else:
                self._stream = route.join(stream)
                self._bind()
            owner = deriving.owner
            if isinstance(owner, Bind):
                self._nested = True
                self._family = owner._family
            else:
                self._family = _Family()
        if cache is False:  # nothing kept: the class's empty tables (a Bind builds many)
            return
        self.cache = check_bool(cache, "cache")
        if not cache:
            return
        if type(self.picker) is Constant:
            check_hashable(self.picker.value, "picker (a constant, with cache=True)")
        self._maker = _apply(self.inner_for, self.picker)
        self._fn_key = _fn_key(fn)
        try:
            entry = None if self._fn_key is None else self._family.tables.get(self._fn_key)
        except TypeError:  # a closure holding an unhashable value: nothing to share on
            entry = self._fn_key = None
        if entry is None:
            entry = ({}, {})
            if self._fn_key is not None and len(self._family.tables) < KEPT_LIMIT:
                self._family.tables[self._fn_key] = entry
        self.kept = entry[0]
        self._on = entry[1]
        self.compiled = {}
        self._picks = {}

    def _pick(self) -> U:
        if self._route_key:
            # Recorded or replayed: the pick is a part of its own, labelled by fn, so that the
            # Binds a recursive wiring builds while picking (sub-trees) are parts the shrinker
            # can delete, swap, or replace by a smaller one made by the same function.
            source = open_span(self._stream, self.part_label())
            try:
                return self._made()
            finally:
                if source is not None:
                    source.close_span()
        if self.cache or WATCHED:
            return self._made()
        # _made(), inlined for a plain Bind off any route (what a recursive wiring builds by the
        # thousand): fn called on the picker's value inside a block of derived seeds. While
        # nothing watches, a picker's pick is its _fast (core/picker.py, FAST_PICK): called
        # without the property's look-ups.
        deriving = derived_seeds(self._stream.getrandbits(64), True, self)
        token = DERIVING.set(deriving)
        try:
            inner = self.fn(self.picker._fast())
        finally:
            DERIVING.reset(token)
        if WATCHED:  # (watching began inside fn)
            return (inner if isinstance(inner, Picker) else Constant(inner)).pick()  # type: ignore[no-any-return]
        return inner._fast() if isinstance(inner, Picker) else inner  # type: ignore[no-any-return]  # (a plain value: a Constant's pick)

    def _made(self) -> U:
        # The maker's pick is fn of the picker's value; called as it is while nothing watches
        # picks (a recording's spans, provenance), so a Bind built for one pick builds no lean pick.
        if self.cache:  # (the maker's fn is inner_for)
            inner = self._maker.pick() if WATCHED else self.inner_for(self.picker.pick())  # type: ignore[union-attr]
        else:
            maker = self.maker
            with derived_seeds(self._root(), True, self):
                inner = maker.pick() if WATCHED else maker.fn(self.picker.pick())  # type: ignore[attr-defined]
        # Recorded or replayed: the parts of the wiring fn built are spans too.
        return pick_in_parts(self._stream, inner, self.part_label())  # type: ignore[no-any-return]

    def stage(self, e: Emitter, out: list[str], ind: str) -> str:
        """The stager's code of a pick with ``cache=True``: the value staged, then the compiled
        pick of the wiring kept for it (:attr:`compiled`, filled at each value's second pick and
        emptied with the kept wirings by ``reset``). Without ``cache``, ``fn`` builds new
        pickers at every pick: the ``Bind`` is called as it is."""
        if not self.cache:
            return e.call(self, out, ind)
        e.check(self.maker)  # the staged code does what the maker's pick does
        e.staged += 1
        x = e.pick(self.picker, out, ind)
        slow = e.opaque("first_pick", _KeptPicks(self))
        c, v = e.var("e"), e.var("b")
        spec = described(self.picker)
        if spec is not None and spec.value is None and spec.sample is None:  # one type of value, hashable
            picks = e.bind("compiled_picks", self._picks)
            out.append(f"{ind}try:  # Bind(cache=True): the compiled pick of the wiring kept for the value")
            out.append(f"{ind}    {c} = {picks}[{x}]")
            out.append(f"{ind}except {e.bind('KeyError', KeyError)}:  # none yet: the Bind builds and keeps it")
            out.append(f"{ind}    {v} = {slow}({x})")
            out.append(f"{ind}else:")
            out.append(f"{ind}    {v} = {c}()")
            return v
        fast_get = e.bind("compiled_get", self.compiled.get)
        out.append(f"{ind}try:  # Bind(cache=True): the compiled pick of the wiring kept for the value")
        out.append(f"{ind}    {c} = {fast_get}({x})")
        out.append(f"{ind}except TypeError:  # unhashable: the Bind says so")
        out.append(f"{ind}    {c} = None")
        out.append(f"{ind}if {c} is not None and {c}[0] is {x}.__class__:")
        out.append(f"{ind}    {v} = {c}[1]()")
        out.append(f"{ind}else:")
        out.append(f"{ind}    {v} = {slow}({x})")
        return v

    def _root(self) -> int:
        """The root of the light streams of the pickers this Bind builds at one pick (or for one
        kept value): the next 64 bits of its own stream, behind its routes (a recorder or
        replayer never sees them), so that ``reset()`` and ``set_seed()`` replay them."""
        return self._stream.own().getrandbits(64)  # type: ignore[no-any-return]

    def part_label(self) -> tuple[str, ...]:
        """The label of this picker's picks in recorded draws: the same for every ``Bind`` whose
        ``fn`` is the same code (the nested ``Bind``s of a recursive wiring, one per sub-tree),
        so that the shrinker treats their picks as parts of one kind.

        >>> from synthia import RandomInteger
        >>> def subtree(depth):
        ...     return Bind(RandomInteger(0, 3), lambda k: k + depth)
        >>> subtree(1).part_label() == subtree(2).part_label(), subtree(1).part_label()[:2]
        (True, ('Bind', 'subtree.<locals>.<lambda>'))
        """
        fn = self.fn
        code = getattr(fn, "__code__", None)
        if code is None:
            return ("Bind", getattr(type(fn), "__qualname__", "?"))
        return ("Bind", code.co_qualname if hasattr(code, "co_qualname") else fn.__qualname__, code.co_filename, str(code.co_firstlineno))

    def inner_for(self, value: Any) -> Picker[U]:
        """The picker a pick that drew ``value`` picks from: ``fn(value)`` (a plain value as a
        constant), built now (its pickers on light streams keyed from this picker's stream);
        with ``cache=True``, the wiring kept for ``value`` (built and kept at its first use).

        >>> from synthia import RandomInteger
        >>> b = Bind(RandomInteger(0, 3), lambda n: RandomInteger(0, n + 1), cache=True, seed=1)
        >>> b.inner_for(2) is b.inner_for(2), b.inner_for(2)
        (True, RandomInteger(0, 3))
        """
        if not self.cache:
            with derived_seeds(self._root(), True, self):
                return _as_inner(self.fn(value))
        key = (value.__class__, value)
        kept = self.kept
        try:
            inner = kept.get(key)
        except TypeError:
            raise TypeError(f"picker must pick hashable values when cache=True (one wiring is kept per value), got {describe(value)} from {self.picker!r}") from None
        if inner is None:
            family = self._family
            keep = family.count < KEPT_LIMIT  # beyond: built for this pick only, as without cache
            with derived_seeds(self._root(), not keep, self):
                inner = _as_inner(self.fn(value))
            if self._route_key:
                follow_routes(inner, self)
            if keep:
                family.count += 1
                kept[key] = inner
                self._on[key] = self._route_key
        elif self._on.get(key) != self._route_key:
            # Kept while this Bind was on other routes (a recording since): on its routes now.
            follow_routes(inner, self)
            self._on[key] = self._route_key
        return inner

    def _bind(self) -> None:
        # The stream changed (a route began or ended, a copy): the kept wirings follow it when
        # they are next picked from (inner_for), not all of them now.
        stream = self._stream
        self._route_key = () if stream.__class__ is MixStream or stream.__class__ is Stream else route_key(self)

    def _reset_self(self) -> None:
        super()._reset_self()
        # Cleared in place: a compiled pick holds these dicts, and other Binds share them.
        self.kept.clear()
        self._on.clear()
        self.compiled.clear()
        self._picks.clear()
        if not self._nested:
            # The Binds built while picking from this one are dropped with its wirings.
            family = self._family
            for kept, on in family.tables.values():
                kept.clear()
                on.clear()
            family.tables.clear()
            family.count = 0
            if self._fn_key is not None:
                family.tables[self._fn_key] = (self.kept, self._on)

    def __deepcopy__(self, memo: dict[int, Any]) -> "Bind[U]":
        twin: Bind[U] = super().__deepcopy__(memo)  # type: ignore[assignment]
        twin.compiled, twin._picks = {}, {}  # compiled picks draw from this picker's streams, not the copy's
        return twin

    def __getstate__(self) -> dict[str, Any]:
        state = super().__getstate__()
        state["compiled"] = state["_picks"] = {}
        return state

    def parse_draws(self, value: Any, parse: Parse) -> list[Any] | None:
        """With an ``inverse`` (the value to the first value ``v`` that made it), the draws of
        ``v`` by ``picker``, then those of ``value`` by the wiring ``fn(v)``.

        >>> from synthia import ComposeList, RandomInteger, parse
        >>> sized = Bind(RandomInteger(1, 5), lambda n: ComposeList(RandomInteger(0, 9), n), inverse=len)
        >>> parse(sized, [7, 3]).values()
        [2, 7, 3]
        """
        if self.inverse is None:
            parse.fail(self, "has no inverse (give Bind(..., inverse=...) to parse its values)")
            return None
        first = self.inverse(value)
        head = parse(self.picker, first)
        tail = None if head is None else parse(_as_inner(self.fn(first)), value)
        return None if head is None or tail is None else head + tail

    def arguments(self) -> tuple[list[Any], dict[str, Any]]:
        kwargs: dict[str, Any] = {"cache": True} if self.cache else {}
        if self.inverse is not None:
            kwargs["inverse"] = self.inverse
        return [self.picker, self.fn], kwargs


class _KeptPicks:
    """A call picks for a value whose wiring a ``Bind(cache=True)`` does not keep yet (or
    dropped at a reset): the ``Bind`` builds and keeps it, and its compiled pick goes to
    ``bind.compiled``, where the staged code finds it next time."""

    __slots__ = ("bind",)

    def __init__(self, bind: Bind[Any]) -> None:
        self.bind = bind

    def __call__(self, value: Any) -> Any:
        bind = self.bind
        inner = bind.inner_for(value)  # a TypeError for an unhashable value, as unstaged
        cls, compiled, picks = value.__class__, bind.compiled, bind._picks

        def second() -> Any:
            # Compiled at the value's second pick: a value met once (a wide range) costs no
            # staging. Wirings of one shape share one source (numbers are objects), so
            # this is a walk over the wiring, not a compilation.
            fast = fast_pick(inner, shared=True)
            compiled[value] = (cls, fast)
            picks[value] = fast
            return fast()

        compiled[value] = (cls, second)
        picks[value] = second
        return inner.pick()

    def __repr__(self) -> str:
        return f"_KeptPicks({self.bind!r})"


#: How many wirings one family of Binds keeps (a Bind and those built while picking from it),
#: and for how many functions: beyond, a wiring is built for its pick only, as without
#: ``cache``. A kept wiring of a few pickers takes a few kilobytes.
KEPT_LIMIT = 2048


class _Family:
    """The kept wirings of a ``Bind`` and of the ``Bind``s built while picking from it:
    ``tables[_fn_key(fn)] = (kept, routes)`` (the dicts those Binds hold as ``kept`` and
    ``_on``), and ``count``, the number of wirings kept in all."""

    def __init__(self) -> None:
        self.tables: dict[Any, tuple[dict[Any, Any], dict[Any, Any]]] = {}
        self.count = 0

    def __repr__(self) -> str:
        return f"_Family({len(self.tables)} functions, {self.count} wirings)"


def _fn_key(fn: Callable[[Any], Any]) -> Any:
    """What makes two Binds' ``fn`` the same function, for sharing kept wirings: a function's
    code, defaults and the values its closure holds (with their types); another callable
    itself (a bound method compares its object and function). ``None`` (or a key that does
    not hash: a closure holding a list): nothing to share on.

    >>> def narrower(lo):
    ...     return lambda v: (lo, v)
    >>> _fn_key(narrower(1)) == _fn_key(narrower(1)) != _fn_key(narrower(2))
    True
    >>> hash(_fn_key(narrower([1])))  # unhashable: the Bind keeps its own wirings
    Traceback (most recent call last):
    ...
    TypeError: unhashable type: 'list'
    """
    if type(fn) is FunctionType:
        cells = fn.__closure__
        kwdefaults = fn.__kwdefaults__
        try:
            return (
                fn.__code__,
                fn.__defaults__,
                None if kwdefaults is None else tuple(sorted(kwdefaults.items())),
                () if cells is None else tuple([(c.cell_contents.__class__, c.cell_contents) for c in cells]),
            )
        except (TypeError, ValueError):  # an empty cell, keyword defaults that do not sort
            return None
    try:
        hash(fn)
    except TypeError:
        return None
    return fn


def _apply(fn: Callable[[Any], Any], picker: Picker[Any]) -> Apply[Any]:
    """``Apply(fn, picker)`` for a function of one argument made here: built without checking
    ``fn``'s signature again (an ``inspect.signature`` per ``Bind`` for a bound method)."""
    maker: Apply[Any] = Apply.__new__(Apply)
    maker.fn, maker.args, maker.kwargs = fn, [picker], {}
    return maker



