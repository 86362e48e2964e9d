"""The original Synthia's ``Prime`` example: "every integer is prime" is false; find why.

Inputs come from ``RandomInteger(0, 2**31)``. The first failing input is some large
composite number; shrinking moves towards zero (the simplest integer) and ends at 0, which
is not prime. The report gives the seed and a line that replays the run.
"""
from __future__ import annotations

import synthia as sy


def is_prime(n: int) -> bool:
    return n >= 2 and all(n % d for d in range(2, int(n**0.5) + 1))


def main() -> None:
    assertion = sy.Assert(lambda x: is_prime(x), sy.RunOptions(name="every_integer_is_prime"), x=sy.RandomInteger(0, 2**31))
    report = assertion.run(seed=2026)
    print(report)
    assert report.smallest == {"x": 0}


if __name__ == "__main__":
    main()
