"""Integrations: the pytest decorator and plugin, the Hypothesis bridge, Faker and Mimesis (optional dependencies
are imported only when used)."""
from .decorator import SynthiaFailure, example, given
from .faker import Faker
from .mimesis import Mimesis
from .hypothesis import StrategyPicker, from_strategy, to_strategy
from ..engine.progress import Progress
from .tables import to_csv, to_dataframe, to_parquet

__all__ = ["given", "example", "SynthiaFailure", "to_strategy", "from_strategy", "StrategyPicker", "Faker", "Mimesis", "Progress", "to_dataframe", "to_csv", "to_parquet"]
