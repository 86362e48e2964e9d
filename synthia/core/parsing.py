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

__all__ = ["parse", "parse_draws", "why_not", "same_value", "in_order", "Parse", "Reparser"]

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


class Reparser:
    """The value of a span of a recorded input, parsed again by the picker that made it: the
    draws of other ways the same picker makes that value -- by an earlier alternative of a
    ``Choice`` that can (widening) -- or makes a part of it: the same children in another
    wrapper (a dict's values or a tuple's items in a list), a child in place of the value (the wrapper taken off), a dict's key in the dict's place
    (``{'a': None}`` as ``'a'``), an item of a
    list moved into a sibling list or dict, or into a list of the sibling's children in its place
    (``[5, []]`` and ``[5, {}]`` as ``[[5]]``, ``[5, {}]`` as ``[{'': 5}]``). The shrinker tries them as replacements of the span (each checked by its
    replay, as any candidate).

    ``wiring`` is the wiring whose spans are read (a span's label is its picker's position in
    the walk of :func:`~synthia.core.graph.upstream`); a copy of it is parsed, made at the first
    call.

    >>> import synthia as sy
    >>> from synthia.core.draws import record
    >>> choice = sy.Choice(sy.RandomBoolean(), sy.AnyInteger(), sy.Choice(4991, 5009))
    >>> tape = replay(choice, [0.9, 0.0])[1]
    >>> Reparser(choice)(tape, 0)
    [[Draw(kind='float', value=0.3333333333333333, args=(0.0, 1.0)), Draw(kind='integer', value=4991, args=(-18446744073709551616, 18446744073709551616))]]
    """

    #: The children of a value tried in its place (the first few).
    CHILDREN = 4

    def __init__(self, wiring: "Picker[Any]") -> None:
        self._wiring = wiring
        self._nodes: "list[Picker[Any]] | None" = None

    def __call__(self, tape: Tape, position: int) -> "list[list[Draw]]":
        """Draw sequences that make the value of span ``position`` of ``tape`` (or a child of
        it) by the span's picker, other than the span's own draws."""
        if self._nodes is None:
            from .graph import upstream

            self._nodes = [node for _, node in upstream(self._wiring.duplicate())]
        span = tape.spans[position]
        label = span.label
        if type(label) is not int or not 0 <= label < len(self._nodes):
            return []
        node = self._nodes[label]
        if getattr(node, "parse_draws", None) is None:
            return []
        own = tape.draws[span.start : span.end]
        try:
            value = replay(node, own, max_draws=len(own) + 64, spans=False)[0]
        except Exception:
            return []
        current = [(d.kind, d.value) for d in own]
        out: list[list[Draw]] = []
        parts = [
            value,
            *_rewrapped(value),
            *_children(value)[: self.CHILDREN],
            *_keys(value)[: self.CHILDREN],
            *_pushed_down(value)[: self.CHILDREN],
        ]
        for part in parts:
            draws = parse_draws(node, part)
            if draws is not None and [(d.kind, d.value) for d in draws] != current and draws not in out:
                out.append(draws)
        return out


def _rewrapped(value: Any) -> list[Any]:
    """The parts of a container value in a list: the same children, another wrapper (a dict's
    values, a tuple's or a set's items)."""
    if type(value) is dict:
        return [list(value.values())]
    if type(value) is tuple:
        return [list(value)]
    if type(value) in (set, frozenset):
        return [in_order(value)]
    return []


def in_order(items: Any) -> list[Any]:
    """The elements of a set in an order that does not depend on hashing (string hashes
    change from one process to the next): sorted, or by a canonical text of each.

    >>> in_order({3, 1, 2}), in_order({frozenset({"b"}), True})
    ([1, 2, 3], [True, frozenset({'b'})])
    """
    try:
        return sorted(items)
    except TypeError:
        return sorted(items, key=_canonical)


def _canonical(value: Any) -> str:
    """A text of ``value`` that is the same in every process (a set's elements sorted)."""
    if type(value) in (set, frozenset):
        return type(value).__name__ + "{" + ",".join(sorted(_canonical(item) for item in value)) + "}"
    return type(value).__name__ + ":" + repr(value)


#: Keys tried for an item moved into a dict (the simplest string, the simplest int).
_SIMPLE_KEYS = (("", "0", "1"), (0, 1, 2))


def _pushed_down(value: Any) -> list[Any]:
    """A list with one item moved into a sibling list, first there, or into a list of a sibling
    dict's values (``[5, []]`` and ``[5, {}]`` as ``[[5]]``), or into a sibling dict under the
    simplest key it lacks (``[5, {}]`` as ``[{'': 5}]``): one level of nesting made by one
    wrapper less, the same leaves kept."""
    if type(value) is not list or len(value) < 2:
        return []
    out = []
    for j, sibling in enumerate(value):
        if type(sibling) in (list, dict):
            for i, item in enumerate(value):
                if i != j:
                    rest = [x for k, x in enumerate(value) if k != i]
                    # Into the sibling, and into a list of the sibling's children in its place.
                    rest[j - (i < j)] = [item, *_children(sibling)]
                    out.append(rest)
                    free = [k for keys in _SIMPLE_KEYS for k in keys[:1] if type(sibling) is dict and k not in sibling]
                    if free:
                        out.append([*rest[: j - (i < j)], {free[0]: item, **sibling}, *rest[j - (i < j) + 1 :]])
    return out


def _keys(value: Any) -> list[Any]:
    """A dict's keys: each tried in the dict's place (``{'a': None}`` as ``'a'``), as a child is,
    when the wiring's value can be a key's kind too (a recursion of text and dicts of text)."""
    return list(value) if type(value) is dict else []


def _children(value: Any) -> list[Any]:
    """The parts of a container value: a list's, tuple's or set's items, a dict's values."""
    if type(value) in (list, tuple):
        return list(value)
    if type(value) in (set, frozenset):
        return in_order(value)
    if type(value) is dict:
        return list(value.values())
    return []
