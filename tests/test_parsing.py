"""Parsing a value into draws (``sy.parse``), ``sy.shrink`` and the shrinking of failing
``@sy.example`` values."""
from __future__ import annotations

import dataclasses
import datetime as dt
import math
from typing import Any

import pytest

import synthia as sy
from synthia.core.parsing import Parse, same_value, why_not

from .quality.cases import _encoder_missing, _holds, _json_round_trip, _json_with_dicts, _nesting


def test_same_value_is_exact_on_types_and_floats() -> None:
    assert same_value(math.nan, math.nan) and same_value([1, (2.5, "a")], [1, (2.5, "a")])
    assert not same_value(0.0, -0.0) and not same_value(1, 1.0) and not same_value(True, 1)
    assert not same_value({"a": 1, "b": 2}, {"b": 2, "a": 1})  # a dict's order is part of the value


def test_a_choice_parses_by_its_first_alternative_that_can() -> None:
    choice = sy.Choice(sy.RandomInteger(0, 10), sy.RandomText(sy.RandomInteger(0, 5)), "many", weights=[1, 2, 3])
    for value, index in ((3, 0), ("ab", 1), ("many", 1), (12, None)):
        tape = sy.parse(choice, value)
        if index is None:
            assert tape is None
            continue
        assert tape is not None and choice.index_of(tape.draws[0].value) == index
        assert sy.replay(choice, tape)[0] == value


def test_a_choice_of_values_skips_zero_weights_and_uses_the_simplest_decision() -> None:
    choice = sy.Choice("a", "b", "c", "d", weights=[1, 0, 1, 2])
    assert sy.parse(choice, "b") is None
    tape = sy.parse(choice, "c")
    assert tape is not None and tape.values() == [0.25]


def test_a_hook_that_lies_cannot_give_a_wrong_input() -> None:
    class Liar(sy.RandomPicker[int]):
        def __init__(self) -> None:
            self._init_stream(None)

        def _pick(self) -> int:
            return self._stream.integer(0, 100)

        def parse_draws(self, value: Any, parse: Parse) -> list[Any]:
            return [sy.core.Draw("integer", value + 1, (0, 100))]  # one off

    assert sy.parse(Liar(), 5) is None
    assert "gave 6" in (why_not(Liar(), 5) or "")


def test_apply_parses_through_its_inverse_only() -> None:
    plain = sy.Apply(lambda a, b: f"{a}-{b}", sy.RandomInteger(0, 10), sy.RandomInteger(0, 10))
    assert sy.parse(plain, "3-4") is None
    assert "has no inverse" in (why_not(plain, "3-4") or "")
    pairs = sy.Apply(lambda a, b: f"{a}-{b}", sy.RandomInteger(0, 10), sy.RandomInteger(0, 10),
                     inverse=lambda s: tuple(int(p) for p in s.split("-")))
    assert sy.parse(pairs, "3-4").values() == [3, 4]  # type: ignore[union-attr]
    assert sy.parse(pairs, "3-40") is None
    assert "inverse=" in repr(pairs)
    named = sy.Apply(dict, sy.RandomInteger(0, 3), b=sy.RandomBoolean(), inverse=lambda d: ((), d))
    assert named.arguments()[1]["inverse"] is not None
    # tuple(xs) and frozenset(xs) of one list parse without an inverse
    tuples = sy.Apply(tuple, sy.ComposeList(sy.RandomInteger(0, 9), sy.RandomInteger(0, 4)))
    assert sy.replay(tuples, sy.parse(tuples, (4, 2)))[0] == (4, 2)  # type: ignore[arg-type]


def test_a_struct_field_named_inverse_is_a_field() -> None:
    struct = sy.Struct(dict, inverse=sy.RandomBoolean(), n=sy.RandomInteger(0, 5))
    assert struct.inverse is None and struct.columns == ["inverse", "n"]
    assert sy.parse(struct, {"inverse": True, "n": 4}).values() == [True, 4]  # type: ignore[union-attr]
    assert sy.parse(struct, {"n": 4, "inverse": True}) is None  # the fields' order


def test_records_dates_and_recursion_parse() -> None:
    @dataclasses.dataclass
    class Meeting:
        day: dt.date
        at: dt.time
        people: list[str]

    meetings = sy.from_type(Meeting)
    value = Meeting(dt.date(2024, 2, 29), dt.time(9, 30), ["ada", "é"])
    tape = sy.parse(meetings, value)
    assert tape is not None and sy.replay(meetings, tape)[0] == value

    tree = sy.Deferred(
        lambda: sy.Choice(0, sy.Apply(lambda l, r: [l, r], tree, tree, inverse=tuple)), max_depth=2, fallback=0
    )
    assert sy.parse(tree, [[0, 0], 0]) is not None
    assert sy.parse(tree, [[[0, 0], 0], 0]) is None  # deeper than max_depth allows
    assert "Choice" in (why_not(tree, [[[0, 0], 0], 0]) or "")


def test_shrink_parses_and_shrinks_a_value_from_outside() -> None:
    lists = sy.ComposeList(sy.RandomInteger(0, 1000), sy.RandomInteger(0, 20))
    report = sy.shrink(lists, [5, 999, 12, 400, 3], lambda xs: sum(xs) < 500)
    assert not report.passed
    assert report.first == {"value": [5, 999, 12, 400, 3]} and report.smallest == {"value": [500]}
    assert "the value given fails" in report.summary()
    again = sy.shrink(lists, [5, 999, 12, 400, 3], lambda xs: sum(xs) < 500)
    assert again.smallest == report.smallest


def test_shrink_refuses_what_it_cannot_parse_or_what_passes() -> None:
    lists = sy.ComposeList(sy.RandomInteger(0, 10), sy.RandomInteger(0, 5))
    with pytest.raises(ValueError, match=r"RandomInteger\(0, 10\) cannot make 11"):
        sy.shrink(lists, [1, 11], lambda xs: False)
    with pytest.raises(ValueError, match="does not fail"):
        sy.shrink(lists, [1, 2], lambda xs: True)
    with pytest.raises(TypeError, match="options"):
        sy.shrink(lists, [1, 2], lambda xs: False, options=3)  # type: ignore[arg-type]


def test_a_failing_example_is_shrunk_when_it_parses() -> None:
    @sy.given(sy.RunOptions(max_examples=5, database=False), xs=sy.ComposeList(sy.RandomInteger(0, 100), sy.RandomInteger(0, 10)), flag=sy.RandomBoolean())
    @sy.example(flag=True, xs=[3, 80, 12, 95])  # the arguments in another order than @given's
    def test_small(xs: list[int], flag: bool) -> None:
        assert all(x < 50 for x in xs)

    with pytest.raises(sy.SynthiaFailure) as failure:
        test_small()
    first = str(failure.value).splitlines()[0]
    assert first.endswith("test_small failed on the explicit example flag=True, xs=[3, 80, 12, 95], shrunk to xs=[50], flag=False")
    assert failure.value.report is not None and failure.value.report.first == {"xs": [3, 80, 12, 95], "flag": True}


def test_a_failing_example_that_does_not_parse_is_reported_as_it_is() -> None:
    @sy.given(sy.RunOptions(max_examples=5, database=False), x=sy.RandomInteger(1, 10))
    @sy.example(x=0)
    def test_reciprocal(x: int) -> None:
        assert 1 / x

    with pytest.raises(sy.SynthiaFailure) as failure:
        test_reciprocal()
    assert str(failure.value).endswith("test_reciprocal failed on the explicit example x=0: ZeroDivisionError: division by zero")
    assert failure.value.report is None and isinstance(failure.value.__cause__, ZeroDivisionError)


@pytest.mark.parametrize("start", [{"": {"": [5]}}, {"a": [{"b": 5}]}, [{"": [5]}]], ids=repr)
def test_widening_remakes_a_dict_wrapper_as_a_list_around_the_same_child(start: Any) -> None:
    # Without parsing, the shrinker keeps the dicts ({'': {'': [5]}}): a dict made by the
    # Choice's last alternative is parsed again by its list alternative, the children kept.
    report = sy.shrink(_json_with_dicts(), start, lambda v: not (_nesting(v) >= 3 and _holds(v, 5)))
    assert report.smallest == {"value": [[[5]]]}


@pytest.mark.parametrize("start", [{"\\": None}, {"a\\": {"": 0}}, [{"\\b": []}]], ids=repr)
def test_widening_remakes_a_dict_by_its_key(start: Any) -> None:
    # The failing string is a dict's key: the dict is parsed again as the key alone, by the
    # text alternative of the same Choice (without it the shrinker ends at {'\\': None}).
    text = sy.RandomString(sy.RandomInteger(0, 5), alphabet='ab"\\')
    report = sy.shrink(_json_round_trip(text), start, lambda v: not _encoder_missing("\\")(v))
    assert report.smallest == {"value": "\\"}


def test_widening_makes_a_constant_by_the_first_alternative_that_can_parse_it() -> None:
    choice = sy.Choice(sy.RandomBoolean(), sy.AnyInteger(), sy.Choice(4991, 5009))
    report = sy.shrink(choice, 5009, lambda n: isinstance(n, bool) or n <= 4000)
    assert report.smallest == {"value": 4001}


def test_bind_parses_through_its_inverse() -> None:
    sized = sy.Bind(sy.RandomInteger(1, 5), lambda n: sy.ComposeList(sy.RandomInteger(0, 10), n), inverse=len)
    assert sy.parse(sized, [7, 3]).values() == [2, 7, 3]  # type: ignore[union-attr]
    assert sy.parse(sized, []) is None  # RandomInteger(1, 5) cannot make 0
    assert "inverse=len" in repr(sized)
    plain = sy.Bind(sy.RandomInteger(1, 5), lambda n: sy.ComposeList(sy.RandomInteger(0, 10), n))
    assert sy.parse(plain, [7, 3]) is None and "has no inverse" in (why_not(plain, [7, 3]) or "")
    assert sy.shrink(sized, [9, 9, 9, 9], lambda l: sum(l) < 10).smallest == {"value": [1, 9]}


def test_a_shrink_report_says_the_call_that_reproduces_it() -> None:
    def small(xs: list[int]) -> bool:
        return max(xs) < 50

    lists = sy.ComposeList(sy.RandomInteger(0, 100), sy.RandomInteger(0, 10))
    report = sy.shrink(lists, [5, 71, 12, 99], small, seed=3)
    line = f"sy.shrink({lists!r}, value, small, seed=3)  # value: report.first['value']"
    assert report.reproduction == line and f"reproduce: {line}" in report.summary()
    # The line is true: the same call gives the same report.
    again = sy.shrink(lists, report.first["value"], small, seed=3)
    assert again.smallest == report.smallest == {"value": [50]}


def test_frozensets_of_a_set_picker_parse_in_an_order_no_hash_changes() -> None:
    # Apply(frozenset, SetPicker(...)) gives its input a list of the items: the SetPicker
    # parses it as the set it would make; nested frozensets (which do not sort) parse too.
    nested: sy.Picker[Any] = sy.Deferred(
        lambda: sy.Choice(sy.RandomBoolean(), sy.Apply(frozenset, sy.SetPicker(nested, sy.AnySize()))), max_depth=3, fallback=sy.RandomBoolean()
    )
    for value in [frozenset({True}), frozenset({False, frozenset({True})}), frozenset({frozenset({frozenset({False, True})})})]:
        tape = sy.parse(nested, value)
        assert tape is not None and sy.replay(nested, tape.values())[0] == value
    assert sy.parse(sy.SetPicker(sy.RandomBoolean(), 2), [True, True]) is None  # a list is no set
    # Strings hash differently in every process: the draws of a set of them do not.
    script = (
        "import synthia as sy\n"
        "words = sy.Apply(frozenset, sy.SetPicker(sy.Choice(sy.RandomText(sy.AnySize()), sy.Apply(frozenset, sy.SetPicker(sy.RandomText(sy.AnySize()), 2))), 4))\n"
        "print(sy.parse(words, frozenset({'ab', 'xyz', frozenset({'q', 'rs'}), 'k'})).values())\n"
    )
    import os
    import subprocess
    import sys

    outputs = {
        subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True, env={**os.environ, "PYTHONHASHSEED": str(seed)}).stdout
        for seed in (1, 2, 3)
    }
    assert len(outputs) == 1 and "None" not in outputs.pop()
