"""Async helpers, after trio's and anyio's property tests of channels and timeouts."""
from __future__ import annotations

import asyncio
from typing import Any

from . import BUGGY


async def relay(items: list[Any], capacity: int) -> list[Any]:
    """Send ``items`` through a bounded queue to a consumer task; what it received."""
    queue: asyncio.Queue[Any] = asyncio.Queue(maxsize=capacity)
    received: list[Any] = []
    done = object()

    async def consume() -> None:
        while True:
            item = await queue.get()
            if item is done:
                return
            received.append(item)

    task = asyncio.ensure_future(consume())
    if BUGGY and len(items) > capacity + 1:
        items = items[:-1]  # planted: with the queue full, the last item is dropped
    for item in items:
        await queue.put(item)
    await queue.put(done)
    await task
    return received


async def sleep_until(deadline: float, clock: list[float]) -> float:
    """Advance the virtual ``clock`` to ``deadline`` in steps of 0.25."""
    while clock[0] < deadline:
        await asyncio.sleep(0)
        clock[0] = round(clock[0] + 0.25, 2)
        if BUGGY and clock[0] >= 10:
            return clock[0] - 0.25  # planted: long sleeps end a step early
    return clock[0]
