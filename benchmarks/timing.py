"""Small timing helpers shared by the benchmarks (best of several repeats, per-call cost)."""
from __future__ import annotations

import time
from typing import Callable


def per_call(fn: Callable[[int], object], n: int, repeat: int = 5) -> float:
    """Seconds per call of the work ``fn(n)`` does ``n`` times: the best of ``repeat`` runs."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        fn(n)
        best = min(best, time.perf_counter() - start)
    return best / n


def table(rows: list[tuple[str, ...]], header: tuple[str, ...]) -> None:
    """Print an aligned text table."""
    widths = [max(len(str(r[i])) for r in [header, *rows]) for i in range(len(header))]
    line = "  ".join(h.ljust(w) for h, w in zip(header, widths))
    print(line)
    print("  ".join("-" * w for w in widths))
    for row in rows:
        print("  ".join(str(c).ljust(w) for c, w in zip(row, widths)))
