"""Pictures of a picker's values: :func:`plot` (matplotlib, an optional extra).

The kind of picture follows the values: numbers (ints, floats, decimals, fractions,
dates) give a histogram; pairs of numbers (points, 2-tuples, 2-D arrays of shape ``(2,)``)
a scatter plot; strings, booleans and other hashable values a bar chart of the most
frequent ones; lists and strings can be summarised by their length with ``of=len``.
"""
from __future__ import annotations

import datetime as dt
import numbers
from collections import Counter
from decimal import Decimal
from fractions import Fraction
from typing import Any, Callable

from ..core.checks import check_int
from ..core.picker import Picker

__all__ = ["plot"]


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
    check_int(n, "n", minimum=1)
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
        ax.hist([float(v) for v in values], bins=bins, color="#4472c4")
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
