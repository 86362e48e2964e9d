"""``python -m synthia migrate``: each construct of a Hypothesis test on a small source, the
layout and comments kept, the marks for hand edits, a second run changing nothing, and the
command line."""
from __future__ import annotations

import pathlib
import subprocess
import sys
import textwrap
from typing import Any

import pytest

from synthia.integrations.migrate import migrate_paths, migrate_source

ROOT = pathlib.Path(__file__).resolve().parent.parent


def migrate(source: str, marks: int = 0, known: set[str] | None = None) -> str:
    """The translation of ``source``; it has ``marks`` marked places, and a second run
    changes nothing."""
    result = migrate_source(textwrap.dedent(source), known)
    assert len(result.marks) == marks, result.marks
    again = migrate_source(result.code, known)
    assert again.code == result.code, "a second run changed the code"
    return str(result.code)


def run(code: str) -> dict[str, Any]:
    namespace: dict[str, Any] = {"__name__": "translated"}
    exec(compile(code, "translated.py", "exec"), namespace)
    return namespace


# -- imports --------------------------------------------------------------------------------------


def test_hypothesis_imports_give_way_to_synthia_and_others_stay() -> None:
    code = migrate('''\
        """Tests."""
        from __future__ import annotations

        import os  # the OS
        from hypothesis import given, strategies as st

        @given(st.booleans())
        def test_flag(flag):
            assert flag in (True, False)
        ''')
    assert code.startswith('"""Tests."""\nfrom __future__ import annotations\n\nimport os  # the OS\nimport synthia as sy\n\n@sy.given(flag=sy.RandomBoolean())\n')
    run(code)["test_flag"]()


def test_a_hypothesis_import_still_needed_by_a_bridged_strategy_stays() -> None:
    code = migrate("""\
        import hypothesis.strategies as st
        from hypothesis import given

        @given(st.emails(), st.integers(0, 3))
        def test_mail(address, n):
            assert "@" in address and 0 <= n <= 3
        """)
    assert "import hypothesis.strategies as st\nimport synthia as sy\n" in code and "from hypothesis import given" not in code
    assert "@sy.given(address=sy.from_strategy(st.emails()), n=sy.RandomInteger(0, 4))" in code
    run(code)["test_mail"]()


def test_the_standard_library_names_a_translation_uses_are_imported() -> None:
    code = migrate("""\
        from datetime import datetime, date
        from hypothesis import strategies as st

        days = st.dates(date(2020, 1, 1), date(2020, 1, 31))
        unit = st.floats(0, 1)
        """)
    # `datetime` names a class here: timedelta is imported by name
    assert "from datetime import timedelta" in code and "import math" in code
    assert "days = sy.RandomDate(date(2020, 1, 1), date(2020, 1, 31) + timedelta(days=1))" in code
    assert "unit = sy.AnyFloat(0, math.nextafter(1, math.inf))" in code
    namespace = run(code)
    assert max(namespace["days"].set_seed(1).take(500)).day == 31 and max(namespace["unit"].set_seed(1).take(2000)) <= 1


def test_a_file_without_hypothesis_is_left_alone() -> None:
    source = "import os\n\nprint(os.sep)\n"
    assert migrate_source(source).code == source and not migrate_source(source).changed


# -- comments and layout -------------------------------------------------------------------------------


def test_comments_and_layout_are_kept() -> None:
    code = migrate("""\
        from hypothesis import given, strategies as st

        # The sum of a list of naturals is natural.
        @given(
            st.lists(
                st.integers(0, 10),  # small naturals
                max_size=5,
            ),
        )
        def test_sum(xs):  # no bound needed
            # a comment in the body
            assert sum(xs) >= 0
        """)
    assert "# The sum of a list of naturals is natural.\n@sy.given(" in code
    assert "sy.RandomInteger(0, 11),  # small naturals" in code
    assert "def test_sum(xs):  # no bound needed\n    # a comment in the body\n" in code
    run(code)["test_sum"]()


# -- strategies ------------------------------------------------------------------------------------------


def test_ranges_become_half_open() -> None:
    code = migrate("""\
        from hypothesis import strategies as st

        a = st.integers(0, 9)
        b = st.integers(0, len("abc") - 1)
        c = st.integers(-5, n)
        """)
    assert "a = sy.RandomInteger(0, 10)" in code and 'b = sy.RandomInteger(0, len("abc"))' in code and "c = sy.RandomInteger(-5, n + 1)" in code


def test_map_filter_flatmap_and_or_become_pickers_on_strategies_only() -> None:
    code = migrate("""\
        from concurrent.futures import ThreadPoolExecutor
        from hypothesis import strategies as st

        evens = st.integers(0, 100).map(lambda x: x * 2)
        small = evens.filter(lambda x: x < 50)
        sized = st.integers(1, 5).flatmap(lambda n: st.lists(st.booleans(), min_size=n, max_size=n))
        either = st.none() | small | st.text()
        results = ThreadPoolExecutor().map(abs, [1, -2])
        """)
    assert "evens = sy.Apply(lambda x: x * 2, sy.RandomInteger(0, 101))" in code
    assert "small = sy.PickIf(evens, lambda x: x < 50)" in code
    assert "sized = sy.Bind(sy.RandomInteger(1, 6), lambda n: sy.ComposeList(sy.RandomBoolean(), n))" in code
    assert "either = sy.Choice(sy.Constant(None), small, sy.RandomText(sy.AnySize()))" in code
    assert "results = ThreadPoolExecutor().map(abs, [1, -2])" in code  # not a strategy
    namespace = run(code)
    assert all(x % 2 == 0 and x < 50 for x in namespace["small"].set_seed(1).take(50))
    assert all(len(l) in range(1, 6) for l in namespace["sized"].set_seed(1).take(50))


def test_collections_sizes_and_uniqueness() -> None:
    code = migrate("""\
        from hypothesis import strategies as st

        a = st.lists(st.integers(), min_size=2, max_size=4, unique=True)
        b = st.sets(st.integers(0, 9), max_size=3)
        c = st.dictionaries(st.text(), st.booleans(), min_size=1)
        d = st.tuples(st.booleans(), st.just(1))
        e = st.text(alphabet="ab", min_size=3, max_size=3)
        """)
    namespace = run(code)
    assert all(2 <= len(l) <= 4 and len(set(l)) == len(l) for l in namespace["a"].set_seed(1).take(100))
    assert all(len(s) <= 3 for s in namespace["b"].set_seed(1).take(100))
    # No max_size: Hypothesis's sizes, at least min_size, usually short, sometimes long.
    sizes = [len(d) for d in namespace["c"].set_seed(1).take(400)]
    assert min(sizes) == 1 and 5 <= sum(sizes) / len(sizes) <= 8 and max(sizes) >= 15
    assert all(t[1] == 1 for t in namespace["d"].set_seed(1).take(10))
    assert 'e = sy.RandomString(3, "ab")' in code


def test_sampled_from_one_of_and_constants() -> None:
    code = migrate("""\
        import enum
        from hypothesis import strategies as st

        class Color(enum.Enum):
            RED = 1
            BLUE = 2

        a = st.sampled_from(Color)
        b = st.sampled_from(["x", "y"])
        c = st.one_of([st.none(), st.just(3)])
        """)
    assert "a = sy.Choice(*Color)" in code and 'b = sy.Choice("x", "y")' in code and "c = sy.Choice(sy.Constant(None), sy.Constant(3))" in code
    namespace = run(code)
    assert set(namespace["a"].set_seed(1).take(50)) == set(namespace["Color"])


def test_recursive_becomes_a_deferred_wiring_that_refers_to_its_name() -> None:
    code = migrate("""\
        from hypothesis import strategies as st

        json = st.recursive(
            st.none() | st.booleans() | st.integers(),
            lambda children: st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=2), children, max_size=3),
        )
        """)
    assert "json = sy.Deferred(lambda: sy.Choice(" in code and "max_depth=3, fallback=" in code and "sy.ComposeList(json, " in code
    values = run(code)["json"].set_seed(2).take(200)
    assert any(isinstance(v, dict) and v for v in values) and any(isinstance(v, list) and v for v in values)


def test_recursive_used_in_place_is_named_by_an_assignment_expression() -> None:
    code = migrate("""\
        from hypothesis import given, strategies as st

        @given(st.recursive(st.none(), st.lists))
        def test_tree(tree):
            assert tree is None or isinstance(tree, list)

        def deepest():
            return st.recursive(st.booleans(), lambda x: st.tuples(x, x))
        """)
    assert "(recursive1 := sy.Deferred(lambda: sy.Choice(sy.Constant(None), sy.ComposeList(recursive1, " in code
    assert "(recursive2 := sy.Deferred(lambda: sy.Choice(sy.RandomBoolean(), sy.ArrayPicker(recursive2, recursive2))" in code
    namespace = run(code)
    namespace["test_tree"]()
    trees = namespace["deepest"]().set_seed(1).take(100)
    assert any(isinstance(t, tuple) and isinstance(t[0], tuple) for t in trees)


def test_a_strategy_function_given_as_a_value() -> None:
    code = migrate("""\
        from hypothesis import strategies as st
        from hypothesis.strategies import just

        a = st.integers().flatmap(st.just)
        b = st.integers().flatmap(just)
        """)
    assert "a = sy.Bind(sy.AnyInteger(), sy.Constant)" in code and "b = sy.Bind(sy.AnyInteger(), sy.Constant)" in code
    assert run(code)["b"].set_seed(1).pick() is not None


def test_composite_becomes_sy_composite() -> None:
    code = migrate("""\
        from hypothesis import given, strategies as st

        @st.composite
        def intervals(draw: st.DrawFn, high=100) -> tuple[int, int]:
            low = draw(st.integers(0, high))
            return (low, draw(st.integers(low, high)))

        @given(intervals())
        def test_ordered(interval):
            assert interval[0] <= interval[1]

        @given(intervals(10).map(lambda iv: iv[1] - iv[0]))
        def test_width(width):
            assert width >= 0
        """)
    assert "@sy.composite\ndef intervals(draw, high=100) -> tuple[int, int]:" in code
    assert "@sy.given(width=sy.Apply(lambda iv: iv[1] - iv[0], intervals(10)))" in code
    namespace = run(code)
    namespace["test_ordered"]()
    namespace["test_width"]()


def test_strategy_names_from_other_files_are_known() -> None:
    source = """\
        from hypothesis import given
        from .strategies import small_ints

        @given(small_ints.map(str))
        def test_text(s):
            assert s.isdigit()
        """
    code = migrate(source, known={"small_ints"})
    assert "@sy.given(s=sy.Apply(str, small_ints))" in code


def test_strategies_with_no_picker_go_through_the_bridge_and_a_second_run_leaves_them() -> None:
    code = migrate("""\
        from hypothesis import strategies as st

        mails = st.emails()
        funcs = st.functions(returns=st.integers())
        """)
    assert "mails = sy.from_strategy(st.emails())" in code and "funcs = sy.from_strategy(st.functions(returns=st.integers()))" in code


def test_other_extras_and_provisional_strategies_go_through_the_bridge() -> None:
    code = migrate("""\
        from hypothesis import provisional
        from hypothesis.extra.pytz import timezones

        urls = provisional.urls()
        zones = timezones()
        """)
    assert "urls = sy.from_strategy(provisional.urls())" in code and "zones = sy.from_strategy(timezones())" in code


def test_exceptions_and_internals_of_hypothesis_stay_unmarked() -> None:
    source = """\
        from hypothesis.errors import InvalidArgument
        from hypothesis.internal.floats import next_up

        def check(x):
            if x > next_up(1.0):
                raise InvalidArgument(f"x={x}")
        """
    assert migrate(source) == textwrap.dedent(source)


def test_strategy_annotations_become_picker_annotations() -> None:
    code = migrate("""\
        from hypothesis import strategies as st

        def positive() -> st.SearchStrategy[int]:
            return st.integers(min_value=1)
        """)
    assert "def positive() -> sy.Picker[int]:\n    return sy.AnyInteger(1)" in code


# -- tests ----------------------------------------------------------------------------------------------


def test_given_positional_strategies_are_named_after_the_rightmost_parameters() -> None:
    code = migrate("""\
        import pytest
        from hypothesis import given, strategies as st

        class TestThing:
            @pytest.mark.parametrize("scale", [1, 2])
            @given(st.integers(0, 9), st.booleans())
            def test_it(self, scale, n, flag):
                assert 0 <= n * scale <= 18
        """)
    assert "@sy.given(n=sy.RandomInteger(0, 10), flag=sy.RandomBoolean())" in code


def test_data_draw_becomes_sy_draw_and_the_data_argument_goes() -> None:
    code = migrate("""\
        from hypothesis import given, strategies as st

        @given(st.lists(st.integers(0, 9), min_size=1), st.data())
        def test_index(xs, data):
            i = data.draw(st.integers(0, len(xs) - 1), label="index")
            assert xs[i] in xs
        """)
    assert "@sy.given(xs=sy.ComposeList(sy.RandomInteger(0, 10), sy.AnySize(1)))\ndef test_index(xs):" in code
    assert "i = sy.draw(sy.RandomInteger(0, len(xs)))" in code
    run(code)["test_index"]()


def test_a_data_object_passed_around_is_marked() -> None:
    migrate("""\
        from hypothesis import given, strategies as st

        def helper(data):
            return data.draw(st.integers())

        @given(st.data())
        def test_it(data):
            assert helper(data) is not None
        """, marks=2)  # the helper, and the test


def test_inferred_arguments_are_left_to_sy_given() -> None:
    code = migrate("""\
        from hypothesis import given, infer

        @given(x=..., y=infer)
        def test_types(x: int, y: bool):
            pass
        """)
    assert "@sy.given()\ndef test_types(x: int, y: bool):" in code


def test_settings_become_run_options_and_what_synthia_has_no_use_for_goes() -> None:
    code = migrate("""\
        from hypothesis import HealthCheck, given, settings, strategies as st

        @settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
        @given(st.integers())
        def test_a(x):
            pass

        @given(st.integers())
        @settings(suppress_health_check=list(HealthCheck), print_blob=True)
        def test_b(x):
            pass
        """)
    assert "@sy.RunOptions(max_examples=25)\n@sy.given(x=sy.AnyInteger())\ndef test_a(x):" in code
    assert "@sy.given(x=sy.AnyInteger())\ndef test_b(x):" in code and "HealthCheck" not in code
    namespace = run(code)
    namespace["test_a"]()
    assert namespace["test_a"].synthia_report.tried == 25


def test_settings_synthia_cannot_honour_are_marked_and_kept() -> None:
    code = migrate("""\
        from hypothesis import given, settings, strategies as st

        @settings(deadline=500)
        @given(st.integers())
        def test_a(x):
            pass
        """, marks=1)
    assert "# synthia: settings(deadline=...)" in code and "@settings(deadline=500)" in code


def test_examples_are_named_and_via_goes() -> None:
    code = migrate("""\
        from hypothesis import example, given, strategies as st

        @given(st.integers(), st.text())
        @example(0, "")
        @example(x=1, s="a").via("discovered failure")
        def test_it(x, s):
            pass
        """)
    assert '@sy.example(x=0, s="")\n@sy.example(x=1, s="a")\n' in code
    run(code)["test_it"]()


def test_the_small_tools() -> None:
    code = migrate("""\
        from hypothesis import assume, event, given, note, reject, target, strategies as st

        @given(st.integers(0, 100))
        def test_it(x):
            assume(x != 3)
            if x == 4:
                reject()
            note(f"x={x}")
            event("even" if x % 2 == 0 else "odd")
            target(x, label="x")
        """)
    for line in ("sy.assume(x != 3)", "sy.assume(False)", 'sy.note(f"x={x}")', 'sy.event("even" if x % 2 == 0 else "odd")', 'sy.target(x, label="x")'):
        assert line in code


def test_find_takes_its_settings_as_keywords() -> None:
    code = migrate("""\
        from hypothesis import find, settings, strategies as st

        smallest = find(st.integers(0, 1000), lambda x: x > 10, settings=settings(max_examples=500, database=None))
        """)
    assert "smallest = sy.find(sy.RandomInteger(0, 1001), lambda x: x > 10, max_examples=500)" in code
    assert run(code)["smallest"] == 11


def test_seed_and_reproduce_failure_go() -> None:
    code = migrate("""\
        from hypothesis import given, reproduce_failure, seed, strategies as st

        @seed(1234)
        @reproduce_failure("6.100.0", b"AXicY2BgAAAABAAB")
        @given(st.integers())
        def test_it(x):
            pass
        """)
    assert "@sy.given(x=sy.AnyInteger())\ndef test_it(x):" in code and "seed" not in code


def test_profiles() -> None:
    code = migrate("""\
        import os
        from hypothesis import settings, Verbosity

        settings.register_profile("ci", max_examples=1000, derandomize=True, deadline=None)
        settings.register_profile("dev", max_examples=10, verbosity=Verbosity.verbose)
        settings.load_profile(os.getenv("HYPOTHESIS_PROFILE", "dev"))
        """)
    assert 'sy.register_profile("ci", max_examples=1000, seed=0)' in code
    assert 'sy.register_profile("dev", max_examples=10)' in code
    assert 'sy.load_profile(os.getenv("HYPOTHESIS_PROFILE", "dev"))' in code


def test_async_tests_keep_async_def_and_the_executor_hook_goes() -> None:
    code = migrate("""\
        import asyncio
        from hypothesis import given, strategies as st

        class TestAsync:
            def execute_example(self, f):
                return asyncio.run(f())

            @given(st.integers())
            async def test_sleep(self, x):
                await asyncio.sleep(0)
        """)
    assert "execute_example" not in code and "    @sy.given(x=sy.AnyInteger())\n    async def test_sleep(self, x):" in code


def test_marks_are_written_once_above_the_statement_and_kept_by_a_second_run() -> None:
    code = migrate("""\
        from hypothesis import strategies as st

        def make():
            shared = st.shared(st.integers(), key="n")
            return shared
        """, marks=1)
    assert "    # synthia: st.shared(s, key=...)" in code.replace("st.shared(s, key=...)", "st.shared(s, key=...)")
    assert code.count("# synthia:") == 1


# -- state machines ---------------------------------------------------------------------------------


MACHINE = '''\
from hypothesis import note, settings, strategies as st
from hypothesis.stateful import (
    Bundle,
    RuleBasedStateMachine,
    consumes,
    initialize,
    invariant,
    multiple,
    precondition,
    rule,
)


class KeyValue(RuleBasedStateMachine):
    """A store against a dict."""

    keys = Bundle("keys")

    def __init__(self):
        super().__init__()
        self.store = {}

    @initialize(target=keys, k=st.text(max_size=3))
    def first(self, k):
        return k

    @rule(target=keys, k=st.text(max_size=3))
    def new_key(self, k):
        return multiple(k, k + "!")

    @rule(k=keys, v=st.integers())
    def put(self, k, v):
        self.store[k] = v

    @precondition(lambda self: self.store)
    @rule(k=consumes(keys), data=st.data())
    def delete(self, k, data):
        key = data.draw(st.sampled_from(sorted(self.store)))
        note(key)
        del self.store[key]

    @precondition(lambda self: len(self.store) < 50)
    @invariant()
    def bounded(self):
        assert len(self.store) < 50

    def teardown(self):
        self.store.clear()


TestKeyValue = KeyValue.TestCase
TestKeyValue.settings = settings(max_examples=30, stateful_step_count=8, deadline=None)
'''


def test_a_state_machine_becomes_a_monkey_class() -> None:
    code = migrate(MACHINE)
    assert code.startswith("import synthia as sy\n\n\n@sy.monkey(max_examples=30, max_steps=8)\nclass KeyValue:\n")
    for line in ('    keys = sy.Bundle("keys")', "    def __init__(self):\n        self.store = {}",
                 "    @sy.initialize(target=keys, k=sy.RandomText(sy.RandomInteger(0, 4), nasty=0))",
                 "    @sy.action(target=keys, k=sy.RandomText(sy.RandomInteger(0, 4), nasty=0))", '        return sy.multiple(k, k + "!")',
                 "    @sy.action(k=keys, v=sy.AnyInteger())", "    @sy.precondition(lambda self: self.store)\n    @sy.action(k=sy.consumes(keys))\n    def delete(self, k):",
                 "        key = sy.draw(sy.Choice(*sorted(self.store)))", "        sy.note(key)",
                 "    @sy.precondition(lambda self: len(self.store) < 50)\n    @sy.invariant()", "    def teardown(self):",
                 "TestKeyValue = KeyValue\n"):
        assert line in code, line
    assert "TestKeyValue.settings" not in code and "super()" not in code and "hypothesis" not in code


def test_machine_settings_given_as_a_class_decorator_and_run_as_a_test() -> None:
    code = migrate("""\
        from hypothesis import settings
        from hypothesis.stateful import RuleBasedStateMachine, rule, run_state_machine_as_test

        @settings(max_examples=5)
        class Counter(RuleBasedStateMachine):
            def __init__(self):
                super().__init__()

            @rule()
            def step(self):
                pass

        def test_counter():
            run_state_machine_as_test(Counter, settings=settings(stateful_step_count=4))
        """)
    assert "@sy.monkey(max_examples=5, max_steps=4)\nclass Counter:\n\n    @sy.action()" in code  # an empty __init__ goes
    assert "def test_counter():\n    Counter().test_monkey()" in code
    run(code)["test_counter"]()


def test_a_machine_subclassing_a_machine_and_several_targets_are_marked() -> None:
    migrate("""\
        from hypothesis.stateful import Bundle, RuleBasedStateMachine, rule

        class Base(RuleBasedStateMachine):
            a = Bundle("a")
            b = Bundle("b")

            @rule(targets=(a, b))
            def make(self):
                return 1

        class Derived(Base):
            pass
        """, marks=2)


def test_a_plain_machine_translation_runs_today() -> None:
    """With no bundle, the translated machine runs on the Monkey of this branch."""
    code = migrate("""\
        from hypothesis import strategies as st
        from hypothesis.stateful import RuleBasedStateMachine, invariant, rule

        class Stack(RuleBasedStateMachine):
            def __init__(self):
                super().__init__()
                self.items = []

            @rule(x=st.integers(0, 9))
            def push(self, x):
                self.items.append(x)

            @rule()
            def pop(self):
                if self.items:
                    self.items.pop()

            @invariant()
            def small(self):
                assert len(self.items) <= 50

        TestStack = Stack.TestCase
        """)
    run(code)["TestStack"]().test_monkey()


# -- files and the command line ---------------------------------------------------------------------


def _write(folder: pathlib.Path) -> None:
    (folder / "pkg").mkdir()
    (folder / "pkg" / "strategies.py").write_text("from hypothesis import strategies as st\n\nsmall = st.integers(0, 9)\n")
    (folder / "pkg" / "test_one.py").write_text(
        "from hypothesis import given\nfrom pkg.strategies import small\n\n@given(small.map(str))\ndef test_digit(s):\n    assert s.isdigit()\n")
    (folder / "pkg" / "test_two.py").write_text(
        "from hypothesis import given, strategies as st\n\n@given(st.shared(st.integers(), key='k'))\ndef test_shared(n):\n    pass\n")
    (folder / "pkg" / "plain.py").write_text("print('no hypothesis here')\n")


def _cli(*args: str, cwd: pathlib.Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "synthia", "migrate", *args], cwd=cwd, capture_output=True, text=True,
                          env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})


def test_the_command_rewrites_a_directory_and_prints_a_summary(tmp_path: pathlib.Path) -> None:
    _write(tmp_path)
    done = _cli("pkg", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "3 files changed (of 3 using Hypothesis or synthia), 5 translations, 0 strategies kept through sy.from_strategy, 1 place marked '# synthia:' for a hand edit"
    assert lines[1] == "  pkg/test_two.py:4: st.shared(s, key=...): build the picker once and give it to every consumer through sy.Share(p) / .another(), or draw the dependent values with sy.Bind"
    assert "@sy.given(s=sy.Apply(str, small))" in (tmp_path / "pkg" / "test_one.py").read_text()  # a name from another file
    assert (tmp_path / "pkg" / "plain.py").read_text() == "print('no hypothesis here')\n"
    again = _cli("pkg", cwd=tmp_path)
    assert again.stdout.startswith("0 files changed (of 3 using Hypothesis or synthia), 0 translations")


def test_diff_and_check_write_nothing(tmp_path: pathlib.Path) -> None:
    _write(tmp_path)
    before = (tmp_path / "pkg" / "strategies.py").read_text()
    diff = _cli("--diff", "pkg", cwd=tmp_path)
    assert diff.returncode == 0 and "-small = st.integers(0, 9)\n+small = sy.RandomInteger(0, 10)\n" in diff.stdout and "would change" in diff.stdout
    check = _cli("--check", "pkg/strategies.py", cwd=tmp_path)
    assert check.returncode == 1 and "1 file would change" in check.stdout
    assert (tmp_path / "pkg" / "strategies.py").read_text() == before
    missing = _cli("nowhere", cwd=tmp_path)
    assert missing.returncode == 2 and "no file or directory 'nowhere'" in missing.stderr


def test_a_file_the_codemod_cannot_read_is_reported_and_the_others_are_translated(tmp_path: pathlib.Path) -> None:
    _write(tmp_path)
    (tmp_path / "pkg" / "test_broken.py").write_text("from hypothesis import given\n\ndef test_(:\n")
    done = _cli("pkg", cwd=tmp_path)
    assert done.returncode == 1
    assert done.stdout.splitlines()[0].endswith(", 1 file not translated")
    assert "pkg/test_broken.py: not translated: libcst cannot parse it" in done.stdout
    assert "sy.RandomInteger(0, 10)" in (tmp_path / "pkg" / "strategies.py").read_text()


def test_migrate_paths_returns_each_files_migration(tmp_path: pathlib.Path) -> None:
    _write(tmp_path)
    results = migrate_paths([tmp_path / "pkg"], write=False)
    assert sorted(r.path.name for r in results) == ["strategies.py", "test_one.py", "test_two.py"]
    assert all(r.changed for r in results) and sum(len(r.marks) for r in results) == 1


def test_import_synthia_does_not_import_libcst() -> None:
    code = "import sys, synthia, synthia.integrations.migrate; print('libcst' in sys.modules)"
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                          env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"}).stdout.strip() == "False"


@pytest.mark.parametrize("path", sorted((ROOT / "tests" / "migration" / "corpus").glob("*.py")) if (ROOT / "tests" / "migration" / "corpus").exists() else [],
                         ids=lambda p: p.name)
def test_the_corpus_translates_the_same_twice(path: pathlib.Path) -> None:
    first = migrate_source(path.read_text())
    assert migrate_source(first.code).code == first.code
