"""``@sy.given``: pickers inferred from the test's annotations, and a mistake in the
decorator's arguments failing its own test only (never the collection of the file)."""
from __future__ import annotations

import dataclasses
from typing import Callable

import pytest

import synthia as sy


@dataclasses.dataclass(frozen=True)
class Point:
    x: int
    y: int


def test_given_with_no_picker_infers_every_annotated_parameter() -> None:
    seen: list[tuple[Point, int]] = []

    @sy.given(sy.RunOptions(max_examples=30, database=False))
    def test_points(p: Point, n: int) -> None:
        seen.append((p, n))

    test_points()
    assert len(seen) >= 30  # (a run may replay a few inputs besides)
    assert all(isinstance(p, Point) and isinstance(p.x, int) and isinstance(n, int) for p, n in seen)
    assert len({p for p, _ in seen}) > 20  # values, not one value repeated


def test_an_inferred_failure_shrinks_and_names_the_argument() -> None:
    @sy.given(sy.RunOptions(database=False))
    def test_sum(p: Point) -> None:
        assert p.x + p.y < 1000

    with pytest.raises(sy.SynthiaFailure) as info:
        test_sum()
    smallest = info.value.report.smallest["p"]
    assert smallest.x + smallest.y == 1000 and smallest.x in (0, 1000)


def test_ellipsis_infers_one_parameter_and_the_others_are_left_to_pytest() -> None:
    @sy.given(sy.RunOptions(max_examples=10, database=False), flags=..., n=sy.RandomInteger(0, 3))
    def test_mixed(fixture: str, flags: list[bool], n: int) -> None:
        assert fixture == "fixture" and all(isinstance(f, bool) for f in flags) and 0 <= n < 3

    assert list(test_mixed.__signature__.parameters) == ["fixture"]  # type: ignore[attr-defined]
    test_mixed("fixture")


def test_annotations_written_as_strings_resolve_in_the_test_module() -> None:
    # This module has ``from __future__ import annotations``: every annotation is a string.
    @sy.given(sy.RunOptions(max_examples=5, database=False))
    def test_strings(points: list[Point]) -> None:
        assert all(isinstance(p, Point) for p in points)

    test_strings()


def test_a_parameter_without_annotation_or_default_is_not_inferred() -> None:
    @sy.given(sy.RunOptions(max_examples=5, database=False))
    def test_partial(fixture, n: int, m: int = 3) -> None:  # type: ignore[no-untyped-def]
        assert fixture == "f" and isinstance(n, int) and m == 3

    assert list(test_partial.__signature__.parameters) == ["fixture", "m"]  # type: ignore[attr-defined]
    test_partial("f")


def test_a_type_that_cannot_be_inferred_fails_its_test_with_the_path() -> None:
    @dataclasses.dataclass
    class Handler:
        callback: Callable[[int], int]  # synthia makes no functions

    @sy.given()
    def test_handler(h: Handler) -> None:
        pass

    with pytest.raises(TypeError, match=r"test_handler's parameter h: cannot build .* for Handler\.callback"):
        test_handler()


def test_a_value_instead_of_a_picker_fails_when_the_test_runs() -> None:
    decorated = sy.given(x=5)(lambda x: None)
    with pytest.raises(TypeError, match=r"x must be a picker, got 5 \(int\)"):
        decorated()


BAD_AND_GOOD = """
import pytest
import synthia as sy

@sy.given(x=5)
def test_bad(x):
    pass

@sy.given(x=sy.RandomInteger(0, 10))
def test_good(x):
    assert 0 <= x < 10

@sy.given()
def test_inferred(n: int, s: str):
    assert isinstance(n, int) and isinstance(s, str)

@sy.given()
@pytest.mark.parametrize("k", [1, 2])
def test_parametrized(k: int, s: str):
    assert k in (1, 2) and isinstance(s, str)
"""


def test_a_value_given_for_a_picker_fails_only_its_own_test_in_pytest(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_mixed=BAD_AND_GOOD)
    result = pytester.runpytest("-p", "no:cacheprovider")
    result.assert_outcomes(passed=4, failed=1)  # the file was collected: the good tests ran
    text = result.stdout.str()
    assert "test_bad" in text and "x must be a picker, got 5 (int)" in text
    assert "error" not in result.parseoutcomes()
