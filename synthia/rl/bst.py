"""RLCheck's binary-search-tree case, the reference workload of guided generation.

A node is ``(value, left, right)`` with values in ``0..10`` and subtrees ``None`` or nodes, at
most four links deep; a tree is valid when it is a binary search tree (left subtree below the
node, right subtree above). Random generation makes few distinct valid trees, and nearly all of
them small: the case on which RLCheck's learner makes about 11 times as many
(``benchmarks/bench_guided.py``, ``docs/guided.md``).

>>> tree = bst_wiring().set_seed(2)
>>> t = tree.pick(); is_bst(t) == (t is None or is_bst(t)), size(t) >= 0
(True, True)
>>> canonical((5, None, (7, None, None)))
'(5 L R(7 L R))'
"""
from __future__ import annotations

from typing import Any

from ..core.picker import Picker
from ..pickers.basic import Apply, Choice
from ..pickers.deferred import Deferred
from ..pickers.scalars import RandomInteger

__all__ = ["bst_wiring", "is_bst", "canonical", "size"]


def _node(value: int, left: Any, right: Any) -> tuple[Any, Any, Any]:
    return (value, left, right)


def bst_wiring() -> Picker[Any]:
    """A fresh wiring of RLCheck's generator: a node's value in ``0..10``, then each subtree
    ``None`` or a node (equally likely), at most four links deep -- a node four links down
    is a leaf, made without the two child decisions (RLCheck's ``depth < MAX_DEPTH and
    Select([True, False])``). One value picker serves every depth, as one learner does in
    RLCheck.

    >>> bst_wiring().set_seed(1).pick() is None or True
    True
    """
    value = RandomInteger(0, 11)
    tree: Picker[Any] = Deferred(
        lambda: Apply(_node, value, Choice(None, tree), Choice(None, tree)),
        max_depth=4,
        fallback=Apply(_node, value, None, None),
    )
    return tree


def is_bst(t: Any, low: int = -1, high: int = 11) -> bool:
    """Whether ``t`` is a binary search tree with values strictly between ``low`` and ``high``.

    >>> is_bst((5, (3, None, None), (7, None, None))), is_bst((5, (6, None, None), None))
    (True, False)
    """
    if t is None:
        return True
    value, left, right = t
    return low < value < high and is_bst(left, low, value) and is_bst(right, value, high)


def canonical(t: Any) -> str:
    """The tree as text, one form per tree: what tells distinct trees apart.

    >>> canonical((1, None, None))
    '(1 L R)'
    """
    return "" if t is None else f"({t[0]} L{canonical(t[1])} R{canonical(t[2])})"


def size(t: Any) -> int:
    """The number of nodes.

    >>> size((5, (3, None, None), None))
    2
    """
    return 0 if t is None else 1 + size(t[1]) + size(t[2])
