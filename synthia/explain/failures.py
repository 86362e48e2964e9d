"""Explaining a failure found by ``Assert``: the real run that made the smallest failing input,
and which of its random draws matter to the failure.

The smallest failing input is the replay of its recorded draws through the wiring, so it
is explained like any other output: the draws are replayed inside a
:func:`~synthia.recording` block and :func:`~synthia.explain` builds the graph of the
tested pick. Then every picker output in the graph that made draws of its own is
checked: its draws are set to other values of their domains -- the simplest, the ends of
an integer range, and ``redraws`` random ones (seeded from the run's seed) -- the rest of
the draws kept, and the input replayed and tested again. If every variation still fails,
the output is *free* ("any value works here"); if one passes, it *matters*. Hypothesis's
explain phase does this per top-level argument only.
"""
from __future__ import annotations

from typing import Any, Protocol, Sequence

from ..core.draws import BOOLEAN, FLOAT, INTEGER, Draw, Replayer, Tape, routed
from ..core.graph import upstream
from ..core.random import Stream, derive_seed, stream_seed
from .explanation import Explanation, explain
from .recording import recording
from ..core.picker import Picker

__all__ = ["explain_failure", "ReplayableFailure"]


class _Attempt(Protocol):
    status: str


class _Replaying(Protocol):
    def seeded(self, seed: int) -> Picker[Any]: ...

    def attempt(self, draws: Sequence[Draw], picks: int, seed: int) -> _Attempt: ...


class ReplayableFailure(Protocol):
    """What :func:`explain_failure` needs of a failed run (a harness's report is one): the
    seed, the tape of the smallest failing input, and the harness that can build the
    seeded wiring and test a changed tape."""

    passed: bool
    seed: int

    @property
    def tape(self) -> Tape | None: ...

    @property
    def harness(self) -> _Replaying | None: ...


def _variations(tape: Tape, positions: list[int], seed: int, redraws: int) -> list[dict[int, Any]]:
    """Other values for the draws at ``positions``: the simplest, the range ends, random ones."""
    out: list[dict[int, Any]] = []
    simplest = {i: tape.draws[i].simplest for i in positions}
    out.append(simplest)
    for end in (0, 1):
        bounds = {i: tape.draws[i].args[0] if end == 0 else tape.draws[i].args[1] - 1 for i in positions if tape.draws[i].kind == INTEGER}
        if len(bounds) == len(positions):
            out.append(bounds)
    for trial in range(redraws):
        stream = Stream(stream_seed(derive_seed(seed, f"explain/{positions[0]}/{trial}")))
        change: dict[int, Any] = {}
        for i in positions:
            d = tape.draws[i]
            if d.kind == INTEGER:
                change[i] = stream.integer(*d.args)
            elif d.kind == FLOAT:
                change[i] = stream.floating(*d.args)
            elif d.kind == BOOLEAN:
                change[i] = stream.boolean(0.5) if 0.0 < d.args[0] < 1.0 else d.value
            else:
                change[i] = stream.weighted(d.args[0])
        out.append(change)
    current = {i: tape.draws[i].value for i in positions}
    return [v for v in out if v != current] or out


def explain_failure(report: ReplayableFailure, redraws: int = 5) -> Explanation:
    """The explanation graph of ``report``'s smallest failing input, free draws marked.

    The root is the dict of arguments the test received (each argument a ``Key`` of it);
    every value node whose picker made draws of its own gets ``free``: ``True`` when no
    other value of those draws makes the test pass, ``False`` when one does, ``None``
    when no variation could be replayed. Nodes without draws of their own (constants,
    composites) carry no ``free`` attribute.
    """
    if report.passed or report.tape is None or report.harness is None:
        raise ValueError("only a failed report has a failing input to explain")
    harness = report.harness
    tape = report.tape
    wiring = harness.seeded(report.seed)
    labels = {id(node): label for label, (_, node) in enumerate(upstream(wiring))}
    replayer = Replayer(tape.draws)
    with recording(wiring):
        with routed(wiring, replayer):
            for _ in range(tape.picks):
                replayer.begin_pick()
                wiring.pick()
    replayed = replayer.tape
    explanation = explain(wiring, tape.picks - 1)
    spans = {(s.label, s.index): position for position, s in enumerate(replayed.spans)}
    graph = explanation.graph
    for node, data in graph.nodes(data=True):
        if data["kind"] != "value" or data["index"] is None or data.get("part") is not None:
            continue
        position = spans.get((labels.get(id(data["picker"]), -1), data["index"]))
        if position is None:
            continue
        own = replayed.direct_draws(position)
        if not own:
            continue
        data["draws"] = [replayed.draws[i] for i in own]
        verdicts = []
        for change in _variations(replayed, own, report.seed, redraws):
            entries = [d._replace(value=change[i]) if i in change else d for i, d in enumerate(replayed.draws)]
            attempt = harness.attempt(entries, replayed.picks, report.seed)
            if attempt.status != "invalid":
                verdicts.append(attempt.status == "fail")
        data["free"] = all(verdicts) if verdicts else None
    return explanation
