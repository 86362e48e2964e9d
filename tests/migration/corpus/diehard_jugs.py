# Modelled on "How not to Die Hard with Hypothesis" (hypothesis.works), the state machine of
# rules without arguments over two water jugs with an invariant on their contents, its step
# count and number of examples in the settings of the TestCase.
from hypothesis import settings
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule

from tests.migration.subjects.stores import Jugs


class DieHard(RuleBasedStateMachine):
    def __init__(self):
        super().__init__()
        self.jugs = Jugs()

    @rule()
    def fill_small(self):
        self.jugs.fill_small()

    @rule()
    def fill_big(self):
        self.jugs.fill_big()

    @rule()
    def empty_small(self):
        self.jugs.empty_small()

    @rule()
    def empty_big(self):
        self.jugs.empty_big()

    @rule()
    def pour_small_into_big(self):
        self.jugs.pour_small_into_big()

    @rule()
    def pour_big_into_small(self):
        self.jugs.pour_big_into_small()

    @invariant()
    def physics_of_jugs(self):
        assert 0 <= self.jugs.small <= 3
        assert 0 <= self.jugs.big <= 5


TestDieHard = DieHard.TestCase
TestDieHard.settings = settings(max_examples=100, stateful_step_count=30)
