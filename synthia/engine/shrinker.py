"""The generic shrinker: a failing input made as small as possible by editing its draws.

It knows nothing of picker classes. It holds the :class:`~synthia.core.draws.Tape` of the
smallest failure found so far and proposes edited draw sequences to an ``attempt``
function (the harness), which replays each one through the wiring and runs the test.
A proposal is accepted only when the replay fails **the same way** (same exception type
raised at the same place, or ``False`` returned) and its real tape -- what the replay
actually drew, after clamping -- is smaller in the shortlex order
(:meth:`~synthia.core.draws.Tape.key`). So every accepted input is strictly smaller and a
real output of the wiring, and shrinking always ends.

The passes, run in rounds until a round finds nothing smaller:

* **history**: drop the picks before the tested one (they only set the state of stateful
  pickers), all at once, then the longest prefix, then one at a time;
* **delete**: remove runs of sibling spans of the same picker (list elements, sub-trees,
  actions) or runs of a picker's own draws of one shape (the characters of a string, the
  booleans of a list whose size a ``Bind`` drew), each alone and with a preceding integer
  draw -- the length that controls the repetition, also one drawn inside an enclosing span
  of the same picker (a recursion's outer list) -- lowered by the number of units removed;
  a unit may be a few sibling spans of different pickers that repeat in turn (a dict's
  entry: its key span and its value span, deleted as one); where the first unit cannot go
  alone, the first two go together (a length that must stay odd) (a long run whose first, middle and last units cannot go is
  not tried unit by unit: the failure needs its length);
* **simplify spans**: replace a span by the simplest draws of its picker, by a descendant
  span of the same picker (a sub-tree by one of its own sub-trees: the smallest few, then
  the largest few, which hold most of the failure -- ``0+((((0*0))))`` becomes
  ``((((0*0))))``) or by a simpler sibling;
* **lower**: many draws of one shape to their simplest value together, then each draw
  towards its simplest value -- the simplest at once, then a binary search, integral values
  first for floats (over the float's bit pattern when it fails arbitrarily close to zero);
* **redecide**: a decision (a ``Choice``'s, a ``Bind``'s value) lowered with the part it
  decides made afresh from the simplest draws; failing that, with a number of the failing
  value that no draw holds (a constant's) as one of the part's first draws: 4991 made by
  ``Choice(4991, 5009)`` is made by an earlier ``AnyInteger()``, which then goes to 4990;
  an integer heading a span that goes on with draws of its own (a ``Bind``'s value and the
  draws of the wiring made from it) lowered with one of the next draws changed (the pairs
  of 12 nodes read as those of 2, one of them flipped so the graph stays acyclic);
* **pairs**: two numeric draws (integers, floats, weighted indices) moved together -- both
  lowered by the same amount first (``0 < b - a <= 30`` reaches ``(0, 1)``), then one lowered
  while the other rises by the same amount (``a + b > 1000`` reaches ``(1, 1000)``), or a
  partner at its simplest moved the same way as the draw (``(-1, 0)`` to ``(0, 1)``) -- and
  equal draws lowered as one; a True boolean moved to the nearest later False;
* **sort**: sibling spans of the same picker sorted, then adjacent ones swapped; two spans
  apart of one picker, or of two pickers of one kind (``kinds``), swapped when the later is
  the simpler.

The shrinker stops when a round improves nothing, after ``max_calls`` attempts, or when
``deadline`` (a :func:`time.perf_counter` value) passes; :attr:`Shrinker.stopped_by` says
which.
"""
from __future__ import annotations

import math
import struct
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

from ..core.draws import BOOLEAN, FLOAT, INTEGER, WEIGHTED, Draw, Flex, Tape, simplest, sort_key
from ..core.graph import span_kind

__all__ = ["Attempt", "Shrinker", "largest_true", "far_end", "FAIL", "PASS", "INVALID"]

FAIL = "fail"
PASS = "pass"
INVALID = "invalid"

#: The most sibling spans a delete tries to remove at once is found by doubling, then bisection.
_COUNTERS = 3  # how many preceding integer draws are tried as the length of a repetition
_PAIR_WINDOW = 4  # numeric draws at most this far apart are moved together
_PAIR_REACH = 64  # and, beyond them, draws not at their simplest up to this far
_DESCENDANTS = 8  # descendants tried in place of a span, smallest first
_LARGE_DESCENDANTS = 4  # and the largest ones, largest first
_SMALL_VALUES = 16  # the simplest integers tried when bisection finds nothing
_STRIDES = 32  # the longest step tried towards the simplest value when those fail too
_LONG_RUN = 8  # sibling runs this long are first cut from the end
_GROUP_PERIOD = 3  # the most sibling spans of different pickers deleted as one unit (a dict's entry: 2)
_WIDEN_VALUES = 2  # numbers of the failing value tried as the first draw of a simpler alternative
_WIDEN_DECISIONS = 2  # the simplest decisions they are tried with
_WIDEN_POSITIONS = 3  # and the draws of the alternative they are tried as
_HALVED_RUN = 64  # sibling runs this long first lose either half
_ADJUST_VALUES = 3  # the simplest values a size is lowered to while a later draw is changed
_ADJUST_WINDOW = 8  # the draws after it that may be changed
_NEXT_DRAWS = 6  # draws after a deleted block that a deletion may simplify too
_RELABEL_LIMIT = 8  # distinct values of one shape whose pairs are swapped throughout
_SWAP_LIMIT = 32  # spans of one picker compared pairwise for swaps (more: only siblings are sorted)
_TWIN_SPANS = 256  # distinct span contents looked at for equal twins
_TWINS_PER_CONTENT = 4  # equal spans of one content paired with each other
_TWIN_PAIRS = 64  # pairs of equal spans a change is mirrored between

#: The kinds of draws the pairs pass moves together (a weighted draw is an index: numeric too).
_NUMERIC = (INTEGER, FLOAT, WEIGHTED)


@dataclass
class Attempt:
    """One replay of a draw sequence and the test run on its value.

    ``status`` is ``"fail"``, ``"pass"`` or ``"invalid"`` (the wiring could not make a
    value from these draws: a filter gave up, the replay ran over its budget, a picker
    raised). ``tape`` is what the replay really drew; ``origin`` identifies the failure
    (the exception's type and where it was raised, or ``"returned False"``).
    """

    status: str
    tape: Tape | None = None
    value: Any = None
    exception: BaseException | None = None
    origin: Any = None
    drawn: list[Any] = field(default_factory=list)


class _Stop(Exception):
    """The shrinker's budget (calls or time) is spent."""


def largest_true(holds: Callable[[int], bool], upper: int | None = None) -> int:
    """The largest ``n`` (at most ``upper``) such that ``holds(n)``, assuming ``holds(0)``.

    Doubles ``n`` while ``holds(n)``, then bisects: ``O(log n)`` calls when ``holds`` is
    monotone, and a true value (not always the largest) when it is not.

    >>> largest_true(lambda n: n * n <= 50)
    7
    >>> largest_true(lambda n: True, upper=5)
    5
    """
    lo, hi = 0, 1
    while upper is None or hi <= upper:
        if not holds(hi):
            break
        lo, hi = hi, hi * 2
    else:
        hi = upper + 1  # type: ignore[operator]
    while lo + 1 < hi:
        mid = (lo + hi) // 2
        if holds(mid):
            lo = mid
        else:
            hi = mid
    return lo


def _entry_key(entry: Draw | Flex) -> Any:
    if isinstance(entry, Flex):
        return ("flex", entry.label, tuple(_entry_key(d) for d in entry.draws))
    return (entry.kind, entry.value)


def _by_shape(draws: Sequence[Draw]) -> dict[tuple[Any, tuple[Any, ...]], list[int]]:
    """The positions of the draws of each shape (kind and arguments), booleans left out."""
    groups: dict[tuple[Any, tuple[Any, ...]], list[int]] = {}
    for i, d in enumerate(draws):
        if d.kind != BOOLEAN:
            groups.setdefault((d.kind, d.args), []).append(i)
    return groups


def _float_bits(x: float) -> int:
    """The bit pattern of a non-negative float: an int that orders them as their values."""
    return int(struct.unpack("<q", struct.pack("<d", x))[0])


def _bits_float(bits: int) -> float:
    return float(struct.unpack("<d", struct.pack("<q", bits))[0])


def far_end(draw: Draw) -> Any:
    """The value of ``draw``'s domain farthest from its simplest one (the other end of its range).

    >>> far_end(Draw(INTEGER, 3, (0, 10))), far_end(Draw(BOOLEAN, False, (0.5,)))
    (9, True)
    """
    if draw.kind == INTEGER:
        low, high = draw.args
        return max(low, high - 1, key=lambda v: sort_key(INTEGER, v))
    if draw.kind == FLOAT:
        low, high = draw.args
        top = max(low, math.nextafter(high, -math.inf))
        target = simplest(FLOAT, draw.args)
        return low if abs(low - target) > abs(top - target) else top
    if draw.kind == BOOLEAN:
        return draw.args[0] > 0.0
    cumulative = draw.args[0]
    for i in range(len(cumulative) - 1, -1, -1):
        if cumulative[i] > (cumulative[i - 1] if i else 0.0):
            return i
    return 0


class Shrinker:
    """Minimise a failing input over its recorded draws (see the module docstring).

    ``attempt(picks, entries, max_draws)`` replays ``picks`` top-level picks with draws
    taken from ``entries`` (draws and :class:`~synthia.core.draws.Flex` blocks) and
    returns an :class:`Attempt`. ``initial`` is the failing attempt to start from.
    Proposals are built from a *base* tape (the best one when the pass began) and
    compared with the best one at the time they are tried, so a pass may go on
    proposing from its base after an improvement.
    """

    def __init__(
        self,
        attempt: Callable[[int, list[Any], "int | None"], Attempt],
        initial: Attempt,
        *,
        max_calls: int = 20_000,
        deadline: float | None = None,
        kinds: Sequence[str] | None = None,
    ) -> None:
        if initial.status != FAIL or initial.tape is None:
            raise ValueError(f"initial must be a failing attempt with its tape, got status {initial.status!r}")
        self._attempt = attempt
        self.best = initial
        self.max_calls = max_calls
        self.deadline = deadline
        self.calls = 0
        self.improvements = 0
        self.stopped_by = ""
        self._cache: dict[Any, Attempt | None] = {}
        self._own: tuple[Tape, dict[int, int]] | None = None
        self._numbers_of: tuple[Attempt, list[Any]] | None = None
        #: The kind of each span label (:func:`~synthia.core.graph.kinds_of`): spans of two
        #: pickers of one kind may swap places, as spans of one picker do.
        self.kinds = list(kinds) if kinds is not None else None
        self._twins: tuple[Tape, list[tuple[int, int, int]]] | None = None
        #: The units of long runs the last delete pass found bound (see :meth:`pass_delete`).
        self._length_bound: tuple[Tape | None, set[int]] = (None, set())

    # -- proposals --------------------------------------------------------------------------
    @property
    def tape(self) -> Tape:
        """The tape of the smallest failure so far."""
        assert self.best.tape is not None
        return self.best.tape

    def consider(self, picks: int, entries: Sequence[Draw | Flex], shorter_than: int | None = None) -> bool:
        """Replay ``entries``; adopt the result if it fails the same way and is smaller.

        With ``shorter_than``, the result must also have fewer draws than that (a deletion
        that the replay fills up again with simplest draws is not a deletion).
        """
        key = (picks, tuple(map(_entry_key, entries)))
        if key in self._cache:
            result = self._cache[key]
        else:
            if self.calls >= self.max_calls:
                self.stopped_by = f"the candidate budget ({self.max_calls} replays)"
                raise _Stop
            if self.deadline is not None and time.perf_counter() > self.deadline:
                self.stopped_by = "the time budget"
                raise _Stop
            best = self.tape
            # A replay that draws more than the best cannot be smaller (with as many picks).
            max_draws = len(best.draws) if picks >= best.picks else 2 * len(best.draws) + 1000
            self.calls += 1
            attempt = self._attempt(picks, list(entries), max_draws)
            result = attempt if attempt.status == FAIL and attempt.tape is not None else None
            self._cache[key] = result
        if result is not None and result.origin == self.best.origin:
            assert result.tape is not None
            if shorter_than is not None and len(result.tape.draws) >= shorter_than and result.tape.picks >= picks:
                return False
            if result.tape.key() < self.tape.key():
                self.best = result
                self.improvements += 1
                return True
        mirrored = self._mirrored(picks, entries)
        return mirrored is not None and self.consider(picks, mirrored, shorter_than)

    def _mirrored(self, picks: int, entries: Sequence[Draw | Flex]) -> list[Draw | Flex] | None:
        """``entries`` with its changes to one of two equal spans of one kind made to the
        other too (``None``: not such a change). Equal parts -- ``x == y``, a repeated
        element -- stay equal only if they shrink together, and every pass changes one part."""
        best = self.tape
        if picks != best.picks or len(entries) != len(best.draws):
            return None
        twins = self._equal_twins(best)
        if not twins:
            return None
        draws = best.draws
        changed = [i for i, (e, d) in enumerate(zip(entries, draws)) if e is not d and e != d]
        if not changed or not all(isinstance(entries[i], Draw) for i in changed):
            return None
        low, high = changed[0], changed[-1]
        for a, b, length in twins:
            for here, there in ((a, b), (b, a)):
                if here <= low and high < here + length:
                    mirrored = list(entries)
                    for i in changed:
                        mirrored[there + i - here] = entries[i]
                    return mirrored
        return None

    def _equal_twins(self, tape: Tape) -> list[tuple[int, int, int]]:
        """Pairs of separate spans of one kind with equal draws in ``tape``: ``(start, other
        start, length)``, kept for the tape they were found in."""
        cached = self._twins
        if cached is not None and cached[0] is tape:
            return cached[1]
        by_content: dict[Any, list[Any]] = {}
        for s in tape.spans:
            if len(s) and len(by_content) < _TWIN_SPANS:
                content = tuple((d.kind, d.value) for d in tape.draws[s.start : s.end])
                by_content.setdefault((span_kind(self.kinds, s.label), content), []).append(s)
        twins: list[tuple[int, int, int]] = []
        for spans in by_content.values():
            spans = spans[:_TWINS_PER_CONTENT]  # a list of a thousand equal elements: a few pairs
            for x, first in enumerate(spans):
                for second in spans[x + 1 :]:
                    if first.end <= second.start and len(twins) < _TWIN_PAIRS:
                        twins.append((first.start, second.start, first.end - first.start))
        self._twins = (tape, twins)
        return twins

    def replace(self, changes: dict[int, Any], base: Tape | None = None) -> bool:
        """Consider ``base`` (the best tape by default) with some draws' values changed."""
        tape = self.tape if base is None else base
        entries: list[Draw | Flex] = list(tape.draws)
        for i, value in changes.items():
            entries[i] = tape.draws[i]._replace(value=value)
        return self.consider(tape.picks, entries)

    # -- the run -------------------------------------------------------------------------------
    def shrink(self) -> Attempt:
        """Run rounds of passes until one improves nothing or the budget is spent."""
        passes = (
            self.pass_history,
            self.pass_delete,
            self.pass_merge,
            self.pass_simplify_spans,
            self.pass_lower,
            self.pass_redecide,
            self.pass_pairs,
            self.pass_sort,
        )
        try:
            while True:
                before = self.tape.key()
                for run_pass in passes:
                    run_pass()
                if self.tape.key() == before:
                    self.stopped_by = "a full round of passes found nothing smaller"
                    break
        except _Stop:
            pass
        return self.best

    # -- history ----------------------------------------------------------------------------
    def pass_history(self) -> None:
        """Drop the picks before the tested one: all, the longest prefix, then one by one."""
        base = self.tape
        if base.picks <= 1:
            return
        if self.consider(1, base.draws[base.pick_starts[-1] :]):
            return

        def without_first(m: int) -> bool:
            return m == 0 or self.consider(base.picks - m, base.draws[base.pick_starts[m] :])

        if largest_true(without_first, upper=base.picks - 1):
            return
        k = 0
        while k < self.tape.picks - 1 and self.tape.picks <= 64:
            t = self.tape
            ends = t.pick_starts[1:] + [len(t.draws)]
            if not self.consider(t.picks - 1, t.draws[: t.pick_starts[k]] + t.draws[ends[k] :]):
                k += 1

    # -- deletion -----------------------------------------------------------------------------
    def pass_delete(self) -> None:
        """Delete runs of sibling spans of one picker, and runs of a picker's own draws."""
        p = 0
        # Units of long runs whose first, middle and last units cannot go (a length the
        # failure needs): each would cost a replay of the whole input, for nothing.
        bound: set[int] = set()
        bound_in: Tape | None = None
        while p < len(self.tape.spans):
            base = self.tape
            if bound_in is not base:
                bound, bound_in = set(), base
            if p in bound:
                p += 1
                continue
            span = base.spans[p]
            if len(span) > 0:
                run = self._run_of_siblings(base, p)
                if run is not None:
                    deleted = self._delete_spans(base, run)
                    if deleted:
                        continue
                    if deleted is None:
                        bound.update(run)
                if self._delete_groups(base, p):
                    continue
            if len(span) > 1 and self._delete_own_draws(base, p):
                continue
            p += 1
        self._length_bound = (bound_in, bound)

    @staticmethod
    def _units_of(tape: Tape, label: Any, at: int) -> list[tuple[int, int]]:
        """The draws of the spans of picker ``label`` that do not enclose draw ``at``."""
        return [(s.start, s.end) for s in tape.spans if s.label == label and not s.start <= at < s.end]

    def _delete_spans(self, base: Tape, run: list[int]) -> bool | None:
        """Delete units of ``run``: True when some went; ``None`` when the run is long and
        neither its first, its middle nor its last unit can go."""
        label = base.spans[run[0]].label
        # Units of the same picker elsewhere are not lengths; the spans of that picker around
        # the run (a recursion: the list that holds these lists) may hold the run's length.
        excluded = self._units_of(base, label, base.spans[run[0]].start)
        # The integers before the run that may count its units (its length).
        counters = self._counters(base, base.spans[run[0]].start, lambda i: any(a <= i < b for a, b in excluded))

        def delete(k: int, neighbours: bool = True) -> bool:
            if k == 0:
                return True
            first, last = base.spans[run[0]], base.spans[run[k - 1]]
            return self._delete(base, first.start, last.end, k, counters, base.spans[run[-1]].end, neighbours)

        def delete_tail(k: int, neighbours: bool = True) -> bool:
            if k == 0:
                return True
            first, last = base.spans[run[-k]], base.spans[run[-1]]
            return self._delete(base, first.start, last.end, k, counters, 0, neighbours)

        def delete_middle() -> bool:
            unit = base.spans[run[len(run) // 2]]
            return self._delete(base, unit.start, unit.end, 1, counters)

        # A very long run loses half of itself, either half, while that still fails: a few
        # replays of decreasing lengths (twice the run's draws in all) find the one element a
        # failure of 10,000 needs, where cutting its tail by doubling replays it all each time.
        if len(run) >= _HALVED_RUN:
            half = len(run) // 2
            if delete_tail(len(run) - half, neighbours=False) or delete(half, neighbours=False):
                return True
        # A long run loses its tail in few replays (a list truncated to what still fails).
        if len(run) >= _LONG_RUN and delete_tail(1):
            largest_true(lambda k: k <= 1 or delete_tail(k), upper=len(run))
            return True
        if not delete(1):
            # Two units at once: a length that must stay odd (len(xs) % 2 == 1) loses two.
            if len(run) >= 2 and delete(2, neighbours=False):
                largest_true(lambda k: k <= 2 or delete(k), upper=len(run))
                return True
            if len(run) >= _LONG_RUN and not delete_middle():
                return None
            return False
        largest_true(lambda k: k <= 1 or delete(k), upper=len(run))
        return True

    def _delete_groups(self, base: Tape, p: int) -> bool:
        """Delete units made of a few sibling spans of different pickers that repeat in turn
        (a dict's entries: a key span, then a value span), from span ``p`` on, with a
        preceding length lowered: the entry goes as one, where deleting its key or its value
        alone leaves a different shape."""
        span = base.spans[p]
        if span.parent < 0:
            return False
        siblings = self._siblings(base, span.parent)
        k = siblings.index(p)
        labels = [base.spans[q].label for q in siblings]
        for m in range(2, _GROUP_PERIOD + 1):
            pattern = labels[k : k + m]
            if len(pattern) < m or len(set(pattern)) < 2 or not (labels[k + m : k + 2 * m] == pattern or labels[max(0, k - m) : k] == pattern):
                continue
            groups: list[tuple[int, int]] = []
            q = k
            while labels[q : q + m] == pattern:
                first, last = base.spans[siblings[q]], base.spans[siblings[q + m - 1]]
                if groups and groups[-1][1] != first.start:
                    break
                groups.append((first.start, last.end))
                q += m
            excluded = [u for label in set(pattern) for u in self._units_of(base, label, groups[0][0])]
            counters = self._counters(base, groups[0][0], lambda i: any(a <= i < b for a, b in excluded))

            def delete(n: int, groups: list[tuple[int, int]] = groups, counters: list[int] = counters) -> bool:
                return n == 0 or self._delete(base, groups[0][0], groups[n - 1][1], n, counters, groups[-1][1])

            if delete(1):
                largest_true(lambda n: n <= 1 or delete(n), upper=len(groups))
                return True
        return False

    def _delete_own_draws(self, base: Tape, p: int) -> bool:
        """Delete runs of span ``p``'s own draws of one shape (the characters of a string)."""
        own = base.direct_draws(p)
        if len(own) < 2:
            return False
        for position, i in enumerate(own):
            shape = (base.draws[i].kind, base.draws[i].args)
            run = [i]
            for j in own[position + 1 :]:
                if j != run[-1] + 1 or (base.draws[j].kind, base.draws[j].args) != shape:
                    break
                run.append(j)
            counters = self._counters(base, i, lambda c: (base.draws[c].kind, base.draws[c].args) == shape)

            def delete(k: int, i: int = i, run: list[int] = run, counters: list[int] = counters) -> bool:
                return k == 0 or (k <= len(run) and self._delete(base, i, i + k, k, counters))

            if delete(1):
                largest_true(lambda k: k <= 1 or delete(k), upper=len(run))
                return True
        return False

    @staticmethod
    def _counters(tape: Tape, before: int, excluded: Callable[[int], bool]) -> list[int]:
        """Integer draws before ``before`` in the same pick that may count the units of a
        repetition, nearest first, skipping those ``excluded`` says are units themselves."""
        start = max([s for s in tape.pick_starts if s <= before], default=0)
        found: list[int] = []
        for i in range(before - 1, start - 1, -1):
            if tape.draws[i].kind == INTEGER and not excluded(i):
                found.append(i)
                if len(found) >= _COUNTERS:
                    break
        return found

    def _delete(self, base: Tape, start: int, end: int, units: int, counters: list[int], run_end: int = 0, neighbours: bool = True) -> bool:
        """Consider ``base`` without ``draws[start:end]``, alone and with each counter lowered.

        If none fails, the same with a neighbouring draw changed too: the decision just before
        the block (a float or weighted draw, the choice that led into it) at its far end, so
        that a path through the deleted unit can be replaced by a direct one (a session that
        skips a page); or one of the next draws at its simplest, so that what followed the
        unit can take its role (a step of a trace that now does what the deleted one did).
        Last, when the block was the first ``units`` units of a run ending at ``run_end``, the
        integers of the rest of the run lowered by ``units``: values that are positions in the
        run (``l[l[i]] == i``) keep pointing at the same units.
        """
        rest: list[Draw | Flex] = [*base.draws[:start], *base.draws[end:]]
        variants: list[list[Draw | Flex]] = [rest]
        for c in counters:
            d = base.draws[c]
            low, _high = d.args
            if d.value - units >= low:
                lowered = list(rest)
                lowered[c] = d._replace(value=d.value - units)
                variants.append(lowered)
        if not neighbours:
            # A quick try: the units gone with their length lowered (alone when none counts them).
            return any(self.consider(base.picks, v, shorter_than=len(base.draws)) for v in (variants[1:2] or variants))
        if any(self.consider(base.picks, v, shorter_than=len(base.draws)) for v in variants):
            return True
        changed: list[list[Draw | Flex]] = []
        if start > 0 and base.draws[start - 1].kind in (FLOAT, WEIGHTED) and (start - 1) not in counters:
            before = base.draws[start - 1]
            far = far_end(before)
            if far != before.value:
                changed += [v[: start - 1] + [before._replace(value=far)] + v[start:] for v in variants]
        for j in range(start, min(start + _NEXT_DRAWS, len(rest))):
            following = rest[j]
            if isinstance(following, Draw) and following.value != following.simplest:
                changed += [v[:j] + [following._replace(value=following.simplest)] + v[j + 1 :] for v in variants[:2]]
        if any(self.consider(base.picks, v, shorter_than=len(base.draws)) for v in changed):
            return True
        return any(self.consider(base.picks, v, shorter_than=len(base.draws)) for v in self._shifted(variants[:2], start, start + run_end - end, units))

    @staticmethod
    def _shifted(variants: list[list[Draw | Flex]], start: int, end: int, units: int) -> list[list[Draw | Flex]]:
        """``variants`` with each integer of ``[start, end)`` lowered by ``units`` where it can
        be (none: no variant)."""
        shifted = []
        for v in variants:
            moved = list(v)
            for j in range(start, end):
                d = moved[j]
                if isinstance(d, Draw) and d.kind == INTEGER and d.value - units >= d.args[0]:
                    moved[j] = d._replace(value=d.value - units)
            if moved != v:
                shifted.append(moved)
        return shifted

    def _run_of_siblings(self, tape: Tape, p: int) -> list[int] | None:
        """The spans from ``p`` on that are consecutive siblings of the same picker, or ``None``
        when the picker of span ``p`` does not repeat under its parent."""
        span = tape.spans[p]
        siblings = self._siblings(tape, span.parent)
        if sum(1 for q in siblings if tape.spans[q].label == span.label) < 2 and not self._counted(tape, span):
            return None
        run = []
        for q in siblings[siblings.index(p) :]:
            if tape.spans[q].label != span.label:
                break
            run.append(q)
        return run

    def _counted(self, tape: Tape, span: Any) -> bool:
        """Whether a lone span may be one unit of a repetition: its parent drew, before it, an
        integer equal to the number of spans of its picker there (a list's length of 1)."""
        if span.parent < 0:
            return False
        units = sum(1 for q in self._siblings(tape, span.parent) if tape.spans[q].label == span.label)
        return any(
            tape.draws[i].kind == INTEGER and tape.draws[i].value == units
            for i in range(tape.spans[span.parent].start, span.start)
        )

    @staticmethod
    def _siblings(tape: Tape, parent: int) -> list[int]:
        return tape.children(parent)

    def pass_merge(self) -> None:
        """Merge adjacent sibling spans of one picker that each begin with a count (two inner
        lists into one): the counts added, the contents joined, the parent's count lowered."""
        p = 0
        while p < len(self.tape.spans):
            base = self.tape
            tape, bound = self._length_bound
            if tape is base and p in bound:
                p += 1  # a unit of a run whose length the failure needs: a merge shortens it
                continue
            if not self._merge(base, p):
                p += 1

    def _merge(self, base: Tape, p: int) -> bool:
        a = base.spans[p]
        siblings = self._siblings(base, a.parent)
        k = siblings.index(p)
        if k + 1 >= len(siblings):
            return False
        b = base.spans[siblings[k + 1]]
        if b.label != a.label or a.end != b.start or not len(a) or not len(b):
            return False
        block_a, block_b = base.draws[a.start : a.end], base.draws[b.start : b.end]
        candidates: list[list[Draw]] = []
        if block_a[0].kind == INTEGER and block_b[0].kind == INTEGER:
            # Two repetitions, each led by its count (two inner lists): one holding both.
            candidates.append([block_a[0]._replace(value=block_a[0].value + block_b[0].value), *block_a[1:], *block_b[1:]])
        if [(d.kind, d.args) for d in block_a] == [(d.kind, d.args) for d in block_b]:
            # Two parts of the same shape (two deposits): one whose numbers add up both.
            candidates.append(
                [x._replace(value=x.value + y.value) if x.kind in (INTEGER, FLOAT) and y.value != y.simplest else x for x, y in zip(block_a, block_b)]
            )
        for merged in candidates:
            if a.parent < 0:
                # Two top-level picks (steps of a trace, a stateful wiring's history): one fewer.
                if self.consider(base.picks - 1, [*base.draws[: a.start], *merged, *base.draws[b.end :]], shorter_than=len(base.draws)):
                    return True
                continue
            excluded = self._units_of(base, a.label, a.start)
            for c in self._counters(base, a.start, lambda i: any(lo <= i < hi for lo, hi in excluded)):
                d = base.draws[c]
                if d.value - 1 < d.args[0]:
                    continue
                before = list(base.draws[: a.start])
                before[c] = d._replace(value=d.value - 1)
                if self.consider(base.picks, [*before, *merged, *base.draws[b.end :]], shorter_than=len(base.draws)):
                    return True
        return False

    # -- simpler spans ------------------------------------------------------------------------
    def pass_simplify_spans(self) -> None:
        """Replace spans by their picker's simplest draws, by a descendant, or by a simpler sibling."""
        p = 0
        while p < len(self.tape.spans):
            base = self.tape
            span = base.spans[p]
            if len(span) < 2:
                p += 1
                continue
            before, after = base.draws[: span.start], base.draws[span.end :]
            if self.consider(base.picks, [*before, Flex(span.label, ()), *after]):
                continue
            if any(
                self.consider(base.picks, [*before, Flex(span.label, self._structured(base, q)), *after])
                for q in self._simpler_spans(base, p)
            ):
                continue
            p += 1

    def _structured(self, tape: Tape, q: int) -> tuple[Any, ...]:
        """The draws of span ``q`` with each of its sub-spans a :class:`Flex` block of its own,
        so that moved elsewhere, every part takes its own draws (see :class:`Flex`)."""
        span = tape.spans[q]
        entries: list[Any] = []
        position = span.start
        for c in tape.children(q):
            child = tape.spans[c]
            entries.extend(tape.draws[position : child.start])
            entries.append(Flex(child.label, self._structured(tape, c)))
            position = child.end
        entries.extend(tape.draws[position : span.end])
        return tuple(entries)

    def _simpler_spans(self, tape: Tape, p: int) -> list[int]:
        """Positions of the descendants of span ``p`` made by the same picker (smallest first),
        then of its siblings of the same picker whose draws are smaller."""
        span = tape.spans[p]

        def block_key(s: Any) -> Any:
            return (len(s), tuple(sort_key(d.kind, d.value) for d in tape.draws[s.start : s.end]))

        # One of each distinct block: a tree's many equal leaves are one candidate, so that
        # the larger sub-trees behind them are tried too.
        distinct: dict[Any, int] = {}
        for q in range(p + 1, len(tape.spans)):
            s = tape.spans[q]
            if s.label == span.label and span.start <= s.start and s.end <= span.end and len(s) < len(span):
                distinct.setdefault(block_key(s), q)
        descendants = [distinct[key] for key in sorted(distinct)]

        mine = block_key(span)
        siblings = [
            q for q in self._siblings(tape, span.parent)
            if q != p and tape.spans[q].label == span.label and block_key(tape.spans[q]) < mine
        ]
        # The smallest few, then the largest few: a failure that needs most of the span (a
        # deep bracketed product under a sum) is held by one of its largest descendants.
        largest = [q for q in descendants[_DESCENDANTS:][-_LARGE_DESCENDANTS:]][::-1]
        return descendants[:_DESCENDANTS] + largest + siblings[:_DESCENDANTS]

    # -- lowering draws -------------------------------------------------------------------------
    def pass_lower(self) -> None:
        """Each draw to its simplest value, then (for those that cannot) a binary search.
        Many draws of one shape go to their simplest value together first: one replay where
        a long list's elements would take one each."""
        tried: set[Any] = set()
        while True:
            draws = self.tape.draws
            many = []
            for shape, positions in _by_shape(draws).items():
                raised = [i for i in positions if draws[i].value != simplest(*shape)]
                if shape not in tried and len(raised) >= _LONG_RUN:
                    many.append((shape, raised))
            if not many:
                break
            (kind, args), raised = many[0]
            tried.add((kind, args))
            self.replace({i: simplest(kind, args) for i in raised})
        i = 0
        while i < len(self.tape.draws):
            d = self.tape.draws[i]
            target = simplest(d.kind, d.args)
            if sort_key(d.kind, d.value) != sort_key(d.kind, target) or (d.value != target):
                self.replace({i: target})
            i += 1
        i = 0
        while i < len(self.tape.draws):
            d = self.tape.draws[i]
            if d.kind == INTEGER:
                self._lower_integer(i)
            elif d.kind == FLOAT:
                self._lower_float(i)
            elif d.kind == WEIGHTED:
                self._bisect(i, simplest(d.kind, d.args), d.value)
            elif d.kind == BOOLEAN and d.value is True and d.args[0] < 1.0:
                self.replace({i: False})
            i += 1

    def _bisect(self, i: int, good: Any, bad: Any, integral_float: bool = False) -> None:
        """Binary search, between ``good`` (does not fail) and ``bad`` (fails), for the value of
        draw ``i`` closest to ``good`` that still fails."""
        while abs(bad - good) > 1:
            mid = good + (bad - good) // 2 if not isinstance(bad, float) or integral_float else good + (bad - good) / 2
            if integral_float:
                mid = float(mid)
            if mid == good or mid == bad:
                break
            if self.replace({i: mid}):
                bad = mid
            else:
                good = mid

    def _lower_integer(self, i: int) -> None:
        d = self.tape.draws[i]
        low, high = d.args
        target = simplest(INTEGER, d.args)
        if d.value == target:
            return
        self._bisect(i, target, d.value)
        v = self.tape.draws[i].value
        if v == d.value:
            # Bisection found nothing (a failure that is not monotone, such as x % 7 == 3):
            # the simplest few values of the range, in order.
            for rank in range(1, _SMALL_VALUES + 1):
                small = (rank + 1) // 2 if rank % 2 else -(rank // 2)
                if low <= small < high and sort_key(INTEGER, small) < sort_key(INTEGER, v) and self.replace({i: small}):
                    break
            v = self.tape.draws[i].value
            if v == d.value:
                self._stride(i, target)
            v = self.tape.draws[i].value
        # A negative value's positive twin is simpler: try it, and then what lies below it.
        if v < 0 and -v < high and self.replace({i: -v}):
            self._bisect(i, 0, -v)
        v = self.tape.draws[i].value
        step = v - 1 if v > target else v + 1
        if v != target and low <= step < high:
            self.replace({i: step})

    # -- decisions made again ------------------------------------------------------------------
    def pass_redecide(self) -> None:
        """A draw that decides the one part after it in its span (a ``Choice``'s decision and
        the alternative it picks, a ``Bind``'s value and the wiring made from it) lowered, with
        that part made afresh from the simplest draws: a sum of zeros where a division was,
        rather than a sum of the division's parts (which lowering alone keeps)."""
        i = 0
        while i < len(self.tape.draws):
            base = self.tape
            decided = self._decided_span(base, i)
            if decided is not None:
                d = base.draws[i]
                span = base.spans[decided]
                lowered = self._lower_values(d)
                for value in lowered:
                    block = Flex(span.label, (*base.draws[span.start : i], Draw(d.kind, value, d.args)))
                    if self.consider(base.picks, [*base.draws[: span.start], block, *base.draws[span.end :]]):
                        break
                else:
                    self._widen(base, i, decided, lowered)
            elif base.draws[i].kind == INTEGER and self._sizes_own_draws(base, i):
                self._lower_and_adjust(base, i)
            i += 1

    def _sizes_own_draws(self, tape: Tape, i: int) -> bool:
        """Whether integer draw ``i`` is a pick of its own at the head of a span that goes on
        with draws of its own (a ``Bind``'s value and the draws of the wiring made from it,
        which are not spans): how many of those follow may depend on it."""
        q = self._own_spans(tape).get(i)
        if q is None:
            return False
        while q >= 0 and tape.spans[q].end == i + 1:
            q = tape.spans[q].parent
        if q < 0 or tape.spans[q].start != i:
            return False
        later = [j for j in tape.direct_draws(q) if j > i]
        return bool(later)

    def _lower_and_adjust(self, base: Tape, i: int) -> bool:
        """Draw ``i`` lowered (to its simplest few values, or by one) with one of the next draws
        changed too: the draws that followed a larger value are read differently by a smaller
        one (the pairs of 12 nodes read as the pairs of 2), and one of them set otherwise (an
        edge taken away) makes the smaller input valid again."""
        d = base.draws[i]
        values = self._lower_values(d)[:_ADJUST_VALUES]
        below = d.value - 1 if d.value > simplest(d.kind, d.args) else d.value + 1
        if below not in values and sort_key(d.kind, below) < sort_key(d.kind, d.value):
            values.append(below)
        for value in values:
            # The latest first: of two such inputs, the one whose earlier draws stay is smaller.
            for j in reversed(range(i + 1, min(len(base.draws), i + 1 + _ADJUST_WINDOW))):
                later = base.draws[j]
                for other in self._other_values(later):
                    if self.replace({i: value, j: other}, base):
                        return True
        return False

    @staticmethod
    def _other_values(d: Draw) -> list[Any]:
        """Values to set a draw to when it must change, not shrink: the other boolean, the
        simplest value and the far end of a range."""
        if d.kind == BOOLEAN:
            return [not d.value]
        out = [v for v in (simplest(d.kind, d.args), far_end(d)) if v != d.value]
        return list(dict.fromkeys(out))

    def _widen(self, base: Tape, i: int, decided: int, lowered: list[Any]) -> bool:
        """The part draw ``i`` decides made by a simpler decision, with its first draw set to a
        number of the failing value that no draw holds: a value a later alternative made (4991
        out of a list of constants) made by an earlier, wider one (any integer), which can then
        go lower."""
        if not lowered:
            return False
        # A number some draw holds is not a constant's: a replay making it is already tried.
        drawn = {x.value for x in base.draws if x.kind != BOOLEAN}
        numbers = [n for n in self._numbers() if n not in drawn]
        if not numbers:
            return False
        d, span = base.draws[i], base.spans[decided]
        for value in lowered[:_WIDEN_DECISIONS]:
            for n in numbers:
                # The number as the alternative's first draw, or after a few at their simplest
                # (a mode drawn before the value).
                for k in range(_WIDEN_POSITIONS):
                    part = (*[Draw(None, 0)] * k, Draw(None, n))
                    block = Flex(span.label, (*base.draws[span.start : i], Draw(d.kind, value, d.args), *part))
                    if self.consider(base.picks, [*base.draws[: span.start], block, *base.draws[span.end :]]):
                        return True
        return False

    def _numbers(self) -> list[Any]:
        """The first few distinct numbers (not zero, not booleans) in the value of the smallest
        failure, in the order they appear in it."""
        cached = self._numbers_of
        if cached is not None and cached[0] is self.best:
            return cached[1]
        found: list[Any] = []
        self._numbers_of = (self.best, found)
        stack = [self.best.value]
        seen = 0
        while stack and len(found) < _WIDEN_VALUES and seen < 1000:
            v = stack.pop()
            seen += 1
            if isinstance(v, bool):
                continue
            if isinstance(v, (int, float)):
                if v != 0 and v == v and v not in found:
                    found.append(v)
            elif isinstance(v, dict):
                stack.extend(reversed([x for kv in v.items() for x in kv]))
            elif isinstance(v, (list, tuple)):
                stack.extend(reversed(v))
        return found

    def _decided_span(self, tape: Tape, i: int) -> int | None:
        """The span whose one remaining part draw ``i`` decides: draw ``i`` is a span of its own
        (a scalar picker's pick) followed, in its parent span, by exactly one sub-span that
        ends the parent. ``None`` otherwise."""
        own = self._own_spans(tape).get(i)
        if own is None:
            return None
        parent = tape.spans[own].parent
        if parent < 0:
            return None
        siblings = tape.children(parent)
        after = siblings[siblings.index(own) + 1 :]
        if len(after) != 1 or tape.spans[after[0]].end != tape.spans[parent].end or len(tape.spans[after[0]]) == 0:
            return None
        return parent

    def _own_spans(self, tape: Tape) -> dict[int, int]:
        """``draw index -> index of the span made of that draw alone`` (a scalar picker's pick)."""
        cached = self._own
        if cached is not None and cached[0] is tape:
            return cached[1]
        own = {s.start: q for q, s in enumerate(tape.spans) if len(s) == 1}
        self._own = (tape, own)
        return own

    @staticmethod
    def _lower_values(d: Draw) -> list[Any]:
        """A few values of ``d``'s domain simpler than its own, simplest first."""
        target = simplest(d.kind, d.args)
        if d.value == target:
            return []
        if d.kind == FLOAT:
            return [target, *(target + (d.value - target) * k / 4 for k in (1, 2, 3))]
        if d.kind == BOOLEAN:
            return [False]
        key = sort_key(d.kind, d.value)
        if d.kind == INTEGER:
            low, high = d.args
            candidates = [v for v in range(max(low, target - _SMALL_VALUES), min(high, target + _SMALL_VALUES + 1))]
        else:
            candidates = list(range(len(d.args[0])))
        return sorted((v for v in candidates if sort_key(d.kind, v) < key), key=lambda v: sort_key(d.kind, v))[:_SMALL_VALUES // 2]

    def _stride(self, i: int, target: int) -> None:
        """An integer draw whose failures lie on a lattice (``x % 7 == 3 and x > 100``), where
        bisection and the smallest values find nothing: the shortest step towards ``target``
        that still fails, then as many such steps as keep it failing (doubling, then bisecting)."""
        v = self.tape.draws[i].value
        toward = -1 if v > target else 1
        room = abs(v - target)
        for step in range(2, min(_STRIDES, room) + 1):
            if self.replace({i: v + toward * step}):

                def holds(m: int, step: int = step) -> bool:
                    return m == 1 or self.replace({i: v + toward * step * m})

                largest_true(holds, upper=room // step)
                return

    def _lower_float(self, i: int) -> None:
        d = self.tape.draws[i]
        low, high = d.args
        target = simplest(FLOAT, d.args)
        if d.value == target:
            return
        v = d.value
        if v < 0 and -v < high and sort_key(FLOAT, -v) < sort_key(FLOAT, v) and self.replace({i: -v}):
            v = -v  # a negative value's positive twin is simpler
        if not float(v).is_integer() and math.isfinite(v):
            # Integral values are simpler than any fraction: the one next to v towards the
            # target, else the one on the far side (a tiny positive value that must stay
            # positive: 1.0, as Hypothesis's float shrinker tries both).
            towards = float(math.floor(v) if v > target else math.ceil(v))
            away = float(math.ceil(v) if v > target else math.floor(v))
            for whole in (towards, away):
                if low <= whole < high and sort_key(FLOAT, whole) < sort_key(FLOAT, v) and self.replace({i: whole}):
                    break
        v = self.tape.draws[i].value
        if float(v).is_integer():
            if float(target).is_integer():
                self._bisect(i, target, v, integral_float=True)
            return
        for digits in range(7):
            rounded = round(v, digits)
            if low <= rounded < high and sort_key(FLOAT, rounded) < sort_key(FLOAT, v) and self.replace({i: rounded}):
                break
        good, bad = float(target), float(self.tape.draws[i].value)
        for _ in range(24):
            mid = good + (bad - good) / 2
            if mid in (good, bad):
                break
            if self.replace({i: mid}):
                bad = mid
            else:
                good = mid
        if good == target and bad != target and (target == 0.0 or (target < 0) == (bad < 0)):
            # Every value tried failed, down to a 2**24th of the start (0 < x < 0.01): halving
            # the value never ends there, halving the float's bit pattern does, exactly.
            self._bisect_bits(i, good, bad)

    def _bisect_bits(self, i: int, good: float, bad: float) -> None:
        """Binary search over the bit patterns of the floats between ``good`` and ``bad`` (of
        one sign, or ``good`` zero), which order them as their magnitudes: the failing value
        closest to ``good`` exactly, in at most 64 replays."""
        sign = -1.0 if bad < 0 else 1.0
        lo, hi = _float_bits(abs(good)), _float_bits(abs(bad))
        while hi - lo > 1:
            mid = (lo + hi) // 2
            if self.replace({i: sign * _bits_float(mid)}):
                hi = mid
            else:
                lo = mid

    # -- pairs ------------------------------------------------------------------------------
    def pass_pairs(self) -> None:
        """Move pairs of numeric draws together; lower equal draws as one; lower or relabel
        groups of draws of one shape together."""
        self._lower_groups()
        self._lower_duplicates()
        i = 0
        while i < len(self.tape.draws):
            base = self.tape
            d = base.draws[i]
            if d.kind in _NUMERIC:
                for n, j in enumerate(self._partners(base, i)):
                    if self._move_pair(base, i, j, nearest=n == 0):
                        break
            elif d.kind == BOOLEAN and d.value is True:
                # The True moved to the nearest later False of its shape: [True, False] becomes
                # [False, True] (the edge of a two-node graph goes from 0 to 1).
                for j in range(i + 1, min(len(base.draws), i + 1 + _PAIR_WINDOW)):
                    if base.draws[j].kind == BOOLEAN and base.draws[j].value is False and base.draws[j].args == d.args:
                        self.replace({i: False, j: True}, base)
                        break
            i += 1

    @staticmethod
    def _partners(tape: Tape, i: int) -> list[int]:
        """The numeric draws after ``i`` to move together with it: the next ``_PAIR_WINDOW``
        draws, and beyond them the next ``_PAIR_WINDOW`` that are not at their simplest (draws
        at their simplest in between -- empty lists, zeros -- do not keep two values apart)."""
        draws = tape.draws
        out: list[int] = []
        far = 0
        for j in range(i + 1, min(len(draws), i + 1 + _PAIR_REACH)):
            d = draws[j]
            if d.kind not in _NUMERIC:
                continue
            if j <= i + _PAIR_WINDOW:
                out.append(j)
            elif d.value != simplest(d.kind, d.args):
                out.append(j)
                far += 1
                if far >= _PAIR_WINDOW:
                    break
        return out

    @staticmethod
    def _distance(d: Draw) -> int:
        return int(abs(d.value - simplest(d.kind, d.args)))

    def _move_pair(self, base: Tape, i: int, j: int, nearest: bool = True) -> bool:
        a, b = base.draws[i], base.draws[j]
        distance = self._distance(a)
        if distance == 0:
            return False
        towards_a = -1 if a.value > simplest(a.kind, a.args) else 1
        towards_b = -1 if b.value > simplest(b.kind, b.args) else 1
        kind_a, kind_b = type(a.value), type(b.value)

        def shifted(d: int, direction_b: int) -> bool:
            return d == 0 or self.replace({i: kind_a(a.value + towards_a * d), j: kind_b(b.value + direction_b * d)}, base)

        # Both lowered by the same amount first: their difference is kept (0 < b - a <= 30
        # reaches (0, 1) in a few dozen replays, where moving one at a time takes thousands).
        together = min(distance, self._distance(b))
        if together and largest_true(lambda d: shifted(d, towards_b), upper=together):
            return True
        # What leaves a arrives in b: their sum is kept (a + b > 1000 reaches (1, 1000)).
        if largest_true(lambda d: shifted(d, -towards_a), upper=distance):
            return True
        # b, at its simplest, moved the way a moves: their difference is kept ((-1, 0) reaches
        # (0, 1) when 0 < b - a is what fails); only with a's nearest partner (a list's many
        # zeros would cost a replay each).
        if nearest and self._distance(b) == 0:
            if largest_true(lambda d: shifted(d, towards_a), upper=distance):
                return True
        # b as far as it goes, so that a can drop as low as possible (a * b >= 200 reaches (3, 99)).
        far = far_end(b)
        if far == b.value:
            return False
        good, bad = simplest(a.kind, a.args), a.value
        if self.replace({i: good, j: far}, base):
            return True
        found = False
        while abs(bad - good) > 1:
            mid = kind_a(good + (bad - good) // 2) if kind_a is int else kind_a(good + (bad - good) / 2)
            if mid in (good, bad):
                break
            if self.replace({i: mid, j: far}, base):
                bad, found = mid, True
            else:
                good = mid
        return found

    def _lower_groups(self) -> None:
        """Draws of one shape (kind and range) changed together: all to their simplest value
        (the topic of every subscription at once), then two values swapped everywhere they
        occur (keys 1 and 0 exchanged throughout a trace)."""
        base = self.tape
        for (kind, args), positions in _by_shape(base.draws).items():
            if len(positions) < 2:
                continue
            target = simplest(kind, args)
            raised = [i for i in positions if base.draws[i].value != target]
            if len(raised) > 1 and self.replace({i: target for i in raised}, base):
                return
            if kind != INTEGER and kind != WEIGHTED:
                continue
            values = sorted({base.draws[i].value for i in positions}, key=lambda v: sort_key(kind, v))
            if not 1 < len(values) <= _RELABEL_LIMIT:
                continue
            for hi in range(len(values) - 1, 0, -1):
                for lo in range(hi):
                    x, y = values[hi], values[lo]
                    swapped = {i: (y if base.draws[i].value == x else x) for i in positions if base.draws[i].value in (x, y)}
                    if self.replace(swapped, base):
                        return

    def _lower_duplicates(self) -> None:
        base = self.tape
        groups: dict[Any, list[int]] = {}
        for i, d in enumerate(base.draws):
            if d.kind == INTEGER and d.value != simplest(d.kind, d.args):
                groups.setdefault(d.value, []).append(i)
        for value, positions in groups.items():
            if len(positions) < 2:
                continue
            target = simplest(INTEGER, base.draws[positions[0]].args)
            direction = -1 if value > target else 1
            largest_true(
                lambda k: k == 0 or self.replace({p: value + direction * k for p in positions}, base),
                upper=abs(value - target),
            )

    # -- order --------------------------------------------------------------------------------
    def pass_sort(self) -> None:
        """Sort runs of sibling spans of one picker by their draws; then swap adjacent ones."""
        base = self.tape
        for parent in sorted({s.parent for s in base.spans}):
            siblings = self._siblings(base, parent)
            runs: list[list[int]] = []
            for q in siblings:
                previous = base.spans[runs[-1][-1]] if runs else None
                if previous is not None and previous.label == base.spans[q].label and previous.end == base.spans[q].start:
                    runs[-1].append(q)
                else:
                    runs.append([q])
            for run in runs:
                if len(run) > 1 and self._sort_run(base, run):
                    return
        self._swap_apart(base)

    def _swap_apart(self, base: Tape) -> None:
        """Swap two spans of one picker that are not siblings (the numbers of ``51 + 1`` sit in
        different sub-expressions), or of two pickers of one kind (five lists made alike, two
        arguments), when the later one is the simpler."""
        by_kind: dict[Any, list[Any]] = {}
        for s in base.spans:
            if len(s):
                by_kind.setdefault(span_kind(self.kinds, s.label), []).append(s)
        for spans in by_kind.values():
            if len(spans) < 2 or len(spans) > _SWAP_LIMIT:
                continue
            for x, first in enumerate(spans):
                for second in spans[x + 1 :]:
                    if second.start < first.end:
                        continue  # nested: not two separate parts
                    a, b = base.draws[first.start : first.end], base.draws[second.start : second.end]
                    if self._block_key(b) < self._block_key(a):
                        entries = base.draws[: first.start] + b + base.draws[first.end : second.start] + a + base.draws[second.end :]
                        if self.consider(base.picks, entries):
                            return

    @staticmethod
    def _block_key(block: list[Draw]) -> Any:
        return (len(block), tuple(sort_key(d.kind, d.value) for d in block))

    def _sort_run(self, base: Tape, run: list[int]) -> bool:
        blocks = [base.draws[base.spans[q].start : base.spans[q].end] for q in run]
        start, end = base.spans[run[0]].start, base.spans[run[-1]].end

        def block_key(block: list[Draw]) -> Any:
            return (len(block), tuple(sort_key(d.kind, d.value) for d in block))

        def arranged(order: list[list[Draw]]) -> bool:
            return self.consider(base.picks, base.draws[:start] + [d for b in order for d in b] + base.draws[end:])

        ordered = sorted(blocks, key=block_key)
        if ordered != blocks and arranged(ordered):
            return True
        for k in range(len(blocks) - 1):
            if block_key(blocks[k + 1]) < block_key(blocks[k]):
                if arranged(blocks[:k] + [blocks[k + 1], blocks[k]] + blocks[k + 2 :]):
                    return True
        return False
