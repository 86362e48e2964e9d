"""The shrinker's passes that lower draws: each kind towards its simplest value, and decisions made again."""
from __future__ import annotations

import math
from typing import Any

from ..core.draws import BOOLEAN, FLOAT, INTEGER, WEIGHTED, Draw, Flex, Tape, simplest, sort_key
from ..core.tapes import fraction_bits
from .proposals import (
    Proposals,
    far_end,
    largest_true,
    _LONG_RUN,
    _bits_float,
    _by_shape,
    _float_bits,
)

_SMALL_VALUES = 16  # the simplest integers tried when bisection finds nothing
_STRIDES = 32  # the longest step tried towards the simplest value when those fail too
_ADJUST_VALUES = 3  # the simplest values a size is lowered to while a later draw is changed
_ADJUST_WINDOW = 8  # the draws after it that may be changed
_REALIGN_ROUNDS = 3  # replays of a lowered size whose later draws are re-dealt by kind
_FRACTION_LENGTHS = (1, 2, 3, 4, 5, 6, 7, 8, 12, 16, 24, 32, 40, 48)  # binary fraction lengths a float is rounded to


class Lowering(Proposals):
    """The shrinker's passes that lower draws: each kind towards its simplest value, and decisions made again."""

    # -- lowering draws -------------------------------------------------------------------------
    def pass_lower(self) -> None:
        """Each draw to its simplest value, then (for those that cannot) a binary search.
        Many draws of one shape go to their simplest value together first: one replay where
        a long list's elements would take one each."""
        self._lower_shapes_together()
        i = 0
        while i < len(self.tape.draws):
            d = self.tape.draws[i]
            target = simplest(d.kind, d.args)
            if sort_key(d.kind, d.value) != sort_key(d.kind, target) or (d.value != target):
                self.replace({i: target})
            i += 1
        i = 0
        while i < len(self.tape.draws):
            self._lower_draw(i)
            i += 1

    def _lower_shapes_together(self) -> None:
        """The draws of each shape with many not at their simplest value, all to it at once."""
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

    def _lower_draw(self, i: int) -> None:
        """Draw ``i`` lowered by its kind's minimiser."""
        d = self.tape.draws[i]
        if d.kind == INTEGER:
            self._lower_integer(i)
        elif d.kind == FLOAT:
            self._lower_float(i)
        elif d.kind == WEIGHTED:
            self._bisect(i, simplest(d.kind, d.args), d.value)
        elif d.kind == BOOLEAN and d.value is True and d.args[0] < 1.0:
            self.replace({i: False})

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
        rather than a sum of the division's parts (which lowering alone keeps). Failing that,
        the part's value parsed again (:meth:`_reparsed`: widening)."""
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
                    self._reparsed(base, decided)
            elif base.draws[i].kind == INTEGER and self._sizes_own_draws(base, i):
                self._lower_and_adjust(base, i)
            i += 1

    def _sizes_own_draws(self, tape: Tape, i: int) -> bool:
        """Whether integer draw ``i`` is a pick of its own at the head of a span that goes on
        with more draws (a ``Bind``'s value and the draws of the wiring made from it): how many
        of those follow, and what they mean, may depend on it."""
        q = self._own_spans(tape).get(i)
        if q is None:
            return False
        while q >= 0 and tape.spans[q].end == i + 1:
            q = tape.spans[q].parent
        if q < 0 or tape.spans[q].start != i or tape.spans[q].end <= i + 1:
            return False
        if any(j > i for j in tape.direct_draws(q)):
            return True
        # Or parts of their own, other than a repetition of one picker's (a list's elements,
        # which deletion shortens): the wiring a Bind built from its value.
        after = [tape.spans[c].label for c in tape.children(q) if tape.spans[c].start > i]
        return len(after) == 1 or len(set(after)) > 1

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
            # Or a few of the next draws gone: what a larger value drew (the keys of a taller
            # tree) is not read by a smaller one, and the draws after them take their roles.
            lowered = base.draws[i]._replace(value=value)
            end = min(len(base.draws), i + 1 + _ADJUST_WINDOW)
            for k in range(1, end - i):
                for j in range(i + 1, end - k + 1):
                    if self.consider(base.picks, [*base.draws[:i], lowered, *base.draws[i + 1 : j], *base.draws[j + k :]]):
                        return True
            if self._realigned(base, i, lowered):
                return True
        return False

    def _realigned(self, base: Tape, i: int, lowered: Draw) -> bool:
        """Draw ``i`` lowered to ``lowered``, the draws after it read again by kind: where the
        smaller value's wiring asks for a draw of one kind and the next given is of another (a
        key where a subtree's decision was), the given draws are skipped to the next of that
        kind, instead of the asked one being made the simplest. The replay says what its
        wiring asks for; the draws are re-dealt and replayed, a few times, until they fit (a
        red-black tree of black height 2 read as one of height 1 keeps its red children)."""
        draws = base.draws
        entries: list[Draw] = [*draws[:i], lowered, *draws[i + 1 :]]
        for _ in range(_REALIGN_ROUNDS):
            if self.consider(base.picks, entries):
                return True
            asked = self._last_drawn
            if asked is None or asked.picks < base.picks:
                return False
            dealt: list[Draw] = list(entries[: i + 1])
            at = i + 1
            for d in asked.draws[i + 1 :]:
                while at < len(draws) and draws[at].kind != d.kind:
                    at += 1
                if at == len(draws):
                    break
                dealt.append(draws[at])
                at += 1
            if dealt == entries:
                return False
            entries = dealt
        return False

    @staticmethod
    def _other_values(d: Draw) -> list[Any]:
        """Values to set a draw to when it must change, not shrink: the other boolean, the
        simplest value and the far end of a range."""
        if d.kind == BOOLEAN:
            return [not d.value]
        out = [v for v in (simplest(d.kind, d.args), far_end(d)) if v != d.value]
        return list(dict.fromkeys(out))

    def _reparsed(self, base: Tape, decided: int) -> bool:
        """The decided span's value made again by its picker in another way: by an earlier
        alternative that can parse it, or a child of it in its place (see
        :class:`~synthia.core.parsing.Reparser`), each tried as the span's draws."""
        if self.reparse is None:
            return False
        span = base.spans[decided]
        for draws in self.reparse(base, decided):
            block = Flex(span.label, tuple(draws))
            if self.consider(base.picks, [*base.draws[: span.start], block, *base.draws[span.end :]]):
                return True
        return False

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
        if len(after) != 1 or tape.spans[after[0]].end != tape.spans[parent].end:
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
        """A float draw towards its simplest value: its positive twin, integral values (then a
        bisection over them), else fewer decimal digits and a bisection of the value."""
        d = self.tape.draws[i]
        target = simplest(FLOAT, d.args)
        if d.value == target:
            return
        if d.value < 0 and d.args[0] <= 0.0 and self.replace({i: -0.0}):
            return  # -0.0 is as simple as 0.0 (where the space has it): the simplest negative
        v = self._positive_twin(i, d)
        if not float(v).is_integer() and math.isfinite(v):
            self._whole_float(i, v, target, d.args)
        v = self.tape.draws[i].value
        if float(v).is_integer():
            if float(target).is_integer():
                self._bisect(i, target, v, integral_float=True)
            return
        self._shorter_fraction(i, v, target, d.args)
        self._lower_numerator(i, d.args)
        self._halve_float(i, target)

    def _positive_twin(self, i: int, d: Draw) -> Any:
        """Float draw ``i`` (``d``) as its positive twin when that is simpler and still fails:
        the value to go on from."""
        v = d.value
        _low, high = d.args
        if v < 0 and -v < high and sort_key(FLOAT, -v) < sort_key(FLOAT, v) and self.replace({i: -v}):
            v = -v  # a negative value's positive twin is simpler
        return v

    def _whole_float(self, i: int, v: float, target: float, args: tuple[Any, ...]) -> None:
        """Integral values are simpler than any fraction: the one next to ``v`` towards the
        target, else the one on the far side (a tiny positive value that must stay positive:
        1.0, as Hypothesis's float shrinker tries both)."""
        low, high = args
        towards = float(math.floor(v) if v > target else math.ceil(v))
        away = float(math.ceil(v) if v > target else math.floor(v))
        for whole in (towards, away):
            if low <= whole < high and sort_key(FLOAT, whole) < sort_key(FLOAT, v) and self.replace({i: whole}):
                break

    def _shorter_fraction(self, i: int, v: float, target: float, args: tuple[Any, ...]) -> None:
        """``v`` with a shorter binary fraction that still fails (:func:`fraction_bits`: 1.5
        is simpler than 1.2000000000000002): the neighbours of ``v`` with ``k`` fraction bits,
        towards the target first, for ``k`` from 1 up."""
        low, high = args
        bits = fraction_bits(v)
        for k in _FRACTION_LENGTHS:
            if k >= bits:
                return
            down, up = math.ldexp(math.floor(math.ldexp(v, k)), -k), math.ldexp(math.ceil(math.ldexp(v, k)), -k)
            for c in ((down, up) if v > target else (up, down)):
                if low <= c < high and sort_key(FLOAT, c) < sort_key(FLOAT, v) and self.replace({i: c}):
                    return

    def _lower_numerator(self, i: int, args: tuple[Any, ...]) -> None:
        """A fraction of ``k`` bits, ``(2j + 1) / 2**k``, lowered in magnitude at that length:
        the smallest ``j`` that still fails, by bisection (2.5 to 1.5 when both fail)."""
        low, high = args
        v = self.tape.draws[i].value
        if not math.isfinite(v) or float(v).is_integer():
            return
        k = fraction_bits(v)
        sign = -1.0 if v < 0 else 1.0
        top = (int(math.ldexp(abs(v), k)) - 1) // 2  # v = sign * (2 * top + 1) / 2**k

        def value(j: int) -> float:
            return sign * math.ldexp(2 * j + 1, -k)

        def fails(j: int) -> bool:
            c = value(j)
            return low <= c < high and self.replace({i: c})

        # The smallest j whose value lies in the range (|value| grows with j).
        if sign > 0:
            good = 0 if low <= 0 else math.ceil((math.ldexp(low, k) - 1) / 2)
        else:
            good = 0 if high > 0 else math.floor((-math.ldexp(high, k) - 1) / 2) + 1
        if good >= top or fails(good):
            return
        bad = top
        while bad - good > 1:
            mid = (good + bad) // 2
            if fails(mid):
                bad = mid
            else:
                good = mid

    def _halve_float(self, i: int, target: float) -> None:
        """A bisection of float draw ``i``'s value towards ``target`` (24 halvings), then one over
        the bit patterns where it ends next to zero or at a threshold."""
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
        elif good != bad and (good < 0) == (bad < 0) and abs(good) < abs(bad):
            # A threshold within a 2**24th (x > 999 - y): the failing float nearest to it, exactly.
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
