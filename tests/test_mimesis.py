"""Mimesis driven by synthia's draws: seeded, independent, replayable, shrinkable, explainable."""
from __future__ import annotations

import subprocess
import sys

import pytest

import synthia as sy


def test_the_same_seed_gives_the_same_people_and_other_columns_do_not_shift_them() -> None:
    people = sy.Struct(dict, name=sy.Mimesis("person.full_name"), city=sy.Mimesis("address.city"))
    alone = people.duplicate().set_seed(4).take(20)
    busy = sy.Struct(dict, name=sy.Mimesis("person.full_name"), noise=sy.Mimesis("text.sentence"), city=sy.Mimesis("address.city")).set_seed(4).take(20)
    assert [p["city"] for p in alone] == [p["city"] for p in busy]  # the extra column shifts nothing
    assert [p["name"] for p in alone] == [p["name"] for p in busy]
    assert people.set_seed(4).take(20) == alone
    assert len({p["name"] for p in alone}) > 10


def test_mimesis_own_seeding_plays_no_part() -> None:
    """Two pickers with the same seed agree, whatever was drawn by the providers in between."""
    a = sy.Mimesis("person.first_name", seed=9).take(10)
    sy.Mimesis("person.first_name", seed=1).take(7)  # moves the shared provider
    assert sy.Mimesis("person.first_name", seed=9).take(10) == a


def test_locales_are_used() -> None:
    from mimesis import Person
    from mimesis.locales import Locale

    german = sy.Mimesis("person.last_name", locale="de", seed=1).take(200)
    english = sy.Mimesis("person.last_name", locale=Locale.EN, seed=1).take(200)
    data = Person(Locale.DE)._dataset  # the locale's data, as Mimesis loads it
    german_names = set(data.get("surnames") or data["last_name"])
    assert set(german) <= german_names and not set(english) <= german_names


@pytest.mark.parametrize("seed", range(3))
def test_a_value_shrinks_towards_the_first_entries_of_the_providers_data(seed: int) -> None:
    from mimesis import Person

    data = Person()._dataset
    names = data.get("names") or data["first_name"]
    lists = [names["female"], names["male"]] if isinstance(names, dict) else [names]
    firsts = {next(n for n in entries if n.startswith("M")) for entries in lists}
    assert sy.find(sy.Mimesis("person.first_name"), lambda s: s.startswith("M"), seed=seed) in firsts
    assert sy.replay(sy.Mimesis("person.first_name"), [])[0] in {entries[0] for entries in lists}


def test_numbers_shrink_to_the_low_end_of_their_range() -> None:
    found = sy.find(sy.Mimesis("numeric.integer_number", start=10, end=10_000), lambda n: n > 5000, seed=2)
    assert 5000 < found <= 5010


def test_a_failure_replays_from_its_tape() -> None:
    report = sy.Assert(lambda email: "z" not in email.split("@")[0], email=sy.Mimesis("person.email")).run(seed=2)
    assert not report.passed
    assert report.harness is not None and report.tape is not None
    assert report.harness.replay(report.tape, 2) == report.smallest


def test_explanations_reach_the_draws_of_a_mimesis_picker() -> None:
    name = sy.Mimesis("person.full_name")
    record = sy.Struct(dict, name=name, age=sy.RandomInteger(0, 99))
    with sy.recording(record):
        record.pick()
    graph = sy.explain(record, 0, sy.Key("name")).graph
    assert any(data.get("picker") is name for _, data in graph.nodes(data=True))


def test_providers_built_by_providers_draw_from_the_picker_too() -> None:
    """``Payment`` builds a ``Person`` and ``Internet`` a ``Datetime``: both take the same draws."""
    owner = sy.Mimesis("payment.credit_card_owner")
    assert owner.duplicate().set_seed(5).take(5) == owner.duplicate().set_seed(5).take(5)


def test_repr_builds_the_picker_again() -> None:
    picker = sy.Mimesis("numeric.integer_number", locale="de", start=1, end=9)
    assert repr(picker) == "Mimesis('numeric.integer_number', locale='de', start=1, end=9)"


def test_bad_arguments_name_the_value() -> None:
    with pytest.raises(ValueError, match="'person.nope'"):
        sy.Mimesis("person.nope")
    with pytest.raises(ValueError, match="several Mimesis providers"):
        sy.Mimesis("title")
    with pytest.raises(ValueError, match="locale .*'xx'"):
        sy.Mimesis("person.name", locale="xx")
    with pytest.raises(TypeError, match="method must be"):
        sy.Mimesis(3)  # type: ignore[arg-type]


def test_import_synthia_does_not_import_mimesis() -> None:
    code = "import sys, synthia; print('mimesis' in sys.modules)"
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip() == "False"
