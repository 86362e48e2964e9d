"""Replaying draw sequences through a harness: a shrink candidate, a saved failure, the
smallest failure confirmed on a fresh copy of the wiring.

:class:`Replays` keeps one copy of the harness's wiring on a replayer for the whole run
(:class:`~synthia.engine.session.ReplaySession`: routing a wiring costs a walk over it, so it
is done once), and turns each draw sequence into a :class:`~synthia.engine.play.Play` for the
harness's ``play`` function. What the replay really drew -- after clamping, with the simplest
draws past the end -- becomes the attempt's tape.
"""
from __future__ import annotations

from typing import Any, Callable

from ..core.draws import Tape
from ..core.picker import Picker
from .play import REPLAY, SHOW, Description, Play
from .proposals import DISCARD, INVALID, Attempt
from .report import InvalidTest, RunInterrupted
from .session import ReplaySession

__all__ = ["Replays", "replay_once", "PlayFunction"]

#: A harness's one callback: make one input from ``play.wiring``, test it, say what happened.
PlayFunction = Callable[[Play], Attempt]


class Replays:
    """Draw sequences replayed through one copy of ``description.wiring`` seeded with
    ``seed`` (made when a first replay needs it: most runs pass and never replay)."""

    def __init__(self, play: PlayFunction, description: Description, seed: int) -> None:
        self.play = play
        self.description = description
        self.seed = seed
        self._session: ReplaySession | None = None

    @property
    def session(self) -> ReplaySession:
        if self._session is None:
            self._session = ReplaySession(fresh_copy(self.description.wiring, self.seed))
        return self._session

    def attempt(self, picks: int, entries: list[Any], max_draws: int | None, strict: bool = False) -> Attempt:
        """Replay ``entries`` for at most ``picks`` top-level picks and test the input (the
        shrinker's ``attempt``). With ``strict``, a sequence that does not fit the wiring
        exactly (other kinds, values out of range, draws missing or left over) is invalid;
        so is a discarded input, and one that the wiring could not make."""
        session = self.session
        replayer = session.begin(entries, max_draws)
        return played(self.play, Play(session.wiring, replayer, picks, self.seed, 0, REPLAY), replayer, strict)

    def close(self) -> None:
        """Release the copy's route: a route left open is the current one, and pickers made
        inside later picks (a Monkey's argument pickers, a Bind's) would draw from it."""
        if self._session is not None:
            self._session.close()


def played(play: PlayFunction, request: Play, replayer: Any, strict: bool = False) -> Attempt:
    """``play(request)`` on a replayer: invalid when the wiring could not make the input from
    these draws (it raised, it drew past the budget) or, ``strict``, when they do not fit."""
    if request.picks < 1:
        return Attempt(INVALID, replayer.tape)
    try:
        attempt = play(request)
    except (InvalidTest, RunInterrupted, MemoryError):  # a usage error, a limit, an input too large: not a candidate's fault
        raise
    except Exception:
        return Attempt(INVALID, replayer.tape)
    if replayer.overran or (strict and not replayer.fits) or attempt.status == DISCARD:
        return Attempt(INVALID, replayer.tape)
    attempt.tape = replayer.tape
    return attempt


def fresh_copy(wiring: Picker[Any], seed: int) -> Picker[Any]:
    """A copy of ``wiring`` in its initial state, seeded with ``seed`` (the user's never moves)."""
    return wiring.duplicate().set_seed(seed)


def replay_once(play: PlayFunction, description: Description, seed: int, tape: Tape, *, strict: bool = False) -> Attempt:
    """``tape`` replayed once on a fresh copy of the wiring, the input kept as it was made
    (the :data:`~synthia.engine.play.SHOW` phase): what a report shows and confirms."""
    session = ReplaySession(fresh_copy(description.wiring, seed))
    try:
        replayer = session.begin(list(tape.draws), None)
        return played(play, Play(session.wiring, replayer, tape.picks, seed, 0, SHOW), replayer, strict)
    finally:
        session.close()
