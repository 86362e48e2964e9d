# Modelled on model-based state machines of real projects: a bounded cache built in an
# initialize rule with a drawn capacity and checked against a dict (after cachetools' and
# functools.lru_cache's tests), and a sorted list checked against a sorted Python list whose
# remove rule draws a present value from the current state with st.data() (after
# sortedcontainers' tests).
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from tests.migration.subjects.stores import LRU, SortedList


class CacheMachine(RuleBasedStateMachine):
    def __init__(self):
        super().__init__()
        self.cache = None
        self.model = {}

    @initialize(capacity=st.integers(1, 4))
    def make(self, capacity):
        self.cache = LRU(capacity)
        self.capacity = capacity

    @rule(key=st.integers(0, 5), value=st.integers(0, 9))
    def put(self, key, value):
        self.cache.put(key, value)
        self.model.pop(key, None)
        self.model[key] = value
        while len(self.model) > self.capacity:
            del self.model[next(iter(self.model))]

    @rule(key=st.integers(0, 5))
    def get(self, key):
        expected = self.model.get(key)
        if expected is not None:
            self.model[key] = self.model.pop(key)
        assert self.cache.get(key) == expected

    @invariant()
    def bounded(self):
        if self.cache is not None:
            assert len(self.cache.items) <= self.capacity


TestCache = CacheMachine.TestCase


class SortedListMachine(RuleBasedStateMachine):
    def __init__(self):
        super().__init__()
        self.sorted = SortedList()
        self.model = []

    @rule(value=st.integers(0, 20))
    def add(self, value):
        self.sorted.add(value)
        self.model.append(value)

    @precondition(lambda self: self.model)
    @rule(data=st.data())
    def remove(self, data):
        value = data.draw(st.sampled_from(self.model))
        self.sorted.remove(value)
        self.model.remove(value)

    @invariant()
    def in_order(self):
        assert self.sorted.values == sorted(self.model)


TestSortedList = SortedListMachine.TestCase
