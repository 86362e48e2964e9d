"""Copied parts: inputs with one part made a copy of another part of the same kind.

Random generation almost never makes two independent parts of an input equal -- two
arguments ``x == y`` drawn from a wide range, a list with a repeated element -- and bugs
hide exactly there (a difference that must not be zero, a duplicate key). So a harness
makes some of its inputs with a copied part, as Hypothesis's engine does with its mutations: the input's draws are
recorded, the draws of one span (one ``pick()`` of one picker) replace those of another
span of a picker of the same kind (the same ``repr``: the same class with the same
arguments), and the new draws are replayed through the wiring. Such an input is therefore a
real output of the wiring, recorded and shrunk like any other input, and everything about
it derives from the run's seed and the input's number.

>>> import synthia as sy
>>> from synthia.core.draws import record
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

import collections
import random
from typing import Any, Sequence

from ..core.draws import Draw, Tape
from ..core.graph import upstream
from ..core.picker import Picker, Seedable
from ..core.random import derive_seed

__all__ = ["COPY_EVERY", "DENSE", "COPY_LATER", "copies_a_part", "kinds_of", "has_twins", "copy_random", "copy_span"]

#: Inputs with a copied part: one in ``COPY_EVERY`` among the first ``DENSE`` (the 8th, the
#: 24th and the 40th: a run of 100 inputs has three), then one in ``COPY_LATER``. A copy
#: records one pick and replays it, about 0.25 ms (some 200 plain picks): a long run pays little.
COPY_EVERY, DENSE, COPY_LATER = 16, 48, 4096
#: Tries at finding two spans of the same kind whose draws differ.
TRIES = 8


def copies_a_part(index: int) -> bool:
    """Whether the input numbered ``index`` (from 0) of a run has a copied part.

    >>> [i for i in range(10_000) if copies_a_part(i)]
    [7, 23, 39, 4103, 8199]
    """
    if index < DENSE:
        return index % COPY_EVERY == COPY_EVERY // 2 - 1
    return index % COPY_LATER == COPY_EVERY // 2 - 1


def kinds_of(wiring: Picker[Any]) -> list[str]:
    """The kind of each picker of ``wiring``, by its label (its position in the upstream
    walk, the label of its spans): its class and ``repr`` when another picker of the wiring
    has its class, else a kind of its own (no ``repr`` is built for what pairs with nothing).

    >>> import synthia as sy
    >>> kinds_of(sy.Apply(lambda a, b: a + b, sy.RandomInteger(0, 9), sy.RandomInteger(0, 9)))[1:]
    ['RandomInteger:RandomInteger(0, 9)', 'RandomInteger:RandomInteger(0, 9)']
    """
    nodes = [node for _, node in upstream(wiring)]
    classes = collections.Counter(type(node) for node in nodes)
    kinds = []
    for position, node in enumerate(nodes):
        kind = f"#{position}"
        if classes[type(node)] > 1:
            try:
                kind = f"{type(node).__qualname__}:{node!r}"
            except Exception:  # a picker whose repr fails pairs with nothing
                pass
        kinds.append(kind)
    return kinds


def has_twins(wiring: Picker[Any], kinds: Sequence[str]) -> bool:
    """Whether two pickers of ``wiring`` that draw (themselves or upstream) are of the same
    kind: what copying a part needs, checked once so that a wiring without twins never
    pays for a recorded pick.

    >>> import synthia as sy
    >>> x = sy.RandomInteger(0, 9)
    >>> pair = sy.Apply(lambda a, b: (a, b), x, sy.RandomInteger(0, 9))
    >>> has_twins(pair, kinds_of(pair)), has_twins(sy.ComposeList(x, 3), kinds_of(sy.ComposeList(x, 3)))
    (True, False)
    """
    repeated = {kind for kind, count in collections.Counter(kinds).items() if count > 1}
    seen: set[str] = set()
    for position, (_, node) in enumerate(upstream(wiring)):
        kind = kinds[position]
        if kind in repeated and any(isinstance(n, Seedable) for _, n in upstream(node)):
            if kind in seen:
                return True
            seen.add(kind)
    return False


def copy_random(seed: int, index: int) -> random.Random:
    """The random choices of the copy in the input numbered ``index`` of a run with ``seed``."""
    return random.Random(derive_seed(seed, f"copied part {index}"))


def copy_span(tape: Tape, kinds: Sequence[str], rng: random.Random) -> list[Draw] | None:
    """The draws of ``tape`` with the draws of one span replaced by those of another span,
    of a picker of the same kind, neither inside the other and with other draws; ``None``
    when the tape has no such pair.

    >>> from synthia.core.draws import Span
    >>> def span(label, start):
    ...     made = Span(label, start, -1, 0); made.end = start + 1; return made
    >>> draws = [Draw("integer", v, (0, 9)) for v in (1, 2, 3)]
    >>> tape = Tape(draws, [span(0, 0), span(1, 1), span(0, 2)])  # pickers 0, 1, then 0 again
    >>> [d.value for d in copy_span(tape, ["a", "b"], random.Random(1))]
    [1, 2, 1]
    """
    draws = tape.draws
    groups: dict[str, list[Any]] = {}
    for span in tape.spans:
        label = span.label
        if type(label) is int and 0 <= label < len(kinds) and span.end > span.start:
            groups.setdefault(kinds[label], []).append(span)
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
