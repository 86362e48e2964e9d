"""Parsing: the reverse of picking -- a value turned into the draws that make it.

:func:`parse` walks a wiring from the picker given, the way the stager does: a leaf that
describes its draw (:meth:`~synthia.Picker.draw_spec`) is parsed through the description's
inverse (or, for a draw with few values, by trying them); any other picker parses through
its own hook, ``parse_draws(value, parse)``, which returns the draws of its pick that make
``value`` -- asking ``parse(child, part)`` for the draws of each input it picks, in the order
it picks them -- or ``None`` when it cannot. A picker without the hook cannot be parsed.

A parse is **checked**: its draws are replayed on a fresh copy of the wiring, and only a
replay that gives back a value equal to the one asked (:func:`same_value`: of the same type,
floats compared exactly, NaN equal to NaN) is returned, with the tape the replay logged
(draws and spans). So a hook that is wrong can make a parse fail, never give a wrong input.
The shrinker and :func:`synthia.shrink` call it; picking never does.

>>> import synthia as sy
>>> lists = sy.ComposeList(sy.RandomInteger(0, 100), sy.RandomInteger(0, 5))
>>> parse(lists, [7, 42]).values()
[2, 7, 42]
>>> parse(lists, [7, 420]) is None     # 420 is out of RandomInteger(0, 100)
True
>>> why_not(lists, [7, 420])
'RandomInteger(0, 100) cannot make 420'
"""
from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from .checks import check_picker
from .leaves import DrawSpec, finite_draws
from .routing import replay
from .tapes import Draw, Tape, clamp

if TYPE_CHECKING:  # pragma: no cover
    from .picker import Picker

__all__ = ["parse", "parse_draws", "why_not", "same_value", "Parse"]

_MISSING = object()


def same_value(a: Any, b: Any) -> bool:
    """Whether ``a`` and ``b`` are the same value, as a parse must give it back: of the same
    type, floats compared exactly (``-0.0`` is not ``0.0``, NaN is NaN), containers element by
    element; a comparison that raises or is ambiguous (arrays) is settled by ``repr``.

    >>> same_value([1.0, float("nan")], [1.0, float("nan")]), same_value(1, 1.0), same_value(0.0, -0.0)
    (True, False, False)
    """
    if type(a) is not type(b):
        return False
    if type(a) is float:
        if a != a:
            return b != b
        return a == b and math.copysign(1.0, a) == math.copysign(1.0, b)
    if type(a) in (list, tuple):
        return len(a) == len(b) and all(same_value(x, y) for x, y in zip(a, b))
    if type(a) is dict:
        return len(a) == len(b) and all(k in b and same_value(v, b[k]) for k, v in a.items()) and list(a) == list(b)
    try:
        return bool(a == b)
    except Exception:
        return repr(a) == repr(b)


class Parse:
    """One parse: the callback handed to each ``parse_draws`` hook -- ``parse(child, part)``
    gives the draws of one pick of ``child`` that make ``part``, or ``None`` -- and why the
    walk failed (the innermost picker that could not; a hook may say it with :meth:`fail`)."""

    def __init__(self) -> None:
        self.why: str | None = None

    def fail(self, picker: "Picker[Any]", reason: str) -> None:
        """Say why ``picker`` cannot make the value (``reason`` follows the picker's repr)."""
        self.why = f"{_name(picker)} {reason}"

    def __call__(self, picker: "Picker[Any]", value: Any) -> "list[Draw] | None":
        described = getattr(picker, "draw_spec", None)
        spec = described() if described is not None else None
        if spec is not None:
            draws = _leaf(spec, value)
            if draws is None:
                self.fail(picker, f"cannot make {_short(value)}")
            return draws
        hook = getattr(picker, "parse_draws", None)
        if hook is None:
            self.fail(picker, "cannot parse values (it has no parse_draws hook)")
            return None
        self.why = None
        try:
            draws = hook(value, self)
        except RecursionError:
            raise
        except Exception as error:  # a hook that breaks on a value of another shape: cannot
            self.fail(picker, f"cannot make {_short(value)} ({type(error).__name__}: {error})")
            return None
        if draws is None and self.why is None:
            self.fail(picker, f"cannot make {_short(value)}")
        return draws


def _name(picker: "Picker[Any]") -> str:
    try:
        text = repr(picker)
    except Exception:
        text = type(picker).__name__
    return text if len(text) <= 80 else text[:77] + "..."


def _short(value: Any) -> str:
    try:
        text = repr(value)
    except Exception:
        text = f"a {type(value).__name__}"
    return text if len(text) <= 60 else text[:57] + "..."


def _leaf(spec: DrawSpec, value: Any) -> "list[Draw] | None":
    """The one draw of a described leaf that makes ``value``."""
    kind, args, mapping = spec.kind, spec.args, spec.value
    raw: Any = _MISSING
    if spec.inverse is not None:
        try:
            raw = spec.inverse(value)
        except Exception:
            return None
    elif mapping is None:
        raw = value
    else:  # no inverse: a draw among few values is found by trying them
        for draw in finite_draws(spec) or ():
            try:
                made = mapping(draw)
            except Exception:
                continue
            if same_value(made, value):
                raw = draw
                break
    if raw is _MISSING:
        return None
    try:
        kept, changed = clamp(kind, args, raw)
    except Exception:
        return None
    if changed or type(kept) is not type(raw):
        return None
    return [Draw(kind, kept, args)]


def parse_draws(picker: "Picker[Any]", value: Any) -> "list[Draw] | None":
    """The draws that the walk finds for ``value`` (not checked: :func:`parse` checks them)."""
    try:
        return Parse()(picker, value)
    except RecursionError:
        return None


def parse(picker: "Picker[Any]", value: Any) -> "Tape | None":
    """The tape of draws that makes ``picker`` (in its initial state) pick ``value``, checked
    by a replay on a fresh copy; ``None`` when the wiring cannot parse it (see the module).

    >>> import synthia as sy
    >>> parse(sy.Choice(sy.RandomInteger(0, 10), "many"), "many").values()
    [0.5]
    """
    check_picker(picker, "picker")
    return _checked(picker, value, Parse())


def why_not(picker: "Picker[Any]", value: Any) -> str | None:
    """Why ``picker`` cannot parse ``value`` (the part of the wiring that cannot), or ``None``
    when it can."""
    walk = Parse()
    if _checked(picker, value, walk) is not None:
        return None
    return walk.why or f"{_name(picker)} cannot make {_short(value)}"


def _checked(picker: "Picker[Any]", value: Any, walk: Parse) -> "Tape | None":
    try:
        draws = walk(picker, value)
    except RecursionError:
        walk.why = f"{_name(picker)}: the value is nested deeper than Python's recursion limit allows to parse"
        return None
    if draws is None:
        return None
    copy = picker.duplicate()
    try:
        made, tape = replay(copy, draws, max_draws=2 * len(draws) + 64)
    except Exception as error:
        walk.why = f"replaying the parse of {_short(value)} with {_name(picker)} raised {type(error).__name__}: {error}"
        return None
    if not same_value(made, value):
        walk.why = f"replaying the parse of {_short(value)} with {_name(picker)} gave {_short(made)}"
        return None
    return tape
