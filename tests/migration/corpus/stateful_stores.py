# Modelled on state machines with bundles, from Hypothesis's docs and real projects: the
# DatabaseComparison example (Bundles of keys and values, consumes, multiple, initialize,
# teardown, a precondition on an invariant, the step count in the settings of the TestCase)
# and a ledger of accounts (a bundle of accounts opened two at a time in an initialize rule,
# consumed when closed; settings as a class decorator).
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import Bundle, RuleBasedStateMachine, consumes, initialize, invariant, multiple, precondition, rule

from tests.migration.subjects.stores import Ledger, Store


class StoreComparison(RuleBasedStateMachine):
    keys = Bundle("keys")
    values = Bundle("values")

    def __init__(self):
        super().__init__()
        self.store = Store()
        self.model = {}

    @initialize(target=keys, k=st.binary(min_size=1, max_size=4))
    def first_key(self, k):
        return k

    @rule(target=keys, k=st.binary(min_size=1, max_size=4))
    def add_key(self, k):
        return k

    @rule(target=values, v=st.binary(max_size=4))
    def add_values(self, v):
        return multiple(v, v + b"!")

    @rule(k=keys, v=values)
    def put(self, k, v):
        self.store.put(k, v)
        self.model[k] = v

    @rule(k=consumes(keys))
    def delete(self, k):
        self.store.delete(k)
        self.model.pop(k, None)

    @rule(k=keys)
    def get(self, k):
        assert self.store.get(k) == self.model.get(k)

    @precondition(lambda self: self.model)
    @invariant()
    def same_size(self):
        assert len(self.store.data) == len(self.model)

    def teardown(self):
        self.store.close()


TestStoreComparison = StoreComparison.TestCase
TestStoreComparison.settings = settings(max_examples=60, stateful_step_count=20)


@settings(max_examples=80)
class LedgerMachine(RuleBasedStateMachine):
    accounts = Bundle("accounts")

    def __init__(self):
        super().__init__()
        self.ledger = Ledger()
        self.total = 0

    @initialize(target=accounts, a=st.integers(0, 100), b=st.integers(0, 100))
    def open_two(self, a, b):
        self.total += a + b
        return multiple(self.ledger.open(a), self.ledger.open(b))

    @rule(target=accounts, amount=st.integers(0, 100))
    def open(self, amount):
        self.total += amount
        return self.ledger.open(amount)

    @rule(source=accounts, to=accounts, amount=st.integers(0, 100))
    def transfer(self, source, to, amount):
        if source in self.ledger.balances and to in self.ledger.balances:
            self.ledger.transfer(source, to, amount)

    @rule(name=consumes(accounts))
    def close(self, name):
        if name in self.ledger.balances:
            self.total -= self.ledger.close(name)

    @invariant()
    def money_is_conserved(self):
        assert self.ledger.total() == self.total


TestLedger = LedgerMachine.TestCase
