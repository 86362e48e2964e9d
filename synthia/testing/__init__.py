"""Testing harnesses: ``Assert``, ``find``, stopping rules and reports."""
from .context import UnsatisfiedAssumption, assume, cover, draw, event, note, target
from .actions import Action, action, initialize, invariant, precondition
from .bundles import Bundle, consumes, multiple
from .find import NoExampleFound, find
from .outside import shrink
from .monkey import Monkey, MonkeyReport, Step, TraceExplanation, monkey
from .scheduler import Deadlock, History, Lock, interleave
from .primitives import controlled_primitives
from .linearizability import ANY_RESULT
from .harness import Assert
from ..engine.runner import RunOptions
from ..engine.report import HealthWarning, InvalidTest, TestReport, Unsatisfiable
from .settings import Profile, load_profile, register_profile
from ..engine.stopping import FixedCount, Outcome, StoppingRule, TimeBudget
from .bayesian import Bayesian
from ..engine.evidence import Evidence
from .mutation import Mutant, PropertyCoverage, property_coverage

__all__ = [
    "Assert",
    "RunOptions",
    "TestReport",
    "Unsatisfiable",
    "InvalidTest",
    "Profile",
    "register_profile",
    "load_profile",
    "StoppingRule",
    "FixedCount",
    "TimeBudget",
    "Bayesian",
    "Evidence",
    "Mutant",
    "PropertyCoverage",
    "property_coverage",
    "event",
    "note",
    "target",
    "cover",
    "Outcome",
    "find",
    "shrink",
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
    "initialize",
    "precondition",
    "invariant",
    "Bundle",
    "consumes",
    "multiple",
    "monkey",
    "interleave",
    "controlled_primitives",
    "History",
    "Lock",
    "Deadlock",
    "ANY_RESULT",
]
