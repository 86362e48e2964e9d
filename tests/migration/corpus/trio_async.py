# Modelled on async property tests as trio's and anyio's pytest plugins run them, written
# here with Hypothesis's documented hook for custom function execution (execute_example)
# running each example's coroutine: a bounded channel relaying everything, a virtual clock.
import asyncio

from hypothesis import given
from hypothesis import strategies as st

from tests.migration.subjects.channels import relay, sleep_until


class TestChannels:
    def execute_example(self, f):
        result = f()
        if asyncio.iscoroutine(result):
            return asyncio.run(result)
        return result

    @given(st.lists(st.integers(), max_size=8), st.integers(1, 4))
    async def test_relay_delivers_everything_in_order(self, items, capacity):
        assert await relay(items, capacity) == items

    @given(st.floats(0, 20))
    async def test_sleep_reaches_its_deadline(self, deadline):
        clock = [0.0]
        assert await sleep_until(deadline, clock) >= deadline
