"""The constructor fuzzer's outcome counts: every public constructor, its arguments replaced
one at a time by bad values (``tests/contract/fuzz.py``, driven by the contract registry).

Not a speed benchmark: it prints how many variants got each outcome, and lists any that
were not clear (an exception that names no argument, a non-``ValueError``/``TypeError``,
or a hang). The target is 100% clear. ``--quick`` runs every fifth variant.
"""
from __future__ import annotations

import collections
import pathlib
import sys
import time

from timing import table

# The fuzzer and its signatures live with the contract suite, in the project's tests.
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))

from tests.contract.fuzz import CLEAR, OUTCOMES, fuzz  # noqa: E402
from tests.contract.registry import all_signatures  # noqa: E402


def run(quick: bool) -> None:
    signatures = all_signatures()
    start = time.perf_counter()
    outcomes = fuzz(signatures, every=5 if quick else 1)
    seconds = time.perf_counter() - start
    counts = collections.Counter(o.kind for o in outcomes)
    total = len(outcomes)
    print(f"\n{total} variants of {len(signatures)} public constructors in {seconds:.1f} s:")
    table([(kind, str(counts[kind]), f"{100 * counts[kind] / total:5.1f}%") for kind in OUTCOMES], ("outcome", "variants", "share"))
    clear = sum(counts[k] for k in CLEAR)
    print(f"\nclear: {clear} of {total} ({100 * clear / total:.1f}%)")
    for o in outcomes:
        if o.kind not in CLEAR:
            print(f"  {o}")
    slowest = max(outcomes, key=lambda o: o.seconds)
    print(f"slowest variant: {slowest.seconds * 1000:.0f} ms ({slowest.variant.signature.name}: {slowest.variant.label})")
