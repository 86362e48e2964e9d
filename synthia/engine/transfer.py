"""The shrinker's pass that moves units from one counted run to a later one.

A *counted run* is a span whose parts include units of one label (a string's characters, a
list's elements) counted by an integer draw of the span before them (the length). Lowering
one length while raising another (the pairs pass) cannot move characters from an early string
to a later one: the string made longer reads the draws after it as its own. Moving the units
themselves can: the last units of the earlier run leave it, its length lowered by as many,
and join the end of the later run, its length raised; the earlier run is then shorter, so the
input is simpler, and an entry emptied this way can be deleted (a dict of long texts whose
values must total 1,501 characters ends with four entries, not eight).
"""
from __future__ import annotations

from typing import Any, NamedTuple

from ..core.draws import INTEGER, Draw, Flex, Tape
from .proposals import Proposals, largest_true

__all__ = ["Transfer"]

_RUNS = 16  # counted runs compared pairwise (the first ones)


class _Run(NamedTuple):
    counter: int  # the position of the integer draw that counts the units
    units: list[tuple[int, int]]  # the draw ranges of the units, in order
    label: Any  # the units' span label


class Transfer(Proposals):
    """Move units from a counted run to a later counted run of units of the same label."""

    def pass_transfer(self) -> None:
        a_index = 0
        runs = _counted_runs(self.tape)
        while a_index < min(len(runs), _RUNS):
            a = runs[a_index]
            for b in runs[a_index + 1 : _RUNS]:
                if b.label == a.label and b.counter > a.units[-1][1] - 1 and self._transfer(self.tape, a, b):
                    runs = _counted_runs(self.tape)  # the tape changed: its runs are found again
                    break
            else:
                a_index += 1

    def _transfer(self, base: Tape, a: _Run, b: _Run) -> bool:
        """Move the last ``k`` units of ``a`` to the end of ``b``, the largest ``k`` that fails."""
        count = base.draws[a.counter]
        target = base.draws[b.counter]
        room = target.args[1] - 1 - target.value  # how far b's length may rise

        def moved(k: int) -> bool:
            if k == 0:
                return True
            if k > len(a.units) or k > room:
                return False
            start = a.units[-k][0]
            end = a.units[-1][1]
            carried = base.draws[start:end]
            draws: list[Draw | Flex] = []
            for i, d in enumerate(base.draws):
                if start <= i < end:
                    continue
                if i == a.counter:
                    d = d._replace(value=d.value - k)
                elif i == b.counter:
                    d = d._replace(value=d.value + k)
                draws.append(d)
                if i == b.units[-1][1] - 1:
                    draws.extend(carried)
            return self.consider(base.picks, draws)

        if count.value < 1 or not moved(1):
            return False
        largest_true(lambda k: k <= 1 or moved(k), upper=min(len(a.units), room))
        return True


def _counted_runs(tape: Tape) -> list[_Run]:
    """The spans of ``tape`` whose child spans of one label (a text's characters, a list's
    elements), or whose last own draws of one shape (an alphabet string's characters), are
    counted by an integer draw of the span before the first of them, in order."""
    runs = []
    for q in range(len(tape.spans)):
        run = _child_run(tape, q) or _own_run(tape, q)
        if run is not None:
            runs.append(run)
    return runs


def _child_run(tape: Tape, q: int) -> _Run | None:
    """The run of span ``q``'s last child spans of one label, counted by an integer draw of
    the span before them (``None``: no such run)."""
    children = tape.children(q)
    if children:
        labels = [tape.spans[c].label for c in children]
        unit_label = labels[-1]
        units = [c for c in children if tape.spans[c].label == unit_label]
        first = tape.spans[units[0]].start
        span = tape.spans[q]
        n = len(units)
        counters = [
            i for i in range(span.start, first) if tape.draws[i].kind == INTEGER and tape.draws[i].value == n and tape.draws[i].args[0] <= n
        ]
        if counters and len(units) == len(children) - sum(1 for c in children if tape.spans[c].end <= first):
            return _Run(counters[-1], [(tape.spans[c].start, tape.spans[c].end) for c in units], unit_label)
    return None


def _own_run(tape: Tape, q: int) -> _Run | None:
    """The run of span ``q``'s last own draws of one shape, counted by an integer draw before
    them in the span (``None``: no such run)."""
    span = tape.spans[q]
    if span.end - span.start < 2:
        return None
    last = tape.draws[span.end - 1]
    shape = (last.kind, last.args)
    first = span.end - 1
    while first > span.start and (tape.draws[first - 1].kind, tape.draws[first - 1].args) == shape:
        first -= 1
    n = span.end - first
    for i in range(first - 1, span.start - 1, -1):
        d = tape.draws[i]
        if d.kind == INTEGER and d.value == n:
            return _Run(i, [(j, j + 1) for j in range(first, span.end)], ("draws", shape))
    return None
