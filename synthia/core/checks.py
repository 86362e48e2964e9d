"""Argument checks shared by every constructor: each error names the argument and the value."""
from __future__ import annotations

import math
from typing import Any, Callable

__all__ = ["check_int", "check_number", "check_probability", "check_callable", "check_bool", "check_values"]


def _describe(value: Any) -> str:
    return f"{value!r} ({type(value).__name__})"


def check_int(value: Any, name: str, *, minimum: int | None = None) -> int:
    """``value`` as an int; ``TypeError`` for non-ints (bools included), ``ValueError`` below ``minimum``."""
    if isinstance(value, bool) or not isinstance(value, int):
        try:
            import numpy as np

            if isinstance(value, np.integer):
                value = int(value)
            else:
                raise TypeError
        except TypeError:
            raise TypeError(f"{name} must be an int, got {_describe(value)}") from None
    if minimum is not None and value < minimum:
        raise ValueError(f"{name} must be >= {minimum}, got {value!r}")
    return value


def check_number(value: Any, name: str, *, finite: bool = True) -> float | int:
    """``value`` if it is a real number (not a bool); ``ValueError`` if not finite when required."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        try:
            import numpy as np

            if isinstance(value, (np.integer, np.floating)):
                return check_number(value.item(), name, finite=finite)
        except ImportError:  # pragma: no cover
            pass
        raise TypeError(f"{name} must be a number, got {_describe(value)}")
    if finite and isinstance(value, float) and not math.isfinite(value):
        raise ValueError(f"{name} must be finite, got {value!r}")
    return value


def check_probability(value: Any, name: str) -> float:
    """``value`` as a float in ``[0, 1]``."""
    value = check_number(value, name)
    if not 0.0 <= value <= 1.0:
        raise ValueError(f"{name} must be a probability in [0, 1], got {value!r}")
    return float(value)


def check_callable(value: Any, name: str) -> Callable[..., Any]:
    """``value`` if it is callable."""
    if not callable(value):
        raise TypeError(f"{name} must be callable, got {_describe(value)}")
    return value


def check_values(values: Any, name: str = "values") -> list[Any]:
    """``values`` as a new list; ``TypeError`` for a picker (a common slip) or a non-iterable."""
    from .picker import Picker

    if isinstance(values, Picker):
        raise TypeError(f"{name} must be an iterable of values, got the picker {values!r}")
    try:
        return list(values)
    except TypeError:
        raise TypeError(f"{name} must be iterable, got {_describe(values)}") from None


def check_bool(value: Any, name: str) -> bool:
    """``value`` if it is a bool."""
    if not isinstance(value, bool):
        raise TypeError(f"{name} must be a bool, got {_describe(value)}")
    return value
