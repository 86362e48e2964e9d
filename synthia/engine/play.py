"""The one seam between the runner and a harness: a :class:`Play` in, an
:class:`~synthia.engine.proposals.Attempt` out, and the harness's :class:`Description`.

A harness (:class:`~synthia.Assert`, :class:`~synthia.Monkey`) gives the runner one function,
``play(play: Play) -> Attempt``, in the spirit of Hypothesis's ``test_function``: it makes one
input from ``play.wiring`` -- a copy of the harness's wiring that the runner made, seeded and
put on a source of draws -- tests it, and says what happened (pass, fail with its origin,
discard, invalid). The runner owns everything else: the copies of the wiring, the sources
(seeded streams, a recorder, a replayer), discovery, shrinking, confirmation and the report.
The :class:`Description` says what the runner needs to know of the harness: its name, what
one input is called, its wiring, and how its inputs relate to the wiring's picks.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..core.draws import DrawSource
from ..core.picker import Picker

__all__ = ["Play", "Description", "DISCOVER", "REPLAY", "SHOW"]

#: The phases a :class:`Play` comes from. In discovery a harness counts what it sees (actions
#: tried, trace lengths) and learning pickers learn; a replay is a shrink candidate or a saved
#: failure; a *shown* replay makes the input a report shows (the harness keeps the input as it
#: was made, before the test could change it).
DISCOVER = "discover"
REPLAY = "replay"
SHOW = "show"


class Play:
    """One input the runner asks of a harness.

    ``wiring`` is a copy of the harness's wiring (the harness never picks from its own);
    ``source`` the recorder or replayer behind it, or ``None`` when it draws from its own
    seeded streams; ``picks`` the most top-level picks the input may take (a replayed tape's;
    for a harness whose inputs are one sequence, the picks before the last set the wiring's
    state and the last is the input); ``seed`` the run's seed and ``index`` the input's number
    in discovery (what draws made inside the test derive from); ``phase`` one of
    :data:`DISCOVER`, :data:`REPLAY`, :data:`SHOW`. The runner may reuse one ``Play`` for many
    inputs: a harness reads it, never keeps it. ``plain``: the runner only counts a passing
    attempt of this play and drops it before the next (discovery's plain path), so a harness
    may return one attempt object, renewed, for every such pass.
    """

    __slots__ = ("wiring", "source", "picks", "seed", "index", "phase", "plain")

    def __init__(
        self, wiring: Picker[Any], source: DrawSource | None, picks: int, seed: int, index: int, phase: str, plain: bool = False
    ) -> None:
        self.wiring = wiring
        self.source = source
        self.picks = picks
        self.seed = seed
        self.index = index
        self.phase = phase
        self.plain = plain

    def begin_pick(self) -> None:
        """Mark the start of a top-level pick (a step of a trace) on the source, if any."""
        if self.source is not None:
            self.source.begin_pick()

    def __repr__(self) -> str:
        return f"Play({self.phase}, index={self.index}, picks={self.picks}, source={type(self.source).__name__})"


@dataclass(frozen=True)
class Description:
    """What the runner knows of a harness besides its ``play`` function.

    ``name`` names the test in reports; ``unit`` is what one input is called ("inputs",
    "traces"); ``wiring`` is the harness's one wiring, which the runner copies and never
    moves. ``in_sequence``: input ``n`` is the ``n``-th pick of one seeded copy of the wiring
    (``Assert``: stateful pickers go on from one input to the next); otherwise each input is
    made from the run's seed and its number alone, on a copy the harness reseeds (a
    ``Monkey``'s traces). ``classifies``: the harness gives each input's class itself
    (``Attempt.klass``), so the runner never records inputs to classify them. ``records``:
    every input of discovery is made under a recorder (its pickers learn as the run goes, so
    it cannot be made again from its number). ``may_copy``: an input can have two parts of
    one kind (copied parts are tried only then). ``max_picks``: the most top-level picks one
    input takes (1 for a harness whose input is one pick).
    """

    name: str
    unit: str
    wiring: Picker[Any]
    in_sequence: bool = True
    classifies: bool = False
    records: bool = False
    may_copy: bool = True
    max_picks: int = 1
