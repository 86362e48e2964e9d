"""``compile(picker)``: a wiring turned into one generated Python function.

The writer is the core's :class:`~synthia.core.emitter.Emitter`: it knows no picker class,
and reads what each picker says of itself -- a leaf's described draw (``draw_spec()``,
written inline on the picker's stream), a composite's ``stage`` hook (a ``Choice``'s ``if``
chain, a ``ComposeList``'s loop, a ``Deferred``'s local recursive function, a grammar's
function per rule, a ``Bind(cache=True)``'s kept wirings, a guided picker's learner in
place). Every other picker (a user's class, a stateful picker such as ``Tick`` or
``Freeze``, a plain ``Bind``) is **called as it is** inside the fused code, and so is every
user function. The generated code reads the same streams as the wiring and makes exactly
the same draws in the same order, so it gives exactly the same values: same seed, same
sequence.

The compiled picker shares the wiring (picking from one moves the other, like any input),
and it is transparent to seeding: ``compile(p).set_seed(s)`` seeds ``p`` as
``p.set_seed(s)`` does. While a draw source is routed through it
(:func:`~synthia.routed`: recording, replaying, shrinking, Hypothesis's data) or picks are
watched (provenance recording, per-picker timing), it picks through the graph itself, so
draws, spans and provenance are exactly those of the wiring.
"""
from __future__ import annotations

from typing import Any, Callable, Iterator, TypeVar

from ..core.emitter import Emitter, Instrumented, stage
from ..core.inputs import value_input
from ..core.instrument import WATCHED, intercepted
from ..core.graph import upstream
from ..core.picker import Picker, Seedable
from ..core.routing import route_key

__all__ = ["compile", "Compiled", "stage"]

T = TypeVar("T")


def _untouched(wiring: Picker[Any]) -> bool:
    """Whether no picker of ``wiring`` is routed or watched right now."""
    for _, node in upstream(wiring):
        if intercepted(node) or route_key(node):
            return False
    return True


class Compiled(Seedable[T]):
    """A wiring of pickers compiled to one generated Python function (see :func:`compile`).

    ``source`` is the generated code. The compiled picker shares ``wiring``; ``reset``,
    ``duplicate`` and ``set_seed`` act on the wiring exactly as on the original.

    >>> import synthia as sy
    >>> lists = sy.ComposeList(sy.RandomInteger(0, 100), sy.RandomInteger(0, 5))
    >>> fast = sy.compile(lists.duplicate())
    >>> fast.set_seed(3).take(3) == lists.set_seed(3).take(3)
    True
    >>> fast
    Compiled(ComposeList(RandomInteger(0, 100), length=RandomInteger(0, 5)))
    """

    #: It holds the generated function as its fast code.
    _holds = True

    def __init__(self, wiring: Picker[T]) -> None:
        self.wiring: Picker[T] = value_input(wiring, "wiring")  # a plain value is a Constant
        seed = self.wiring.seed
        self._init_stream(seed if isinstance(seed, int) and not isinstance(seed, bool) else 0)

    def named_inputs(self) -> Iterator[tuple[str, Picker[Any]]]:
        # An empty name: the wiring keeps the compiled picker's key, so seeds derive as without it.
        yield "", self.wiring

    def _pick(self) -> T:
        """One value, through the graph: what runs while the picker is routed or intercepted."""
        return self.wiring.pick()

    def _bind(self) -> None:
        # Called at construction, after a copy, and when a route starts or ends.
        self._made: Callable[[], T] | None = None
        if route_key(self):  # routed: through the graph (the class's _pick)
            try:
                del self._fast
            except AttributeError:
                pass
            return
        try:
            self._fast = self._build() or self._prime
        except Exception:  # a wiring still being unpickled: build at the first pick
            self._fast = self._prime

    def __getstate__(self) -> dict[str, Any]:
        state = super().__getstate__()
        state.pop("_made", None)  # generated code: built again after unpickling
        return state

    def _build(self) -> Callable[[], T] | None:
        """Build and hold the generated function (``None`` while a picker of the wiring is
        routed or intercepted: the next pick tries again)."""
        fast = getattr(self, "_made", None)
        if fast is not None:
            return fast  # type: ignore[no-any-return]
        built = getattr(self, "_built", None)
        if built is not None and _untouched(self.wiring):
            # The end of a route (a recorded or replayed pick): the wiring is as it was when
            # the function was built, whose code reads the same pickers and streams.
            fast = built
        else:
            try:
                emitter = Emitter()
                source, env = emitter.write(self.wiring)
            except Instrumented:
                return None
            fast = emitter.function(self.wiring, source, env)
        self._made = self._built = self._fast = fast
        return fast  # type: ignore[no-any-return]

    def _prime(self) -> T:
        """A pick while the function is not built yet (the end of a route): build it, then pick."""
        fast = self._build()
        return self.wiring.pick() if fast is None else fast()

    def take(self, n: int) -> list[T]:
        if not route_key(self) and not WATCHED:
            self._build()  # so that the loop holds the generated function, not the first-pick hook
        return super().take(n)

    def _seed_self(self, seed: int) -> None:
        self._stream.seed(seed)  # the wiring's pickers are seeded by the same walk

    @property
    def seed(self) -> int:
        """The seed last given to :meth:`set_seed` (the wiring's own seed before that)."""
        return self._seed

    @property
    def source(self) -> str:
        """The generated Python source (read it to see what was staged and what is called)."""
        return stage(self.wiring)[0]

    def value_range(self) -> tuple[Any, Any] | None:
        return self.wiring.value_range()

    def take_array(self, n: int) -> Any:
        """The wiring's :meth:`~synthia.Picker.take_array` (the same values as ``take(n)``)."""
        return self.wiring.take_array(n)

    def arguments(self) -> tuple[list[Any], dict[str, Any]]:
        return [self.wiring], {}


def compile(picker: Picker[T]) -> Compiled[T]:  # noqa: A001 - sy.compile is the name the issue asks for
    """Compile the wiring ``picker`` into one generated Python function that gives exactly its values.

    Pickers that describe their draw or give the stager a hook (the core pickers) are fused
    into straight-line code that draws from the same streams in the same order; any other
    picker and every user function is called as it is. The result shares ``picker``'s wiring, is seeded, reset and
    duplicated like it, and picks through the graph whenever draws are routed or picks
    intercepted (recording, replay, shrinking, provenance), so it is never silently
    different. Compiling a compiled picker returns it; a plain value is a constant.

    >>> import synthia as sy
    >>> tree = sy.Deferred(lambda: sy.Choice(sy.RandomInteger(0, 10),
    ...                                      sy.Apply(lambda l, r: (l, r), tree, tree)),
    ...                    max_depth=3, fallback=0)
    >>> staged = sy.compile(tree)
    >>> staged.set_seed(7).take(3) == tree.set_seed(7).take(3)
    True
    >>> print(sy.compile(sy.RandomInteger(5, 10)).source)
    # synthia.compile: 1 pickers staged, 0 called as they are
    def make(env):
        (getrandbits_0,) = env
        def pick():
            r1 = getrandbits_0(3)  # RandomInteger(5, 10)
            while r1 >= 5:
                r1 = getrandbits_0(3)
            return 5 + r1
        return pick
    <BLANKLINE>
    """
    if isinstance(picker, Compiled):
        return picker
    return Compiled(value_input(picker, "picker"))
