"""Copied parts: inputs with one part made a copy of another part of the same kind.

Random generation almost never makes two independent parts of an input equal -- two
arguments ``x == y`` drawn from a wide range, a list with a repeated element -- and bugs
hide exactly there (a difference that must not be zero, a duplicate key). So a harness
makes some of its inputs with a copied part, as Hypothesis's engine does with its
mutations: the input's draws are recorded, the draws of one span (one ``pick()`` of one
picker) replace those of another span of the same kind -- another pick of the same picker
(two elements of a list) or a pick of a picker of the same class with the same arguments
(two arguments, two fields) -- and the new draws are replayed through the wiring. Such an input is therefore a
real output of the wiring, recorded and shrunk like any other input, and everything about
it derives from the run's seed and the input's number.

>>> import synthia as sy
>>> from synthia.core.draws import record
>>> from synthia.core.graph import kinds_of
>>> def pair():
...     return sy.Apply(lambda a, b: (a, b), sy.RandomInteger(0, 10**6), sy.RandomInteger(0, 10**6))
>>> wiring = pair().set_seed(3)
>>> value, tape = record(wiring)
>>> draws = copy_span(tape, kinds_of(wiring), copy_random(3, 0))
>>> copied = sy.replay(pair(), draws)[0]
>>> value[0] == value[1], copied[0] == copied[1]
(False, True)
"""
from __future__ import annotations

import random
from typing import Any, Sequence

from ..core.draws import INTEGER, Draw, Tape
from ..core.graph import span_kind
from ..core.random import derive_seed
from ..core.shrinking import simplest_in

__all__ = ["SCHEDULE", "OFFSET", "next_copy", "copy_plan", "copy_random", "copy_span", "probe_draws", "edge_draws", "PROBES"]

#: Inputs with a copied part: one in 16 among the first 48 (the 8th, the 24th and the 40th: a
#: run of 100 inputs has three), then one in 256 up to the 4,096th, then one in 4,096
#: (``SCHEDULE``: ``(until, every)``). A copy records one pick and replays it, about 0.25 ms
#: (some 200 plain picks): a run of 1,000 inputs has six, a long run pays little.
SCHEDULE = ((48, 16), (4096, 256), (None, 4096))
#: The position of a copy within its block of inputs.
OFFSET = 7
#: Tries at finding two spans of the same kind whose draws differ.
TRIES = 8


def next_copy(index: int, every: int | None = None) -> int:
    """The number of the first input from ``index`` on after which a run tries a copy with a
    copied part (what a run compares its counter with, so that the inputs between copies pay
    nothing): by :data:`SCHEDULE`, or after every ``every``-th input.

    >>> next_copy(0), next_copy(8), next_copy(40), next_copy(4040), next_copy(16, every=16)
    (7, 23, 263, 4103, 31)
    """
    if every is not None:
        return index + (every - 1 - index) % every
    for until, every in SCHEDULE:
        candidate = index + (OFFSET - index) % every
        if until is None or candidate < until:
            return candidate
        index = max(index, until)
    raise AssertionError("the last phase of SCHEDULE has no end")  # pragma: no cover


def copy_plan(copy_parts: bool | int | None, may_copy: bool) -> tuple[int, int | None]:
    """The number of the first input a copy follows (``-1``: no copies) and how often copies
    come (``None``: by :data:`SCHEDULE`), for a run's ``copy_parts`` option.

    >>> copy_plan(True, True), copy_plan(16, True), copy_plan(False, True), copy_plan(True, False)
    ((7, None), (15, 16), (-1, None), (-1, None))
    """
    every = copy_parts if type(copy_parts) is int else None
    return (next_copy(0, every) if copy_parts and may_copy else -1), every


def copy_random(seed: int, index: int) -> random.Random:
    """The random choices of the copy in the input numbered ``index`` of a run with ``seed``."""
    return random.Random(derive_seed(seed, f"copied part {index}"))


def copy_span(tape: Tape, kinds: Sequence[str], rng: random.Random) -> list[Draw] | None:
    """The draws of ``tape`` with the draws of one span replaced by those of another span,
    of a picker of the same kind (or a part with the same label: two derivations of one
    grammar rule, two draws of one Hypothesis strategy), neither inside the other and with
    other draws; ``None`` when the tape has no such pair.

    >>> from synthia.core.draws import Span
    >>> def span(label, start):
    ...     made = Span(label, start, -1, 0); made.end = start + 1; return made
    >>> draws = [Draw("integer", v, (0, 9)) for v in (1, 2, 3)]
    >>> tape = Tape(draws, [span(0, 0), span(1, 1), span(0, 2)])  # pickers 0, 1, then 0 again
    >>> [d.value for d in copy_span(tape, ["a", "b"], random.Random(1))]
    [1, 2, 1]
    """
    draws = tape.draws
    groups: dict[Any, list[Any]] = {}
    for span in tape.spans:
        if span.end > span.start:  # a part of a pick (a grammar rule's derivation) by its label
            groups.setdefault(span_kind(kinds, span.label), []).append(span)
    candidates = [spans for spans in groups.values() if len(spans) > 1]
    if not candidates:
        return None
    for _ in range(TRIES):
        spans = candidates[rng.randrange(len(candidates))]
        source, target = rng.sample(spans, 2)
        if source.end <= target.start or target.end <= source.start:
            copied = draws[source.start : source.end]
            if [d.value for d in copied] != [d.value for d in draws[target.start : target.end]]:
                return draws[: target.start] + copied + draws[target.end :]
    return None


#: Odds that each integer draw of an edge probe moves to an edge of its range.
EDGE_ODDS = 0.5
#: What each probe of :func:`probe_draws` is, by its number (the report's note says it).
PROBES = ("a copied part", "edge values")


def probe_draws(tape: Tape, kinds: Sequence[str], seed: int, index: int) -> list[list[Draw] | None]:
    """The draws of the probes a run tries after input ``index``, by number (:data:`PROBES`;
    ``None`` where the probe would not change the input): one part copied over another
    (:func:`copy_span`), then the input's integer draws moved to the edges of their ranges
    (:func:`edge_draws`): the one pair of 441 that ``x + 20 == y`` needs in ``[-20, 0]``, the
    largest size, the last index, which uniform draws meet once in hundreds of inputs and
    off-by-one bugs need.

    >>> draws = [Draw("integer", v, (-20, 1)) for v in (-7, -3)]
    >>> copied, moved = probe_draws(Tape(draws, []), [], 0, 3)
    >>> copied, [d.value for d in moved]
    (None, [0, -20])
    """
    edges = random.Random(derive_seed(seed, f"edge values {index}"))
    return [copy_span(tape, kinds, copy_random(seed, index)), edge_draws(tape, edges)]


def edge_draws(tape: Tape, rng: random.Random) -> list[Draw] | None:
    """The draws of ``tape`` with each integer draw, with odds :data:`EDGE_ODDS`, moved to an
    edge of its range: its simplest value, its lowest or its highest; ``None`` when none moved."""
    draws = list(tape.draws)
    moved = False
    for i, draw in enumerate(draws):
        if draw.kind == INTEGER and rng.random() < EDGE_ODDS:
            low, high = draw.args
            edge = (int(simplest_in(low, high, integer=True)), low, high - 1)[rng.randrange(3)]
            if edge != draw.value:
                draws[i] = Draw(INTEGER, edge, draw.args)
                moved = True
    return draws if moved else None
