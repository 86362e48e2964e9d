"""A replay session: one copy of a wiring, routed once, replayed many times.

Shrinking replays thousands of candidates through the same wiring. Routing a wiring (and
instrumenting its picks for spans) costs a walk over it, so a session routes its copy once
and gives each replay a fresh :class:`~synthia.core.draws.Replayer` by swapping the route's
source, after resetting the wiring.
"""
from __future__ import annotations

from contextlib import ExitStack
from typing import Any, Iterable

from ..core.draws import Replayer, Route, routed
from ..core.picker import Picker

__all__ = ["ReplaySession"]


class ReplaySession:
    """Replays draw sequences through ``wiring`` (a copy the session owns).

    >>> import synthia as sy
    >>> session = ReplaySession(sy.ComposeList(sy.RandomInteger(0, 9), sy.RandomInteger(0, 5)))
    >>> replayer = session.begin([2, 7, 8])
    >>> session.wiring.pick(), replayer.tape.values()
    ([7, 8], [2, 7, 8])
    >>> session.close()
    """

    def __init__(self, wiring: Picker[Any]) -> None:
        self.wiring = wiring
        self._stack: ExitStack | None = None
        self._route: Route | None = None
        #: The atomic picks of earlier replays, recalled by later ones (:class:`Replayer`).
        self.memo: dict[Any, Any] = {}

    def begin(self, entries: Iterable[Any], max_draws: int | None = None) -> Replayer:
        """Reset the wiring and route its draws to a new replayer of ``entries``; return it."""
        if self._stack is None:
            self._stack = ExitStack()
            self._route = self._stack.enter_context(routed(self.wiring, Replayer(())))
        replayer = Replayer(entries, max_draws, self.memo)
        assert self._route is not None
        self._route.source = replayer
        self.wiring.reset()
        return replayer

    def close(self) -> None:
        """Release the wiring (its pickers draw from their own streams again)."""
        if self._stack is not None:
            self._stack.close()
            self._stack = None
            self._route = None

    def __enter__(self) -> "ReplaySession":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
