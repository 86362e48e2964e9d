"""Conversions and pacing: :class:`AsInt`, :class:`AsString`, :class:`Delay`."""
from __future__ import annotations

import time
from typing import Any, Callable

from ..core.picker import Picker, as_picker

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

    def __init__(self, picker: Picker[Any]) -> None:
        self.picker = as_picker(picker, "picker", numbers=False)

    def pick(self) -> int:
        value = self.picker.pick()
        try:
            return int(value)
        except (TypeError, ValueError):
            raise ValueError(f"AsInt cannot convert {value!r} ({type(value).__name__}) to int") from None


class AsString(Picker[str]):
    """Each value of ``picker`` converted with ``format`` (default :class:`str`).

    >>> from synthia import Tick
    >>> AsString(Tick(8, 1)).take(3)
    ['8', '9', '10']
    >>> AsString(Tick(0.5, 0.25), format="{:.2f}").take(2)
    ['0.50', '0.75']
    """

    inputs_fields = ("picker",)

    def __init__(self, picker: Picker[Any], format: str | Callable[[Any], str] = str) -> None:
        self.picker = as_picker(picker, "picker", numbers=False)
        if isinstance(format, str):
            template = format
            try:
                template.format(0)
            except (IndexError, KeyError, ValueError) as err:
                raise ValueError(f"format must be a template with one positional field, got {format!r}") from err
            self.format: Callable[[Any], str] = template.format
            self._template: str | None = template
        elif callable(format):
            self.format, self._template = format, None
        else:
            raise TypeError(f"format must be a template string or a callable, got {format!r}")

    def pick(self) -> str:
        return self.format(self.picker.pick())

    def _arguments(self) -> tuple[list[Any], dict[str, Any]]:
        if self._template is not None:
            return [self.picker], {"format": self._template}
        return [self.picker], ({} if self.format is str else {"format": self.format})


class Delay(Picker[float]):
    """Sleeps for a picked number of seconds, then returns that number.

    Paces a generator in wall-clock time (a monkey test's settle delay, a replayed
    log). Negative picks raise ``ValueError``.

    >>> Delay(0.001).pick()
    0.001
    """

    inputs_fields = ("seconds",)

    def __init__(self, seconds: Any) -> None:
        if not isinstance(seconds, Picker) and isinstance(seconds, (int, float)) and seconds < 0:
            raise ValueError(f"seconds must be non-negative, got {seconds!r}")
        self.seconds = as_picker(seconds, "seconds")

    def pick(self) -> float:
        seconds = self.seconds.pick()
        if seconds < 0:
            raise ValueError(f"seconds must be non-negative, got {seconds!r} from {self.seconds!r}")
        time.sleep(seconds)
        return seconds
