"""Dependent wirings: :class:`Bind`, a picker chosen from a value picked earlier."""
from __future__ import annotations

from typing import Any, Callable, TypeVar

from ..core.checks import check_callable
from ..core.picker import Picker, RandomPicker, as_picker
from ..core.random import derive_seed, derived_seeds
from .basic import Apply

__all__ = ["Bind", "FlatMap"]

T = TypeVar("T")
U = TypeVar("U")


def _as_inner(value: Any) -> Picker[Any]:
    return as_picker(value, "fn(value)", anything=True)


class Bind(RandomPicker[U]):
    """Picks ``v`` from ``picker``, asks ``fn(v)`` for a picker, and returns one pick of it.

    The second picker depends on the first value: a list and an index into it, an interval
    and a value inside it, a tree whose keys narrow at each level. A plain value returned
    by ``fn`` is a constant. Alias ``FlatMap`` (Hypothesis's ``flatmap``).

    Pickers that ``fn`` builds without a seed get seeds derived from this picker's seed and
    the number of picks since the last reset, so the same seed gives the same values and
    ``reset()`` replays them. Their draws are made inside this picker's pick, so a recorder
    logs them in its span and the shrinker lowers the first value and the inner draws
    together: the result stays valid (an index stays inside its list). A picker ``fn``
    returns from elsewhere (built once, outside) keeps its own state.

    >>> from synthia import ComposeList, RandomInteger
    >>> lists = ComposeList(RandomInteger(0, 100), RandomInteger(1, 6))
    >>> with_index = Bind(lists, lambda l: Apply(lambda i: (l, i), RandomInteger(0, len(l))))
    >>> with_index.set_seed(3).take(2)
    [([75, 79, 71, 31, 16], 0), ([99, 45, 12, 64, 42], 3)]
    """

    inputs_fields = ("maker",)

    def __init__(self, picker: Picker[T], fn: Callable[[T], Any], *, seed: int | None = None) -> None:
        self.picker = as_picker(picker, "picker", numbers=False)
        self.fn = check_callable(fn, "fn")
        # The inner picker passes through a picker of pickers, so that provenance recording
        # follows it (it records pickers made while picking) and explains through it.
        self.maker: Picker[Picker[U]] = Apply(lambda value: _as_inner(fn(value)), self.picker)
        self._picks = 0
        self._init_stream(seed)

    def pick(self) -> U:
        with derived_seeds(derive_seed(self._seed, str(self._picks))):
            inner = self.maker.pick()
        self._picks += 1
        return inner.pick()

    def _reset_self(self) -> None:
        super()._reset_self()
        self._picks = 0

    def _arguments(self) -> tuple[list[Any], dict[str, Any]]:
        return [self.picker, self.fn], {}


#: Hypothesis's name for :class:`Bind`.
FlatMap = Bind
