"""Pictures of a picker's values: :func:`plot` (matplotlib, an optional extra).

The kind of picture follows the values: numbers (ints, floats, decimals, fractions,
dates) give a histogram; pairs of numbers (points, 2-tuples, 2-D arrays of shape ``(2,)``)
a scatter plot; strings, booleans and other hashable values a bar chart of the most
frequent ones; lists and strings can be summarised by their length with ``of=len``.
"""
from __future__ import annotations

import datetime as dt
import math
import numbers
from collections import Counter
from decimal import Decimal
from fractions import Fraction
from typing import Any, Callable

from ..core.checks import check_callable, check_count, check_int, check_picker, check_text
from ..core.picker import Picker

__all__ = ["plot"]


#: The most bins a histogram may ask for (more is never readable, and numpy runs out of memory).
MAX_BINS = 10_000


def _as_float(v: Any) -> float:
    try:
        return float(v)
    except OverflowError:  # an int or a Decimal beyond the float range
        return math.inf if v > 0 else -math.inf


def _is_number(v: Any) -> bool:
    return isinstance(v, (numbers.Real, Decimal, Fraction)) and not isinstance(v, bool)


def plot(picker: Picker[Any], n: int = 1000, *, of: Callable[[Any], Any] | None = None, ax: Any = None, bins: int = 30, title: str | None = None) -> Any:
    """Draw ``n`` values of ``picker`` (in its current state) and plot them; return the axes.

    ``of`` maps each value first (``of=len`` plots list lengths). ``ax`` is a matplotlib
    axes to draw on (a new figure otherwise).

    >>> import matplotlib; matplotlib.use("Agg")
    >>> import synthia as sy
    >>> ax = plot(sy.GaussianFloat(0, 1).set_seed(1), 500)
    >>> ax.get_title()
    'GaussianFloat(0.0, 1.0): 500 values'
    """
    check_picker(picker, "picker")
    check_count(n, "n", minimum=1)
    if of is not None:
        check_callable(of, "of", arguments=1, source="each value")
    check_int(bins, "bins", minimum=1, maximum=MAX_BINS)
    if title is not None:
        check_text(title, "title")
    if ax is not None and not hasattr(ax, "hist"):
        raise TypeError(f"ax must be a matplotlib Axes (or None for a new figure), got {ax!r} ({type(ax).__name__})")
    try:
        import matplotlib.pyplot as plt
    except ImportError as err:  # pragma: no cover - exercised without the extra
        raise ImportError("sy.plot needs matplotlib: pip install 'synthia[plots]'") from err
    values = picker.take(n)
    if of is not None:
        values = [of(v) for v in values]
    if ax is None:
        _, ax = plt.subplots(figsize=(6, 3.5))
    ax.set_title(title if title is not None else f"{picker!r}"[:60] + f": {len(values)} values")
    if values and all(_is_number(v) for v in values):
        finite = [x for x in map(_as_float, values) if math.isfinite(x)]
        if not finite:
            raise ValueError(f"picker gave no finite number to plot (such as {values[0]!r}), from {picker!r}")
        if len(finite) < len(values):
            ax.set_title(f"{ax.get_title()} ({len(values) - len(finite)} not finite, left out)")
        ax.hist(finite, bins=bins, color="#4472c4")
        ax.set_ylabel("count")
    elif values and all(isinstance(v, (dt.date, dt.datetime)) for v in values):
        ax.hist(values, bins=bins, color="#4472c4")
        ax.set_ylabel("count")
        ax.figure.autofmt_xdate()
    elif values and all(_is_pair(v) for v in values):
        xs, ys = zip(*[(float(v[0]), float(v[1])) for v in values])
        ax.scatter(xs, ys, s=6, alpha=0.6, color="#4472c4")
        ax.set_aspect("equal", adjustable="datalim")
    else:
        counts = Counter(_key(v) for v in values).most_common(20)
        labels = [str(k)[:20] for k, _ in counts]
        ax.bar(range(len(counts)), [c for _, c in counts], color="#4472c4")
        ax.set_xticks(range(len(counts)), labels, rotation=45, ha="right")
        ax.set_ylabel("count")
    return ax


def _is_pair(v: Any) -> bool:
    try:
        return len(v) == 2 and _is_number(v[0]) and _is_number(v[1])
    except TypeError:
        return False


def _key(v: Any) -> Any:
    try:
        hash(v)
        return v
    except TypeError:
        return repr(v)
