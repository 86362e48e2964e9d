"""Testing harnesses: ``Assert``, ``find``, stopping rules and reports."""
from .context import UnsatisfiedAssumption, assume, draw
from .actions import Action, action, invariant
from .find import NoExampleFound, find
from .monkey import Monkey, MonkeyReport, Step, TraceExplanation, monkey
from .harness import Assert
from .report import HealthWarning, TestReport, Unsatisfiable
from .stopping import FixedCount, Outcome, StoppingRule, TimeBudget

__all__ = [
    "Assert",
    "TestReport",
    "Unsatisfiable",
    "StoppingRule",
    "FixedCount",
    "TimeBudget",
    "Outcome",
    "find",
    "NoExampleFound",
    "draw",
    "assume",
    "UnsatisfiedAssumption",
    "HealthWarning",
    "Monkey",
    "MonkeyReport",
    "Action",
    "Step",
    "TraceExplanation",
    "action",
    "invariant",
    "monkey",
]
