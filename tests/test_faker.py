"""Faker driven by synthia's draws: seeded, independent, replayable, shrinkable, explainable."""
from __future__ import annotations

import pytest

import synthia as sy


def test_the_same_seed_gives_the_same_people_and_other_pickers_do_not_shift_them() -> None:
    people = sy.Struct(dict, name=sy.Faker("name"), city=sy.Faker("city"))
    alone = people.duplicate().set_seed(4).take(20)
    busy = sy.Struct(dict, name=sy.Faker("name"), noise=sy.Faker("sentence"), city=sy.Faker("city")).set_seed(4).take(20)
    assert [p["city"] for p in alone] == [p["city"] for p in busy]  # the extra calls shift nothing
    assert [p["name"] for p in alone] == [p["name"] for p in busy]
    assert people.set_seed(4).take(20) == alone


def test_locales_are_used() -> None:
    french = sy.Faker("last_name", locale="fr_FR", seed=1).take(300)
    english = sy.Faker("last_name", locale="en_US", seed=1).take(300)
    assert not set(french) & {"Smith", "Johnson"} and any(set(n) & set("éèêàçï") for n in french)
    assert {"Smith", "Johnson"} & set(english) or english != french


@pytest.mark.parametrize("seed", range(3))
def test_a_faker_value_shrinks_towards_the_first_entries_of_fakers_lists(seed: int) -> None:
    # Faker's first names come from a female or a male list, each in alphabetical order:
    # the shrunk name is the first entry starting with M of one of them.
    from faker.providers.person.en_US import Provider

    lists = [list(Provider.first_names_female), list(Provider.first_names_male)]
    firsts = {next(n for n in names if n.startswith("M")) for names in lists}
    assert sy.find(sy.Faker("first_name"), lambda s: s.startswith("M"), seed=seed) in firsts
    assert sy.replay(sy.Faker("first_name"), [])[0] in {names[0] for names in lists}


def test_a_faker_failure_replays_from_its_tape() -> None:
    report = sy.Assert(lambda email: "z" not in email.split("@")[0], email=sy.Faker("email")).run(seed=2)
    assert not report.passed
    assert report.harness is not None and report.tape is not None
    assert report.harness.replay(report.tape, 2) == report.smallest


def test_explanations_reach_the_draws_of_a_faker_picker() -> None:
    name = sy.Faker("name")
    record = sy.Struct(dict, name=name, age=sy.RandomInteger(0, 99))
    with sy.recording(record):
        record.pick()
    graph = sy.explain(record, 0, sy.Key("name")).graph
    assert any(data.get("picker") is name for _, data in graph.nodes(data=True))
