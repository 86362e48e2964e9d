"""The shrinker's passes that move draws together or reorder spans: pairs, equal draws, sorting, swaps."""
from __future__ import annotations

from typing import Any

from ..core.draws import BOOLEAN, FLOAT, INTEGER, WEIGHTED, Draw, Tape, simplest, sort_key
from ..core.graph import span_kind
from .proposals import Proposals, far_end, largest_true, _by_shape

_PAIR_WINDOW = 4  # numeric draws at most this far apart are moved together
_PAIR_REACH = 64  # and, beyond them, draws not at their simplest up to this far
_RELABEL_LIMIT = 8  # distinct values of one shape whose pairs are swapped throughout
_SWAP_LIMIT = 32  # spans of one picker compared pairwise for swaps (more: only siblings are sorted)
_NUMERIC = (INTEGER, FLOAT, WEIGHTED)


class Reordering(Proposals):
    """The shrinker's passes that move draws together or reorder spans: pairs, equal draws, sorting, swaps."""

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
        draws, and beyond them the next ``_PAIR_WINDOW`` that are not at their simplest or are
        drawn alike (draws at their simplest in between -- empty lists, zeros -- do not keep
        two values apart)."""
        draws = tape.draws
        shape = (draws[i].kind, draws[i].args)
        out: list[int] = []
        far = 0
        for j in range(i + 1, min(len(draws), i + 1 + _PAIR_REACH)):
            d = draws[j]
            if d.kind not in _NUMERIC:
                continue
            if j <= i + _PAIR_WINDOW:
                out.append(j)
            elif d.value != simplest(d.kind, d.args) or (d.kind, d.args) == shape:
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
            changes = {i: kind_a(a.value + towards_a * d), j: kind_b(b.value + direction_b * d)}
            return d == 0 or self.replace(changes, base, realign=direction_b == towards_b)

        # Both lowered by the same amount first: their difference is kept (0 < b - a <= 30
        # reaches (0, 1) in a few dozen replays, where moving one at a time takes thousands).
        together = min(distance, self._distance(b))
        if together and largest_true(lambda d: shifted(d, towards_b), upper=together):
            return True
        # What leaves a arrives in b: their sum is kept (a + b > 1000 reaches (1, 1000)).
        if largest_true(lambda d: shifted(d, -towards_a), upper=distance):
            return True
        # b moved the way a moves, by as much: their difference is kept ((-1, 0) reaches (0, 1)
        # when 0 < b - a is what fails, (-3, 1) reaches (0, 4) when b - a == 4 is); with a's
        # nearest partner, or a partner drawn alike (x and y of one range, other draws
        # between them), not with every draw nearby (a list's many zeros: a replay each).
        if nearest or (b.kind == a.kind and b.args == a.args):
            if largest_true(lambda d: shifted(d, towards_a), upper=distance):
                return True
        return self._pair_far(base, i, j)

    def _pair_far(self, base: Tape, i: int, j: int) -> bool:
        """Draw ``j`` as far as it goes, so that draw ``i`` can drop as low as possible
        (``a * b >= 200`` reaches ``(3, 99)``): at once, then by a bisection of ``i``."""
        a, b = base.draws[i], base.draws[j]
        kind_a = type(a.value)
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
            if self._swap_values(base, kind, positions):
                return

    def _swap_values(self, base: Tape, kind: str, positions: list[int]) -> bool:
        """Two of the few values of the draws at ``positions`` swapped everywhere they occur,
        the largest values first."""
        values = sorted({base.draws[i].value for i in positions}, key=lambda v: sort_key(kind, v))
        if not 1 < len(values) <= _RELABEL_LIMIT:
            return False
        for hi in range(len(values) - 1, 0, -1):
            for lo in range(hi):
                x, y = values[hi], values[lo]
                swapped = {i: (y if base.draws[i].value == x else x) for i in positions if base.draws[i].value in (x, y)}
                if self.replace(swapped, base):
                    return True
        return False

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
                lambda k: k == 0 or self.replace({p: value + direction * k for p in positions}, base, realign=True),
                upper=abs(value - target),
            )

    # -- order --------------------------------------------------------------------------------
    def pass_sort(self) -> None:
        """Sort runs of sibling spans of one picker by their draws; then swap adjacent ones."""
        base = self.tape
        for parent in sorted({s.parent for s in base.spans}):
            siblings = base.children(parent)
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
