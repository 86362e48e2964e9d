"""How discovery draws a concurrent trace's schedule: its shape (the prefix's and branches'
lengths, which calls go where), how many preemptions it may make, whether it preempts at
lines or opcodes, each call's preemption point, and the choices among ready branches.

Whatever the strategy, each of these is **one typed draw** of the trace -- recorded,
replayed and shrunk like an argument, ``0`` the simplest (no preemption; lines; the next
branch in the circle) -- so a strategy only decides how *discovery* draws them (``integer_by``: the
value is what is remembered, not how it was chosen). A replayed or shrunk trace never asks
the strategy again.

**The prefix's length** is drawn per trace, uniformly in ``[0, prefix]``: one trace in
``prefix + 1`` has an empty prefix, so races of first use (lazy initialisation: the first
calls are the concurrent ones) are tried as often as the others; each branch's length
uniformly in ``[1, branch_steps]``.

**How many preemptions** a trace may make is its first draw (the first ones, in the order
the calls were made, are made): shrinking lowers it first, so it reaches the fewest
preemptions before it lowers where they are.

**Points.** A call's points are the boundary before it (point 1) and each line, opcode or
suspension it reaches inside (points 2, 3, ...). No bound is fixed in advance: a call of an
action is preempted at a point drawn uniformly among the points **calls of that action have
reached so far in the run** (its *horizon*; before any call of it ran, the longest horizon
seen, or :data:`DEFAULT_HORIZON`), so the
points explored grow with the code they run, and the report says how far they went
(:meth:`Exploration.describe`). A trace played again from its seed (to record it) uses the
horizons it was first played with.

**PCT** (``schedule="pct"``, the default) is Burckhardt, Kothari, Musuvathi and
Nagarakatte's *probabilistic concurrency testing* (ASPLOS 2010), over calls: each trace
gives the branches random distinct priorities, and chooses ``d - 1`` priority-change points
(at most ``preemptions``; by default 1 for the first :data:`DEEPENING` traces, then 1 or 2
for the next ``2 * DEEPENING``, 1 to 3 for the next ``4 * DEEPENING``...): each a call of
the trace's branches, chosen uniformly, at a point drawn uniformly within its horizon. The
ready branch with the highest priority runs; at a change point the running branch's priority drops below
every other's (the ``i``-th change to ``i``), so another runs. For a bug of *depth* ``d``
(``d`` ordering constraints between the branches' steps, ``d - 1`` of them preemptions), a
trace finds it with probability at least ``1 / (n * (c * h) ** (d - 1))`` -- ``n``
branches, ``c`` calls in the branches, ``h`` the largest horizon: PCT's ``1 / (n k^(d-1))``
with ``k = c * h`` steps -- and so ``1 - (1 - p) ** t`` in ``t`` traces.

**Random** (``schedule="random"``): each call of the branches is preempted with probability
1/2 (at most ``preemptions`` in a trace), at a point drawn uniformly within its horizon, and
every choice among ready branches is uniform.
"""
from __future__ import annotations

import collections
from typing import Any, Sequence

from ..core.random import Stream

__all__ = ["Plan", "Exploration", "Explorations", "DEFAULT_HORIZON"]

#: The horizon of an action none of whose calls has run yet in the run.
DEFAULT_HORIZON = 16
#: The traces whose horizons are kept, to play them again from their seed.
_REMEMBERED = 4096
#: Schedules per level of depth: the first are drawn with one change point, the next twice
#: as many with one or two, ...
DEEPENING = 250


class Exploration:
    """What one run's discovery explored: per action, the most points a call reached inside
    (its horizon), and the schedules tried."""

    def __init__(self) -> None:
        self.horizons: dict[tuple[str, str], int] = {}
        self.traces = 0
        self.opcodes = 0
        self.preempted = 0
        self.deepest = 0

    def level(self) -> int:
        """The most change points a trace draws now: 1 for the first :data:`DEEPENING`
        schedules, 2 for the next ``2 *`` that many, 3 for the next ``4 *``... (iterative
        deepening: shallow races, the common ones, are found -- and shrunk -- first)."""
        return (1 + self.traces // DEEPENING).bit_length()

    def horizon(self, action: str, preemption: str) -> int:
        """The points inside a call of ``action`` a preemption at ``preemption`` points (line,
        opcode, suspension) is drawn among."""
        if preemption == "action":
            return 0
        known = self.horizons.get((action, preemption))
        if known is None:
            known = max((h for (_, kind), h in self.horizons.items() if kind == preemption), default=DEFAULT_HORIZON)
        return max(known, 1)

    def observe(self, preemption: str, calls: Sequence[tuple[str, int, int]]) -> None:
        """After a trace at ``preemption`` points: each call's ``(action, points reached,
        point drawn)``."""
        self.traces += 1
        self.opcodes += preemption == "opcode"
        drawn = [point for _, _, point in calls if point > 0]
        self.preempted += bool(drawn)
        self.deepest = max([self.deepest, *drawn])
        for action, points, _ in calls:
            inside = points - 1  # the boundary before the call is point 1
            if inside > self.horizons.get((action, preemption), -1):
                self.horizons[(action, preemption)] = inside

    def describe(self) -> str:
        """What the run's schedules explored, in a sentence."""
        if not self.traces:
            return "no schedule was tried"
        reach = ", ".join(f"{name} {points} {kind}s" for (name, kind), points in sorted(self.horizons.items()))
        opcodes = f" ({self.opcodes} at opcode points)" if self.opcodes else ""
        return (
            f"{self.traces} schedules{opcodes}, {self.preempted} with a preemption, each drawn among all the points "
            f"calls of its action reached (inside a call, at most: {reach}); the deepest point drawn was {self.deepest}"
        )


class Explorations:
    """The runs of one concurrent Monkey: the current discovery's :class:`Exploration` (a new
    one when a new discovery wiring starts) and, per trace seed, the horizons that trace
    used -- so that playing a trace again from its seed draws the same schedule."""

    def __init__(self) -> None:
        self.current: Exploration | None = None
        self._wiring: Any = None
        self._used: collections.OrderedDict[int, Exploration] = collections.OrderedDict()

    def for_trace(self, wiring: Any, seed: int, discovering: bool) -> tuple[Exploration, bool]:
        """The exploration a trace's schedule is drawn from, and whether the trace adds to it
        (a discovery trace does; a trace played again uses a copy of what it first used)."""
        if discovering:
            if wiring is not self._wiring or self.current is None:
                self._wiring, self.current = wiring, Exploration()
            frozen = Exploration()
            frozen.horizons, frozen.traces = dict(self.current.horizons), self.current.traces
            self._used[seed] = frozen
            self._used.move_to_end(seed)
            while len(self._used) > _REMEMBERED:
                self._used.popitem(last=False)
            return self.current, True
        return self._used.get(seed) or Exploration(), False

    def describe(self) -> str:
        """What the last run explored (see :meth:`Exploration.describe`)."""
        return "no run yet" if self.current is None else self.current.describe()


class Plan:
    """One discovery trace's schedule, drawn from the trace's stream at its first draw: the
    prefix's length, and (PCT) the branches' priorities and the calls with a change point."""

    def __init__(self, concurrency: Any, exploration: Exploration) -> None:
        self.concurrency = concurrency
        self.exploration = exploration
        self.drawn = False
        self.quotas: list[int] = []
        self.changes: set[int] = set()
        self.priorities: list[int] = []
        self.lowered = 0
        self.ordinal = 0
        self.made = 0
        #: Where this trace preempts threads (``"line"``, ``"opcode"``, ``"action"``).
        self.preemption = "action" if concurrency.tasks else concurrency.preemption

    def _draw(self, stream: Stream) -> None:
        c = self.concurrency
        self.quotas = [stream.integer(0, c.prefix + 1)] + [stream.integer(1, c.branch_steps + 1) for _ in range(c.branches)]
        if c.schedule == "pct":
            level = self.exploration.level()
            if c.preemptions is not None:
                level = min(level, c.preemptions)
            changes = stream.integer(1, level + 1) if level > 0 else 0
            calls = list(range(sum(self.quotas[1:])))  # the trace's calls in the branches
            for i in range(min(changes, len(calls))):
                j = stream.integer(i, len(calls))
                calls[i], calls[j] = calls[j], calls[i]
            self.changes = set(calls[: min(changes, len(calls))])
            order = list(range(c.branches))
            for i in range(len(order) - 1):
                j = stream.integer(i, len(order))
                order[i], order[j] = order[j], order[i]
            # Distinct priorities above every lowered one (the i-th change lowers to i).
            self.priorities = [len(self.changes) + 1 + order.index(k) for k in range(c.branches)]
        self.drawn = True

    def budget(self, stream: Stream) -> int:
        """How many preemptions the trace may make (its first draw): the change points (PCT),
        or the bound (random). Shrinking lowers it first: fewer preemptions come first."""
        if not self.drawn:
            self._draw(stream)
        c = self.concurrency
        if c.schedule == "pct":
            return len(self.changes)
        return c.branches * c.branch_steps if c.preemptions is None else min(c.preemptions, c.branches * c.branch_steps)

    def lane(self, stream: Stream, lanes: Sequence[Sequence[Any]]) -> int:
        """Where the next step goes: the prefix (0) or a branch, among those not full."""
        if not self.drawn:
            self._draw(stream)
        open_lanes = [k for k, lane in enumerate(lanes) if len(lane) < self.quotas[k]] or [0]
        return open_lanes[stream.integer(0, len(open_lanes))]

    def full(self, lanes: Sequence[Sequence[Any]]) -> bool:
        """Whether discovery has made every step of the trace (its lanes are full)."""
        return self.drawn and all(len(lane) >= quota for lane, quota in zip(lanes, self.quotas))

    def granularity(self, stream: Stream) -> int:
        """Under ``preemption="auto"``: whether this trace preempts at opcodes (1) rather than
        lines (0) -- one trace in three, once the run has tried :data:`DEEPENING` schedules."""
        return int(self.exploration.level() >= 2 and stream.integer(0, 3) == 0)

    def point(self, stream: Stream, lane: int, position: int, action: str) -> int:
        """The preemption point of a call just made, ``position``-th of its lane (``0``: none)."""
        if lane == 0:
            return 0
        c = self.concurrency
        ordinal = self.ordinal
        self.ordinal += 1
        if c.schedule == "pct":
            if ordinal not in self.changes:
                return 0
        else:
            if (c.preemptions is not None and self.made >= c.preemptions) or not stream.boolean(0.5):
                return 0
        low = 2 if position == 0 else 1  # before a branch's first call is no preemption
        high = 1 + self.exploration.horizon(action, "suspension" if c.tasks else self.preemption)
        if high < low:
            return 0
        self.made += 1
        return stream.integer(low, high + 1)

    def choose(self, stream: Stream, candidates: Sequence[int]) -> int:
        """Which of the ``candidates`` (branch numbers, in circle order) runs next."""
        if self.priorities:
            return max(range(len(candidates)), key=lambda i: self.priorities[candidates[i]])
        return stream.integer(0, len(candidates))

    def switched(self, branch: int) -> None:
        """Branch ``branch`` was preempted: under PCT its priority drops below the others'."""
        if self.priorities:
            self.lowered += 1
            self.priorities[branch] = self.lowered
