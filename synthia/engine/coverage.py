"""Classes of inputs and what they say about a run: coverage, entropy, unseen classes.

An input's **class** is read from the wiring, with no work from the user: the
:func:`signature` of its recorded draws and spans -- which pickers ran (so which ``Choice``
alternative was taken, which grammar rule fired, which Markov state was visited), how many
units each repetition had (list lengths, in buckets), and the values of its small
decisions (booleans, weighted choices, integers of at most eight values). Labels a test
adds with :func:`synthia.event` join the class.

The statistics over the classes seen:

* :func:`entropy` (the plug-in estimate, in nats), :func:`miller_madow` (corrected for its
  bias, about ``(m - 1) / 2n``), :func:`normalised_entropy` (by ``log m``);
* :func:`good_turing`: the probability that the next input falls in a class never seen
  (singletons over inputs);
* :func:`chao1`: an estimate of the number of classes, seen or not;
* :func:`k_hit`: the share of the estimated classes seen at least ``k`` times;
* :func:`wilson_low` and :func:`wilson_high`: the bounds of a proportion that QuickCheck's
  ``checkCoverage`` uses to decide, with a stated certainty, whether a coverage requirement
  is met.
"""
from __future__ import annotations

import math
from collections import Counter
from statistics import NormalDist
from typing import Any, Hashable, Iterable

from ..core.draws import BOOLEAN, INTEGER, WEIGHTED, Tape
from ..core.graph import upstream
from ..core.picker import Picker

__all__ = [
    "signature",
    "span_names",
    "describe_class",
    "entropy",
    "miller_madow",
    "normalised_entropy",
    "good_turing",
    "chao1",
    "k_hit",
    "wilson",
    "wilson_low",
    "wilson_high",
    "inverse_normal",
]

_SMALL_DECISION = 8  # integer draws of at most this many values are decisions, kept whole
_OWN_DECISIONS = 2  # a picker's decisions are kept when it makes this many; of more, their count's bucket


def bucket(n: int) -> int:
    """0, 1, 2-3, 4-7, ...: the bit length, so that sizes are compared by their order of magnitude."""
    return n.bit_length()


def span_names(root: Picker[Any]) -> dict[Hashable, str]:
    """The span label each picker of ``root``'s wiring gets when it is routed (its position in
    the upstream walk), mapped to its key in the wiring (``"l/element"``; ``""`` for the root).

    >>> import synthia as sy
    >>> span_names(sy.ComposeList(sy.RandomInteger(0, 9), 3))
    {0: '', 1: 'element', 2: 'length'}
    """
    names: dict[Hashable, str] = {}
    seen: set[int] = set()
    for key, node in upstream(root):
        if id(node) not in seen:
            seen.add(id(node))
            names[len(names)] = "/".join(str(k) for k in key) if isinstance(key, tuple) else str(key)
    return names


def signature(tape: Tape, depth: int = 3, prefix: int = 2, names: dict[Hashable, str] | None = None) -> tuple[Any, ...]:
    """The structural class of the last pick recorded in ``tape``.

    For each span down to ``depth`` levels below the top (the harness's arguments are level
    1): the picker's label, its own small decisions (booleans, weighted indices, integers
    with at most eight values) as values -- or, when it makes more than two (a string's
    characters), the bucket of their number -- and its other integer draws as size buckets (0, 1,
    2-3, 4-7, ...: a list's length, a range's order of magnitude); then its children in
    order, where a run of siblings made by the same picker (the elements of a list) counts
    as one entry -- the picker, the bucket of the run's length, and the classes of its
    first ``prefix`` units (a path's beginning), in which only booleans and weighted indices
    count (the elements' values, small or not, would split the classes into as many as there
    are values). ``names`` maps span labels to readable
    names (the harness gives each picker's key in the wiring, ``"l/element"``), which the
    class then holds instead of the labels; :func:`describe_class` prints a class.

    >>> import synthia as sy
    >>> lists = sy.ComposeList(sy.RandomBoolean(), sy.RandomInteger(0, 10))
    >>> a = signature(sy.record(lists.set_seed(1))[1])
    >>> b = signature(sy.record(lists.set_seed(2))[1])
    >>> a == b  # different lengths and first elements: different classes
    False
    """
    spans = tape.spans
    if not spans:
        return ()
    name = names.get if names is not None else (lambda label: label)
    start = tape.pick_starts[-1] if tape.pick_starts else 0
    roots = [i for i in tape.children(-1) if spans[i].start >= start] or tape.children(-1)

    def shape(p: int, level: int, unit: bool = False) -> tuple[Any, ...]:
        span = spans[p]
        parts: list[Any] = [name(span.label)]
        decisions = []
        for i in tape.direct_draws(p):
            d = tape.draws[i]
            if d.kind in (BOOLEAN, WEIGHTED) or (d.kind == INTEGER and not unit and d.args[1] - d.args[0] <= _SMALL_DECISION):
                decisions.append(d.value)
            elif d.kind == INTEGER and not unit:
                parts.append(("~", bucket(abs(int(d.value)))))
        # A string's characters: how many, not which.
        parts.extend(decisions if len(decisions) <= _OWN_DECISIONS else [("…", bucket(len(decisions)))])
        if level < depth:
            children = tape.children(p)
            k = 0
            while k < len(children):
                label = spans[children[k]].label
                j = k
                while j + 1 < len(children) and spans[children[j + 1]].label == label:
                    j += 1
                run = children[k : j + 1]
                if len(run) == 1:
                    parts.append(shape(run[0], level + 1))
                else:
                    parts.append((name(label), "x", bucket(len(run)), tuple(shape(q, level + 1, True) for q in run[:prefix])))
                k = j + 1
        return tuple(parts)

    return tuple(shape(p, 0) for p in roots[-1:])


def _size(bucket: int) -> str:
    if bucket <= 1:
        return str(bucket)
    low, high = 1 << (bucket - 1), (1 << bucket) - 1
    return f"{low}-{high}"


def describe_class(klass: Any) -> str:
    """A class made by :func:`signature` (with names), and the labels that joined it, as text.

    >>> describe_class(((("", ("l", ("l/length", ("~", 2)), ("l/element", "x", 2, (("l/element", 0), ("l/element", 1))))),), ("small",)))
    'l(l/length ~2-3, l/element ×2-3 [0, 1 ...]) | small'
    """
    if isinstance(klass, tuple) and len(klass) == 2 and isinstance(klass[1], tuple) and all(isinstance(x, str) for x in klass[1]) and klass[1]:
        return f"{describe_class(klass[0])} | {', '.join(klass[1])}"
    if isinstance(klass, tuple) and all(isinstance(part, tuple) for part in klass):
        return "; ".join(_describe_shape(part) for part in klass)
    return repr(klass)


def _describe_shape(shape: tuple[Any, ...], top: bool = True) -> str:
    name, parts = shape[0], shape[1:]
    if name == "" and top:  # the harness's own wiring of the arguments: show the arguments
        return ", ".join(_describe_part(part) for part in parts)
    inner = [_describe_part(part) for part in parts]
    if not inner:
        return str(name)
    nested = any(isinstance(part, tuple) and part and part[0] != "~" for part in parts)
    return f"{name}({', '.join(inner)})" if nested else f"{name} {' '.join(inner)}"


def _describe_part(part: Any) -> str:
    if isinstance(part, tuple) and part and part[0] == "~":
        return f"~{_size(part[1])}"
    if isinstance(part, tuple) and len(part) == 2 and part[0] == "…":
        return f"… {_size(part[1])} decisions"
    if isinstance(part, tuple) and len(part) == 4 and part[1] == "x":
        firsts = ", ".join(_describe_values(shape) for shape in part[3])
        return f"{part[0]} ×{_size(part[2])} [{firsts} ...]"
    if isinstance(part, tuple) and part:
        return _describe_shape(part, top=False)
    return repr(part)


def _describe_values(shape: tuple[Any, ...]) -> str:
    """A unit of a run by its own parts only (its name is the run's)."""
    inner = [_describe_part(part) for part in shape[1:]]
    return " ".join(inner) if inner else "·"


def _counts(counts: Counter[Hashable] | Iterable[int]) -> list[int]:
    values = list(counts.values()) if isinstance(counts, Counter) else list(counts)
    return [c for c in values if c > 0]


def entropy(counts: Counter[Hashable] | Iterable[int]) -> float:
    """The plug-in (maximum-likelihood) entropy of the class frequencies, in nats.

    >>> round(entropy([5, 5]), 4)
    0.6931
    """
    values = _counts(counts)
    n = sum(values)
    return -sum(c / n * math.log(c / n) for c in values) if n else 0.0


def miller_madow(counts: Counter[Hashable] | Iterable[int]) -> float:
    """The entropy with the Miller–Madow correction ``(m - 1) / 2n`` for the plug-in's bias.

    >>> round(miller_madow([5, 5]), 4)
    0.7431
    """
    values = _counts(counts)
    n = sum(values)
    return entropy(values) + (len(values) - 1) / (2 * n) if n else 0.0


def normalised_entropy(counts: Counter[Hashable] | Iterable[int], classes: float | None = None) -> float:
    """The plug-in entropy over its maximum ``log m`` (1: the classes are hit evenly).

    ``m`` is ``classes`` when given (an estimate of all the classes), else the number seen;
    with one class or none the answer is ``nan``.
    """
    values = _counts(counts)
    m = classes if classes is not None else len(values)
    return entropy(values) / math.log(m) if m and m > 1 else math.nan


def good_turing(counts: Counter[Hashable] | Iterable[int]) -> float:
    """The Good–Turing probability that the next input falls in a class not seen yet:
    the classes seen once, over the inputs.

    >>> good_turing([1, 1, 3])
    0.4
    """
    values = _counts(counts)
    n = sum(values)
    return sum(1 for c in values if c == 1) / n if n else 1.0


def chao1(counts: Counter[Hashable] | Iterable[int]) -> float:
    """Chao1: the number of classes, seen or not, estimated from the seen ones
    (bias-corrected form ``S + f1 (f1 - 1) / 2 (f2 + 1)``).

    >>> chao1([1, 1, 2, 5])
    4.5
    """
    values = _counts(counts)
    f1 = sum(1 for c in values if c == 1)
    f2 = sum(1 for c in values if c == 2)
    return len(values) + f1 * (f1 - 1) / (2 * (f2 + 1))


def k_hit(counts: Counter[Hashable] | Iterable[int], k: int = 1, classes: float | None = None) -> float:
    """The share of the classes (``classes``, else the Chao1 estimate) seen at least ``k`` times."""
    values = _counts(counts)
    total = classes if classes is not None else chao1(values)
    return sum(1 for c in values if c >= k) / total if total else 0.0


def inverse_normal(p: float) -> float:
    """The quantile of the standard normal distribution.

    >>> round(inverse_normal(0.975), 4)
    1.96
    """
    return NormalDist().inv_cdf(p)


def wilson(k: int, n: int, z: float) -> float:
    """The Wilson score bound of the proportion ``k / n`` at the normal quantile ``z``."""
    if n == 0:
        return 0.0 if z < 0 else 1.0
    p = k / n
    return (p + z * z / (2 * n) + z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))) / (1 + z * z / n)


def wilson_low(k: int, n: int, alpha: float) -> float:
    """The lower Wilson bound with error ``alpha`` (two-sided): what ``checkCoverage`` uses."""
    return wilson(k, n, inverse_normal(alpha / 2))


def wilson_high(k: int, n: int, alpha: float) -> float:
    """The upper Wilson bound with error ``alpha`` (two-sided)."""
    return wilson(k, n, inverse_normal(1 - alpha / 2))
