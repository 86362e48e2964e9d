"""``Knit``: interleaving several live generator instances into one stream."""
from __future__ import annotations

from typing import Any

from ..core.exceptions import NoMoreElements
from ..core.picker import Picker, Seedable, as_picker
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
    ``chooser=RandomFloat()``.

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
        self.instances = as_picker(instances, "instances", numbers=False)
        self.spawn = RandomBoolean(0.1) if spawn is None else as_picker(spawn, "spawn", numbers=False)
        self.replace = RandomBoolean(0.5) if replace is None else as_picker(replace, "replace", numbers=False)
        self.chooser = RandomFloat() if chooser is None else as_picker(chooser, "chooser", numbers=False)
        if isinstance(max_tries, bool) or not isinstance(max_tries, int) or max_tries < 1:
            raise ValueError(f"max_tries must be a positive int, got {max_tries!r}")
        self.max_tries = max_tries
        if not isinstance(seed_instances, bool):
            raise TypeError(f"seed_instances must be a bool, got {seed_instances!r}")
        self.seed_instances = seed_instances
        self.shared = [as_picker(p, f"shared[{i}]", numbers=False) for i, p in enumerate(shared)]
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
            raise TypeError(f"instances must pick pickers, got {instance!r} from {self.instances!r}")
        if self.seed_instances:
            instance.set_seed(self._stream.below(1 << 63))
        self.live.append(instance)
        return True

    def pick(self) -> Any:
        for _ in range(self.max_tries):
            if not self.live or self.spawn.pick():
                self._new_instance()
            if not self.live:
                raise NoMoreElements(f"{self!r}: no instance is left")
            u = self.chooser.pick()
            index = min(int(u * len(self.live)), len(self.live) - 1)
            try:
                return self.live[index].pick()
            except NoMoreElements:
                del self.live[index]
                if not self.live or self.replace.pick():
                    self._new_instance()
        raise NoMoreElements(f"{self!r}: {self.max_tries} attempts in a row gave no value")

    def _reset_self(self) -> None:
        super()._reset_self()
        self.live = []
        self._source_ended = False

    def _arguments(self) -> tuple[list[Any], dict[str, Any]]:
        return [self.instances], {"spawn": self.spawn, "replace": self.replace, "chooser": self.chooser}
