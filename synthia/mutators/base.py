"""The mutator protocol: an object that turns a received value into a new one.

A :class:`Mutator` has ``mutate(value) -> new value`` and never modifies the
value it receives. It is also a picker: given an ``input`` picker, each pick is
``mutate(input.pick())``. :class:`Mutate` applies a mutator drawn from a
*picker of mutators*; a :class:`~synthia.Choice` whose alternatives are
mutators is such a picker and is itself usable wherever a mutator is expected
(``Choice.mutate`` applies the chosen alternative), which is how the paper's
Figure 4 is wired.
"""
from __future__ import annotations

import inspect
from typing import Any, TypeVar

from ..core.inputs import value_input
from ..core.picker import Picker
from ..pickers.basic import Choice

__all__ = ["Mutator", "Mutate", "apply_mutation"]

T = TypeVar("T")

_POSITIONAL: dict[type, list[str]] = {}


def _positional(cls: type) -> list[str]:
    """The names of the parameters of ``cls`` that may be given by position."""
    if cls not in _POSITIONAL:
        parameters = list(inspect.signature(cls).parameters.values())
        _POSITIONAL[cls] = [p.name for p in parameters if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    return _POSITIONAL[cls]


def apply_mutation(mutator: Any, value: Any) -> Any:
    """``mutator.mutate(value)``; a :class:`~synthia.Choice` of mutators applies the alternative it chooses."""
    if isinstance(mutator, Choice):
        return apply_mutation(mutator.alternatives[mutator.choose()], value)
    mutate = getattr(mutator, "mutate", None)
    if mutate is None:
        raise TypeError(f"{mutator!r} is not a mutator (it has no mutate method)")
    return mutate(value)


def check_mutator(value: Any, name: str) -> Picker[Any]:
    """``value`` if it is a mutator or a Choice whose alternatives are all mutators."""
    if isinstance(value, Choice):
        for i, alternative in enumerate(value.alternatives):
            check_mutator(alternative, f"{name}.alternatives[{i}]")
        return value
    if not isinstance(value, Mutator):
        raise TypeError(f"{name} must be a Mutator or a Choice of mutators, got {value!r}")
    return value


class Mutator(Picker[T]):
    """Base of the mutators: subclasses implement :meth:`mutate`.

    ``input`` (optional, and always given by keyword, last) is the picker whose values
    :meth:`pick` mutates; a mutator used inside :class:`Mutate` or :class:`MutateElement`
    needs none. The Java library took the input first (``DeleteElement(lists, position)``):
    a call with one positional argument too many is that order, and raises ``TypeError``
    saying what to write.

    >>> from synthia.mutators import DeleteElement
    >>> DeleteElement([1, 2], 0.5)
    Traceback (most recent call last):
    ...
    TypeError: DeleteElement takes its input last, by keyword: write DeleteElement(position, input=...) -- the Java order DeleteElement(input, position) is not supported, got DeleteElement([1, 2], 0.5)
    """

    input: Picker[Any] | None

    def __new__(cls, *args: Any, **kwargs: Any) -> "Mutator[T]":
        names = _positional(cls)
        if len(args) > len(names):
            shown = ", ".join(repr(a) for a in args)
            raise TypeError(
                f"{cls.__name__} takes its input last, by keyword: write {cls.__name__}({', '.join(names + ['input=...'])})"
                f" -- the Java order {cls.__name__}({', '.join(['input'] + names)}) is not supported, got {cls.__name__}({shown})"
            )
        return super().__new__(cls)

    def _set_input(self, input: Any) -> None:
        self.input = None if input is None else value_input(input, "input")

    def mutate(self, value: Any) -> T:  # pragma: no cover - interface
        """A new value made from ``value`` (which is left unchanged)."""
        raise NotImplementedError

    def _pick(self) -> T:
        if self.input is None:
            raise TypeError(f"{self!r} has no input to pick from: give it input=... or use it inside Mutate")
        return self.mutate(self.input.pick())

    def _with_input(self, kwargs: dict[str, Any]) -> dict[str, Any]:
        if self.input is not None:
            kwargs["input"] = self.input
        return kwargs


class Mutate(Picker[Any]):
    """Each value of ``input`` transformed by the mutator ``mutator`` (a Mutator or a Choice of them).

    >>> from synthia import Choice, Constant
    >>> from synthia.mutators import Offset, Replace
    >>> m = Mutate(Constant(10), Choice(Offset(1), Replace(0)))
    >>> m.set_seed(3).take(5)
    [11, 11, 0, 11, 0]
    """

    inputs_fields = ("input", "mutator")

    def __init__(self, input: Any, mutator: Picker[Any]) -> None:
        self.input = value_input(input, "input")
        self.mutator = check_mutator(mutator, "mutator")

    def _pick(self) -> Any:
        return apply_mutation(self.mutator, self.input.pick())
