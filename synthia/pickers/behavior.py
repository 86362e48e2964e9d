"""Behaviour trees: :class:`Sequence`, :class:`Selector` and :class:`Leaf` nodes, run by :class:`BehaviorTree`.

Every node is a bounded picker with one end-of-stream rule: a node that has nothing
left raises :class:`~synthia.NoMoreElements` (the Java original mixed ``null`` and
exceptions, and its own example crashed).
"""
from __future__ import annotations

from typing import Any, Sequence as SequenceType

from ..core.checks import check_bool, check_unit_pick, check_weights, cumulative
from ..core.constant import Constant
from ..core.exceptions import NoMoreElements
from ..core.inputs import unit_input, variadic_inputs
from ..core.picker import Bounded, Picker, restart
from ..core.random import weighted_index
from .holding import Once
from .bounded import Merge, ends
from .scalars import RandomFloat

__all__ = ["BehaviorTree", "Sequence", "Selector", "Leaf"]


def _node(child: Any, name: str) -> Picker[Any]:
    return child if isinstance(child, Picker) else Leaf(child)


class Leaf(Bounded[Any]):
    """A leaf: all the values of a (bounded) picker, or one plain value once.

    >>> Leaf("A").take(3)
    ['A']
    """

    inputs_fields = ("picker",)

    def __init__(self, action: Any) -> None:
        self.picker = action if isinstance(action, Picker) else Once(Constant(action))
        self._ended = False

    def _pick(self) -> Any:
        if self._ended:
            raise NoMoreElements(f"{self!r} has ended")
        try:
            return self.picker.pick()
        except NoMoreElements:
            self._ended = True
            raise

    def is_done(self) -> bool:
        return self._ended or (isinstance(self.picker, Bounded) and self.picker.is_done())

    def ends(self) -> bool:
        return ends(self.picker)

    def _reset_self(self) -> None:
        self._ended = False

    def arguments(self) -> tuple[list[Any], dict[str, Any]]:
        if isinstance(self.picker, Once) and type(self.picker.picker) is Constant:
            return [self.picker.picker.value], {}
        return [self.picker], {}


class Sequence(Merge):
    """Runs its children in order: all the values of the first, then of the next, ...

    A :class:`~synthia.Merge` whose plain-value children become leaves.

    >>> Sequence("A", "B", Sequence("C", "D")).take(9)
    ['A', 'B', 'C', 'D']
    """

    def __init__(self, *children: Any) -> None:
        if not children:
            raise ValueError("Sequence needs at least one child, got none")
        super().__init__(*variadic_inputs(children, "children", "Sequence", _node))

    @property
    def children(self) -> list[Picker[Any]]:
        """The child nodes, in order."""
        return self.pickers


class Selector(Bounded[Any]):
    """Chooses one child by weight (drawn with ``decision``) and runs it to its end.

    >>> s = Selector("left", "right")
    >>> s.set_seed(1).take(3)
    ['left']
    """

    inputs_fields = ("children", "decision")

    def __init__(self, *children: Any, weights: SequenceType[float] | None = None, decision: Picker[float] | None = None) -> None:
        if not children:
            raise ValueError("Selector needs at least one child, got none")
        self.children = variadic_inputs(children, "children", "Selector", _node)
        self.weights = [1.0] * len(children) if weights is None else check_weights(weights, len(children))
        self._cumulative = cumulative(self.weights)
        self.decision = RandomFloat() if decision is None else unit_input(decision, "decision")
        self._chosen: int | None = None
        self._ended = False

    def _pick(self) -> Any:
        if self._ended:
            raise NoMoreElements(f"{self!r} has ended")
        if self._chosen is None:
            u = check_unit_pick(self.decision.pick(), "decision", self.decision)
            self._chosen = weighted_index(float(u), self._cumulative)
        try:
            return self.children[self._chosen].pick()
        except NoMoreElements:
            self._ended = True
            raise

    def is_done(self) -> bool:
        return self._ended

    def ends(self) -> bool:
        return all(ends(c) for c in self.children)

    def _reset_self(self) -> None:
        self._chosen = None
        self._ended = False

    def arguments(self) -> tuple[list[Any], dict[str, Any]]:
        kwargs: dict[str, Any] = {} if len(set(self.weights)) == 1 else {"weights": self.weights}
        if type(self.decision) is not RandomFloat:
            kwargs["decision"] = self.decision
        return list(self.children), kwargs


class BehaviorTree(Bounded[Any]):
    """Runs a tree of :class:`Sequence`, :class:`Selector` and :class:`Leaf` nodes.

    With ``repeat=True`` the tree is reset each time it ends and runs again (a new
    choice at every Selector), giving an endless stream of behaviours.

    >>> tree = BehaviorTree(Sequence("login", Selector(Sequence("browse", "buy"), "leave"), "logout"))
    >>> tree.set_seed(2).take(10)
    ['login', 'leave', 'logout']
    """

    inputs_fields = ("root",)

    def __init__(self, root: Any, repeat: bool = False) -> None:
        self.root = _node(root, "root")
        self.repeat = check_bool(repeat, "repeat")

    def _pick(self) -> Any:
        try:
            return self.root.pick()
        except NoMoreElements:
            if not self.repeat:
                raise
        restart(self.root)  # one more pass: new choices, since the random sources go on
        return self.root.pick()

    def is_done(self) -> bool:
        return not self.repeat and isinstance(self.root, Bounded) and self.root.is_done()

    def ends(self) -> bool:
        return not self.repeat and ends(self.root)

    def arguments(self) -> tuple[list[Any], dict[str, Any]]:
        return [self.root], ({"repeat": True} if self.repeat else {})
