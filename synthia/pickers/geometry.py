"""Geometry and signals: points in boxes and on hyperspheres, and sine waves."""
from __future__ import annotations

import math
from typing import Any

from ..core.checks import describe
from ..core.inputs import number_input, variadic_inputs
from ..core.picker import Picker
from ..core.shrinking import Shrinkable

__all__ = ["PrismPicker", "HyperspherePicker", "SineWave"]


class PrismPicker(Shrinkable[tuple[Any, ...]]):
    """A point whose coordinate ``i`` is a pick of ``coordinates[i]``.

    With uniform coordinates this is a point in a box (a "prism"); any pickers
    can be wired in, such as a :class:`~synthia.Tick` for a moving x. A plain number
    is a fixed coordinate.

    >>> from synthia import RandomInteger, Tick
    >>> PrismPicker(Tick(0, 1), RandomInteger(0, 10, seed=1)).take(3)
    [(0, 4), (1, 6), (2, 4)]
    """

    inputs_fields = ("coordinates",)

    def __init__(self, *coordinates: Any) -> None:
        if not coordinates:
            raise ValueError("PrismPicker needs at least one coordinate, got none")
        self.coordinates = variadic_inputs(coordinates, "coordinates", "PrismPicker", number_input)

    @property
    def dimension(self) -> int:
        """The number of coordinates of each point."""
        return len(self.coordinates)

    def _pick(self) -> tuple[Any, ...]:
        return tuple([c.pick() for c in self.coordinates])

    def arguments(self) -> tuple[list[Any], dict[str, Any]]:
        return list(self.coordinates), {}




class HyperspherePicker(Picker[tuple[float, ...]]):
    """A point in ``n`` dimensions from a radius and ``n - 1`` angles (hyperspherical coordinates).

    With radius ``r`` and angles ``a1 ... a(n-1)``::

        x1 = r cos a1
        x2 = r sin a1 cos a2
        ...
        x(n-1) = r sin a1 ... sin a(n-2) cos a(n-1)
        xn     = r sin a1 ... sin a(n-2) sin a(n-1)

    so the point's norm is ``|r|`` in every dimension (the Java original was right
    only in 2-D). Radius and angles are finite numbers or pickers of numbers.

    >>> import math
    >>> HyperspherePicker(2, math.pi / 2).pick()
    (1.2246467991473532e-16, 2.0)
    >>> p = HyperspherePicker(1, 0.3, 1.2, 2.0).pick()
    >>> round(math.hypot(*p), 12), len(p)
    (1.0, 4)
    """

    inputs_fields = ("radius", "angles")

    def __init__(self, radius: Any, *angles: Any) -> None:
        if not angles:
            raise ValueError("HyperspherePicker needs at least one angle (n - 1 angles for n dimensions), got none")
        self.radius = number_input(radius, "radius")
        self.angles = [number_input(a, f"angles[{i}]") for i, a in enumerate(angles)]

    @property
    def dimension(self) -> int:
        """The number of coordinates of each point (angles + 1)."""
        return len(self.angles) + 1

    def _pick(self) -> tuple[float, ...]:
        r = self.radius.pick()
        angles = [a.pick() for a in self.angles]
        try:
            coordinates = []
            sines = float(r)
            for angle in angles:
                coordinates.append(sines * math.cos(angle))
                sines *= math.sin(angle)
            coordinates.append(sines)
        except (TypeError, ValueError, OverflowError):
            _real(r, "radius", self.radius)
            for i, (angle, a) in enumerate(zip(angles, self.angles)):
                _real(angle, f"angles[{i}]", a)
            raise
        return tuple(coordinates)

    def arguments(self) -> tuple[list[Any], dict[str, Any]]:
        return [self.radius, *self.angles], {}


class SineWave(Picker[float]):
    """``amplitude * sin(argument + phase)``, all three picked anew on every pick.

    ``argument`` is the angle ``omega * t``, usually a :class:`~synthia.Tick`;
    feeding a sine wave as another's amplitude gives amplitude modulation, as its
    argument frequency modulation.

    >>> import math
    >>> from synthia import Tick
    >>> [round(v, 3) for v in SineWave(2, Tick(0, math.pi / 2)).take(4)]
    [0.0, 2.0, 0.0, -2.0]
    """

    inputs_fields = ("amplitude", "argument", "phase")

    def __init__(self, amplitude: Any = 1.0, argument: Any = None, phase: Any = 0.0) -> None:
        if argument is None:
            raise TypeError("argument must be a picker of angles (omega * t, e.g. a Tick) or a number, got None")
        self.amplitude = number_input(amplitude, "amplitude")
        self.argument = number_input(argument, "argument")
        self.phase = number_input(phase, "phase")

    def _pick(self) -> float:
        amplitude, argument, phase = self.amplitude.pick(), self.argument.pick(), self.phase.pick()
        try:
            return amplitude * math.sin(argument + phase)  # type: ignore[no-any-return]
        except (TypeError, ValueError, OverflowError):
            # Name the input that gave the value the sine cannot take.
            _real(amplitude, "amplitude", self.amplitude)
            _real(argument, "argument", self.argument)
            _real(phase, "phase", self.phase)
            raise


def _real(value: Any, name: str, picker: Picker[Any]) -> float:
    """A picked number as a float for the trigonometry (``ValueError`` naming the input otherwise).

    Called only once the trigonometry has failed, to name the input that caused it."""
    try:
        number = float(value)
    except (TypeError, ValueError, OverflowError):
        number = math.nan
    if not math.isfinite(number) or isinstance(value, (bool, str)):
        raise ValueError(f"{name} must pick finite numbers, got {describe(value)} from {picker!r}")
    return number
