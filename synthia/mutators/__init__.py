"""Mutators: pickers that transform a received object (never modifying it)."""
from .base import *  # noqa: F401,F403
from .lists import *  # noqa: F401,F403
from .values import *  # noqa: F401,F403

__all__ = [
    "Mutator",
    "Mutate",
    "apply_mutation",
    "Offset",
    "Replace",
    "DeleteElement",
    "InsertElement",
    "Swap",
    "MutateElement",
]
