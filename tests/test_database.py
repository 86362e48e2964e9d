"""The failure database: JSON of draws, replayed first, robust to corruption and to change."""
from __future__ import annotations

import json
import os
import pathlib
import stat
import warnings

import pytest

import synthia as sy
import synthia.core.draws as sd
from synthia.engine import DatabaseWarning, FailureDatabase


def _failing_report(**pickers: sy.Picker) -> sy.TestReport:
    return sy.Assert(lambda **kw: sum(map(sum, kw.values())) < 300, **pickers).run(seed=5)


def lists() -> sy.Picker:
    return sy.ComposeList(sy.RandomInteger(0, 100), sy.RandomInteger(0, 20))


def test_entries_are_versioned_json_of_draws_never_pickle(tmp_path: pathlib.Path) -> None:
    report = _failing_report(l=lists())
    db = FailureDatabase(tmp_path)
    db.save("test_sum", report.tape, seed=report.seed)  # type: ignore[arg-type]
    files = list((tmp_path / "failures").iterdir())
    assert len(files) == 1 and files[0].suffix == ".json"
    data = json.loads(files[0].read_text())
    assert data["format"] == "synthia-failures" and data["version"] == 1 and data["key"] == "test_sum"
    assert data["entries"][0]["tape"]["draws"] == [list(d) for d in json.loads(json.dumps(report.tape.to_json()))["draws"]]  # type: ignore[union-attr]
    assert b"pickle" not in files[0].read_bytes() and files[0].read_bytes()[:1] == b"{"
    assert db.load("test_sum") == [report.tape]


def test_a_saved_failure_is_replayed_first_and_shrunk_further(tmp_path: pathlib.Path) -> None:
    wiring = lists()
    report = _failing_report(l=wiring)
    again = sy.Assert(lambda l: sum(l) < 300, l=lists()).run(seed=999, tapes=[report.tape])  # type: ignore[list-item]
    assert again.first == report.smallest and again.first_index is None
    assert again.smallest == report.smallest and "fails again" in again.notes[0]


def test_an_entry_survives_a_renamed_argument(tmp_path: pathlib.Path) -> None:
    report = _failing_report(old_name=lists())
    renamed = sy.Assert(lambda new_name: sum(new_name) < 300, new_name=lists()).run(seed=1, tapes=[report.tape])  # type: ignore[list-item]
    assert renamed.first == {"new_name": report.smallest["old_name"]}  # type: ignore[index]


def test_an_entry_that_no_longer_fits_or_fails_is_dropped_with_a_note() -> None:
    report = _failing_report(l=lists())
    changed = sy.Assert(lambda s: len(s) < 300, s=sy.RandomString(sy.RandomInteger(0, 5))).run(seed=1, tapes=[report.tape])  # type: ignore[list-item]
    assert changed.passed and changed.notes == ["a saved failure was dropped: it no longer fits the wiring"]
    fixed = sy.Assert(lambda l: True, l=lists()).run(seed=1, tapes=[report.tape])  # type: ignore[list-item]
    assert fixed.passed and fixed.notes == ["a saved failure was dropped: it no longer fails"]


@pytest.mark.parametrize(
    "content",
    [b"not json", b"\xff\xfe", json.dumps({"format": "other"}).encode(), json.dumps({"format": "synthia-failures", "version": 99}).encode()],
)
def test_a_corrupt_file_is_ignored_with_a_warning(tmp_path: pathlib.Path, content: bytes) -> None:
    db = FailureDatabase(tmp_path)
    path = db.path("k")
    assert path is not None
    path.parent.mkdir(parents=True)
    path.write_bytes(content)
    with pytest.warns(DatabaseWarning):
        assert db.load("k") == []


def test_a_corrupt_entry_is_skipped_and_the_others_kept(tmp_path: pathlib.Path) -> None:
    db = FailureDatabase(tmp_path)
    report = _failing_report(l=lists())
    path = db.path("k")
    assert path is not None
    path.parent.mkdir(parents=True)
    good = {"seed": 5, "tape": report.tape.to_json()}  # type: ignore[union-attr]
    bad = {"seed": 5, "tape": {"draws": [["integer", "x"]]}}
    path.write_text(json.dumps({"format": "synthia-failures", "version": 1, "key": "k", "entries": [bad, good]}))
    with pytest.warns(DatabaseWarning, match="entry 0"):
        assert db.load("k") == [report.tape]


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0, reason="root can write anywhere")
def test_an_unwritable_folder_gives_a_warning_not_an_error(tmp_path: pathlib.Path) -> None:
    tmp_path.chmod(stat.S_IRUSR | stat.S_IXUSR)
    try:
        with pytest.warns(DatabaseWarning, match="could not save"):
            FailureDatabase(tmp_path / "db").save("k", sd.Tape())
    finally:
        tmp_path.chmod(stat.S_IRWXU)


def test_a_folder_that_is_a_file_gives_a_warning_not_an_error(tmp_path: pathlib.Path) -> None:
    blocker = tmp_path / "db"
    blocker.write_text("a file where the folder should be")
    with pytest.warns(DatabaseWarning, match="could not save"):
        FailureDatabase(blocker).save("k", sd.Tape())


UNWRITABLE = """
import synthia as sy

@sy.given(x=sy.RandomInteger(0, 10**6))
def test_small(x):
    assert x < 1000
"""


def test_given_reports_its_failure_when_the_database_cannot_be_written(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_unwritable=UNWRITABLE)
    (pytester.path / "blocked").write_text("not a folder")
    result = pytester.runpytest("-p", "no:cacheprovider", "--synthia-dir=blocked")
    result.assert_outcomes(failed=1)
    text = result.stdout.str()
    assert "smallest failing input: x=1000" in text and "--synthia-seed=" in text
    assert "could not save the failure" in text


PARAMETRIZED = """
import pytest
import synthia as sy

@pytest.mark.parametrize("limit", [10, 10**9])
@sy.given(x=sy.RandomInteger(0, 10**6))
def test_limit(limit, x):
    assert x < limit
"""


def test_entries_are_kept_per_parametrization(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_param=PARAMETRIZED)
    result = pytester.runpytest("-p", "no:cacheprovider", "--synthia-seed=3")
    result.assert_outcomes(passed=1, failed=1)
    files = list((pytester.path / ".synthia" / "failures").iterdir())
    keys = [json.loads(f.read_text())["key"] for f in files]
    assert keys == ["test_param.py::test_limit[10]"]
    again = pytester.runpytest("-p", "no:cacheprovider", "--synthia-seed=4")
    again.assert_outcomes(passed=1, failed=1)
    assert "a saved failure fails again" in again.stdout.str()


def test_a_saved_entry_that_no_longer_fails_is_dropped_and_noted(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_fix="""
import synthia as sy

@sy.given(x=sy.RandomInteger(0, 10**6))
def test_fix(x):
    assert x < 1000
""")
    pytester.runpytest("-p", "no:cacheprovider").assert_outcomes(failed=1)
    pytester.makepyfile(test_fix="""
import synthia as sy

@sy.given(x=sy.RandomInteger(0, 10**6))
def test_fix(x):
    assert x >= 0
""")
    fixed = pytester.runpytest("-p", "no:cacheprovider", "-s")
    fixed.assert_outcomes(passed=1)
    assert "a saved failure was dropped: it no longer fails" in fixed.stderr.str() + fixed.stdout.str()
    assert not list((pytester.path / ".synthia" / "failures").iterdir())


def test_loading_never_unpickles(tmp_path: pathlib.Path) -> None:
    import pickle

    db = FailureDatabase(tmp_path)
    path = db.path("k")
    assert path is not None
    path.parent.mkdir(parents=True)
    path.write_bytes(pickle.dumps({"key": "k", "inputs": {"x": 1}}))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert db.load("k") == []
    assert any(issubclass(w.category, DatabaseWarning) for w in caught)


def test_hostile_failure_files_are_ignored_with_one_warning_in_bounded_time(tmp_path: pathlib.Path) -> None:
    import json
    import os
    import warnings

    from synthia.engine.database import FORMAT, VERSION, DatabaseWarning, FailureDatabase

    db = FailureDatabase(tmp_path)
    path = db.path("k")
    assert path is not None
    path.parent.mkdir(parents=True)

    def document(entries: object) -> str:
        return json.dumps({"format": FORMAT, "version": VERSION, "key": "k", "entries": entries})

    good = {"picks": 1, "draws": [["integer", 5, 0, 10]]}
    hostile = [
        document(5),  # entries of the wrong type
        document([{"tape": {"picks": 10**9, "draws": []}}]),  # a billion picks to replay
        document([{"tape": {"picks": 1, "draws": [["weighted", 0, [10**400]]]}}]),  # a 400-digit weight
        document([{"tape": {"picks": 1, "draws": [["integer", 10**400, 0, 10]]}}, {"tape": good}]),
        "[" * 100_000 + "]" * 100_000,  # JSON nested 100,000 deep
    ]
    for text in hostile:
        path.write_text(text)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            tapes = db.load("k")
        assert all(isinstance(t, sd.Tape) for t in tapes)
        assert len([w for w in caught if issubclass(w.category, DatabaseWarning)]) <= 1
    path.unlink()
    os.mkfifo(path)  # a FIFO would block a reader forever
    with pytest.warns(DatabaseWarning, match="not a regular file"):
        assert db.load("k") == []
    path.unlink()
    path.symlink_to("/dev/zero")  # endless bytes
    with pytest.warns(DatabaseWarning, match="not a regular file"):
        assert db.load("k") == []
