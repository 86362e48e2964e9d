"""The shrinker's passes that take draws away or replace a span: history, delete, merge, simpler spans."""
from __future__ import annotations

from typing import Any, Callable

from ..core.draws import FLOAT, INTEGER, WEIGHTED, Draw, Flex, Tape, sort_key
from .proposals import Proposals, far_end, largest_true, _LONG_RUN

_COUNTERS = 3  # how many preceding integer draws are tried as the length of a repetition
_DESCENDANTS = 8  # descendants tried in place of a span, smallest first
_LARGE_DESCENDANTS = 4  # and the largest ones, largest first
_GROUP_PERIOD = 3  # the most sibling spans of different pickers deleted as one unit (a dict's entry: 2)
_HALVED_RUN = 64  # sibling runs this long first lose either half
_NEXT_DRAWS = 6  # draws after a deleted block that a deletion may simplify too


class Deletion(Proposals):
    """The shrinker's passes that take draws away or replace a span: history, delete, merge, simpler spans."""

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
        siblings = base.children(span.parent)
        k = siblings.index(p)
        labels = [base.spans[q].label for q in siblings]
        for m in range(2, _GROUP_PERIOD + 1):
            pattern = self._repeating(labels, k, m)
            if pattern is None:
                continue
            if self._delete_leading_groups(base, self._groups(base, siblings, labels, k, pattern), pattern):
                return True
        return False

    @staticmethod
    def _repeating(labels: list[Any], k: int, m: int) -> list[Any] | None:
        """The ``m`` labels from ``k`` on when they are of different pickers and repeat just
        after or just before (a unit of a group run), else ``None``."""
        pattern = labels[k : k + m]
        if len(pattern) < m or len(set(pattern)) < 2 or not (labels[k + m : k + 2 * m] == pattern or labels[max(0, k - m) : k] == pattern):
            return None
        return pattern

    @staticmethod
    def _groups(base: Tape, siblings: list[int], labels: list[Any], k: int, pattern: list[Any]) -> list[tuple[int, int]]:
        """The draws ``(start, end)`` of each adjacent unit of ``pattern`` from sibling ``k`` on."""
        m = len(pattern)
        groups: list[tuple[int, int]] = []
        q = k
        while labels[q : q + m] == pattern:
            first, last = base.spans[siblings[q]], base.spans[siblings[q + m - 1]]
            if groups and groups[-1][1] != first.start:
                break
            groups.append((first.start, last.end))
            q += m
        return groups

    def _delete_leading_groups(self, base: Tape, groups: list[tuple[int, int]], pattern: list[Any]) -> bool:
        """Delete the first of ``groups`` (units of the labels of ``pattern``), then as many of
        the first ones as still fail, with a preceding length lowered."""
        excluded = [u for label in set(pattern) for u in self._units_of(base, label, groups[0][0])]
        counters = self._counters(base, groups[0][0], lambda i: any(a <= i < b for a, b in excluded))

        def delete(n: int) -> bool:
            return n == 0 or self._delete(base, groups[0][0], groups[n - 1][1], n, counters, groups[-1][1])

        if delete(1):
            largest_true(lambda n: n <= 1 or delete(n), upper=len(groups))
            return True
        return False

    def _delete_own_draws(self, base: Tape, p: int) -> bool:
        """Delete runs of span ``p``'s own draws of one shape (the characters of a string). A
        unit is one draw, or ``w`` draws when a counter before the run counts it as units of
        ``w`` (the pairs of a list of edges whose ends a ``Bind``'s value bounds: 22 draws
        counted by a length of 11), deleted at unit boundaries."""
        own = base.direct_draws(p)
        if len(own) < 2:
            return False
        for whole in _runs_of_one_shape(base, own):
            shape = (base.draws[whole[0]].kind, base.draws[whole[0]].args)
            counters = self._counters(base, whole[0], lambda c: (base.draws[c].kind, base.draws[c].args) == shape)
            for w in _unit_widths(base, len(whole), counters):
                for first in range(0, len(whole) - w + 1, w):
                    i, left = whole[first], len(whole) - first

                    def delete(k: int, i: int = i, left: int = left, counters: list[int] = counters, w: int = w) -> bool:
                        return k == 0 or (w * k <= left and self._delete(base, i, i + w * k, k, counters))

                    if delete(1):
                        largest_true(lambda k: k <= 1 or delete(k), upper=left // w)
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
        variants = self._without(base, start, end, units, counters)
        if not neighbours:
            # A quick try: the units gone with their length lowered (alone when none counts them).
            return self._any_fewer(base, variants[1:2] or variants)
        if self._any_fewer(base, variants):
            return True
        if self._any_fewer(base, self._neighbours_changed(base, variants, start, counters)):
            return True
        return self._any_fewer(base, self._shifted(variants[:2], start, start + run_end - end, units))

    def _any_fewer(self, base: Tape, variants: list[list[Draw | Flex]]) -> bool:
        """Consider each of ``variants`` of ``base`` in turn, until one fails with fewer draws."""
        return any(self.consider(base.picks, v, shorter_than=len(base.draws)) for v in variants)

    @staticmethod
    def _without(base: Tape, start: int, end: int, units: int, counters: list[int]) -> list[list[Draw | Flex]]:
        """``base`` without ``draws[start:end]``, then the same with each counter that can be
        lowered by ``units`` lowered."""
        rest: list[Draw | Flex] = [*base.draws[:start], *base.draws[end:]]
        variants: list[list[Draw | Flex]] = [rest]
        for c in counters:
            d = base.draws[c]
            low, _high = d.args
            if d.value - units >= low:
                lowered = list(rest)
                lowered[c] = d._replace(value=d.value - units)
                variants.append(lowered)
        return variants

    @staticmethod
    def _neighbours_changed(base: Tape, variants: list[list[Draw | Flex]], start: int, counters: list[int]) -> list[list[Draw | Flex]]:
        """``variants`` (a deletion at ``start``) with a neighbouring draw changed: the decision
        just before the block at its far end, or one of the next draws at its simplest."""
        rest = variants[0]
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
        return changed

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
        siblings = tape.children(span.parent)
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
        units = sum(1 for q in tape.children(span.parent) if tape.spans[q].label == span.label)
        return any(
            tape.draws[i].kind == INTEGER and tape.draws[i].value == units
            for i in range(tape.spans[span.parent].start, span.start)
        )

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
        """Merge span ``p`` with its next sibling when both are of one picker and adjacent."""
        a = base.spans[p]
        siblings = base.children(a.parent)
        k = siblings.index(p)
        if k + 1 >= len(siblings):
            return False
        b = base.spans[siblings[k + 1]]
        if b.label != a.label or a.end != b.start or not len(a) or not len(b):
            return False
        for merged in self._merged_blocks(base.draws[a.start : a.end], base.draws[b.start : b.end]):
            if self._consider_merged(base, a, b, merged):
                return True
        return False

    @staticmethod
    def _merged_blocks(block_a: list[Draw], block_b: list[Draw]) -> list[list[Draw]]:
        """The draws of one span in place of two: their counts added, or their numbers."""
        candidates: list[list[Draw]] = []
        if block_a[0].kind == INTEGER and block_b[0].kind == INTEGER:
            # Two repetitions, each led by its count (two inner lists): one holding both.
            candidates.append([block_a[0]._replace(value=block_a[0].value + block_b[0].value), *block_a[1:], *block_b[1:]])
        if [(d.kind, d.args) for d in block_a] == [(d.kind, d.args) for d in block_b]:
            # Two parts of the same shape (two deposits): one whose numbers add up both.
            candidates.append(
                [x._replace(value=x.value + y.value) if x.kind in (INTEGER, FLOAT) and y.value != y.simplest else x for x, y in zip(block_a, block_b)]
            )
        return candidates

    def _consider_merged(self, base: Tape, a: Any, b: Any, merged: list[Draw]) -> bool:
        """Consider ``base`` with the ``merged`` draws in place of spans ``a`` and ``b``: one
        top-level pick fewer, or the parent's count lowered by one."""
        if a.parent < 0:
            # Two top-level picks (steps of a trace, a stateful wiring's history): one fewer.
            return self.consider(base.picks - 1, [*base.draws[: a.start], *merged, *base.draws[b.end :]], shorter_than=len(base.draws))
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
            q for q in tape.children(span.parent)
            if q != p and tape.spans[q].label == span.label and block_key(tape.spans[q]) < mine
        ]
        # The smallest few, then the largest few: a failure that needs most of the span (a
        # deep bracketed product under a sum) is held by one of its largest descendants.
        largest = [q for q in descendants[_DESCENDANTS:][-_LARGE_DESCENDANTS:]][::-1]
        return descendants[:_DESCENDANTS] + largest + siblings[:_DESCENDANTS]


def _runs_of_one_shape(tape: Tape, positions: list[int]) -> list[list[int]]:
    """``positions`` cut into runs of consecutive draws of one kind and one range."""
    runs: list[list[int]] = []
    for i in positions:
        d = tape.draws[i]
        if runs and i == runs[-1][-1] + 1 and (d.kind, d.args) == (tape.draws[runs[-1][0]].kind, tape.draws[runs[-1][0]].args):
            runs[-1].append(i)
        else:
            runs.append([i])
    return runs


def _unit_widths(tape: Tape, length: int, counters: list[int]) -> list[int]:
    """The widths of a run's units: one draw, then ``w`` (2 to 4) for each counter whose value
    counts ``length`` draws as units of ``w``."""
    widths = [1]
    for c in counters:
        count = tape.draws[c].value
        if count and length % count == 0 and 1 < length // count <= 4 and length // count not in widths:
            widths.append(length // count)
    return widths
