"""Verdicts that do not lie: a failure is a failure whatever type says it, and an error of the
test itself is an ``InvalidTest``, never a bug shrunk to the simplest input."""
from __future__ import annotations

from typing import Any, Callable

import numpy as np
import pytest

import synthia as sy


def test_a_numpy_false_is_a_failure() -> None:
    report = sy.Assert(lambda x: np.int64(x) < 5, x=sy.RandomInteger(0, 10)).run(seed=0)
    assert not report.passed and report.smallest == {"x": 5}


def test_an_array_comparison_that_is_false_is_a_failure() -> None:
    def is_sorted(a: list[int]) -> object:
        array = np.array(a)
        return (array == np.sort(array)).all()  # np.False_ for an unsorted list

    report = sy.Assert(is_sorted, a=sy.ComposeList(sy.RandomInteger(0, 100), sy.RandomInteger(0, 10))).run(seed=1)
    assert not report.passed and report.smallest == {"a": [1, 0]}


def test_a_numpy_true_is_a_pass() -> None:
    assert sy.Assert(lambda x: np.int64(x) < 100, x=sy.RandomInteger(0, 10)).run(seed=0).passed


def test_parameters_that_do_not_match_the_inputs_are_an_invalid_test_at_construction() -> None:
    with pytest.raises(sy.InvalidTest, match=r"no parameter for the input x; no input for the parameter s"):
        sy.Assert(lambda s: True, x=sy.RandomInteger(0, 10))
    with pytest.raises(sy.InvalidTest, match=r"no input for the parameter y"):
        sy.Assert(lambda x, y: True, x=sy.RandomInteger(0, 10))
    # Defaults, **kwargs and callables without a signature are fine.
    sy.Assert(lambda x, y=0: True, x=sy.RandomInteger(0, 10))
    sy.Assert(lambda **values: True, x=sy.RandomInteger(0, 10))


def test_a_test_that_cannot_be_called_with_its_inputs_is_an_invalid_test() -> None:
    # A builtin has no signature to check at construction: the call itself fails.
    with pytest.raises(sy.InvalidTest, match="cannot be called with the inputs x"):
        sy.Assert(bool, x=sy.RandomInteger(0, 10)).run(seed=0)


def test_a_name_error_in_the_test_itself_is_an_invalid_test_not_a_failure() -> None:
    lists = sy.ComposeList(sy.RandomInteger(0, 1000), sy.RandomInteger(0, 2000))
    with pytest.raises(sy.InvalidTest, match="NameError in its own body.*wrong_sort"):
        sy.Assert(lambda l: wrong_sort(l) == sorted(l), l=lists).run(seed=2026)  # type: ignore[name-defined] # noqa: F821


def test_a_name_error_in_the_code_under_test_is_a_bug() -> None:
    def code_under_test(x: int) -> int:
        return undefined_helper(x) if x > 3 else x  # type: ignore[name-defined] # noqa: F821

    report = sy.Assert(lambda x: code_under_test(x) >= 0, x=sy.RandomInteger(0, 10)).run(seed=0)
    assert not report.passed and report.smallest == {"x": 4} and isinstance(report.exception, NameError)


def test_a_type_error_inside_the_test_is_a_bug() -> None:
    def test(x: int) -> None:
        if x > 6:
            len(x)  # type: ignore[arg-type]

    report = sy.Assert(test, x=sy.RandomInteger(0, 10)).run(seed=0)
    assert not report.passed and report.smallest == {"x": 7} and isinstance(report.exception, TypeError)


def test_an_action_argument_may_have_the_name_of_an_action_setting() -> None:
    class Repository:
        def __init__(self) -> None:
            self.names: list[str] = []

        @sy.action(name=sy.Choice("main", "dev"), weight=sy.RandomInteger(0, 5))
        def rename(self, name: str, weight: int) -> None:
            self.names.append(name)
            assert weight < 4, "a heavy rename"

    report = sy.Monkey.from_class(Repository).run(seed=1)
    assert not report.passed and report.program.splitlines()[-1] == "repository.rename(name='main', weight=4)  # raises AssertionError"
    action = sy.Action("rename", name=sy.Choice("a", "b"), model=sy.Constant(1))
    assert action.name == "rename" and set(action.args) == {"name", "model"}


# -- a Monkey calls the system the way its signature allows ---------------------------------------
def test_a_method_name_action_passes_positional_only_arguments_by_position() -> None:
    import collections

    pairs = sy.ComposeList(sy.Apply(lambda k, v: (k, v), sy.RandomInteger(0, 3), sy.RandomInteger(0, 3)), sy.RandomInteger(0, 3))
    actions = [sy.Action("update", pairs=pairs), sy.Action("get", key=sy.RandomInteger(0, 4)), sy.Action("__len__")]
    # OrderedDict.update(pairs=[...]) would insert a key named 'pairs'; dict.get(key=...) raises.
    assert sy.Monkey(collections.OrderedDict, actions, model=dict).run(seed=1).passed

    class WrongLength(collections.OrderedDict):  # type: ignore[type-arg]
        def __len__(self) -> int:
            return super().__len__() + (1 if 2 in self else 0)

    report = sy.Monkey(WrongLength, actions, model=dict).run(seed=1)
    assert not report.passed and "wrong_length.update([(2, 0)])" in report.program


def test_an_argument_that_no_parameter_takes_is_an_invalid_test() -> None:
    class Store:
        def put(self, key: int) -> None:
            pass

    with pytest.raises(sy.InvalidTest, match="passes the argument 'value'"):
        sy.Monkey(Store, [sy.Action("put", key=sy.RandomInteger(0, 3), value=sy.RandomInteger(0, 3))]).run(seed=0)


def test_a_model_that_exits_or_a_result_whose_repr_raises_gives_a_report() -> None:
    class Opaque:
        def __repr__(self) -> str:
            raise RuntimeError("no repr")

        def __eq__(self, other: object) -> bool:
            return False

    class System:
        def get(self) -> Opaque:
            return Opaque()

    class Model:
        def get(self) -> int:
            raise SystemExit(3)

    report = sy.Monkey(System, [sy.Action("get")], model=Model).run(seed=0)
    assert not report.passed and "the model raises SystemExit: 3" in report.failure
    assert "whose repr raised RuntimeError" in report.failure and report.summary()


def test_a_model_without_an_actions_method_is_an_error_at_construction() -> None:
    class Counter:
        def __init__(self) -> None:
            self.n = 0

        def add(self) -> None:
            self.n += 1

        def size(self) -> int:
            return self.n + (self.n > 2)  # wrong from 3

    class Model:
        def __init__(self) -> None:
            self.n = 0

        def add(self) -> None:
            self.n += 1

    actions = [sy.Action("add"), sy.Action("size")]
    with pytest.raises(TypeError, match="model Model has no method 'size' for the action 'size'.*model=False"):
        sy.Monkey(Counter, actions, model=Model)
    with pytest.raises(TypeError, match="model Model has no method 'size'"):
        sy.Monkey(Counter, actions, model=lambda: Model()).run(seed=0)  # a factory: on its first model
    # Declared without lockstep, the action runs unchecked by the model, as asked.
    assert sy.Monkey(Counter, [sy.Action("add"), sy.Action("size", model=False)], model=Model).run(seed=1).passed


class _Leaky:
    counts: dict[int, int] = {}  # a class attribute: kept from one trace to the next

    def put(self, k: int) -> None:
        _Leaky.counts[k] = _Leaky.counts.get(k, 0) + 1

    def count(self, k: int) -> int:
        return _Leaky.counts.get(k, 0)


class _Counts:
    def __init__(self) -> None:
        self.counts: dict[int, int] = {}

    def put(self, k: int) -> None:
        self.counts[k] = self.counts.get(k, 0) + 1

    def count(self, k: int) -> int:
        return self.counts.get(k, 0)


def test_a_system_that_keeps_state_between_traces_is_reported_flaky_with_both_outcomes() -> None:
    _Leaky.counts.clear()
    keys = sy.RandomInteger(0, 3)
    report = sy.Monkey(_Leaky, [sy.Action("put", k=keys), sy.Action("count", k=keys)], model=_Counts).run(seed=1)
    assert report.status == "flaky" and "played again, did other things" in report.flaky
    assert "returned 0, now" in report.flaky and "a class attribute" in report.flaky
    # The same actions on a system that keeps its state per object pass.
    assert sy.Monkey(_Counts, [sy.Action("put", k=keys), sy.Action("count", k=keys)], model=_Counts).run(seed=1).passed


def test_a_system_that_cannot_be_made_is_a_failure_with_a_program() -> None:
    def start_service() -> object:
        raise RuntimeError("the port is taken")

    report = sy.Monkey(start_service, [sy.Action("ping")]).run(seed=0)
    assert not report.passed and report.failure == "making the system raised RuntimeError: the port is taken"
    assert report.program.endswith("start_service()  # raises RuntimeError") and report.seed == 0


def test_small_lies_in_reports_are_gone() -> None:
    import warnings

    one_class = sy.Monkey(_Counts, [sy.Action("count", k=0)]).run(seed=1)
    assert "nan" not in one_class.summary() and "one class" in one_class.summary()
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no health warning after a handful of inputs
        few = sy.Assert(lambda x: sy.assume(x > 5) or True, sy.FixedCount(7), x=sy.RandomInteger(0, 10)).run(seed=1)
    assert few.tried == 7 and few.discarded > few.tried and few.health == []
    many = sy.Assert(lambda x: sy.assume(x > 8) or True, sy.FixedCount(100), x=sy.RandomInteger(0, 10))
    with pytest.warns(sy.HealthWarning, match="discarded by assume"):
        many.run(seed=1)


def test_the_ci_profile_never_tests_fewer_inputs_than_the_default() -> None:
    from synthia.testing import settings

    ci, default = settings.get_profile("ci"), settings.get_profile("default")
    seen: list[int] = []

    @sy.given(sy.RunOptions(database=False), x=sy.RandomInteger(0, 1000))
    def test_counted(x: int) -> None:
        seen.append(x)

    for profile in (default, ci):
        sy.load_profile(profile.name)
        try:
            seen.clear()
            test_counted()
            assert len(seen) >= 100, profile.name
        finally:
            sy.load_profile("default")


def test_a_summary_never_raises_on_values_that_cannot_be_shown() -> None:
    class Unprintable(Exception):
        def __str__(self) -> str:
            raise RuntimeError("no text")

    def test(x: int) -> None:
        if x > 5:
            raise Unprintable()

    huge = sy.Apply(lambda v: 10**5000 if v > 5 else v, sy.RandomInteger(0, 10))  # over int's 4,300 digits
    report = sy.Assert(test, x=huge).run(seed=1)
    summary = report.summary()
    assert "Unprintable: <its str raised RuntimeError>" in summary
    if hasattr(__import__("sys"), "get_int_max_str_digits"):  # Python 3.11 and 3.10.7+: a limit on int's repr
        assert f"x={hex(10**5000)[:100]}" in summary  # in hex: the same value, no digit limit


def test_a_deferred_that_recurses_too_deep_is_a_clear_error() -> None:
    endless: sy.Picker[object] = sy.Deferred(lambda: sy.Apply(lambda a: [a], endless))
    with pytest.raises(ValueError, match="recursed deeper than Python allows.*give it max_depth"):
        endless.pick()  # outside a run: as deep as Python allows
    # In a run every input grows too large: each is discarded, and the run says so.
    report = sy.Assert(lambda v: True, sy.FixedCount(20), v=endless).run(seed=1)
    assert report.status == "error" and not report.passed
    assert report.error is not None and "all 100 were discarded (grown too large: a Deferred wiring nested more than 200" in report.error
    deep: sy.Picker[object] = sy.Deferred(lambda: sy.Apply(lambda a: [a], deep), max_depth=10**6, fallback=0)
    with pytest.raises(ValueError, match=r"its max_depth=1000000 is beyond what Python allows"):
        sy.Assert(lambda v: True, v=deep).run(seed=1)


def test_a_deferred_without_max_depth_has_a_budget_of_nested_picks(monkeypatch: pytest.MonkeyPatch) -> None:
    import synthia.pickers.deferred as basic

    from synthia.core.budget import making_inputs

    monkeypatch.setattr(basic, "MAX_RECURSIVE_PICKS", 20)
    tree: sy.Picker[object] = sy.Deferred(lambda: sy.Choice(0, sy.ArrayPicker(tree, tree, tree)))
    made, too_large = 0, 0
    picker = tree.set_seed(5)
    with making_inputs():  # as in a run
        for _ in range(200):
            try:
                made += picker.pick() is not None
            except basic.UnboundedRecursion as error:
                assert "more than 20 nested picks for one value" in str(error)
                too_large += 1
    assert made and too_large  # each value counts its own picks: small ones are still made


def test_a_run_discards_the_values_a_deferred_grows_past_its_budget_and_goes_on() -> None:
    # Hypothesis's five-branching tree (st.deferred, no depth bound): most inputs explode,
    # the run discards them (as Hypothesis does an overrun) and shrinks what fails.
    tree: sy.Picker[object] = sy.Deferred(lambda: sy.Choice(sy.AnyInteger(), sy.ArrayPicker(tree, tree, tree, tree, tree)))
    report = sy.Assert(lambda v: not isinstance(v, tuple), v=tree).run(seed=0)
    assert not report.passed and report.smallest == {"v": (0, 0, 0, 0, 0)}
    assert report.discarded and "grown too large" in report.summary()
    assert report.harness is not None and report.tape is not None
    assert report.harness.replay(report.tape, 0) == report.smallest  # nothing left over from a discarded input


def test_a_time_budget_bounds_a_call_that_hangs() -> None:
    import time

    class Hangs:
        def wait(self, n: int) -> None:
            while n > 7:  # hangs on a large n
                pass

    started = time.perf_counter()
    report = sy.Monkey(Hangs, [sy.Action("wait", n=sy.RandomInteger(0, 10))], time_budget=1.0).run(seed=1)
    assert time.perf_counter() - started < 10
    assert "ended a call that was still running" in report.reason and report.time_bound
    assert report.status == "error" and not report.passed and "still running" in report.summary()

    def test(n: int) -> None:
        while n > 7:
            pass

    started = time.perf_counter()
    assert "ended a call" in sy.Assert(test, sy.RunOptions(time_budget=1.0), n=sy.RandomInteger(0, 10)).run(seed=1).reason
    assert time.perf_counter() - started < 10


def _nested(depth: int = 100_000) -> list[Any]:
    value: list[Any] = []
    for _ in range(depth):
        value = [value]
    return value


def test_a_summary_never_raises_on_a_value_nested_100_000_deep() -> None:
    report = sy.Assert(lambda v: False, v=sy.Apply(lambda _: _nested(), sy.RandomInteger(0, 3))).run(seed=1)
    summary = report.summary()
    assert not report.passed and "v=<list nested too deep to show (its repr raised RecursionError)>" in summary
    assert "seed: 1" in summary


class _Bag:
    """Holds what it is given; ``size`` is wrong once anything is in it."""

    def __init__(self) -> None:
        self.items: list[Any] = []

    def put(self, x: Any) -> None:
        self.items.append(x)

    def get(self) -> Any:
        return self.items[-1] if self.items else None

    def size(self) -> int:
        return 2 * len(self.items)


class _BagModel(_Bag):
    def size(self) -> int:
        return len(self.items)


@pytest.mark.parametrize("make", [_nested, lambda: 10**5000], ids=["nested 100,000 deep", "5,001 digits"])
def test_a_monkey_summary_and_program_never_raise_on_values_that_cannot_be_shown(make: Callable[[], Any]) -> None:
    value = sy.Apply(lambda _: make(), sy.RandomInteger(0, 2))
    monkey = sy.Monkey(_Bag, [sy.Action("put", x=value), sy.Action("get"), sy.Action("size")], model=_BagModel)
    report = monkey.run(seed=1)
    summary, program = report.summary(), report.program
    assert not report.passed and "_bag.put(x=" in program and "assert _bag.size() == 1" in program
    assert "seed: 1" in summary
    if isinstance(make(), int):  # written in hex: the program runs, fails on the bag, passes on its model
        namespace: dict[str, Any] = {}
        with pytest.raises(AssertionError):
            exec(program, namespace)  # noqa: S102 - the printed program
        assert namespace["_bag"].items == [10**5000]
        exec(program.replace("_bag = _Bag()", "_bag = _BagModel()"), {"_BagModel": _BagModel})  # noqa: S102
    else:
        assert "nested too deep to show" in program


def test_a_monkey_result_nested_100_000_deep_is_reported() -> None:
    class Deep:
        def get(self) -> Any:
            return _nested()

    class Flat:
        def get(self) -> Any:
            return 0

    report = sy.Monkey(Deep, [sy.Action("get")], model=Flat).run(seed=1)
    assert not report.passed
    assert "returned <list nested too deep to show" in report.summary() and "assert deep.get() == 0" in report.program


class _Store:
    def __init__(self) -> None:
        self.data: dict[int, int] = {}

    def get(self, k: int) -> int:
        return self.data[k]  # KeyError where the model says ValueError


class _StoreModel(_Store):
    def get(self, k: int) -> int:
        if k not in self.data:
            raise ValueError(k)
        return self.data[k]


def test_when_system_and_model_raise_different_types_the_report_names_both() -> None:
    report = sy.Monkey(_Store, [sy.Action("get", k=sy.RandomInteger(0, 3))], model=_StoreModel).run(seed=1)
    assert not report.passed and "_store.get(k=0) raised KeyError: 0; the model raises ValueError: 0" in report.summary()
    with pytest.raises(KeyError):  # the program fails on the system, with the system's own exception...
        exec(report.program, {})  # noqa: S102 - the printed program
    exec(report.program.replace("_store = _Store()", "_store = _StoreModel()"), {"_StoreModel": _StoreModel})  # noqa: S102 - ...and passes on the model


# -- a test's body is its own: pickers built there, runs made there ---------------------------


def _lowering_together(gap: int) -> Any:
    """Hypothesis's ``test_lowering_together_negative``: a find inside a test's body."""
    pair = sy.ArrayPicker(sy.RandomInteger(-20, 1), sy.RandomInteger(-20, 1))
    try:
        return sy.find(pair, lambda x: x[0] + gap == x[1], seed=4)
    except sy.NoExampleFound:
        return None


def test_a_find_inside_a_test_finds_what_it_finds_outside() -> None:
    # The inner find once drew from the outer run's replayer while the outer input was
    # shrunk: inside, `gap=-1` "found" (0, 0), which does not satisfy the condition.
    outside = {gap: _lowering_together(gap) for gap in range(-20, 1)}
    assert all(outside[gap] == (0, gap) for gap in range(-20, 1))
    seen: dict[int, Any] = {}

    def test(gap: int) -> None:
        seen[gap] = _lowering_together(gap)
        assert seen[gap] == outside[gap] and gap > -15  # fails below -15: the outer run shrinks

    report = sy.Assert(test, sy.FixedCount(200), gap=sy.RandomInteger(-20, 1)).run(seed=3)
    assert len(seen) > 5 and all(found == outside[gap] for gap, found in seen.items())
    assert not report.passed and report.smallest == {"gap": -15} and report.shrink_tries > 0


def test_a_picker_built_in_the_test_body_draws_from_its_own_seed() -> None:
    # Recorded, replayed and shrunk inputs all run the body with no route current: the values
    # of a seeded picker built there are those of its seed, not draws of the outer input.
    expected = sy.RandomInteger(0, 1000, seed=5).take(4)
    bodies: list[list[int]] = []

    def test(n: int) -> bool:
        bodies.append(sy.RandomInteger(0, 1000, seed=5).take(4))
        return n < 50

    report = sy.Assert(test, n=sy.RandomInteger(0, 100)).run(seed=1)
    assert not report.passed and report.smallest == {"n": 50}
    assert len(bodies) > 20 and all(body == expected for body in bodies)
    # sy.draw is the one way a test's body draws a part of its input: still recorded and shrunk.
    drawn = sy.Assert(lambda n: sy.draw(sy.RandomInteger(0, 100)) + n < 120, n=sy.RandomInteger(0, 100)).run(seed=1)
    assert not drawn.passed and drawn.smallest is not None and drawn.smallest["n"] + drawn.drawn[0] == 120


def test_a_picker_built_in_an_action_draws_from_its_own_seed() -> None:
    expected = sy.RandomInteger(0, 1000, seed=5).take(3)
    bodies: list[list[int]] = []

    class Box:
        def __init__(self) -> None:
            self.items: list[int] = []

        def put(self, x: int) -> None:
            bodies.append(sy.RandomInteger(0, 1000, seed=5).take(3))
            self.items.append(x)
            assert len(self.items) < 4 or x < 5

    report = sy.Monkey(Box, [sy.Action("put", x=sy.RandomInteger(0, 10))]).run(seed=1)
    assert not report.passed and report.trace is not None and len(report.trace) == 4
    assert len(bodies) > 50 and all(body == expected for body in bodies)
