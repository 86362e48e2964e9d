"""The one wiring of a harness's arguments: a dict of one pick of each argument's picker."""
from __future__ import annotations

from typing import Any, Iterator

from ..core.constant import Constant
from ..core.inputs import value_input
from ..core.picker import Picker
from ..pickers.basic import Apply

__all__ = ["Arguments"]


class Arguments(Apply[dict[str, Any]]):
    """``{name: picker.pick(), ...}`` for the pickers of a harness, in the order given.

    A harness copies and seeds this one picker, so pickers shared between arguments stay
    shared, and each argument's key in the wiring is its name (``"l/element"``), which
    the seeds and the per-picker timings use. It explains like the ``Apply(dict, ...)`` it
    is: each argument is the key of the same name.

    >>> from synthia import RandomInteger
    >>> Arguments({"x": RandomInteger(0, 10), "y": 3}).set_seed(1).pick()
    {'x': 1, 'y': 3}
    """

    def __init__(self, pickers: dict[str, Any]) -> None:
        super().__init__(dict)
        # Set after construction: an argument may be called ``fn`` like Apply's own parameter.
        self.kwargs = {name: value_input(p, name) for name, p in pickers.items()}
        self.inverse = dict  # a dict of the arguments' values parses through each argument's picker

    def named_inputs(self) -> Iterator[tuple[str, Picker[Any]]]:
        yield from self.kwargs.items()

    def arguments(self) -> tuple[list[Any], dict[str, Any]]:
        return [], {k: p.value if type(p) is Constant else p for k, p in self.kwargs.items()}
