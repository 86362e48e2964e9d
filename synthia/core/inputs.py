"""What a constructor accepts where a picker is expected: one rule, written once.

**A picker is used as it is; any other value becomes a** :class:`~synthia.Constant`
**giving that value forever.** ``ComposeList(7, 3)`` gives ``[7, 7, 7]``,
``ArrayPicker("push", RandomInteger(0, 9))`` gives ``("push", n)``, and
``Deferred(build, max_depth=3, fallback=None)`` ends a recursion with ``None``.

An input with a precise role checks the plain values it is given (at construction) and,
when it can tell, the pickers too (through :meth:`~synthia.Picker.value_range`):

=====================  ==========================================  =======================================
input                  accepts                                     a plain value
=====================  ==========================================  =======================================
a value                anything                                    ``Constant(value)``
a number               a picker, or a real number                  ``Constant(x)``; NaN and infinities refused
a count                a picker of non-negative ints, or such int  ``Constant(n)``
a decision, position   a picker of floats in ``[0, 1)``            ``Constant(u)`` for ``u`` in ``[0, 1)``
a coin                 a picker of booleans, or a bool             ``Constant(b)``
=====================  ==========================================  =======================================

The exceptions, where a plain value would be ambiguous or could never work, raise
``TypeError`` saying what to write instead:

* a list, tuple, set or range given **alone** where several pickers or alternatives are
  expected (``Choice([1, 2, 3])``, ``ArrayPicker([1, 2])``), or as the ``element`` of a
  collection (``ComposeList([1, 2], 3)``): it could mean the collection itself or one of
  its elements, so write ``Choice(*[1, 2, 3])`` for an element, ``Constant([1, 2, 3])``
  for the collection;
* a number where a coin is expected (``Knit(spawn=0.3)``): write ``RandomBoolean(0.3)``
  for a coin that says yes 30% of the time;
* inputs whose values must be pickers or mutators (``Knit``'s ``instances``,
  ``Mutate``'s ``mutator``): a plain value never is one;
* inputs that must end (``Scramble`` without ``count``): a ``Constant`` never ends.
  ``Merge`` and ``AllPickers`` take a plain value as a stream of that one value.

>>> from synthia import ComposeList
>>> ComposeList(7, 3).pick()
[7, 7, 7]
>>> from synthia import Choice
>>> Choice([1, 2, 3])
Traceback (most recent call last):
...
TypeError: Choice([1, 2, 3]) is ambiguous: write Choice(*[1, 2, 3]) to choose one element, or Choice(Constant([1, 2, 3])) for the list itself
"""
from __future__ import annotations

from typing import Any, Callable

from .checks import check_count, check_number, describe
from .constant import Constant
from .picker import Bounded, Picker

__all__ = [
    "value_input",
    "element_input",
    "variadic_inputs",
    "number_input",
    "count_input",
    "unit_input",
    "coin_input",
    "picker_input",
    "ending_input",
]

#: Collections that are ambiguous alone where several inputs are expected.
AMBIGUOUS = (list, tuple, set, frozenset, range)


def value_input(value: Any, name: str) -> Picker[Any]:
    """``value`` if it is a picker, else ``Constant(value)``."""
    return value if isinstance(value, Picker) else Constant(value)


def element_input(value: Any, name: str, owner: str) -> Picker[Any]:
    """The element input of a collection picker: a collection alone is ambiguous."""
    if isinstance(value, AMBIGUOUS):
        raise TypeError(
            f"{name} {value!r} of {owner} is ambiguous: write Choice(*{value!r}) for elements chosen"
            f" from it, or Constant({value!r}) for the {type(value).__name__} itself as every element"
        )
    return value_input(value, name)


def variadic_inputs(
    values: tuple[Any, ...], name: str, owner: str, convert: Callable[[Any, str], Picker[Any]] = value_input
) -> list[Picker[Any]]:
    """The inputs given as ``*values`` (``convert`` each, named ``name[i]``); one collection
    alone is ambiguous (did it mean the collection, or its items as the inputs?)."""
    if len(values) == 1 and isinstance(values[0], AMBIGUOUS):
        only = values[0]
        use = "to choose one element" if owner == "Choice" else "for one input per element"
        raise TypeError(
            f"{owner}({only!r}) is ambiguous: write {owner}(*{only!r}) {use},"
            f" or {owner}(Constant({only!r})) for the {type(only).__name__} itself"
        )
    if convert is value_input:  # never refuses a value: no name to format for each
        return [v if isinstance(v, Picker) else Constant(v) for v in values]
    return [convert(v, f"{name}[{i}]") for i, v in enumerate(values)]


def _known_range(picker: Picker[Any]) -> tuple[Any, Any] | None:
    try:
        return picker.value_range()
    except Exception:  # a user picker's value_range must not break construction
        return None


def number_input(value: Any, name: str, *, minimum: float | None = None, maximum: float | None = None) -> Picker[Any]:
    """A picker of numbers, or a real number (NaN and infinities refused) that becomes a ``Constant``.

    ``minimum``/``maximum`` bound the plain number, and a picker whose
    :meth:`~synthia.Picker.value_range` is known to leave them.
    """
    if isinstance(value, Picker):
        bounds = _known_range(value)
        if bounds is not None:
            low, high = bounds
            if (minimum is not None and low < minimum) or (maximum is not None and high > maximum):
                raise ValueError(f"{name} must pick numbers in [{minimum}, {maximum}], got {value!r}, whose values lie in [{low}, {high})")
        return value
    number = check_number(value, name)
    if minimum is not None and number < minimum:
        raise ValueError(f"{name} must be >= {minimum}, got {number!r}")
    if maximum is not None and number > maximum:
        raise ValueError(f"{name} must be <= {maximum}, got {number!r}")
    return Constant(number)


def count_input(value: Any, name: str) -> Picker[int]:
    """A picker of non-negative ints (a length, a size), or such an int."""
    if isinstance(value, Picker):
        bounds = _known_range(value)
        if bounds is not None and bounds[0] < 0:
            raise ValueError(f"{name} must pick non-negative ints, got {value!r}, whose values lie in [{bounds[0]}, {bounds[1]})")
        return value
    return Constant(check_count(value, name))


def unit_input(value: Any, name: str) -> Picker[float]:
    """A picker of floats in ``[0, 1)`` (a decision, a position), or such a float."""
    if isinstance(value, Picker):
        bounds = _known_range(value)
        if bounds is not None and not (bounds[0] >= 0 and bounds[1] <= 1):
            raise ValueError(f"{name} must pick floats in [0, 1), got {value!r}, whose values lie in [{bounds[0]}, {bounds[1]})")
        return value
    number = check_number(value, name)
    if not 0 <= number < 1:
        raise ValueError(f"{name} must be a float in [0, 1) (or a picker of them), got {number!r}")
    return Constant(float(number))


def coin_input(value: Any, name: str) -> Picker[bool]:
    """A picker of booleans, or a bool. A number is refused: a probability means ``RandomBoolean(p)``."""
    if isinstance(value, Picker):
        if value.value_range() is not None:  # a picker of numbers is no coin: 2 is not "yes"
            raise TypeError(f"{name} must be a picker of booleans, got {value!r}, which picks numbers: for a coin that says yes with probability p, write RandomBoolean(p)")
        return value
    if isinstance(value, bool):
        return Constant(value)
    hint = f": for a coin that says yes with probability {value!r}, write RandomBoolean({value!r})" if isinstance(value, (int, float)) else ""
    raise TypeError(f"{name} must be a picker of booleans or a bool, got {describe(value)}{hint}")


def picker_input(value: Any, name: str, why: str) -> Picker[Any]:
    """``value`` if it is a picker; otherwise ``TypeError`` saying ``why`` a plain value cannot do."""
    if not isinstance(value, Picker):
        raise TypeError(f"{name} must be a picker ({why}), got {describe(value)}")
    return value


def ending_input(value: Any, name: str, hint: str) -> Bounded[Any]:
    """A picker whose stream ends (see :meth:`~synthia.Bounded.ends`); ``hint`` says what to do otherwise."""
    if not isinstance(value, Bounded):
        raise TypeError(f"{name} must be a bounded picker that ends (such as Bound(p, n) or Playback(values, loop=False)), got {describe(value)}: {hint}")
    if not value.ends():
        raise ValueError(f"{name} must end, but {value!r} never does (it loops): {hint}")
    return value
