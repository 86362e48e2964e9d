"""Integrations: the pytest decorator and plugin, the Hypothesis bridge, Faker (optional dependencies
are imported only when used)."""
from .decorator import SynthiaFailure, given
from .faker import Faker
from .hypothesis import StrategyPicker, from_strategy, to_strategy

__all__ = ["given", "SynthiaFailure", "to_strategy", "from_strategy", "StrategyPicker", "Faker"]
