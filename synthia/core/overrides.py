"""A picker class that defines ``pick`` itself (the original library's form, and every picker
written before ``Picker.pick`` became final) keeps working: at class creation its ``pick``
becomes its ``_pick``, the method the final ``Picker.pick`` runs. A ``pick`` written against
its parent's (``super().pick()``) is refused at class creation, with a message saying what
to write instead: ``Picker.pick`` of the parent would run the subclass's ``_pick`` again.

>>> import synthia as sy
>>> class Dice(sy.RandomPicker[int]):
...     def __init__(self, *, seed=None):
...         self._init_stream(seed)
...     def pick(self):
...         return self._stream.integer(1, 7) + self._stream.integer(1, 7)
>>> "pick" in Dice.__dict__, "_pick" in Dice.__dict__, Dice(seed=1).take(3)
(False, True, [7, 8, 6])
>>> class Doubled(sy.RandomInteger):
...     def pick(self):
...         return 2 * super().pick()
Traceback (most recent call last):
...
TypeError: Doubled.pick calls super().pick(): Picker.pick is final (it watches the call, then runs the class's _pick()), so name the method _pick and call super()._pick() (see docs/core.md, 'Writing a picker')
"""
from __future__ import annotations

import dis
from typing import Any

__all__ = ["adopt_pick"]


def _calls_super_pick(fn: Any) -> bool:
    """Whether the function ``fn`` calls ``super().pick`` (a ``pick`` written against a
    parent's ``pick``), read from its byte code."""
    code = getattr(fn, "__code__", None)
    if code is None or "super" not in code.co_names or "pick" not in code.co_names:
        return False
    after_super = -1
    for position, instruction in enumerate(dis.get_instructions(code)):
        if instruction.opname == "LOAD_GLOBAL" and instruction.argval == "super":
            after_super = position
        elif instruction.opname in ("LOAD_METHOD", "LOAD_ATTR") and 0 <= after_super and position - after_super <= 8:
            if instruction.argval == "pick":
                return True
            after_super = -1
    return False


def adopt_pick(cls: type, pick: Any) -> None:
    """A class that defines ``pick`` (the original form): it becomes the class's ``_pick``."""
    name = cls.__qualname__
    if "_pick" in cls.__dict__:
        raise TypeError(f"{name} defines both pick() and _pick(): Picker.pick is final, so define _pick() only")
    if _calls_super_pick(pick):
        raise TypeError(
            f"{name}.pick calls super().pick(): Picker.pick is final (it watches the call, then runs the class's "
            f"_pick()), so name the method _pick and call super()._pick() (see docs/core.md, 'Writing a picker')"
        )
    type.__setattr__(cls, "_pick", pick)
    type.__delattr__(cls, "pick")
