"""Dependent wirings: a picker chosen from a value picked earlier (``Bind``), and values
drawn inside a test (``sy.draw``), all recorded, replayed and shrunk through their draws.

1. Binary search trees valid by construction: each node's key narrows the range of its
   subtrees, so no filter rejects anything. A size function with a planted bug shrinks to
   the smallest tree that shows it.
2. An interval ``[lo, hi)`` and a value inside it: a planted off-by-one in a "clamp" shrinks
   to the smallest interval and value.
3. A random DAG and an order of its nodes checked against it: the graph is drawn first, then
   an order of its nodes is drawn inside the test; a planted bug in an optimised check is
   found and shrunk to the smallest graph and order that show it.
"""
from __future__ import annotations

from typing import Any

import synthia as sy


# -- 1. trees whose keys narrow ------------------------------------------------------------
def bst(lo: int, hi: int, depth: int) -> sy.Picker[Any]:
    """Binary search trees ``(left, key, right)`` with keys in ``[lo, hi)``; ``None`` is empty."""
    if depth == 0 or hi - lo < 1:
        return sy.Constant(None)
    node = sy.Bind(
        sy.RandomInteger(lo, hi),
        lambda key: sy.Apply(lambda left, right: (left, key, right), bst(lo, key, depth - 1), bst(key + 1, hi, depth - 1)),
    )
    return sy.Choice(None, node)


def keys(tree: Any) -> list[int]:
    return [] if tree is None else keys(tree[0]) + [tree[1]] + keys(tree[2])


def size(tree: Any) -> int:
    """The number of keys, with a planted bug: a node without a left child forgets its right one."""
    if tree is None:
        return 0
    left, _, right = tree
    return 1 if left is None else 1 + size(left) + size(right)


# -- 2. an interval and a value inside it ----------------------------------------------------
intervals = sy.Bind(sy.RandomInteger(-1000, 1000), lambda lo: sy.Apply(lambda hi: (lo, hi), sy.RandomInteger(lo + 1, lo + 500)))
points = sy.Bind(intervals, lambda iv: sy.Apply(lambda v: (iv, v), sy.RandomInteger(*iv)))


def clamp(value: int, lo: int, hi: int) -> int:
    """Clamp into ``[lo, hi)``, with a planted off-by-one at the top."""
    return max(lo, min(value, hi))


# -- 3. a DAG and an order checked against it -------------------------------------------------
def dags(max_nodes: int) -> sy.Picker[Any]:
    """DAGs on nodes 0..n-1 (edges only from a smaller to a larger node), as ``(n, edges)``."""

    def edges_for(n: int) -> sy.Picker[Any]:
        pairs = [(a, b) for a in range(n) for b in range(a + 1, n)]
        keep = sy.ComposeList(sy.RandomBoolean(0.4), len(pairs))
        return sy.Apply(lambda flags: (n, [pair for pair, k in zip(pairs, flags) if k]), keep)

    return sy.Bind(sy.RandomInteger(1, max_nodes), edges_for)


def orders(n: int) -> sy.Picker[list[int]]:
    """The nodes ``0..n-1`` in a random order (the unshuffled order is the simplest)."""
    return sy.ComposeList(sy.Scramble(sy.Playback(list(range(n)), loop=False)), n)


def respects(order: list[int], edges: list[tuple[int, int]]) -> bool:
    position = {node: i for i, node in enumerate(order)}
    return all(position[a] < position[b] for a, b in edges)


def fast_respects(order: list[int], edges: list[tuple[int, int]], n: int) -> bool:
    """An optimised check with a planted bug: edges into the last node are skipped."""
    position = {node: i for i, node in enumerate(order)}
    return all(position[a] < position[b] for a, b in edges if b != n - 1)


def fast_check_agrees(graph: tuple[int, list[tuple[int, int]]]) -> bool:
    n, edges = graph
    order = sy.draw(orders(n))  # a value drawn inside the test: recorded and shrunk too
    return fast_respects(order, edges, n) == respects(order, edges)


def main() -> None:
    print("1. Binary search trees, valid by construction (no PickIf, nothing rejected):")
    trees = bst(0, 100, 5).set_seed(4)
    for tree in trees.take(3):
        print("  ", tree, "keys sorted:", keys(tree) == sorted(keys(tree)))
    report = sy.Assert(lambda t: size(t) == len(keys(t)), sy.RunOptions(name="size_counts_every_key"), t=bst(0, 100, 5)).run(seed=1)
    print(f"   size() is wrong; smallest tree: {report.smallest['t']} (first failure had {len(keys(report.first['t']))} keys)")

    print("\n2. An interval and a value inside it:")
    print("  ", points.set_seed(2).take(3))
    report = sy.Assert(lambda p: clamp(p[1] + 1, *p[0]) < p[0][1], sy.RunOptions(name="clamp_stays_inside"), p=points).run(seed=1)
    print(f"   clamp can return hi; smallest: interval {report.smallest['p'][0]}, value {report.smallest['p'][1]}")

    print("\n3. A DAG, and an order drawn inside the test and checked against it:")
    print("  ", dags(6).set_seed(5).take(2))
    report = sy.Assert(fast_check_agrees, sy.RunOptions(name="fast_check_agrees"), graph=dags(8)).run(seed=3)
    n, edges = report.smallest["graph"]
    print(f"   the fast check skips an edge; smallest: {n} nodes, edges {edges}, order {report.drawn[0]}")


if __name__ == "__main__":
    main()
