"""The exceptions every picker may raise.

One convention ends a stream everywhere: a picker with nothing left raises
:class:`NoMoreElements`. No picker ever returns ``None`` to mean "no more".
"""
from __future__ import annotations

__all__ = [
    "PickerError",
    "NoMoreElements",
    "GiveUp",
    "CannotShrink",
    "InputTooLarge",
]


class PickerError(Exception):
    """Base class of the errors raised by pickers while picking or shrinking."""


class NoMoreElements(PickerError):
    """A bounded picker has no value left (until it is reset).

    >>> from synthia import Nothing
    >>> Nothing().pick()
    Traceback (most recent call last):
    ...
    synthia.core.exceptions.NoMoreElements: Nothing() never has a value
    """




class GiveUp(PickerError):
    """Rejection sampling (or another search) gave up after its documented budget."""




class CannotShrink(PickerError):
    """The picker has no order in which a value could be made smaller."""


class InputTooLarge(PickerError):
    """One value grew past what a value may: a ``Deferred`` without ``max_depth`` recursed
    past Python's limit or made more than its budget of nested picks (a recursion that
    branches more than it ends). A harness discards such an input, as Hypothesis discards
    one that overruns its buffer, and goes on; a pick outside a harness raises it."""
