"""Several arguments, each from its own picker, shrunk one at a time.

The function under test computes a unit price after a discount code; it crashes
(ZeroDivisionError) when the quantity is 0. The test receives ``quantity``, ``unit_price`` and ``code`` by name. An exception is
a failure (with its traceback kept). Shrinking moves each argument towards its simplest value
while the others stay, so the report shows exactly which combination fails.
"""
from __future__ import annotations

import synthia as sy


def price_per_unit(quantity: int, unit_price: int, code: str) -> float:
    total = quantity * unit_price
    if code.startswith("PCT"):
        total -= total * int(code[3:]) / 100
    return total / quantity  # planted bug: quantity can be 0


def test(quantity: int, unit_price: int, code: str) -> bool:
    return price_per_unit(quantity, unit_price, code) <= unit_price


def main() -> None:
    assertion = sy.Assert(test, sy.RunOptions(name="discounts_never_raise_prices"), quantity=sy.RandomInteger(0, 50), unit_price=sy.RandomInteger(1, 10_000), code=sy.Choice("NONE", sy.StringPattern("PCT{0}", sy.RandomInteger(5, 50))))
    report = assertion.run(seed=7)
    print(report)
    print("\ntraceback of the smallest failure:")
    print(report.traceback.strip().splitlines()[-1])
    print("replaying the smallest input passes now?", report.replay())


if __name__ == "__main__":
    main()
