"""Quick start: a realistic record generator, built from pickers and replayed from its seed.

Orders for a small shop: each order has an id from a counter, a customer chosen with
weights (regulars come back more often), one to four lines of (product, quantity), and a
timestamp that advances by a random gap. The wiring is printed as it reads, then five orders,
then the same five again from the seed alone: a run is always reproducible.
"""
from __future__ import annotations

import synthia as sy


def order_picker() -> sy.Picker:
    line = sy.Apply(
        lambda product, quantity: (product, quantity),
        sy.Choice("apples", "bread", "cheese", "dates", weights=[4, 3, 2, 1]),
        sy.RandomInteger(1, 6),
    )
    return sy.Apply(
        dict,
        id=sy.Tick(1000, 1),
        customer=sy.Choice("ada", "grace", "alan", "barbara", weights=[5, 3, 1, 1]),
        lines=sy.ComposeList(line, length=sy.RandomInteger(1, 5)),
        minute=sy.Tick(0, sy.RandomInteger(1, 30)),
    )


def main() -> None:
    orders = order_picker().set_seed(2026)
    print("wiring:", orders)
    print("seed:  ", orders.seed)
    first = orders.take(5)
    for order in first:
        print(" ", order)
    replay = order_picker().set_seed(2026).take(5)
    print("replayed from the seed alone:", replay == first)
    orders.reset()
    print("replayed after reset():      ", orders.take(5) == first)


if __name__ == "__main__":
    main()
