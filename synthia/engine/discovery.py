"""The inputs of discovery, made from copies of a harness's wiring.

A harness whose inputs are one sequence (``Assert``: ``Description.in_sequence``) gets input
``n`` as the ``n``-th pick of one seeded copy, so stateful pickers go on from one input to the
next; other harnesses (a ``Monkey``'s traces) get each input from a copy reseeded from the
run's seed and the input's number. An input is recorded -- made under a recorder, which keeps
its draws -- when its class is read from its draws, when a part of it will be copied, or when
the wiring learns as the run goes; a failing input that was not recorded is made again under a
recorder from the last checkpoint (a copy of the sequence's state kept every
:data:`CHECKPOINT` inputs), not from the start of the run.
"""
from __future__ import annotations

from contextlib import ExitStack
from typing import Any

from ..core.draws import Recorder, Route, routed
from ..core.picker import Picker
from ..core.random import derive_seed
from .play import DISCOVER, SHOW, Description, Play
from .proposals import Attempt
from .replays import PlayFunction, fresh_copy

__all__ = ["Discovery", "CHECKPOINT"]

#: Inputs between two copies of the sequence's state, from which a failing input is made again.
CHECKPOINT = 1024


class Discovery:
    """Makes and tests the inputs of one run, in order (see the module docstring).

    ``recording``: every input is recorded (its class is read from its draws).
    """

    def __init__(self, play: PlayFunction, description: Description, seed: int, recording: bool) -> None:
        self.play = play
        self.description = description
        self.seed = seed
        self.wiring = fresh_copy(description.wiring, seed)
        self._stack = ExitStack()
        self.records_all = recording or description.records
        #: The route that keeps every input's draws, or ``None``.
        self.route: Route | None = self._stack.enter_context(routed(self.wiring, Recorder())) if self.records_all else None
        self._request = Play(self.wiring, None, 1 if description.in_sequence else description.max_picks, seed, 0, DISCOVER)
        self._checkpoint: tuple[int, Picker[Any] | None] = (0, None)
        #: The request of an input that is the next pick of the sequence, with nothing to
        #: record (``None`` when inputs are not so made): the runner plays it directly.
        self.direct: Play | None = None
        if description.in_sequence and self.route is None:
            self.direct = Play(self.wiring, None, 1, seed, 0, DISCOVER, plain=True)

    def input_seed(self, index: int) -> int:
        """The seed of input ``index`` for a harness whose inputs are not one sequence."""
        return derive_seed(self.seed, f"{self.description.unit[:-1]}/{index}")

    def make(self, index: int, record: bool) -> Attempt:
        """Input ``index`` (the next one) made and tested; with ``record`` (or when every
        input is recorded) the attempt keeps its tape. Raises what the wiring raises."""
        request = self._request
        request.index = index
        wiring = self.wiring
        if self.description.in_sequence:
            if self.route is None and not index % CHECKPOINT and index:
                self._checkpoint = (index, _snapshot(wiring))
        else:
            wiring.set_seed(self.input_seed(index))
        if self.route is not None:
            recorder = self.route.source = Recorder()
            request.source = recorder
            attempt = self.play(request)
            attempt.tape = recorder.tape
            return attempt
        if record:
            recorder = Recorder()
            with routed(wiring, recorder):
                request.source = recorder
                try:
                    attempt = self.play(request)
                finally:
                    request.source = None
            attempt.tape = recorder.tape
            return attempt
        return self.play(request)

    def remake(self, index: int, history: bool) -> Attempt:
        """Input ``index`` (one already made) made again under a recorder and tested, the input
        kept as made: its own draws only, or (``history``, for a sequence) every pick up to it,
        from the start of the run."""
        description = self.description
        picks = 1
        if not description.in_sequence:
            wiring = fresh_copy(description.wiring, self.input_seed(index))
            picks = description.max_picks
        elif history:
            wiring = fresh_copy(description.wiring, self.seed)
            picks = index + 1
        else:
            start, snapshot = self._checkpoint
            copied = _snapshot(snapshot) if start <= index else None
            if copied is None:
                copied, start = fresh_copy(description.wiring, self.seed), 0
            wiring = copied
            _advance(wiring, index - start)
        recorder = Recorder()
        with routed(wiring, recorder):
            attempt = self.play(Play(wiring, recorder, picks, self.seed, index, SHOW))
        attempt.tape = recorder.tape
        return attempt

    def close(self) -> None:
        self._stack.close()


def _snapshot(wiring: Picker[Any] | None) -> Picker[Any] | None:
    """A copy of ``wiring`` with its state (``None`` for a wiring that cannot be copied: its
    inputs are then made again from the start of the run)."""
    if wiring is None:
        return None
    try:
        return wiring.duplicate(with_state=True)
    except Exception:
        return None


def _advance(wiring: Picker[Any], picks: int) -> None:
    """Pick ``picks`` times: the inputs before the one wanted (a discarded one, whose wiring
    raised, is a pick too)."""
    for _ in range(picks):
        try:
            wiring.pick()
        except Exception:  # noqa: S112 - an input the wiring discarded still moved its state
            continue
