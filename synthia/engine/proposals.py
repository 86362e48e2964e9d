"""The shrinker's state and its candidates: an :class:`Attempt` (one replay and its verdict),
and :class:`Proposals`, which holds the smallest failure so far and adopts a candidate only
when it fails the same way and is smaller. The passes that propose candidates live in
:mod:`~synthia.engine.deletion`, :mod:`~synthia.engine.lowering` and
:mod:`~synthia.engine.reordering`; :class:`~synthia.engine.shrinker.Shrinker` runs them.
"""
from __future__ import annotations

import math
import struct
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

from ..core.draws import BOOLEAN, FLOAT, INTEGER, Draw, Flex, Tape, simplest, sort_key
from ..core.graph import span_kind

__all__ = ["Attempt", "Proposals", "largest_true", "far_end", "FAIL", "PASS", "INVALID", "DISCARD"]

FAIL = "fail"
PASS = "pass"
INVALID = "invalid"
#: The status of an input that a precondition (``assume``) discarded: neither a pass nor a failure.
DISCARD = "discard"

#: The most sibling spans a delete tries to remove at once is found by doubling, then bisection.
_LONG_RUN = 8  # sibling runs this long are first cut from the end
_TWIN_SPANS = 256  # distinct span contents looked at for equal twins
_TWINS_PER_CONTENT = 4  # equal spans of one content paired with each other
_TWIN_PAIRS = 64  # pairs of equal spans a change is mirrored between

#: The kinds of draws the pairs pass moves together (a weighted draw is an index: numeric too).


@dataclass(slots=True)
class Attempt:
    """One input played by a harness (discovery) or one replay of a draw sequence (shrinking),
    and its verdict: what a harness's ``play`` function returns to the runner.

    ``status`` is ``"fail"``, ``"pass"``, ``"discard"`` (an :func:`~synthia.assume` did not
    hold: neither a pass nor a failure) or ``"invalid"`` (the wiring could not make a value
    from these draws: a filter gave up, the replay ran over its budget, a picker raised).
    ``tape`` is what the replay really drew (the runner fills it in); ``value`` the input as
    the report shows it; ``origin`` identifies the failure (the exception's type and where it
    was raised, or ``"returned False"``); ``drawn`` the values the test drew with
    :func:`~synthia.draw`; ``labels`` and ``covers`` what it gave :func:`~synthia.event` and
    :func:`~synthia.cover`; ``where`` the place of a discarding ``assume``; ``klass`` the
    input's class when the harness classifies its inputs itself; ``lines``, when given, a
    function listing what the input did (a trace's steps and results) that two plays of the
    same draws must repeat; ``details`` what only the harness reads (a trace);
    ``notes`` what the test said with :func:`~synthia.note`; ``output`` what it printed;
    ``targets`` the values it gave :func:`~synthia.target`, by label.
    """

    status: str
    tape: Tape | None = None
    value: Any = None
    exception: BaseException | None = None
    origin: Any = None
    drawn: list[Any] = field(default_factory=list)
    labels: tuple[Any, ...] = ()
    covers: Sequence[tuple[str, float, bool]] = ()
    where: str = ""
    klass: Any = None
    lines: Callable[[], list[str]] | None = None
    details: Any = None
    notes: Sequence[str] = ()
    output: str = ""
    targets: dict[str, float] | None = None


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
    value = entry.value
    if not value and type(value) is float:
        return (entry.kind, value, math.copysign(1.0, value))  # -0.0 == 0.0, but not the same draw
    return (entry.kind, value)


def _by_shape(draws: Sequence[Draw]) -> dict[tuple[Any, tuple[Any, ...]], list[int]]:
    """The positions of the draws of each shape (kind and arguments), booleans left out."""
    groups: dict[tuple[Any, tuple[Any, ...]], list[int]] = {}
    for i, d in enumerate(draws):
        if d.kind != BOOLEAN:
            groups.setdefault((d.kind, d.args), []).append(i)
    return groups


def _shared(first: Sequence[Any], second: Sequence[Any], *, from_end: bool = False, limit: int | None = None) -> int:
    """How many entries ``first`` and ``second`` share at their start (or at their end), at
    most ``limit``: compared a block at a time as lists, which runs in C (a shrink of 10,000
    elements asks this of every candidate that did not fail).

    >>> _shared([1, 2, 3, 4], [1, 2, 9, 4]), _shared([1, 2, 3, 4], [0, 3, 4], from_end=True)
    (2, 2)
    """
    first_size, second_size = len(first), len(second)
    most = min(first_size, second_size) if limit is None else limit
    at, block = 0, 64
    while at < most:
        upto = min(at + block, most)
        if from_end:
            here, there = list(first[first_size - upto : first_size - at]), list(second[second_size - upto : second_size - at])
            if here != there:
                k = len(here) - 1
                while here[k] == there[k]:
                    k -= 1
                return at + len(here) - 1 - k
        else:
            here, there = list(first[at:upto]), list(second[at:upto])
            if here != there:
                k = 0
                while here[k] == there[k]:
                    k += 1
                return at + k
        at, block = upto, block * 2
    return most


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


def _mirror(entries: Sequence[Draw | Flex], twins: list[tuple[int, int, int]], start: int, old_end: int, new_end: int) -> list[Draw | Flex] | None:
    """``entries`` with the change of the best tape's ``draws[start:old_end]`` into
    ``entries[start:new_end]`` (draws only) made to the twin of the span it lies in too
    (``None``: it lies in no span of ``twins``)."""
    shift = new_end - old_end  # how many more entries than draws
    replacement = list(entries[start:new_end])
    if not all(isinstance(d, Draw) for d in replacement):
        return None
    for a, b, length in twins:
        for here, there in ((a, b), (b, a)):
            if here <= start and old_end <= here + length and (start < old_end or start > here):
                at, upto = there + start - here, there + old_end - here
                if there > here:  # the twin comes after: its draws sit where the change leaves them
                    return list(entries[: at + shift]) + replacement + list(entries[upto + shift :])
                return list(entries[:at]) + replacement + list(entries[upto:])
    return None


class Proposals:
    """The state of a shrink -- the smallest failure so far -- and how a candidate is tried
    (:meth:`consider`); the passes (:class:`~synthia.engine.shrinker.Shrinker`) propose them.

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
        reparse: Callable[[Tape, int], list[list[Draw]]] | None = None,
    ) -> None:
        if initial.status != FAIL or initial.tape is None:
            raise ValueError(f"initial must be a failing attempt with its tape, got status {initial.status!r}")
        self._attempt = attempt
        self.best = initial
        self.max_calls = max_calls
        self.deadline = deadline
        self.calls = 0
        self.improvements = 0
        #: Per pass (by name), the replays it asked for and the smaller failures it found.
        self.passes: dict[str, tuple[int, int]] = {}
        self.stopped_by = ""
        self._cache: dict[Any, Attempt | None] = {}
        self._own: tuple[Tape, dict[int, int]] | None = None
        #: The kind of each span label (:func:`~synthia.core.graph.kinds_of`): spans of two
        #: pickers of one kind may swap places, as spans of one picker do.
        self.kinds = list(kinds) if kinds is not None else None
        #: Other draws that make a span's value (:class:`~synthia.core.parsing.Reparser`): an
        #: earlier alternative that can make it, a child of it in its place; ``None``: none.
        self.reparse = reparse
        self._twins: tuple[Tape, list[tuple[int, int, int]]] | None = None
        #: The units of long runs the last delete pass found bound (see :meth:`pass_delete`).
        self._length_bound: tuple[Tape | None, set[int]] = (None, set())
        #: What the last new replay really drew (``None`` when the candidate was cached).
        self._last_drawn: Tape | None = None

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
        result = self._replayed(picks, entries)
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

    def _replayed(self, picks: int, entries: Sequence[Draw | Flex]) -> Attempt | None:
        """The failing attempt ``entries`` replay to (``None``: it does not fail), each candidate
        replayed once; raises :class:`_Stop` when a new replay is over the budget."""
        key = (picks, tuple(map(_entry_key, entries)))
        if key in self._cache:
            self._last_drawn = None
            return self._cache[key]
        if self.calls >= self.max_calls:
            self.stopped_by = f"the candidate budget ({self.max_calls} replays)"
            raise _Stop
        if self.deadline is not None and time.perf_counter() > self.deadline:
            self.stopped_by = "the time budget"
            raise _Stop
        best = self.tape
        # A replay that makes more choices than the best cannot be smaller (with as many picks).
        max_draws = best.choices if picks >= best.picks else 2 * len(best.draws) + 1000
        self.calls += 1
        attempt = self._attempt(picks, list(entries), max_draws)
        self._last_drawn = attempt.tape
        result = attempt if attempt.status == FAIL and attempt.tape is not None else None
        self._cache[key] = result
        return result

    def _mirrored(self, picks: int, entries: Sequence[Draw | Flex]) -> list[Draw | Flex] | None:
        """``entries`` with its change to one of two equal spans of one kind made to the other
        too (``None``: not such a change). Equal parts -- ``x == y``, a repeated element, a
        string found in a list of strings -- stay equal only if they shrink together, and every
        pass changes one part. A change is what lies between the draws ``entries`` shares with
        the best tape at its start and at its end: values lowered, or draws deleted (a
        character and the length that counts it), the same draws in the other span."""
        best = self.tape
        if picks != best.picks:
            return None
        twins = self._equal_twins(best)
        if not twins:
            return None
        draws = best.draws
        size, count = len(draws), len(entries)
        start = _shared(entries, draws)
        if start == size == count:
            return None  # no change
        if not any(here <= start < here + length for a, b, length in twins for here in (a, b)):
            return None  # the change does not begin inside a span that has a twin
        # The draws shared at the end, not reaching into those shared at the start.
        end = _shared(entries, draws, from_end=True, limit=min(size, count) - start)
        return _mirror(entries, twins, start, size - end, count - end)

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

    def replace(self, changes: dict[int, Any], base: Tape | None = None, *, realign: bool = False) -> bool:
        """Consider ``base`` (the best tape by default) with some draws' values changed.

        With ``realign``, a candidate that does not fail and leaves draws unread at its end
        (the changed values are sizes: fewer rows and columns read fewer elements) is tried
        again with as many draws deleted right after the last change instead: the draws that
        made the failure are often the last ones (``[[0, 0, 0], [0, 0, 0], [0, 0, 7]]`` read
        as a 2x2 matrix keeps the 7 only so)."""
        tape = self.tape if base is None else base
        entries: list[Draw | Flex] = list(tape.draws)
        for i, value in changes.items():
            entries[i] = tape.draws[i]._replace(value=value)
        if self.consider(tape.picks, entries):
            return True
        drawn = self._last_drawn
        if not realign or drawn is None or drawn.picks < tape.picks:
            return False
        unread = len(entries) - len(drawn.draws)
        after = max(changes) + 1
        if unread <= 0 or after + unread > len(entries):
            return False
        return self.consider(tape.picks, entries[:after] + entries[after + unread :])
