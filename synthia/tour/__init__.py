"""The guided tour printed by ``python -m synthia tour``.

Each chapter is a module ``tour/chNN_name.py`` with a ``TITLE`` and a
``run(tour)`` function; chapters run in the order of their numbers. A chapter
shows real wirings, their values and the seed that reproduces them, through
the small :class:`Tour` printer.
"""
from __future__ import annotations

import importlib
import pkgutil
import sys
import textwrap
from typing import Any, Callable, TextIO

__all__ = ["Tour", "chapters", "run"]


class Tour:
    """Prints a chapter: prose, wirings with their values, and the seed that replays them."""

    def __init__(self, stream: TextIO | None = None, width: int = 88) -> None:
        self.stream = stream or sys.stdout
        self.width = width

    def heading(self, text: str) -> None:
        print(f"\n{text}\n{'=' * len(text)}", file=self.stream)

    def say(self, text: str) -> None:
        """A paragraph of explanation."""
        print(file=self.stream)
        for para in textwrap.dedent(text).strip().split("\n\n"):
            print(textwrap.fill(" ".join(para.split()), self.width), file=self.stream)

    def code(self, text: str) -> None:
        """Source code, as the reader would type it."""
        print(file=self.stream)
        for line in textwrap.dedent(text).strip("\n").splitlines():
            print(f"    {line}", file=self.stream)

    def show(self, label: str, value: Any) -> None:
        """A labelled result."""
        print(f"  {label}: {value}", file=self.stream)

    def values(self, picker: Any, n: int = 8, seed: int | None = None, label: str = "values") -> list[Any]:
        """Seed ``picker`` (if ``seed`` is given), print its wiring and ``n`` values, return them."""
        if seed is not None:
            picker.set_seed(seed)
        got = picker.take(n)
        print(f"  wiring: {picker!r}", file=self.stream)
        print(f"  seed:   {picker.seed}", file=self.stream)
        print(f"  {label}: {got}", file=self.stream)
        return got


def chapters() -> list[Any]:
    """The chapter modules, in order."""
    names = sorted(m.name for m in pkgutil.iter_modules(__path__) if m.name.startswith("ch"))
    return [importlib.import_module(f"{__name__}.{name}") for name in names]


def run(stream: TextIO | None = None, only: str | None = None) -> None:
    """Run every chapter (or the ones whose module name contains ``only``)."""
    tour = Tour(stream)
    for module in chapters():
        if only and only not in module.__name__:
            continue
        tour.heading(module.TITLE)
        module.run(tour)
