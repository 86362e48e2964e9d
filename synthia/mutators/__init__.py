"""Mutators: pickers that transform a received object (never modifying it)."""
from . import base, lists, values
from .base import *  # noqa: F401,F403
from .lists import *  # noqa: F401,F403
from .values import *  # noqa: F401,F403

__all__ = [*base.__all__, *values.__all__, *lists.__all__]
