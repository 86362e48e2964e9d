"""A pytest file using synthia: run it with ``pytest examples/pytest_example``.

``test_sorted_is_idempotent`` passes. ``test_dedupe_keeps_every_value`` has a planted bug
(``dedupe`` silently keeps at most ten values) and fails; pytest then prints the smallest
failing input (a list of eleven distinct values), the seed and the command that replays the
run, and the failing input is saved in ``.synthia/`` so that the next run tries it first.

``@sy.example`` adds inputs that are tried before any drawn one. Run under the ``ci``
profile (``pytest examples/pytest_example --synthia-profile=ci --synthia-statistics``), each
test stops by the Bayesian rule -- 58 passing inputs establish that the pass rate is above
0.95 with probability 0.95 -- with a fixed seed and no failure database, and the statistics
after the run say what each test tried and where its time went.
"""
import synthia as sy

lists = sy.ComposeList(sy.RandomInteger(-1000, 1000), sy.RandomInteger(1, 30))


@sy.given(values=lists)
@sy.example(values=[])
@sy.example(values=[3, 3, -1])
def test_sorted_is_idempotent(values):
    assert sorted(sorted(values)) == sorted(values)


def dedupe(values):
    return list(dict.fromkeys(values))[:10]  # planted bug: a leftover limit


@sy.given(values=lists)
def test_dedupe_keeps_every_value(values):
    assert set(dedupe(values)) == set(values)
