"""Provenance: recording, explanation graphs, rules, rendering, and explained failures."""
from __future__ import annotations

import pathlib
import shutil
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import synthia as sy
from synthia.explain import NotRecorded, RenderError, rendering
from synthia.explain.recording import log_of

from .contract.registry import Case, all_cases


def figure3(seed: int):  # type: ignore[no-untyped-def]
    increment = sy.RandomInteger(1, 3)
    tick = sy.Tick(0, sy.Freeze(increment))
    playback = sy.Playback([0, 1, -1])
    prism = sy.PrismPicker(tick, playback)
    lists = sy.ComposeList(sy.PickIf(prism, lambda p: p[0] != p[1]), 4).set_seed(seed)
    return lists, tick, playback, prism, increment


def test_figure_3_structure() -> None:
    seed = next(s for s in range(100) if figure3(s)[0].pick()[0][0] == 2)  # a seed where the increment is 1
    lists, tick, playback, prism, increment = figure3(seed)
    with sy.recording(lists):
        first = lists.pick()
    assert first[0] == (2, -1)
    e = sy.explain(lists, 0, sy.NthElement(0))
    g = e.graph
    pick_if = lists.element
    # element 0 of output 0 is output 0 of the PickIf, which is output 2 of the PrismPicker:
    # (0, 0) and (1, 1) were rejected before it.
    assert e.children(e.root) == [e.node(pick_if, 0)]
    assert e.children(e.node(pick_if, 0)) == [e.node(prism, 2)]
    [conjunction] = e.children(e.node(prism, 2))
    assert g.nodes[conjunction]["kind"] == "and"
    assert set(e.children(conjunction)) == {e.node(tick, 2), e.node(playback, 2)}
    # Tick's output 2 goes back through its outputs 1 and 0 and the Freeze's outputs...
    freeze = tick.increment
    [and2] = e.children(e.node(tick, 2))
    assert set(e.children(and2)) == {e.node(tick, 1), e.node(freeze, 1)}
    [and1] = e.children(e.node(tick, 1))
    assert set(e.children(and1)) == {e.node(tick, 0), e.node(freeze, 0)}
    assert e.children(e.node(freeze, 1)) == [e.node(freeze, 0)]
    # ...to one single RandomInteger draw, shared (a DAG).
    assert e.children(e.node(freeze, 0)) == [e.node(increment, 0)]
    draws = [n for n in e.leaves() if g.nodes[n]["picker"] is increment]
    assert len(draws) == 1 and g.nodes[draws[0]]["value"] == 1
    # The Playback's value is element 2 of its list.
    [element] = e.children(e.node(playback, 2))
    assert g.nodes[element]["part"] == sy.NthElement(2) and g.nodes[element]["value"] == -1
    assert len(e.as_dnf()) == 1


def test_explanation_follows_the_values_not_the_wiring() -> None:
    seed = next(s for s in range(100) if figure3(s)[0].pick()[0] == (2, 1))  # increment 2: (2, 1) is accepted first
    lists, tick, playback, prism, increment = figure3(seed)
    with sy.recording(lists):
        assert lists.pick()[0] == (2, 1)
    e = sy.explain(lists, 0, sy.NthElement(0))
    assert e.children(e.node(lists.element, 0)) == [e.node(prism, 1)]


def test_compose_list_offsets_are_cumulative() -> None:
    element = sy.Tick(0, 1)
    lists = sy.ComposeList(element, sy.Playback([2, 3, 1]))
    with sy.recording(lists):
        assert lists.take(3) == [[0, 1], [2, 3, 4], [5]]
    e = sy.explain(lists, 2, sy.NthElement(0))
    assert e.children(e.root) == [e.node(element, 5)]


def test_choice_explains_the_alternative_taken() -> None:
    inner = sy.RandomInteger(0, 100)
    choice = sy.Choice("a", inner).set_seed(3)
    with sy.recording(choice):
        values = choice.take(10)
    i = next(k for k, v in enumerate(values) if v != "a")
    e = sy.explain(choice, i)
    [conjunction] = e.children(e.root)
    pickers = {type(e.graph.nodes[n]["picker"]).__name__ for n in e.children(conjunction)}
    assert pickers == {"RandomFloat", "RandomInteger"}


def test_named_inputs_explain_keys_and_attributes() -> None:
    import dataclasses

    @dataclasses.dataclass
    class User:
        name: str
        age: int

    ages = sy.RandomInteger(18, 99)
    users = sy.Apply(User, name=sy.Choice("ada", "alan"), age=ages).set_seed(1)
    records = sy.Apply(dict, name=sy.Choice("ada", "alan"), age=ages)
    with sy.recording(users):
        user = users.pick()
    e = sy.explain(users, 0, sy.Attribute("age"))
    assert e.children(e.root) == [e.node(ages, 0)] and e.graph.nodes[e.root]["value"] == user.age
    with sy.recording(records):
        record = records.pick()
    e = sy.explain(records, 0, sy.Key("age"))
    assert e.children(e.root) == [e.node(ages, 0)] and e.graph.nodes[e.node(ages, 0)]["value"] == record["age"]


def test_shared_pickers_are_numbered_once() -> None:
    shared = sy.Tick(0, 1)
    pair = sy.Apply(lambda a, b: (a, b), shared, shared)
    with sy.recording(pair):
        assert pair.take(2) == [(0, 1), (2, 3)]
    e = sy.explain(pair, 1)
    indices = sorted(e.graph.nodes[n]["index"] for n in e.graph if e.graph.nodes[n].get("picker") is shared)
    assert indices == [0, 1, 2, 3]  # output 3 of the Tick needs 2, 1, 0


def test_reset_restarts_the_numbering() -> None:
    clock = sy.Tick(0, sy.RandomInteger(1, 5)).set_seed(2)
    with sy.recording(clock):
        clock.take(5)
        clock.reset()
        clock.take(2)
    assert len(log_of(clock)) == 2
    with pytest.raises(NotRecorded):
        sy.explain(clock, 3)


def test_sets_explain_a_member_with_or() -> None:
    digits = sy.RandomInteger(0, 3)
    sets = sy.SetPicker(digits, 3).set_seed(1)
    with sy.recording(sets):
        value = sets.pick()
    member = min(value)
    e = sy.explain(sets, 0, sy.Member(member))
    sources = [n for n in e.graph if e.graph.nodes[n].get("picker") is digits]
    assert sources and all(e.graph.nodes[n]["value"] == member for n in sources)
    if len(sources) > 1:
        assert any(d["kind"] == "or" for _, d in e.graph.nodes(data=True))
        assert len(e.as_dnf()) == len(sources)


def test_user_pickers_without_rules_are_opaque() -> None:
    class Dice(sy.Picker[int]):
        def pick(self) -> int:
            return 4

    wiring = sy.ComposeList(Dice(), 2)
    with sy.recording(wiring):
        wiring.pick()
    e = sy.explain(wiring, 0, sy.NthElement(1))
    assert e.graph.nodes[e.children(e.root)[0]]["leaf"] == "opaque"
    assert "opaque" in e.describe()


def test_recording_is_opt_in_and_leaves_nothing_on_copies() -> None:
    clock = sy.Tick(0, 1)
    with sy.recording(clock):
        clock.take(2)
    assert "pick" not in clock.__dict__ and "_reset_self" not in clock.__dict__
    twin = clock.duplicate()
    assert "_provenance_log" not in twin.__dict__


def test_simplified_keeps_boolean_nodes_and_leaves() -> None:
    lists, *_ = figure3(1)
    with sy.recording(lists):
        lists.pick()
    e = sy.explain(lists, 0)
    s = e.simplified()
    kinds = {d["kind"] for _, d in s.graph.nodes(data=True)}
    assert set(s.leaves()) == set(e.leaves()) and kinds <= {"value", "and", "or"}
    assert s.graph.number_of_nodes() < e.graph.number_of_nodes()


def test_to_dot_is_valid_and_renders_when_dot_is_present(tmp_path) -> None:  # type: ignore[no-untyped-def]
    lists, *_ = figure3(1)
    with sy.recording(lists):
        lists.pick()
    e = sy.explain(lists, 0, sy.NthElement(0))
    dot = e.to_dot()
    assert dot.startswith("digraph") and "∧" in dot and dot.count("->") == e.graph.number_of_edges()
    import graphviz

    graphviz.Source(dot)  # parses as a graphviz object
    if shutil.which("dot") is None:
        with pytest.raises(RenderError, match="apt-get install graphviz"):
            e.render(tmp_path / "figure3.svg")
        assert not (tmp_path / "figure3.svg").exists() and not (tmp_path / "figure3.dot").exists()
    else:
        path = e.render(tmp_path / "figure3.svg")
        assert path.read_text().lstrip().startswith(("<?xml", "<svg"))
        diagram = sy.wiring_diagram(lists).render(tmp_path / "wiring.svg")
        assert "<svg" in diagram.read_text()


def test_wiring_diagram_draws_shared_pickers_once() -> None:
    x = sy.RandomInteger(0, 5)
    wiring = sy.Apply(lambda a, b: (a, b), sy.Apply(abs, x), sy.Apply(abs, x))
    d = sy.wiring_diagram(wiring)
    assert d.graph.number_of_nodes() == 4 and d.graph.number_of_edges() == 4
    assert d.to_dot().count("RandomInteger") == 1


def test_a_failure_is_explained_with_its_free_draws() -> None:
    pairs = sy.ArrayPicker(sy.RandomInteger(0, 1000), sy.RandomInteger(0, 1000))
    report = sy.Assert(lambda p: p[0] < 500, p=pairs).run(seed=1)
    assert report.smallest == {"p": (500, 0)}
    e = report.explain()
    draws = {e.graph.nodes[n]["value"]: e.graph.nodes[n]["free"] for n in e.leaves() if "free" in e.graph.nodes[n]}
    assert draws[500] is False  # the first coordinate matters
    assert draws[0] is True  # any second coordinate fails too
    assert "[free: any value works]" in e.describe()


def test_a_shrunk_list_failure_is_explained() -> None:
    lists = sy.ComposeList(sy.RandomInteger(0, 100), sy.RandomInteger(0, 50))
    report = sy.Assert(lambda l: sum(l) < 100, l=lists).run(seed=3)
    e = report.explain()
    root_arg = e.children(e.root)[0]
    assert e.graph.nodes[root_arg]["value"] == report.smallest["l"]  # type: ignore[index]
    smallest = report.smallest["l"]  # type: ignore[index]
    assert smallest == [1, 99]  # the shortest list whose sum reaches 100, first element lowest
    leaves = [e.graph.nodes[n] for n in e.leaves()]
    # The replayed run: the length draw, then the element draws, each a real output.
    assert [d["value"] for d in leaves] == [len(smallest), *smallest]
    assert all(d["free"] is False for d in leaves)  # the length and every element count towards the sum


CASES = [c for c in all_cases() if not c.bounded or c.name != "Nothing"]


def _recursive(picker: sy.Picker[Any]) -> bool:
    """Whether ``picker`` is upstream of itself (a Deferred, or a record of a recursive type)."""
    from synthia.core.graph import upstream

    return any(any(p is picker for p in node.inputs) for _, node in upstream(picker))


def _same_value(a: Any, b: Any) -> bool:
    """Equal, or both NaN (a float picker with ``nan=True`` makes values unequal to themselves)."""
    return bool(a == b) or (isinstance(a, float) and isinstance(b, float) and a != a and b != b)


@pytest.mark.parametrize("case", CASES, ids=repr)
@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), which=st.integers(0, 7))
def test_every_leaf_is_a_value_really_produced(case: Case, seed: int, which: int) -> None:
    picker = case.factory().set_seed(seed)
    with sy.recording(picker):
        values = picker.take(8)
    if not values:
        return
    index = which % len(values)
    e = sy.explain(picker, index)
    # Outputs are numbered in the order they were produced: a recursive picker's inner outputs
    # come before the outer one, so the log (not the list the user got) is the reference.
    same = case.compare or (lambda a, b: a == b)  # arrays compare with the case's own compare
    assert same(e.graph.nodes[e.root]["value"], log_of(picker)[index].value)
    if not _recursive(picker):
        assert same(log_of(picker)[index].value, values[index])
    for node in e.leaves():
        data = e.graph.nodes[node]
        if data["kind"] != "value" or data.get("leaf") == "opaque":
            continue
        source = data["picker"]
        if data.get("leaf") == "alternative":  # a value a choice among values holds, as its decision chose it
            chosen = source.values[data["alternative"]]
            assert _same_value(data["part"].get(chosen) if data["part"] is not None else chosen, data["value"])
        elif data["index"] is None:
            assert source.values[data["part"].i] == data["value"]
        elif not source.inputs and case.covers is not sy.GuidedPicker:  # a learner decided those draws
            replay = source.duplicate().take(data["index"] + 1)
            alike = case.compare if source is picker and case.compare is not None else _same_value  # (a Random: by its stream)
            assert alike(replay[-1], data["value"]), f"{source!r} did not produce {data['value']!r} at {data['index']}"


# -- render: the suffix chooses the format (issue 31) ---------------------------------------------
def _explanation() -> sy.Explanation:
    lists, *_ = figure3(1)
    with sy.recording(lists):
        lists.pick()
    return sy.explain(lists, 0, sy.NthElement(0))


@pytest.mark.parametrize("suffix", [".dot", ".gv", ".DOT"])
def test_render_to_a_dot_path_writes_the_dot_source_without_graphviz(tmp_path: pathlib.Path, suffix: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(rendering.shutil, "which", lambda name: None)  # no `dot` program needed
    e = _explanation()
    path = e.render(tmp_path / f"graph{suffix}")
    assert path == tmp_path / f"graph{suffix}" and path.read_text(encoding="utf-8") == e.to_dot()
    assert sorted(p.name for p in tmp_path.iterdir()) == [f"graph{suffix}"]


def test_render_never_overwrites_a_dot_file_beside_the_picture(tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch) -> None:
    mine = tmp_path / "graph.dot"
    mine.write_text("digraph mine { a -> b }")
    e = _explanation()
    monkeypatch.setattr(rendering.shutil, "which", lambda name: None)
    with pytest.raises(RenderError, match=r"rendering graph.png needs Graphviz's `dot` program: .*render to graph.dot instead, or call to_dot\(\)"):
        e.render(tmp_path / "graph.png")
    assert mine.read_text() == "digraph mine { a -> b }"  # the user's DOT file is untouched
    assert not (tmp_path / "graph.png").exists()  # and no picture was half-written


def test_render_refuses_a_suffix_that_chooses_no_format(tmp_path: pathlib.Path) -> None:
    e = _explanation()
    for name in ("graph.txt", "graph", "graph.sv"):
        with pytest.raises(ValueError, match=rf"path must end with a suffix that chooses the format .*got '{name}'"):
            e.render(tmp_path / name)
    with pytest.raises(ValueError, match="format='svg' disagrees with the suffix of 'graph.png', which chooses 'png'"):
        e.render(tmp_path / "graph.png", format="svg")
    with pytest.raises(TypeError, match="path must be a file path"):
        e.render(3)  # type: ignore[arg-type]
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("suffix, magic", [(".png", b"\x89PNG"), (".pdf", b"%PDF"), (".svg", b"<?xml"), (".gif", b"GIF8")])
def test_render_draws_the_format_the_suffix_chooses(tmp_path: pathlib.Path, suffix: str, magic: bytes) -> None:
    e = _explanation()
    if shutil.which("dot") is None:  # this machine cannot draw: a clear error, nothing written
        with pytest.raises(RenderError, match="apt-get install graphviz"):
            e.render(tmp_path / f"graph{suffix}")
        assert list(tmp_path.iterdir()) == []
        return
    path = e.render(tmp_path / f"graph{suffix}")
    assert path.read_bytes().startswith(magic)
    assert sorted(p.name for p in tmp_path.iterdir()) == [f"graph{suffix}"]  # no DOT file beside it
    diagram = sy.wiring_diagram(figure3(1)[0]).render(tmp_path / f"wiring{suffix}")
    assert diagram.read_bytes().startswith(magic)


def test_render_asks_graphviz_for_the_format_the_suffix_chooses(tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Without depending on the machine's Graphviz: the format handed to it is the suffix's."""
    asked: list[str] = []

    class Source:
        def __init__(self, source: str) -> None:
            self.source = source

        def pipe(self, format: str) -> bytes:
            asked.append(format)
            return f"{format}:{len(self.source)}".encode()

    import graphviz

    monkeypatch.setattr(graphviz, "Source", Source)
    monkeypatch.setattr(rendering.shutil, "which", lambda name: "/usr/bin/dot")
    e = _explanation()
    for name in ("a.png", "b.PDF", "c.svg", "d.jpeg"):
        assert e.render(tmp_path / name).read_bytes().startswith(name.split(".")[1].lower().encode())
    assert asked == ["png", "pdf", "svg", "jpeg"]
