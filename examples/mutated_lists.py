"""The Synthia paper's Figure 4: mutating a list with a Choice of mutators.

A Mutate picker (box A) receives a list and a mutator chosen by a Choice (box B) among
three, each as likely: MutateElement (box 1), whose own Choice (box a) either offsets the
element by a random float in [0, 1) (Offset, box b) or replaces it with 0 (Replace, box c);
Swap (box 2); and DeleteElement (box 3). Every mutator draws its positions from its own
RandomFloat, all seeded from one seed. The received list is never modified.

The Java original crashed whenever Offset met an integer; here any number type works.
"""
from __future__ import annotations

import synthia as sy


def mutated_lists(base: list[int]) -> sy.Picker:
    element_mutation = sy.Choice(sy.Offset(sy.RandomFloat()), sy.Replace(0))
    mutators = sy.Choice(sy.MutateElement(element_mutation), sy.Swap(), sy.DeleteElement())
    return sy.Mutate(sy.Constant(base), mutators)


def main() -> None:
    base = [3, 1, 4, 1, 5, 9, 2, 6]
    mutate = mutated_lists(base).set_seed(4)
    print("wiring:", mutate)
    print("seed:  ", mutate.seed)
    print("input: ", base)
    for out in mutate.take(8):
        if len(out) < len(base):
            kind = "DeleteElement"
        elif sorted(out) == sorted(base):
            kind = "Swap"
        else:
            kind = "MutateElement"
        print(f"  {kind:14} -> {[round(x, 2) if isinstance(x, float) else x for x in out]}")
    print("input unchanged:", base == [3, 1, 4, 1, 5, 9, 2, 6])


if __name__ == "__main__":
    main()
