"""Testing harnesses: ``Assert``, stopping rules and reports."""
from .harness import Assert
from .report import TestReport
from .stopping import FixedCount, Outcome, StoppingRule, TimeBudget

__all__ = ["Assert", "TestReport", "StoppingRule", "FixedCount", "TimeBudget", "Outcome"]
