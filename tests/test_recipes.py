"""CONTRIBUTING's recipe for a new picker, followed by pickers defined here, outside the package:
with no edit to the stager, the batch mode or the Hypothesis bridge, the picker is shrunk,
explained, staged, batched and bridged like the built-in ones."""
from __future__ import annotations

from typing import Any

from hypothesis import find, settings

import synthia as sy
from synthia.core.emitter import Emitter
from synthia.core.leaves import DrawSpec
from synthia.core.shrinking import simplicity

GRADES = "ABCDEF"


class Grade(sy.RandomPicker[str], sy.Shrinkable[str]):
    """A school grade with an optional sign ("A", "B-", "F+"), the best grade simplest: one
    integer draw, mapped (CONTRIBUTING, "Add a random picker")."""

    def __init__(self, lowest: str = "F", *, seed: int | None = None) -> None:
        if not isinstance(lowest, str) or lowest not in GRADES:
            raise ValueError(f"lowest must be one of {GRADES!r}, got {lowest!r}")
        self.lowest = lowest
        self._init_stream(seed)

    def draw_spec(self) -> DrawSpec:
        return DrawSpec.integer(0, 3 * (GRADES.index(self.lowest) + 1), self._grade, inverse=self._draw_of)

    def _grade(self, n: int) -> str:
        return GRADES[n // 3] + ("", "-", "+")[n % 3]

    def _draw_of(self, grade: str) -> int:
        return 3 * GRADES.index(grade[0]) + ("", "-", "+").index(grade[1:])

    def arguments(self) -> tuple[list[Any], dict[str, Any]]:
        return ([] if self.lowest == "F" else [self.lowest]), {}


class Interval(sy.Picker[tuple[int, int]]):
    """A composite with a hook of its own: two picks of ``ends``, in order."""

    inputs_fields = ("ends",)

    def __init__(self, ends: sy.Picker[int]) -> None:
        self.ends = ends

    def _pick(self) -> tuple[int, int]:
        a, b = self.ends.pick(), self.ends.pick()
        return (a, b) if a <= b else (b, a)

    def stage(self, e: Emitter, out: list[str], ind: str) -> str:
        e.staged += 1
        a, b = e.pick(self.ends, out, ind), e.pick(self.ends, out, ind)
        v = e.var("interval")
        out.append(f"{ind}{v} = ({a}, {b}) if {a} <= {b} else ({b}, {a})")
        return v


def test_a_leaf_defined_outside_the_package_picks_and_replays_its_described_draw() -> None:
    grades = Grade(seed=3).take(200)
    assert set(grades) <= {g + s for g in GRADES for s in ("", "-", "+")} and len(set(grades)) > 10
    value, tape = sy.record(Grade(seed=3), picks=5)
    assert [d.kind for d in tape.draws] == ["integer"] * 5  # one typed draw a pick
    assert sy.replay(Grade(), [0])[0] == "A" and sy.replay(Grade(), [17])[0] == "F+"
    spec = Grade("C").draw_spec()
    assert all(spec.value(spec.inverse(g)) == g for g in Grade("C", seed=1).take(50))  # invertible


def test_it_is_shrunk_by_the_harness_and_by_its_shrink() -> None:
    report = sy.Assert(lambda x: x[0] in "ABC", x=Grade()).run(seed=1)
    assert not report.passed and report.smallest == {"x": "D"}
    smaller = Grade().shrink("E+", sy.RandomFloat(seed=2)).take(30)
    assert smaller and all(simplicity(g) < simplicity("E+") for g in smaller)


def test_it_is_explained_down_to_its_draw() -> None:
    picker = sy.ComposeList(Grade(), 3).set_seed(4)
    with sy.recording(picker):
        value = picker.pick()
    text = sy.explain(picker, 0, sy.NthElement(1)).describe()
    assert f"output 1 of Grade() = {value[1]!r} [random draw]" in text


def test_it_is_staged_with_the_same_values_and_draws() -> None:
    wiring = sy.ComposeList(Grade("D"), sy.RandomInteger(0, 6))
    compiled = sy.compile(wiring.duplicate())
    assert "3 pickers staged, 0 called as they are" in compiled.source and "Grade's value" in compiled.source
    for seed in range(20):
        assert compiled.set_seed(seed).take(10) == wiring.set_seed(seed).take(10)
    assert sy.record(compiled.set_seed(5), picks=3)[1] == sy.record(wiring.set_seed(5), picks=3)[1]
    # A composite's own hook: written inline, around the leaf's described draw.
    intervals = sy.compile(Interval(Grade()))
    assert "called as it is" not in intervals.source.split("\n", 1)[1]
    assert intervals.set_seed(2).take(20) == Interval(Grade()).set_seed(2).take(20)


def test_it_is_batched_with_the_values_of_take() -> None:
    assert Grade(seed=6).take_array(500).tolist() == Grade(seed=6).take(500)
    batch = sy.compile(Grade(seed=7)).take_array(100)
    assert batch.tolist() == Grade(seed=7).take(100)


def test_it_is_bridged_to_hypothesis() -> None:
    strategy = sy.to_strategy(Grade())
    assert repr(strategy) == "to_strategy(Grade())"
    assert find(strategy, lambda g: g[0] == "E", settings=settings(database=None)) == "E"
    lists = sy.to_strategy(sy.ComposeList(Grade(), sy.RandomInteger(0, 5)))
    assert find(lists, lambda gs: "F+" in gs, settings=settings(database=None)) == ["F+"]
