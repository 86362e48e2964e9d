"""Chapter 4: testing with Assert, shrinking over draws, reports."""
from __future__ import annotations

import dataclasses
import json
from typing import Any

import synthia as sy

from . import Tour

TITLE = "4. Testing: Assert, shrinking over draws, reports"


def wrong_sort(values: list[int]) -> list[int]:
    out = sorted(values)
    if len(values) > 4 and values[3] + values[4] > 1000:
        out[0], out[-1] = out[-1], out[0]
    return out


@dataclasses.dataclass(frozen=True)
class Order:
    item: str
    quantity: int
    price: int


def total_fits_in_a_byte(order: Order) -> bool:
    return order.quantity * order.price < 256  # the planted bug: the total is stored in a byte


def write_json(value: Any, inside_list: bool = False) -> str:
    """A hand-written serializer with a planted bug: a dict inside a list loses its braces."""
    if isinstance(value, list):
        return "[" + ",".join(write_json(v, True) for v in value) + "]"
    if isinstance(value, dict):
        body = ",".join(f"{json.dumps(k)}:{write_json(v)}" for k, v in value.items())
        return body if inside_list else "{" + body + "}"
    return json.dumps(value)


def round_trips(value: Any) -> bool:
    try:
        return json.loads(write_json(value)) == value
    except ValueError:
        return False


def run(tour: Tour) -> None:
    tour.say(
        """
        Assert draws inputs from pickers, runs a test (False or an exception is a
        failure), and shrinks the first failure. Every random choice a picker makes is a
        typed draw -- an integer in a range, a float, a boolean, an index -- and a failure
        is recorded as the sequence of its draws. Shrinking edits that sequence and replays
        it through the same wiring, so the smallest input is always a real output of the
        wiring, and no picker needs shrinking code of its own.
        """
    )
    tour.code("lists = sy.ComposeList(sy.RandomInteger(0, 100), sy.RandomInteger(0, 4));  value, tape = sy.record(lists)")
    lists = sy.ComposeList(sy.RandomInteger(0, 100), sy.RandomInteger(0, 4)).set_seed(1)
    value, tape = sy.record(lists)
    tour.show("value", value)
    tour.show("draws", tape.values())
    tour.show("sy.replay(lists, [1, 7])", sy.replay(lists, [1, 7])[0])
    tour.show("sy.replay(lists, [])", sy.replay(lists, [])[0])

    tour.say(
        """
        A record built with Apply shrinks field by field, in the order of its draws (not by
        its repr). Here the total of an order overflows a byte; the smallest failing order
        has the first item, the smallest quantity for which some price fails, and that price.
        """
    )
    tour.code(
        """
        orders = sy.Apply(Order, item=sy.Choice("pen", "book", "lamp"),
                          quantity=sy.RandomInteger(1, 100), price=sy.RandomInteger(1, 100))
        report = sy.Assert(total_fits_in_a_byte, order=orders).run(seed=7)
        """
    )
    orders = sy.Apply(
        Order, item=sy.Choice("pen", "book", "lamp"), quantity=sy.RandomInteger(1, 100), price=sy.RandomInteger(1, 100)
    )
    report = sy.Assert(total_fits_in_a_byte, order=orders).run(seed=7)
    tour.show("first failure", report.first["order"])  # type: ignore[index]
    tour.show("smallest     ", report.smallest["order"])  # type: ignore[index]

    tour.say(
        """
        A recursive value built with Deferred -- here JSON values -- shrinks the same way:
        sub-trees are replaced by smaller ones of the same kind, lists lose elements, dicts
        lose entries, until the smallest value that breaks a hand-written serializer.
        """
    )
    tour.code(
        """
        text = sy.RandomString(sy.RandomInteger(0, 4), alphabet="ab")
        json_values = sy.Deferred(lambda: sy.Choice(
            None, sy.RandomBoolean(), sy.RandomInteger(-1000, 1000), text,
            sy.ComposeList(json_values, sy.RandomInteger(0, 4)),
            sy.Apply(dict, sy.ComposeList(sy.Apply(lambda k, v: (k, v), text, json_values), sy.RandomInteger(0, 3)))),
            max_depth=5, fallback=sy.Constant(None))
        report = sy.Assert(round_trips, value=json_values).run(seed=3)
        """
    )
    text = sy.RandomString(sy.RandomInteger(0, 4), alphabet="ab")
    json_values: sy.Picker[Any] = sy.Deferred(
        lambda: sy.Choice(
            None,
            sy.RandomBoolean(),
            sy.RandomInteger(-1000, 1000),
            text,
            sy.ComposeList(json_values, sy.RandomInteger(0, 4)),
            sy.Apply(dict, sy.ComposeList(sy.Apply(lambda k, v: (k, v), text, json_values), sy.RandomInteger(0, 3))),
        ),
        max_depth=5,
        fallback=sy.Constant(None),
    )
    report = sy.Assert(round_trips, value=json_values).run(seed=3)
    first = json.dumps(report.first["value"])  # type: ignore[index]
    tour.show("first failure", f"{len(first)} characters: {first[:60]}{' ...' if len(first) > 60 else ''}")
    tour.show("smallest     ", json.dumps(report.smallest["value"]))  # type: ignore[index]

    tour.say(
        """
        A failing value from elsewhere -- a production log, a file, another tool -- shrinks
        the same way: sy.shrink(picker, value, test) parses the value into the draws the
        wiring makes it with, then shrinks those draws like any failure found. Of two ways a
        Choice makes a value, the earlier alternative is the simpler: a text is one choice
        however many characters it has, so a constant string becomes a text, which loses
        characters.
        """
    )
    tour.code(
        """
        logged = [17, 402, 88, 951, 3, 640, 77]
        report = sy.shrink(sy.ComposeList(sy.RandomInteger(0, 1000), sy.RandomInteger(0, 20)), logged,
                           lambda xs: all(x < 900 for x in xs))
        names = sy.Choice(sy.RandomText(sy.RandomInteger(0, 20)), sy.Choice("kangaroo-1", "kangaroo-2"))
        found = sy.Assert(lambda s: "kangaroo" not in s, s=names).run(seed=1)
        """
    )
    logged = [17, 402, 88, 951, 3, 640, 77]
    shrunk = sy.shrink(sy.ComposeList(sy.RandomInteger(0, 1000), sy.RandomInteger(0, 20)), logged, lambda xs: all(x < 900 for x in xs))
    tour.show("logged   ", logged)
    tour.show("shrunk   ", shrunk.smallest["value"])  # type: ignore[index]
    names: sy.Picker[str] = sy.Choice(sy.RandomText(sy.RandomInteger(0, 20)), sy.Choice("kangaroo-1", "kangaroo-2"))
    found = sy.Assert(lambda s: "kangaroo" not in s, s=names).run(seed=1)
    tour.show("smallest ", found.smallest["s"])  # type: ignore[index]

    tour.say(
        """
        A picker can depend on a value picked earlier: Bind(picker, fn) picks v, then a
        pick of fn(v). A list and an index into it are valid by construction and shrink
        together. Inside a test, sy.draw(picker) draws more values (recorded and shrunk
        with the arguments) and sy.assume(condition) discards an input: discards are
        counted apart, never as passes.
        """
    )
    tour.code(
        """
        lists = sy.ComposeList(sy.RandomInteger(0, 100), sy.RandomInteger(1, 20))
        with_index = sy.Bind(lists, lambda l: sy.Apply(lambda i: (l, i), sy.RandomInteger(0, len(l))))
        report = sy.Assert(lambda p: p[1] < len(p[0]) - 1, p=with_index).run(seed=5)
        """
    )
    lists = sy.ComposeList(sy.RandomInteger(0, 100), sy.RandomInteger(1, 20))
    with_index: sy.Picker[Any] = sy.Bind(lists, lambda l: sy.Apply(lambda i: (l, i), sy.RandomInteger(0, len(l))))
    tour.show("values  ", with_index.set_seed(5).take(2))
    report = sy.Assert(lambda p: p[1] < len(p[0]) - 1, p=with_index).run(seed=5)
    tour.show("smallest", report.smallest["p"])  # type: ignore[index]

    tour.say(
        """
        Bugs often need two equal parts: x == y, a repeated element, one key put twice. Two
        numbers out of a million are never equal by chance, so after a few inputs (the 8th,
        24th and 40th, then one in 256) the run tries a copy of the input with one part's
        draws copied over another part of the same kind -- another pick of the same picker,
        or a picker with the same repr -- replayed: a real output of the wiring, shrunk like
        any other. When the copy passes, a second probe moves the integers to the edges of
        their ranges (the simplest, the lowest, the highest), where off-by-one bugs live.
        AnyInteger meets every
        magnitude and edge value, and its value is one draw whatever made it, so the two
        equal parts shrink together. RunOptions(copy_parts=False) turns copies off.
        """
    )
    tour.code(
        """
        report = sy.Assert(lambda x, y: x != y or x < 10, x=sy.AnyInteger(), y=sy.AnyInteger()).run(seed=11)
        """
    )
    report = sy.Assert(lambda x, y: x != y or x < 10, x=sy.AnyInteger(), y=sy.AnyInteger()).run(seed=11)
    tour.show("AnyInteger values", sy.AnyInteger().set_seed(3).take(8))
    index = report.first_index
    probe = [note.split(" with ", 1)[1] for note in report.notes if note.startswith("the failing input is #")]
    tour.show("first failure", f"{report.first} (input #{index}{' with ' + probe[0] if probe else ''})")
    tour.show("smallest     ", report.smallest)
    unique = sy.Assert(lambda l: len(set(l)) == len(l), l=sy.ComposeList(sy.RandomInteger(0, 10**6), sy.RandomInteger(2, 9))).run(seed=1)
    tour.show("no repeated element: smallest", unique.smallest)

    tour.say(
        """
        sy.find searches rather than tests, so it tries a copy every 16 values
        (copy_parts=16): a value needed twice -- an integer that must also appear in the
        list beside it -- is found on every seed. A recursion with no depth bound, such as
        Hypothesis's st.deferred tree, branches forever more often than not: while a run makes
        inputs, a value past 200 nested picks of its Deferred is discarded (as Hypothesis
        discards an overrun), and so is an input whose picker gives up (a set of booleans
        asked for three elements); the run goes on with the others and says why it discarded.
        """
    )
    tour.code(
        """
        pair = sy.ArrayPicker(sy.ComposeList(sy.AnyInteger(), sy.RandomInteger(0, 11)), sy.AnyInteger())
        sy.find(pair, lambda p: p[1] in p[0] and p[1] >= 1000, seed=0)
        tree = sy.Deferred(lambda: sy.Choice(sy.AnyInteger(), sy.ArrayPicker(tree, tree, tree, tree, tree)))
        report = sy.Assert(lambda t: not isinstance(t, tuple), t=tree).run(seed=0)
        """
    )
    pair = sy.ArrayPicker(sy.ComposeList(sy.AnyInteger(), sy.RandomInteger(0, 11)), sy.AnyInteger())
    tour.show("found", sy.find(pair, lambda p: p[1] in p[0] and p[1] >= 1000, seed=0))
    tree: sy.Picker[Any] = sy.Deferred(lambda: sy.Choice(sy.AnyInteger(), sy.ArrayPicker(tree, tree, tree, tree, tree)))
    branching = sy.Assert(lambda t: not isinstance(t, tuple), t=tree).run(seed=0)
    tour.show("smallest tree", branching.smallest["t"])  # type: ignore[index]
    tour.show("discarded", f"{branching.discarded} inputs {branching.discarded_by}")

    tour.say(
        """
        Two shapes that defeat shrinking value by value: two numbers that must stay close
        (0 < b - a <= 30 out of 12,000: lowering one alone breaks the failure, so both go down
        together), and a length followed by another argument (len(xs) % n == 0 with odd
        lengths failing: the list loses two elements at once and n is lowered without
        shifting). Shrinking is bounded by a number of test calls, never by seconds, so each
        seed gives this same smallest input on any machine and under any load; the report
        says so (no time-bound line) or names the wall-clock option that bound it.
        """
    )
    tour.code(
        """
        close = sy.Assert(lambda a, b: not (0 < b - a <= 30), a=sy.RandomInteger(0, 12000), b=sy.RandomInteger(0, 12000))
        sizes = sy.Assert(lambda xs, n: len(xs) % n == 0, sy.FixedCount(1000),
                          xs=sy.ComposeList(sy.AnyInteger(), sy.RandomInteger(0, 20)), n=sy.RandomInteger(1, 10))
        """
    )
    close = sy.Assert(lambda a, b: not (0 < b - a <= 30), a=sy.RandomInteger(0, 12000), b=sy.RandomInteger(0, 12000))
    sizes = sy.Assert(
        lambda xs, n: len(xs) % n == 0, sy.FixedCount(1000),
        xs=sy.ComposeList(sy.AnyInteger(), sy.RandomInteger(0, 20)), n=sy.RandomInteger(1, 10),
    )
    for seed in (1, 2):
        report = close.run(seed=seed)
        tour.show(f"close, seed {seed}", f"{report.first} -> {report.smallest} in {report.shrink_tries} calls")
    report = sizes.run(seed=1)
    tour.show("sizes, seed 1", f"{len(report.first['xs'])} elements, n={report.first['n']} -> {report.smallest}")  # type: ignore[index]
    tour.show("time-bound", repr(report.time_bound))

    tour.say(
        """
        The Synthia paper's Sort example: a sort that is wrong when l[3] + l[4] > 1000, on
        lists of length [0, 2000) with elements in [0, 1000). The first failure is a long
        list; the smallest is [0, 0, 0, 2, 999]: five elements, the first three at their
        simplest, l[3] as low as it can be while l[4] at most 999 still makes the sum 1001.
        The same seed gives this same report in any process.
        """
    )
    tour.code(
        """
        lists = sy.ComposeList(sy.RandomInteger(0, 1000), sy.RandomInteger(0, 2000))
        report = sy.Assert(lambda l: wrong_sort(l) == sorted(l), l=lists).run(seed=2026)
        """
    )
    lists = sy.ComposeList(sy.RandomInteger(0, 1000), sy.RandomInteger(0, 2000))
    report = sy.Assert(lambda l: wrong_sort(l) == sorted(l), sy.RunOptions(name="sort_is_correct"), l=lists).run(seed=2026)
    for line in report.summary().splitlines():
        if not line.strip().startswith(("first failing", "time")):
            tour.show("report", line.strip())
    tour.show("first failure length", len(report.first["l"]))  # type: ignore[index]

    tour.say(
        """
        In pytest, decorate a test with @sy.given(x=picker, ...): a failure prints the
        smallest input, the seed and the command that replays it (--synthia-seed). The draws
        of the smallest failure are saved as JSON in .synthia/ and replayed first next time.
        sy.find(picker, condition) gives the simplest value that satisfies a condition.
        """
    )
    tour.code("sy.find(sy.ComposeList(sy.RandomInteger(0, 2000), sy.RandomInteger(0, 20)), lambda l: sum(l) > 1000)")
    tour.show(
        "found", sy.find(sy.ComposeList(sy.RandomInteger(0, 2000), sy.RandomInteger(0, 20)), lambda l: sum(l) > 1000, seed=1)
    )

    tour.say(
        """
        @sy.example(x=...) adds inputs tried before any drawn one. Settings a test does not
        give come from a profile: "default" (100 inputs, the failure database on) or "ci"
        (the Bayesian rule, no database, seed 0), chosen with --synthia-profile or the ini
        option synthia_profile; sy.register_profile adds more. --synthia-statistics prints
        what each test tried and where its time went. Under @sy.given a test passes unless it
        raises: one that returns a value is an error of the test, not a bug found.
        """
    )
    tour.code(
        """
        @sy.given(sy.FixedCount(5), x=sy.RandomInteger(1, 10))
        @sy.example(x=0)
        def test_reciprocal(x):
            assert 1 / x
        """
    )

    @sy.given(sy.RunOptions(max_examples=5), x=sy.RandomInteger(1, 10))
    @sy.example(x=0)
    def test_reciprocal(x: int) -> None:
        assert 1 / x

    try:
        test_reciprocal()
    except sy.SynthiaFailure as failure:
        tour.show("failure", str(failure).splitlines()[0])
    tour.show("profiles", ", ".join(p.describe() for p in map(sy.testing.settings.get_profile, ("default", "ci"))))
