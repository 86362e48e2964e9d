"""How each picker class links an output (or a part of it) to the upstream outputs that made it.

A rule is a function ``rule(picker, index, part, entry) -> Spec`` registered for a
class with :func:`rule`; the rule of the nearest class in the MRO applies. It reads
only public attributes and the recorded :class:`~synthia.explain.recording.Entry`
(the value and the upstream outputs consumed). Specs:

* ``Origin()``: a concrete random draw or constant, where provenance ends (``Leaf`` before:
  that name belongs to behaviour trees, :class:`synthia.Leaf`; the old name still works,
  with a ``DeprecationWarning``);
* ``Ref(picker, index, part)``: that output (or part of it) of an upstream picker;
* ``And([...])``: these together made it; ``Or([...])``: any one of these suffices;
* ``ListElement(k)``: element ``k`` of a list the picker was given (``Playback``);
* ``Alternative(picker, k, part)``: alternative ``k`` of a choice among plain values (a value
  the picker holds, chosen by its decision), or its ``part``;
* ``Opaque()``: a picker class with no rule (user-defined): a leaf, marked opaque.

The generic rule for built-in composites is "the AND of everything consumed".
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

import synthia.mutators as mutators
import synthia.pickers as catalog
from ..core.constant import Constant, Nothing
from ..core.picker import Picker, RandomPicker
from .designators import Attribute, Designator, Key, Member, NthElement
from .recording import Entry

__all__ = ["Origin", "Ref", "And", "Or", "ListElement", "Alternative", "Derived", "Opaque", "rule", "rule_for"]


@dataclass(frozen=True)
class Origin:
    """Provenance ends here (a random draw, a constant)."""


def __getattr__(name: str) -> Any:
    if name == "Leaf":
        import warnings

        warnings.warn("synthia.explain.rules.Leaf is renamed Origin (Leaf is the behaviour-tree node)", DeprecationWarning, stacklevel=2)
        return Origin
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


@dataclass(frozen=True)
class Opaque:
    """A picker without a rule: a leaf marked opaque."""


@dataclass(frozen=True)
class Ref:
    """Output ``index`` of ``picker`` (or its ``part``)."""

    picker: Picker[Any]
    index: int
    part: Designator | None = None


@dataclass(frozen=True)
class Derived:
    """A leaf made by a grammar: ``path`` names the rule alternatives that produced it."""

    path: str


@dataclass(frozen=True)
class ListElement:
    """Element ``k`` of the list a picker plays back."""

    k: int


@dataclass(frozen=True)
class Alternative:
    """Alternative ``k`` of the plain values ``picker`` chooses among (or its ``part``)."""

    picker: Picker[Any]
    k: int
    part: Designator | None = None


@dataclass
class And:
    """All of ``children`` together."""

    children: list[Any] = field(default_factory=list)


@dataclass
class Or:
    """Any one of ``children``."""

    children: list[Any] = field(default_factory=list)


Rule = Callable[[Picker[Any], int, "Designator | None", Entry], Any]
_RULES: dict[type, Rule] = {}


def rule(*classes: type) -> Callable[[Rule], Rule]:
    """Register a rule for ``classes`` (and their subclasses without a rule of their own)."""

    def register(fn: Rule) -> Rule:
        for cls in classes:
            _RULES[cls] = fn
        return fn

    return register


def rule_for(picker: Picker[Any]) -> Rule:
    """The rule of the nearest class of ``picker`` that has one."""
    for cls in type(picker).__mro__:
        if cls in _RULES:
            return _RULES[cls]
    return _opaque


def _opaque(picker: Picker[Any], index: int, part: Designator | None, entry: Entry) -> Any:
    return Opaque()


def _refs(entry: Entry, part: Designator | None = None) -> list[Ref]:
    return [Ref(p, i, part) for p, i in entry.consumed]


def _and(children: list[Any]) -> Any:
    if not children:
        return Origin()
    return children[0] if len(children) == 1 else And(children)


# A user class deriving from Picker directly gets the opaque rule; the built-in catalog below.
@rule(Picker)
def _unknown(picker: Picker[Any], index: int, part: Designator | None, entry: Entry) -> Any:
    if type(picker).__module__.startswith("synthia."):
        return _and(_refs(entry))
    return Opaque()


@rule(RandomPicker, Constant, Nothing)
def _leaf(picker: Picker[Any], index: int, part: Designator | None, entry: Entry) -> Any:
    if entry.consumed:  # random pickers with inputs (RandomString's length)
        return And([Origin(), *_refs(entry)])
    return Origin()


@rule(catalog.Freeze)
def _freeze(picker: Any, index: int, part: Designator | None, entry: Entry) -> Any:
    if index == 0:
        return _and(_refs(entry, part))
    return Ref(picker, 0, part)


@rule(catalog.Tick)
def _tick(picker: Any, index: int, part: Designator | None, entry: Entry) -> Any:
    if index == 0:
        return _and(_refs(entry))
    return And([Ref(picker, index - 1), *_refs(entry)])


@rule(catalog.Playback)
def _playback(picker: Any, index: int, part: Designator | None, entry: Entry) -> Any:
    return ListElement((picker.start_index + index) % len(picker.values))


@rule(catalog.AllElements)
def _all_elements(picker: Any, index: int, part: Designator | None, entry: Entry) -> Any:
    return Origin()


@rule(catalog.ComposeList, catalog.ListPicker)
def _list(picker: Any, index: int, part: Designator | None, entry: Entry) -> Any:
    length, elements = entry.consumed[0], entry.consumed[1:]
    if part is not None and isinstance(part.head, NthElement):
        p, i = elements[part.head.i]
        return Ref(p, i, part.rest)
    return And([Ref(*length), *[Ref(p, i) for p, i in elements]])


@rule(catalog.PrismPicker, catalog.ArrayPicker)
def _tuple(picker: Any, index: int, part: Designator | None, entry: Entry) -> Any:
    if part is not None and isinstance(part.head, NthElement):
        p, i = entry.consumed[part.head.i]
        return Ref(p, i, part.rest)
    return _and(_refs(entry))


@rule(catalog.HyperspherePicker)
def _sphere(picker: Any, index: int, part: Designator | None, entry: Entry) -> Any:
    if part is not None and isinstance(part.head, NthElement):
        # x_i depends on the radius and the angles up to a_(i+1) (a_(n-1) for the last one).
        last = min(part.head.i + 1, len(entry.consumed) - 1)
        return _and([Ref(p, i) for p, i in entry.consumed[: last + 1]])
    return _and(_refs(entry))


@rule(catalog.PickIf)
def _pick_if(picker: Any, index: int, part: Designator | None, entry: Entry) -> Any:
    p, i = entry.consumed[-1]  # the accepted input; the rejected ones before it do not matter
    return Ref(p, i, part)


@rule(catalog.Choice)
def _choice(picker: Any, index: int, part: Designator | None, entry: Entry) -> Any:
    decision, *chosen = entry.consumed
    if picker.values is not None:  # a choice among values: the one its decision's value chose
        from .recording import log_of

        return And([Ref(*decision), Alternative(picker, picker.index_of(log_of(decision[0])[decision[1]].value), part)])
    return And([Ref(*decision), *[Ref(p, i, part) for p, i in chosen]])


@rule(catalog.Deferred, catalog.Once, catalog.Bound)
def _pass_through(picker: Any, index: int, part: Designator | None, entry: Entry) -> Any:
    return _and(_refs(entry, part))


@rule(catalog.SetPicker)
def _set(picker: Any, index: int, part: Designator | None, entry: Entry) -> Any:
    size, draws = entry.consumed[0], entry.consumed[1:]
    if part is not None and isinstance(part.head, Member):
        from .recording import log_of

        # Any one of the draws that gave this member suffices (the others were duplicates).
        sources = [Ref(p, i, part.rest) for p, i in draws if log_of(p)[i].value == part.head.item]
        return sources[0] if len(sources) == 1 else Or(sources)
    return _and(_refs(entry))


@rule(catalog.MarkovChain)
def _markov(picker: Any, index: int, part: Designator | None, entry: Entry) -> Any:
    # Output n is emitted by the state reached from the state of output n-1 (the path so far),
    # through the transition drawn now.
    refs = _refs(entry)
    return _and(refs) if index == 0 else And([Ref(picker, index - 1), *refs])


@rule(catalog.GrammarSequence, catalog.GrammarSentence)
def _grammar(picker: Any, index: int, part: Designator | None, entry: Entry) -> Any:
    """A grammar output is a leaf drawn by the picker; its derivation says which rule
    alternative produced which token (``derivation`` on the node, see ``Derived``)."""
    derivation = getattr(entry.value, "derivation", None)
    if derivation is None:
        return Origin()
    if part is not None and isinstance(part.head, NthElement):
        return Derived(_token_path(derivation, part.head.i))
    return Derived(" ".join(f"<{n.rule}>#{n.alternative}" for n in derivation.nodes()))


def _token_path(derivation: Any, i: int) -> str:
    """The chain of rule alternatives that produced token ``i``: ``<expr>#1 > <term>#0 > ...``."""
    from ..pickers.grammar import Derivation

    count = 0

    def walk(node: Any, trail: list[str]) -> str | None:
        nonlocal count
        trail = trail + [f"<{node.rule}>#{node.alternative}"]
        for child in node.children:
            if isinstance(child, Derivation):
                found = walk(child, trail)
                if found:
                    return found
            elif child != "":
                if count == i:
                    return " > ".join(trail) + f" > {child!r}"
                count += 1
        return None

    return walk(derivation, []) or ""


@rule(catalog.Apply)
def _apply(picker: Any, index: int, part: Designator | None, entry: Entry) -> Any:
    # A named input is taken to become the key or attribute of the same name (dict(x=...),
    # a dataclass built by keywords); any other part depends on everything consumed.
    names = list(picker.kwargs)
    if (
        part is not None
        and isinstance(part.head, (Key, Attribute))
        and len(entry.consumed) == len(picker.args) + len(names)
    ):
        name = part.head.key if isinstance(part.head, Key) else part.head.name
        if name in names:
            p, i = entry.consumed[len(picker.args) + names.index(name)]
            return Ref(p, i, part.rest)
    return _and(_refs(entry))


@rule(mutators.Mutator, catalog.AffineTransform, catalog.StringPattern, catalog.SineWave)
def _all_consumed(picker: Any, index: int, part: Designator | None, entry: Entry) -> Any:
    return _and(_refs(entry))
