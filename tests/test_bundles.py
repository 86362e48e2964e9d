"""Issue 33, the stateful vocabulary: bundles (results of one action used by later ones),
consuming draws, several results at once, initializing actions, preconditions on invariants,
teardown -- in ``Monkey`` and ``@sy.monkey`` classes, shrunk and printed as programs."""
from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

import synthia as sy

VALUES = sy.RandomInteger(0, 10)


class Store:
    """A key-value store whose ``put`` makes the key; it loses a value of 7 (planted)."""

    def __init__(self) -> None:
        self.data: dict[str, int] = {}

    def put(self, value: int) -> str:
        key = f"k{len(self.data)}"
        self.data[key] = value if value != 7 else 0
        return key

    def get(self, key: str) -> int:
        return self.data[key]

    def delete(self, key: str) -> None:
        del self.data[key]


class StoreModel:
    def __init__(self) -> None:
        self.data: dict[str, int] = {}

    def put(self, value: int) -> str:
        key = f"k{len(self.data)}"
        self.data[key] = value
        return key

    def get(self, key: str) -> int:
        return self.data[key]

    def delete(self, key: str) -> None:
        del self.data[key]


def test_a_result_used_by_a_later_action_is_a_variable_in_the_program() -> None:
    keys = sy.Bundle("keys")
    report = sy.Monkey(Store, [sy.Action("put", value=VALUES, target=keys), sy.Action("get", key=keys)], model=StoreModel).run(seed=1)
    assert not report.passed and len(report.trace or []) == 2
    assert report.program.splitlines()[-3:] == ["store = Store()", "keys_1 = store.put(value=7)", "assert store.get(key=keys_1) == 7  # the model's result"]
    assert "store.get(key='k0') returned 0" in report.failure  # a message shows the value itself


def test_an_action_whose_bundle_is_empty_is_not_enabled() -> None:
    keys = sy.Bundle("keys")
    seen: list[str] = []

    class Recording(StoreModel):
        def get(self, key: str) -> int:
            seen.append("get" if key in self.data else "missing")
            return self.data[key]

    report = sy.Monkey(Recording, [sy.Action("get", key=keys), sy.Action("put", value=VALUES, target=keys)]).run(seed=2)
    assert report.passed and "get" in seen and "missing" not in seen


def test_consuming_draws_take_the_value_out() -> None:
    keys = sy.Bundle("keys")
    actions = [sy.Action("put", value=VALUES, target=keys), sy.Action("get", key=keys), sy.Action("delete", key=sy.consumes(keys))]
    report = sy.Monkey(StoreModel, actions, model=StoreModel, stop=sy.FixedCount(300)).run(seed=3)
    assert report.passed  # a deleted key is never drawn again (KeyError otherwise)
    assert report.counts["delete"]["tried"] > 0 and report.counts["get"]["tried"] > 0


def test_shrinking_deletes_an_action_with_the_uses_of_its_results() -> None:
    keys = sy.Bundle("keys")
    actions = [sy.Action("put", value=VALUES, target=keys), sy.Action("get", key=keys), sy.Action("delete", key=sy.consumes(keys))]
    for seed in range(5):
        report = sy.Monkey(Store, actions, model=StoreModel).run(seed=seed)
        assert not report.passed and report.program.splitlines()[-3:] == [
            "store = Store()",
            "keys_1 = store.put(value=7)",
            "assert store.get(key=keys_1) == 7  # the model's result",
        ], report.program


def test_several_results_at_once_and_none() -> None:
    class Batch:
        def __init__(self) -> None:
            self.items: list[int] = []

        def add_many(self, n: int) -> Any:
            made = list(range(len(self.items), len(self.items) + n))
            self.items.extend(made)
            return sy.multiple(*made)

        def check(self, item: int) -> None:
            assert item < 3

    items = sy.Bundle("items")
    report = sy.Monkey(Batch, [sy.Action("add_many", n=sy.RandomInteger(0, 4), target=items), sy.Action("check", item=items)]).run(seed=1)
    assert not report.passed
    program = report.program
    assert len(report.trace or []) <= 3 and "= batch.add_many(n=" in program and ").values" in program
    assert program.splitlines()[-1] == "batch.check(item=items_4)  # raises AssertionError"


@sy.monkey(stop=sy.FixedCount(200))
class TestInventory:
    """A Hypothesis-style state machine: bundles, initialize, precondition on an invariant, teardown."""

    skus = sy.Bundle("skus")

    def __init__(self) -> None:
        self.stock: dict[str, int] = {}
        self.opened = False

    @sy.initialize(target=skus, name=sy.Choice("apple", "pear"))
    def open_store(self, name: str) -> str:
        self.opened = True
        self.stock[name] = 0
        return name

    @sy.action(target=skus, name=sy.Choice("fig", "kiwi", "plum"))
    def add_product(self, name: str) -> Any:
        if name in self.stock:
            return sy.multiple()
        self.stock[name] = 0
        return name

    @sy.action(sku=skus, n=sy.RandomInteger(1, 5))
    def receive(self, sku: str, n: int) -> None:
        self.stock[sku] += n

    @sy.action(sku=skus)
    @sy.precondition(lambda self: any(self.stock.values()))
    def sell(self, sku: str) -> None:
        if self.stock[sku]:
            self.stock[sku] -= 1

    @sy.invariant()
    def opened_first(self) -> bool:
        return self.opened

    @sy.invariant()
    @sy.precondition(lambda self: len(self.stock) > 1)
    def nothing_negative(self) -> bool:
        return min(self.stock.values()) >= 0

    def teardown(self) -> None:
        CLOSED.append(len(self.stock))


CLOSED: list[int] = []


def test_a_state_machine_class_with_the_whole_vocabulary_passes_and_tears_down() -> None:
    CLOSED.clear()
    TestInventory().test_monkey()
    assert len(CLOSED) >= 200 and max(CLOSED) >= 2


def test_initializers_run_first_once_and_invariants_wait_for_them() -> None:
    checked: list[bool] = []

    class Service:
        def __init__(self) -> None:
            self.ready = False
            self.calls = 0

        def start(self, workers: int) -> None:
            self.ready = True

        def call(self) -> None:
            self.calls += 1

    actions = [sy.Action("start", workers=sy.RandomInteger(1, 4), initialize=True), sy.Action("call")]
    report = sy.Monkey(Service, actions, invariants=[lambda s: checked.append(s.ready) or s.ready]).run(seed=1)
    assert report.passed and checked and all(checked)  # never checked before start ran
    assert all(c["tried"] for c in report.counts.values())


def test_an_initializer_failure_shrinks_to_it() -> None:
    class Broken:
        def setup(self, size: int) -> None:
            assert size < 3

        def noop(self) -> None:
            pass

    report = sy.Monkey(Broken, [sy.Action("setup", size=sy.RandomInteger(0, 10), initialize=True), sy.Action("noop")]).run(seed=1)
    assert not report.passed and report.program.splitlines()[-1] == "broken.setup(size=3)  # raises AssertionError"


def test_a_bundle_is_refused_where_it_makes_no_sense() -> None:
    with pytest.raises(TypeError, match="target must be a Bundle"):
        sy.Action("put", target="keys")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="consumes takes a Bundle"):
        sy.consumes("keys")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="name must be an identifier"):
        sy.Bundle("my keys")
    assert repr(sy.Action("get", key=sy.consumes(sy.Bundle("keys")), target=sy.Bundle("values"))) == (
        "Action('get', key=consumes(Bundle('keys')), target=Bundle('values'))"
    )


PROGRAM_MODULE = '''
import synthia as sy

class Store:
    def __init__(self):
        self.data = {}

    def put(self, value):
        key = f"k{len(self.data)}"
        self.data[key] = value if value != 7 else 0
        return key

    def get(self, key):
        return self.data[key]


class Model(Store):
    def put(self, value):
        key = f"k{len(self.data)}"
        self.data[key] = value
        return key


def run():
    keys = sy.Bundle("keys")
    return sy.Monkey(Store, [sy.Action("put", value=sy.RandomInteger(0, 10), target=keys), sy.Action("get", key=keys)], model=Model).run(seed=4)
'''


def test_the_printed_program_with_bundle_variables_runs(tmp_path: Path) -> None:
    (tmp_path / "stores.py").write_text(textwrap.dedent(PROGRAM_MODULE))
    sys.path.insert(0, str(tmp_path))
    try:
        import stores  # type: ignore[import-not-found]

        report = stores.run()
    finally:
        sys.path.remove(str(tmp_path))
        sys.modules.pop("stores", None)
    (tmp_path / "program.py").write_text(report.program)
    done = subprocess.run([sys.executable, "program.py"], cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert done.returncode == 1 and "AssertionError" in done.stderr, report.program


class Registry:
    """Ids made by a read-then-write counter: two concurrent adds may get one id."""

    def __init__(self) -> None:
        self.items: dict[int, int] = {}
        self.next = 0

    def add(self, value: int) -> int:
        key = self.next
        self.next = key + 1
        self.items[key] = value
        return key

    def get(self, key: int) -> int | None:
        return self.items.get(key)


def test_bundles_and_teardown_work_in_a_concurrent_monkey() -> None:
    ids = sy.Bundle("ids")
    closed: list[int] = []
    actions = [sy.Action("add", value=VALUES, target=ids), sy.Action("get", key=ids)]
    report = sy.Monkey(Registry, actions, threads=2, teardown=lambda r: closed.append(r.next)).run(seed=1)
    assert not report.passed and "no sequential order" in report.failure and closed
    seen = sy.Monkey(Registry, actions, threads=2, stop=sy.FixedCount(50)).run(seed=2)
    assert seen.counts["get"]["tried"] > 0  # a get draws an id an earlier add put in the bundle
