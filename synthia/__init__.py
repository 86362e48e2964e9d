"""synthia: test inputs and synthetic data from small stateful pickers, wired together.

>>> import synthia as sy
>>> points = sy.ComposeList(sy.Apply(lambda x, y: (x, y), sy.RandomInteger(0, 10), sy.Tick()), length=3)
>>> points.set_seed(2).pick()
[(1, 0), (3, 1), (8, 2)]
"""
from .core import (
    Bounded,
    CannotShrink,
    GiveUp,
    NoMoreElementException,
    NoMoreElements,
    Picker,
    PickerError,
    RandomPicker,
    Reactive,
    Resettable,
    Seedable,
    Shrinkable,
)
from .explain import (
    Attribute,
    Character,
    Explanation,
    Key,
    Member,
    NthElement,
    NthOutput,
    explain,
    recording,
    wiring_diagram,
)
from .integrations import SynthiaFailure, given
from .testing import Assert, FixedCount, StoppingRule, TestReport, TimeBudget
from .mutators import *  # noqa: F401,F403
from .mutators import __all__ as _mutators
from .pickers import *  # noqa: F401,F403 - the catalog is the public surface
from .pickers import __all__ as _catalog

__version__ = "0.1.0"

__all__ = [
    "Picker",
    "Bounded",
    "Shrinkable",
    "Seedable",
    "Reactive",
    "Resettable",
    "RandomPicker",
    "PickerError",
    "NoMoreElements",
    "NoMoreElementException",
    "GiveUp",
    "CannotShrink",
    "Assert",
    "TestReport",
    "StoppingRule",
    "FixedCount",
    "TimeBudget",
    "given",
    "SynthiaFailure",
    "explain",
    "Explanation",
    "recording",
    "wiring_diagram",
    "NthOutput",
    "NthElement",
    "Key",
    "Attribute",
    "Character",
    "Member",
    *_catalog,
    *_mutators,
]
