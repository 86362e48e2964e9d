"""Bundles: the results of a :class:`~synthia.Monkey`'s actions, kept under a name for later
actions to use (Hypothesis's ``Bundle``).

An action with ``target=bundle`` puts its result in the bundle (several at once, or none,
with :func:`multiple`); an argument given as the bundle draws one of the values there (the
oldest is the simplest), and ``consumes(bundle)`` takes it out. An action whose bundles are
empty is not enabled. In a trace's printed program each value is a variable
(``key_1 = store.put(...)``, then ``store.get(key_1)``).

>>> keys = Bundle("keys")
>>> keys, consumes(keys), multiple(1, 2)
(Bundle('keys'), consumes(Bundle('keys')), multiple(1, 2))
"""
from __future__ import annotations

import keyword
from typing import Any

__all__ = ["Bundle", "Consumed", "Multiple", "consumes", "multiple", "BundleValue"]


class Bundle:
    """A named collection of action results within one trace (see the module docstring)."""

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        if not isinstance(name, str) or not name.isidentifier() or keyword.iskeyword(name):
            raise ValueError(f"name must be an identifier (the program names values after it), got {name!r}")
        self.name = name

    def __repr__(self) -> str:
        return f"Bundle({self.name!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Bundle) and other.name == self.name

    def __hash__(self) -> int:
        return hash(("Bundle", self.name))

    def __reduce__(self) -> tuple[Any, ...]:
        return (Bundle, (self.name,))


class Consumed:
    """An argument that takes its value out of ``bundle`` (:func:`consumes`)."""

    __slots__ = ("bundle",)

    def __init__(self, bundle: Bundle) -> None:
        if not isinstance(bundle, Bundle):
            raise TypeError(f"consumes takes a Bundle, got {bundle!r} ({type(bundle).__name__})")
        self.bundle = bundle

    def __repr__(self) -> str:
        return f"consumes({self.bundle!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Consumed) and other.bundle == self.bundle

    def __hash__(self) -> int:
        return hash(("consumes", self.bundle))

    def __reduce__(self) -> tuple[Any, ...]:
        return (Consumed, (self.bundle,))


def consumes(bundle: Bundle) -> Consumed:
    """An argument drawn from ``bundle`` and taken out of it (used once)."""
    if not isinstance(bundle, Bundle):
        raise TypeError(f"consumes takes a Bundle: bundle must be a Bundle, got {bundle!r} ({type(bundle).__name__})")
    return Consumed(bundle)


class Multiple:
    """Several results of one action for its target bundle (:func:`multiple`)."""

    __slots__ = ("values",)

    def __init__(self, values: tuple[Any, ...]) -> None:
        self.values = values

    def __repr__(self) -> str:
        return f"multiple({', '.join(repr(v) for v in self.values)})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Multiple) and other.values == self.values

    def __hash__(self) -> int:
        return hash(("multiple", self.values))


def multiple(*values: Any) -> Multiple:
    """What an action returns to put several values -- or none -- in its target bundle."""
    return Multiple(values)


class BundleValue:
    """A value drawn from a bundle, as a step's argument shows it in a printed program: the
    variable that holds it (``key_1``)."""

    __slots__ = ("variable", "value")

    def __init__(self, variable: str, value: Any) -> None:
        self.variable = variable
        self.value = value

    def __repr__(self) -> str:
        return self.variable


def bundles_of(arguments: dict[str, Any]) -> dict[str, tuple[Bundle, bool]]:
    """The arguments given as bundles: name -> (bundle, whether it consumes)."""
    found: dict[str, tuple[Bundle, bool]] = {}
    for name, value in arguments.items():
        if isinstance(value, Bundle):
            found[name] = (value, False)
        elif isinstance(value, Consumed):
            found[name] = (value.bundle, True)
    return found


class Bundles:
    """The bundles of one trace: each value with the variable a program gives it."""

    def __init__(self) -> None:
        self.values: dict[str, list[tuple[str, Any]]] = {}
        self._made: dict[str, int] = {}

    def enough(self, needs: dict[str, tuple[Bundle, bool]]) -> bool:
        """Whether the bundles hold what an action's arguments need (a value per reference,
        one more per consuming reference of the same bundle)."""
        wanted: dict[str, int] = {}
        for bundle, consume in needs.values():
            wanted[bundle.name] = wanted.get(bundle.name, 0) + (1 if consume else 0)
        return all(len(self.values.get(name, ())) >= max(count, 1) for name, count in wanted.items())

    def take(self, bundle: Bundle, index: int, consume: bool) -> BundleValue:
        """Value ``index`` of ``bundle`` (taken out when ``consume``)."""
        held = self.values[bundle.name]
        variable, value = held.pop(index) if consume else held[index]
        return BundleValue(variable, value)

    def size(self, bundle: Bundle) -> int:
        return len(self.values.get(bundle.name, ()))

    def put(self, bundle: Bundle, result: Any) -> list[str]:
        """Put an action's result (or the values of a :class:`Multiple`) in ``bundle``; the
        variables of the values put."""
        values = result.values if isinstance(result, Multiple) else (result,)
        made = []
        for value in values:
            k = self._made[bundle.name] = self._made.get(bundle.name, 0) + 1
            variable = f"{bundle.name}_{k}"
            self.values.setdefault(bundle.name, []).append((variable, value))
            made.append(variable)
        return made
