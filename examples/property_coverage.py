"""How good are these property tests? Kill mutants of standard-library functions.

Each property is run first on the real function (the Bayesian rule stops it after 58
passing inputs, with the guarantee that its pass rate is above 0.95 with probability 0.95),
then on mutants: the function with its result or one argument perturbed by synthia's
mutators. A property that kills few mutants checks little, however often it passes.
"""
import bisect
import heapq
import html
import statistics
import zlib
from collections import Counter

import synthia as sy

small_ints = sy.RandomInteger(-50, 50)
int_lists = sy.ComposeList(small_ints, sy.RandomInteger(1, 9))


# -- statistics.median ------------------------------------------------------------------------------
def median_is_between(median, xs):
    assert min(xs) <= median(xs) <= max(xs)


def median_splits_in_half(median, xs):
    m = median(xs)
    assert sum(x < m for x in xs) <= len(xs) // 2 and sum(x > m for x in xs) <= len(xs) // 2


def median_ignores_order(median, xs):
    assert median(xs) == median(sorted(xs))


# -- bisect.insort ------------------------------------------------------------------------------------
def insort_keeps_sorted(insort, xs, x):
    xs = sorted(xs)
    insort(xs, x)
    assert xs == sorted(xs)


def insort_adds_exactly_x(insort, xs, x):
    xs = sorted(xs)
    before = Counter(xs)
    insort(xs, x)
    assert Counter(xs) - before == Counter([x])


# -- heapq.merge --------------------------------------------------------------------------------------
def merge_is_sorted_union(merge, xs, ys):
    merged = list(merge(sorted(xs), sorted(ys)))
    assert merged == sorted(xs + ys)


def merge_keeps_length(merge, xs, ys):
    assert len(list(merge(sorted(xs), sorted(ys)))) == len(xs) + len(ys)


# -- html.escape and zlib: round trips ------------------------------------------------------------------
def escape_round_trips(escape, text):
    assert html.unescape(escape(text)) == text


def escape_leaves_no_markup(escape, text):
    assert not set("<>&\"'") & set(escape(text).replace("&lt;", "").replace("&gt;", "").replace("&amp;", "").replace("&quot;", "").replace("&#x27;", "").replace(";", ""))


def compress_round_trips(compress, data):
    assert zlib.decompress(compress(data)) == data


text = sy.RandomString(sy.RandomInteger(0, 12), "ab<>&\"' ")
data = sy.RandomBytes(sy.RandomInteger(0, 40))

cases = [
    ("statistics.median", [median_is_between, median_splits_in_half, median_ignores_order], statistics.median, {"xs": int_lists}),
    ("bisect.insort", [insort_keeps_sorted, insort_adds_exactly_x], bisect.insort, {"xs": int_lists, "x": small_ints}),
    ("heapq.merge", [merge_is_sorted_union, merge_keeps_length], heapq.merge, {"xs": int_lists, "ys": int_lists}),
    ("html.escape", [escape_round_trips, escape_leaves_no_markup], html.escape, {"text": text}),
    ("zlib.compress", [compress_round_trips], zlib.compress, {"data": data}),
]

for title, properties, function, inputs in cases:
    result = sy.property_coverage(properties, function, seed=1, **inputs)
    print(f"== {title}")
    print(result.table())
    print()
