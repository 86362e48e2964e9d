"""A behaviour tree of a shop visitor: sessions that log in, then either browse and buy or
leave at once, and always log out.

Sequence runs its children in order; Selector picks one child by weight and runs it to its
end; Leaf emits a value once (or all the values of a bounded picker: here between one and
three product views). With repeat=True the tree restarts after each session with new
choices, so the picker is an endless stream of plausible sessions. The Java original's
example of this kind crashed because it mixed null and exceptions as "end of stream".
"""
from __future__ import annotations

import synthia as sy


def sessions() -> sy.Picker:
    views = sy.Leaf(sy.Bound(sy.StringPattern("view product {0}", sy.RandomInteger(100, 110)), sy.RandomInteger(1, 4)))
    shop = sy.Sequence("browse", views, sy.Selector("add to cart", "back to search", weights=[2, 1]))
    return sy.BehaviorTree(sy.Sequence("login", sy.Selector(shop, "leave", weights=[3, 1]), "logout"), repeat=True)


def main() -> None:
    tree = sessions().set_seed(11)
    session: list[str] = []
    count = 0
    for action in tree:
        session.append(action)
        if action == "logout":
            print(" -> ".join(session))
            session, count = [], count + 1
            if count == 6:
                break


if __name__ == "__main__":
    main()
