"""Whether a run is making inputs, so that a value past its budget is discarded.

A ``Deferred`` without ``max_depth`` has a budget of nested picks for one value while a
run (``Assert``, ``find``, ``@given``, ``Monkey``) makes inputs: past it the pick raises
:class:`~synthia.InputTooLarge`, which the harness counts as a discarded input. Outside a
run a plain ``pick()`` recurses as deep as Python allows, at no cost per pick.

>>> with making_inputs():
...     bool(MAKING_INPUTS)
True
>>> bool(MAKING_INPUTS)
False
"""
from __future__ import annotations

import contextlib
from typing import Iterator

__all__ = ["MAKING_INPUTS", "making_inputs"]

#: Not empty while a run makes inputs (one entry per run under way: runs nest, a ``find``
#: inside a test).
MAKING_INPUTS: list[bool] = []


@contextlib.contextmanager
def making_inputs() -> Iterator[None]:
    """The span of a run: a budget applies to the values its wiring makes."""
    MAKING_INPUTS.append(True)
    try:
        yield
    finally:
        MAKING_INPUTS.pop()
