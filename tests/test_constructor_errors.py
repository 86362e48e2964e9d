"""Issue 31: the constructor errors a hostile tester met, each a clear ``TypeError`` /
``ValueError`` naming the argument and the value now (the fuzz in ``tests/contract`` checks
every public constructor; these are the cases the issue names, and the misspelled action
setting)."""
from __future__ import annotations

import math

import numpy as np
import pytest

import synthia as sy


def test_an_empty_or_unknown_faker_locale_is_refused() -> None:
    with pytest.raises(ValueError, match="locale must be a locale Faker knows, such as 'fr_FR', got ''"):
        sy.Faker("name", locale="")
    with pytest.raises(ValueError, match=r"got 'fr_fr' \(did you mean .*'fr_FR'"):
        sy.Faker("name", locale="fr_fr")
    assert isinstance(sy.Faker("name", locale="en-US", seed=1).pick(), str)  # Faker's own spelling still works


def test_a_factor_that_overflows_the_floats_is_refused_at_pick() -> None:
    scaled = sy.AffineTransform(sy.RandomFloat(1.0, 10.0, seed=1), 1e308)
    with pytest.raises(ValueError, match=r"m \* x \+ b leaves the float range for x=.* with m=1e\+308 \(float\) and b=0 \(int\)"):
        scaled.pick()
    assert all(math.isfinite(v) for v in sy.AffineTransform(sy.RandomFloat(1.0, 10.0, seed=1), 1e300).take(20))
    with pytest.raises(ValueError, match=r"m=10000.*\.\.\."):
        sy.AffineTransform(sy.RandomFloat(1.0, 10.0, seed=1), 10**400).pick()
    with pytest.raises(ValueError, match="beyond the float range"):
        sy.AffineTransformFloat(sy.RandomInteger(1, 10, seed=1), 10**400).pick()


def test_a_guided_canonical_form_must_be_text() -> None:
    guided = sy.guided(sy.RandomInteger(0, 10), canonical=lambda x: x, only_valid=False, seed=1)
    with pytest.raises(TypeError, match=r"canonical must return a str or bytes .*got \d+ \(int\)"):
        guided.take(2)


@pytest.mark.parametrize(
    "build, names",
    [
        (lambda: sy.GaussianFloat(10**400, 1), "mean"),
        (lambda: sy.GaussianFloat(0, 10**400), "sd"),
        (lambda: sy.BiasedRandomFloat(10**400), "bias"),
        (lambda: sy.AnyFloat(10**400, 10**401), "low"),
        (lambda: sy.TimeBudget(10**400), "seconds"),
        (lambda: sy.Action("push", weight=10**400), "weight"),
        (lambda: sy.Bayesian(saturation=10**400), "saturation"),
        (lambda: sy.RandomBoolean(10**400), "p"),
    ],
)
def test_an_int_beyond_the_float_range_is_refused_naming_the_argument(build: object, names: str) -> None:
    with pytest.raises(ValueError, match=rf"{names} must be within the float range \(about 1.8e308\), got 1000000000000000000000\.\.\.000 \(an int of 40[12] digits\)"):
        build()  # type: ignore[operator]


def test_a_character_set_of_something_not_a_list_says_which_argument() -> None:
    with pytest.raises(TypeError, match=r"categories must be a collection of values .*got 5 \(int\)"):
        sy.CharacterSet(5)
    with pytest.raises(TypeError, match=r"categories must be a list of Unicode categories such as \['Lu', 'Nd'\], got the string 'Lu': write \['Lu'\]"):
        sy.CharacterSet("Lu")
    with pytest.raises(ValueError, match="exclude_categories must be Unicode general categories"):
        sy.CharacterSet(["L"], exclude_categories=["Xx"])


def test_a_uuid_version_given_as_a_numpy_int_works() -> None:
    picked = sy.RandomUUID(np.int64(4), seed=1).pick()
    assert picked.version == 4 and picked == sy.RandomUUID(4, seed=1).pick()
    assert repr(sy.RandomUUID(np.int64(4))) == "RandomUUID()"
    with pytest.raises(ValueError, match="version must be 1, 3, 4, 5 or None, got 4.0"):
        sy.RandomUUID(4.0)  # type: ignore[arg-type]


def test_functions_that_need_a_picker_say_so() -> None:
    for call, name in [
        (lambda: sy.to_dataframe([1, 2], 3), "picker"),
        (lambda: sy.record("x"), "picker"),
        (lambda: sy.replay(5, []), "picker"),
        (lambda: sy.wiring_diagram(None), "picker"),
        (lambda: sy.explain(3), "picker"),
        (lambda: sy.recording(sy.Tick(), "x"), r"roots\[1\]"),
        (lambda: sy.find(7, lambda x: True), "picker"),
    ]:
        with pytest.raises(TypeError, match=rf"^{name} must be a picker"):
            call()


def test_counts_beyond_what_python_can_hold_are_refused() -> None:
    with pytest.raises(ValueError, match="n must be at most sys.maxsize"):
        sy.to_dataframe(sy.Tick(), 2**63)
    with pytest.raises(ValueError, match="picks must be at most sys.maxsize"):
        sy.record(sy.Tick(), 10**30)


def test_profiles_name_the_argument_that_names_no_profile() -> None:
    with pytest.raises(ValueError, match="parent must name a registered profile, got 'nope': no synthia profile named 'nope'"):
        sy.register_profile("mine", parent="nope")
    with pytest.raises(TypeError, match=r"name must be the name of a profile \(a str such as 'ci'\), got \['ci'\]"):
        sy.load_profile(["ci"])  # type: ignore[arg-type]


# -- a misspelled action setting ---------------------------------------------------------------
def test_a_misspelled_action_setting_is_refused_with_did_you_mean() -> None:
    with pytest.raises(TypeError, match=r"Action\('push'\) got the keyword 'precondtion' with a function: did you mean 'precondition'\?"):
        sy.Action("push", x=sy.RandomInteger(0, 9), precondtion=lambda m: m.open)
    with pytest.raises(TypeError, match="'expected' with the value 3: did you mean 'expect'"):
        sy.Action("get", expected=3)
    with pytest.raises(TypeError, match="'weigth' with the value 2: did you mean 'weight'"):
        sy.Action("get", weigth=2)


def test_a_misspelled_setting_of_the_action_decorator_is_refused_where_it_is_written() -> None:
    with pytest.raises(TypeError, match=r"@action on put got the keyword 'precondtion' with a function: did you mean 'precondition'\?"):

        class Machine:
            @sy.action(item=sy.RandomInteger(0, 9), precondtion=lambda self: True)
            def put(self, item: int) -> None:
                pass


def test_arguments_near_a_setting_name_stay_arguments_where_that_is_what_they_are() -> None:
    # A picker is always an argument (no setting takes one), as documented.
    assert sy.Action("rename", names=sy.Choice("a", "b")).args["names"] is not None
    # A plain value under a name the called function takes is its argument.
    def rename(system: object, names: int) -> None:
        pass

    assert repr(sy.Action(rename, names=3)) == "Action(rename, names=Constant(3))"

    class Machine:
        @sy.action(weights=3)
        def put(self, weights: int) -> None:
            pass

    # args={...} holds any argument, whatever its name.
    assert set(sy.Action("rename", args={"names": 3}).args) == {"names"}
    # A keyword far from every setting is an argument, as before.
    assert set(sy.Action("push", item=5).args) == {"item"}


def test_a_misspelled_setting_never_reaches_the_system() -> None:
    class Account:
        def __init__(self) -> None:
            self.open = False

        def deposit(self, amount: int) -> None:
            raise AssertionError("deposit is called although no account is open")

    with pytest.raises(TypeError, match="did you mean 'precondition'"):
        sy.Monkey(Account, [sy.Action("deposit", amount=sy.RandomInteger(1, 9), precondtion=lambda a: a.open)])
