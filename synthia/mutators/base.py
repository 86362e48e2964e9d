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

from typing import Any, TypeVar

from ..core.picker import Picker, as_picker
from ..pickers.basic import Choice

__all__ = ["Mutator", "Mutate", "apply_mutation"]

T = TypeVar("T")


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

    ``input`` (optional) is the picker whose values :meth:`pick` mutates; a
    mutator used inside :class:`Mutate` or :class:`MutateElement` needs none.
    """

    input: Picker[Any] | None

    def _set_input(self, input: Any) -> None:
        self.input = None if input is None else as_picker(input, "input", numbers=False)

    def mutate(self, value: Any) -> T:  # pragma: no cover - interface
        """A new value made from ``value`` (which is left unchanged)."""
        raise NotImplementedError

    def pick(self) -> T:
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

    def __init__(self, input: Picker[Any], mutator: Picker[Any]) -> None:
        self.input = as_picker(input, "input", numbers=False)
        self.mutator = check_mutator(mutator, "mutator")

    def pick(self) -> Any:
        return apply_mutation(self.mutator, self.input.pick())
