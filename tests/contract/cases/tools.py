"""Constructor fuzz signatures of the public constructors around pickers: explanations and
designators, character sets, mutations, guides, the Hypothesis bridge, tables, Dask, plots.

(They have no ``CASES``: the picker contract does not apply to them.)
"""
from __future__ import annotations

import atexit
import functools
import os
import tempfile
from typing import Any, Callable

import networkx as nx
from hypothesis import strategies as st

import synthia as sy
from synthia.explain import NotRecorded

from ..registry import Signature


def _recorded() -> sy.Picker[Any]:
    """A list picker whose first three values are recorded (what ``explain`` needs)."""
    lists = sy.ComposeList(sy.RandomInteger(0, 9), 3)
    with sy.recording(lists):
        lists.take(3)
    return lists


def _enter(context: Any) -> None:
    with context:
        pass


def _in_a_temporary_directory(thunk: Callable[[], Any]) -> Any:
    """Make the call in a fresh working directory (a bad path must not litter the project)."""
    before = os.getcwd()
    with tempfile.TemporaryDirectory(prefix="synthia-fuzz-") as place:
        os.chdir(place)
        try:
            return thunk()
        finally:
            os.chdir(before)


def _compute(collection: Any) -> Any:
    return collection.compute(scheduler="sync")


def _close_figure(ax: Any) -> None:
    import matplotlib.pyplot as plt

    plt.close(ax.figure)


@functools.cache
def _client() -> Any:
    """One in-process Dask client for every ``run_campaign`` variant, closed at exit."""
    import distributed

    client = distributed.Client(processes=False, n_workers=1, threads_per_worker=1, dashboard_address=None)
    atexit.register(client.close)
    return client


def _without_a_display(thunk: Callable[[], Any]) -> Any:
    import matplotlib

    matplotlib.use("Agg")
    return thunk()


SIGNATURES = [
    Signature(sy.explain, lambda C: C(_recorded(), 1, sy.NthElement(0)), endings=(NotRecorded,)),
    Signature(sy.recording, lambda C: C(sy.RandomInteger(0, 9), sy.RandomFloat(), reset=True), use=_enter),
    Signature(sy.wiring_diagram, lambda C: C(sy.ComposeList(sy.RandomInteger(0, 9), 3))),
    Signature(sy.graph_to_dot, lambda C: C(nx.path_graph(3), "G")),
    Signature(sy.NthOutput, lambda C: C(1)),
    Signature(sy.NthElement, lambda C: C(0)),
    Signature(sy.Key, lambda C: C("name")),
    Signature(sy.Attribute, lambda C: C("x")),
    Signature(sy.Character, lambda C: C(0)),
    Signature(sy.Member, lambda C: C(1)),
    Signature(sy.CharacterSet, lambda C: C(["Lu", "Nd"], [(0x41, 0x5A)], exclude_categories=["Zs"], exclude="Q")),
    Signature(sy.apply_mutation, lambda C: C(sy.Offset(1), 5)),
    Signature(sy.Guide, lambda C: C(0.25, 1)),
    Signature(sy.to_strategy, lambda C: C(sy.RandomInteger(0, 9))),
    Signature(sy.from_strategy, lambda C: C(st.integers(0, 9), max_tries=10, seed=1)),
    Signature(sy.to_dataframe, lambda C: C(sy.RandomInteger(0, 9), 5, chunk_size=2, progress=False)),
    # A path in a directory that does not exist: the OSError naming it is the answer.
    Signature(sy.to_csv, lambda C: C(sy.RandomInteger(0, 9), 5, "out.csv", chunk_size=2, progress=False), around=_in_a_temporary_directory, endings=(OSError,)),
    Signature(sy.to_parquet, lambda C: C(sy.RandomInteger(0, 9), 5, "out.parquet", chunk_size=2, progress=False), around=_in_a_temporary_directory, endings=(OSError,)),
    Signature(sy.to_dask_bag, lambda C: C(sy.RandomInteger(0, 9), 10, seed=1, block_size=4, npartitions=2), use=_compute),
    Signature(sy.to_dask_dataframe, lambda C: C(sy.RandomInteger(0, 9), 10, seed=1, block_size=4, npartitions=2), use=_compute),
    Signature(
        sy.run_campaign,
        lambda C: C(sy.Assert(lambda x: x < 100, sy.FixedCount(4), x=sy.RandomInteger(0, 9)), _client(), seed=1, tasks=2, retries=0, worker_timeout=5.0),
    ),
    Signature(sy.plot, lambda C: C(sy.RandomInteger(0, 9), 20, of=None, ax=None, bins=5, title="t"), around=_without_a_display, use=_close_figure),
]
