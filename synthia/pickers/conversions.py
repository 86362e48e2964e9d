"""Conversions and pacing: :class:`AsInt`, :class:`AsString`, :class:`Delay`."""
from __future__ import annotations

import threading
import time
from typing import Any, Callable

from ..core.checks import check_callable, check_template, describe
from ..core.inputs import number_input, value_input
from ..core.picker import Picker

__all__ = ["AsInt", "AsString", "Delay"]


class AsInt(Picker[int]):
    """Each value of ``picker`` converted with :class:`int` (floats truncate towards zero).

    A value that cannot be converted raises ``ValueError`` naming it, instead of
    the Java library's silent 0.

    >>> from synthia import RandomFloat
    >>> AsInt(RandomFloat(0, 10, seed=1)).take(4)
    [7, 3, 5, 9]
    """

    inputs_fields = ("picker",)

    def __init__(self, picker: Any) -> None:
        self.picker = value_input(picker, "picker")
        if not isinstance(picker, Picker):
            self.pick()  # a plain value: convert it now, so that a bad one fails at construction

    def _pick(self) -> int:
        value = self.picker.pick()
        try:
            return int(value)
        except (TypeError, ValueError, OverflowError):
            raise ValueError(f"AsInt cannot convert {describe(value)} from picker {self.picker!r} to int") from None


class AsString(Picker[str]):
    """Each value of ``picker`` converted with ``format`` (default :class:`str`).

    ``format`` is a callable of one value, or a :meth:`str.format` template with one
    field (a template without a field, such as ``"abc"``, is refused: every value
    would be the same text).

    >>> from synthia import Tick
    >>> AsString(Tick(8, 1)).take(3)
    ['8', '9', '10']
    >>> AsString(Tick(0.5, 0.25), format="{:.2f}").take(2)
    ['0.50', '0.75']
    """

    inputs_fields = ("picker",)

    def __init__(self, picker: Any, format: str | Callable[[Any], str] = str) -> None:
        self.picker = value_input(picker, "picker")
        if isinstance(format, str):
            self._template: str | None = check_template(format, "format")
            self.format: Callable[[Any], str] = format.format
        elif callable(format):
            self.format, self._template = check_callable(format, "format", arguments=1), None
        else:
            raise TypeError(f"format must be a template string or a callable, got {describe(format)}")

    def _pick(self) -> str:
        value = self.picker.pick()
        if self._template is None:
            return self.format(value)
        try:
            return self.format(value)
        except (ValueError, TypeError) as error:
            raise ValueError(f"format {self._template!r} cannot format {describe(value)} from picker {self.picker!r}: {error}") from None

    def arguments(self) -> tuple[list[Any], dict[str, Any]]:
        if self._template is not None:
            return [self.picker], {"format": self._template}
        return [self.picker], ({} if self.format is str else {"format": self.format})


class Delay(Picker[float]):
    """Sleeps for a picked number of seconds, then returns that number.

    Paces a generator in wall-clock time (a monkey test's settle delay, a replayed
    log). ``seconds`` is a number or a picker of numbers in ``[0, threading.TIMEOUT_MAX]``
    (the longest wait the platform can make); a pick outside raises ``ValueError``.

    >>> Delay(0.001).pick()
    0.001
    """

    inputs_fields = ("seconds",)

    def __init__(self, seconds: Any) -> None:
        self.seconds = number_input(seconds, "seconds", minimum=0, maximum=threading.TIMEOUT_MAX)

    def _pick(self) -> float:
        seconds = self.seconds.pick()
        try:
            valid = 0 <= seconds <= threading.TIMEOUT_MAX
        except TypeError:
            valid = False
        if not valid:
            raise ValueError(f"seconds must pick numbers in [0, {threading.TIMEOUT_MAX}], got {describe(seconds)} from {self.seconds!r}")
        time.sleep(seconds)
        return seconds  # type: ignore[no-any-return]
