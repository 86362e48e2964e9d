"""``Knit``: interleaving several live generator instances into one stream."""
from __future__ import annotations

from typing import Any

from ..core.checks import check_bool, check_int, check_values, describe, flip, pick_index
from ..core.exceptions import NoMoreElements
from ..core.inputs import coin_input, picker_input, unit_input
from ..core.picker import Picker, Seedable
from .scalars import RandomBoolean, RandomFloat

__all__ = ["Knit"]


class Knit(Seedable[Any]):
    """Interleaves the values of live instances drawn from ``instances`` (a picker of pickers).

    On each pick: when no instance is alive, or the ``spawn`` coin says so, a new
    instance is drawn; then ``chooser`` (floats in ``[0, 1)``) picks a live instance
    uniformly and its next value is returned. An instance that raises
    :class:`~synthia.NoMoreElements` is retired; the ``replace`` coin then decides
    whether a new one is drawn at once (always when none is left). The stream ends when
    the instance source ends with no instance alive, or after ``max_tries`` attempts in
    a row produce nothing. Each new instance is seeded from this picker's own stream
    (``instance.set_seed``), so a knit replays from its seed; a stateful duplicate carries
    the live instances. Instances that share pickers with each other (a common clock)
    must not be reseeded, since seeding resets everything upstream: pass
    ``seed_instances=False`` and build each instance from seeded upstream values (for
    example an ``Apply`` whose function receives a seed from a ``RandomInteger``), and list
    the shared pickers in ``shared`` so that resetting or seeding the knit reaches them.
    Defaults: ``spawn=RandomBoolean(0.1)``, ``replace=RandomBoolean(0.5)``,
    ``chooser=RandomFloat()``. ``spawn`` and ``replace`` are coins: pickers of booleans, or
    a bool (``spawn=0.3`` is refused: write ``RandomBoolean(0.3)``; a picker of numbers is
    refused, and a coin that picks anything but a boolean raises ``TypeError`` at that pick).
    Every live instance is kept until it ends, so a ``spawn`` that says yes often, over
    instances that never end, keeps a growing list of them (``spawn=True``: one more per
    pick); give instances that end (``Bound``, ``Playback(..., loop=False)``) to bound it.

    >>> from synthia import Apply, Playback, Tick
    >>> visitors = Apply(lambda n: Playback([f"v{n}-a", f"v{n}-b"], loop=False), Tick(1, 1))
    >>> Knit(visitors, spawn=RandomBoolean(0.5)).set_seed(2).take(6)
    ['v1-a', 'v1-b', 'v2-a', 'v4-a', 'v5-a', 'v5-b']
    """

    inputs_fields = ("instances", "spawn", "replace", "chooser", "shared")

    def __init__(
        self,
        instances: Picker[Any],
        spawn: Picker[bool] | None = None,
        replace: Picker[bool] | None = None,
        chooser: Picker[float] | None = None,
        *,
        max_tries: int = 1000,
        seed_instances: bool = True,
        shared: list[Picker[Any]] | tuple[Picker[Any], ...] = (),
        seed: int | None = None,
    ) -> None:
        self.instances = picker_input(instances, "instances", "a picker whose values are pickers: a plain value never is one")
        if self.instances.value_range() is not None:
            raise TypeError(f"instances must pick pickers, got {instances!r}, which picks numbers")
        self.spawn = RandomBoolean(0.1) if spawn is None else coin_input(spawn, "spawn")
        self.replace = RandomBoolean(0.5) if replace is None else coin_input(replace, "replace")
        self.chooser = RandomFloat() if chooser is None else unit_input(chooser, "chooser")
        self.max_tries = check_int(max_tries, "max_tries", minimum=1)
        self.seed_instances = check_bool(seed_instances, "seed_instances")
        if isinstance(shared, Picker):
            raise TypeError(f"shared must be a list of pickers, got the picker {shared!r}: write shared=[{shared!r}]")
        self.shared = [
            picker_input(p, f"shared[{i}]", "a picker that instances share, reset and seeded with the knit")
            for i, p in enumerate(check_values(shared, "shared"))
        ]
        self.live: list[Picker[Any]] = []
        self._source_ended = False
        self._init_stream(seed)

    def _new_instance(self) -> bool:
        if self._source_ended:
            return False
        try:
            instance = self.instances.pick()
        except NoMoreElements:
            self._source_ended = True
            return False
        if not isinstance(instance, Picker):
            raise TypeError(f"instances must pick pickers, got {describe(instance)} from {self.instances!r}")
        if self.seed_instances:
            instance.set_seed(self._stream.below(1 << 63))
        self.live.append(instance)
        return True

    def _pick(self) -> Any:
        for _ in range(self.max_tries):
            if not self.live or flip(self.spawn, "spawn"):
                self._new_instance()
            if not self.live:
                raise NoMoreElements(f"{self!r}: no instance is left")
            index = pick_index(self.chooser, len(self.live), "chooser")
            try:
                return self.live[index].pick()
            except NoMoreElements:
                del self.live[index]
                if not self.live or flip(self.replace, "replace"):
                    self._new_instance()
        raise NoMoreElements(f"{self!r}: {self.max_tries} attempts in a row gave no value")

    def _reset_self(self) -> None:
        super()._reset_self()
        self.live = []
        self._source_ended = False

    def arguments(self) -> tuple[list[Any], dict[str, Any]]:
        return [self.instances], {"spawn": self.spawn, "replace": self.replace, "chooser": self.chooser}
