"""Tests in the style of the Java library's unit tests, for what Java users rely on: the Java
names, shrinking that leaves the original alone, the grammar files' empty alternative and
minimal derivations (see docs/coming-from-java.md)."""
from __future__ import annotations

from typing import Any, Callable

import pytest

import synthia as sy
import synthia.compat as compat

# -- names ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "java, python",
    [
        ("NothingPicker", sy.Nothing),
        ("GiveUpException", sy.GiveUp),
        ("CannotShrinkException", sy.CannotShrink),
        ("NoMoreElementException", sy.NoMoreElements),
        ("PickSmallerComparable", sy.PickSmaller),
        ("NthSuccessiveOutput", sy.NthOutput),
        ("PickElement", sy.Choice),
        ("PickList", sy.ComposeList),
        ("PickSet", sy.SetPicker),
        ("PickArray", sy.ArrayPicker),
        ("Enumerate", sy.AllPickers),
        ("HypercubePicker", sy.PrismPicker),
        ("GrammarPicker", sy.GrammarSequence),
        ("PickTree", sy.TreePicker),
        ("FlatMap", sy.Bind),
    ],
)
def test_java_names_are_aliases_in_compat(java: str, python: Any) -> None:
    assert getattr(compat, java) is python
    assert java in compat.__all__ and compat.ALIASES[java] == python.__name__
    # The top-level namespace keeps one name per thing, and says where the other one went.
    assert java not in sy.__all__
    with pytest.raises(AttributeError, match=f"original library's name of sy.{python.__name__}.*synthia.compat"):
        getattr(sy, java)


def test_compat_has_every_alias_once() -> None:
    assert sorted(compat.__all__) == sorted(compat.ALIASES) and len(compat.ALIASES) == 15


def test_nothing_picker_is_done_and_throws() -> None:
    nothing = compat.NothingPicker()
    assert nothing.is_done()
    with pytest.raises(compat.NoMoreElementException):
        nothing.pick()


def test_give_up_exception_from_pick_if() -> None:
    with pytest.raises(compat.GiveUpException):
        sy.PickIf(sy.RandomInteger(0, 10, seed=1), lambda x: x > 100, max_tries=20).pick()


def test_affine_transform_integer_truncates_like_java() -> None:
    values = sy.AffineTransformInteger(sy.RandomFloat(0, 1, seed=2), 10, 3).take(200)
    assert all(isinstance(v, int) and 3 <= v < 13 for v in values)
    assert set(values) == set(range(3, 13))
    with pytest.raises(TypeError, match="m must be an int"):
        sy.AffineTransformInteger(sy.RandomFloat(), 0.5, 0)


def test_affine_transform_float_gives_floats() -> None:
    values = sy.AffineTransformFloat(sy.RandomInteger(0, 5, seed=1), 2, 1).take(50)
    assert all(isinstance(v, float) for v in values) and set(values) <= {1.0, 3.0, 5.0, 7.0, 9.0}
    shrunk = sy.AffineTransformFloat(sy.RandomInteger(0, 5), 2, 1).shrink(9.0).set_seed(1).take(20)
    assert shrunk and all(isinstance(v, float) and v < 9.0 for v in shrunk)


def test_nth_successive_output_designates_an_output() -> None:
    picker = sy.Tick(0, 1)
    with sy.recording(picker):
        picker.take(3)
    explanation = sy.explain(picker, 2)
    assert explanation.graph.nodes[explanation.root]["index"] == 2
    assert compat.NthSuccessiveOutput(2) == sy.NthOutput(2)


# -- shrink leaves the original picker alone ------------------------------------------------

WIRINGS: dict[str, Callable[[], sy.Picker[Any]]] = {
    "Choice": lambda: sy.Choice(sy.RandomInteger(0, 100), sy.RandomInteger(100, 200)),
    "ComposeList of Choice": lambda: sy.ComposeList(sy.Choice(sy.RandomInteger(0, 100), sy.Tick(100, 1)), 3),
    "Freeze of Choice": lambda: sy.Freeze(sy.Choice(sy.RandomInteger(0, 100), sy.RandomInteger(100, 200))),
    "Bound of Choice": lambda: sy.Bound(sy.Choice(sy.RandomInteger(0, 100), sy.RandomInteger(100, 200)), 50),
    "ArrayPicker": lambda: sy.ArrayPicker(sy.Choice(sy.RandomInteger(0, 9), sy.Tick(10, 1)), sy.RandomInteger(0, 9)),
    "RandomString": lambda: sy.RandomString(sy.RandomInteger(1, 6)),
}


@pytest.mark.parametrize("name", sorted(WIRINGS))
def test_shrink_does_not_advance_the_original(name: str) -> None:
    picker = WIRINGS[name]().set_seed(7)
    value = picker.take(4)[-1]
    expected = picker.duplicate(with_state=True).take(10)
    smaller = picker.shrink(value)
    smaller.take(10)
    smaller.set_seed(3)
    smaller.take(10)
    assert picker.take(10) == expected


# -- grammars ----------------------------------------------------------------------------------

#: A grammar in the style of the Java library's demo: optional words written ``ε``.
SENTENCES = """
<S>         := The <adjectives> <animal> <verb> the <adjectives> <animal> . ;
<adjectives> := <mood> <size> <colour> ;
<mood>      := happy | sleepy | ε ;
<size>      := tiny | huge | ε ;
<colour>    := red | green | "" ;
<animal>    := cat | owl | <dog> ;
<dog>       := dog | puppy ;
<verb>      := sees | chases | "waits for" ;
"""


def test_the_empty_alternative_is_empty() -> None:
    sentences = sy.GrammarSentence(SENTENCES).set_seed(2).take(200)
    assert not any("ε" in s or '""' in s for s in sentences)
    assert any(s.startswith("The cat") or s.startswith("The owl") or s.startswith("The dog") for s in sentences)
    assert all(s.startswith("The ") and s.endswith(" .") for s in sentences)


def test_minimal_derivation_has_the_fewest_terminals() -> None:
    grammar = sy.Grammar(SENTENCES)
    assert grammar.minimal("S").tokens() == ["The", "cat", "sees", "the", "cat", "."]
    assert grammar.minimal("adjectives").tokens() == []


def test_minimal_prefers_fewer_words_over_shallower_derivations() -> None:
    grammar = sy.Grammar("<s> := a b c | <t> ; <t> := <u> ; <u> := z ;")
    assert grammar.minimal("s").tokens() == ["z"]
    assert grammar.simplest_first["s"] == [1, 0]


def test_minimal_terminates_when_an_alternative_only_adds_empty_words() -> None:
    grammar = sy.Grammar("<a> := <a> <e> | <c> | p q ; <e> := ε ; <c> := <d> ; <d> := r ;")
    assert grammar.minimal("a").tokens() == ["r"]


@pytest.mark.parametrize(
    "text",
    [SENTENCES, "<e> := <n> | <e> + <n> | ( <e> ) ; <n> := ^[1-9][0-9]?$ ;", "<s> := a b c | <t> ; <t> := <u> ; <u> := z ;"],
    ids=["sentences", "expressions", "deep-but-short"],
)
def test_the_minimal_draw_gives_the_minimal_derivation(text: str) -> None:
    picker = sy.GrammarSequence(text)
    value, _ = sy.replay(picker, [])  # no draws: every draw is the minimal one
    assert value.derivation == picker.grammar.minimal(picker.grammar.start)


# -- mutators take their input last -----------------------------------------------------------


@pytest.mark.parametrize(
    "call, write",
    [
        (lambda lists: sy.DeleteElement(lists, sy.RandomFloat()), "DeleteElement(position, input=...)"),
        (lambda lists: sy.Swap(lists, sy.RandomFloat(), sy.RandomFloat()), "Swap(first, second, input=...)"),
        (lambda lists: sy.MutateElement(lists, sy.RandomFloat(), sy.Offset(1)), "MutateElement(mutator, position, input=...)"),
        (lambda lists: sy.Replace(lists, sy.Constant([0])), "Replace(replacement, input=...)"),
        (lambda lists: sy.Offset(sy.Tick(), 1), "Offset(offset, input=...)"),
    ],
    ids=["DeleteElement", "Swap", "MutateElement", "Replace", "Offset"],
)
def test_the_java_argument_order_says_what_to_write(call: Any, write: str) -> None:
    lists = sy.ComposeList(sy.RandomInteger(0, 10), 4)
    with pytest.raises(TypeError, match=r"takes its input last, by keyword: write " + write.replace("(", r"\(").replace(")", r"\)").replace(".", r"\.")):
        call(lists)


def test_a_list_where_a_position_is_expected_says_where_the_list_goes() -> None:
    mutator = sy.DeleteElement(sy.ComposeList(sy.RandomInteger(0, 10), 4), input=[1, 2, 3])
    with pytest.raises(ValueError, match=r"the list to mutate is the input, given last by keyword \(input=\.\.\.\)"):
        mutator.pick()
    with pytest.raises(TypeError, match="input must pick lists, got RandomFloat"):
        sy.DeleteElement(0.5, input=sy.RandomFloat())
