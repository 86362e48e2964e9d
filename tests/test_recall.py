"""Atomic picks recalled by replays: a replay session remembers the value of each atomic pick
(a text, bytes, an AnyFloat) made of the given draws, and a later replay of the very same draw
objects logs them and gives the value without the pick. Recalling must change nothing: every
replay below is compared with a plain replay of the same draws on a fresh copy."""
from __future__ import annotations

import random
from typing import Any, Callable

import pytest

import synthia as sy
from synthia.core.draws import Flex, Tape, record, replay
from synthia.engine.session import ReplaySession


def _json() -> sy.Picker[Any]:
    key = sy.RandomText(sy.RandomInteger(0, 4))
    value: sy.Picker[Any] = sy.Deferred(
        lambda: sy.Choice(sy.RandomInteger(0, 10), key, sy.ComposeList(value, sy.RandomInteger(0, 4)), sy.DictPicker(key, value, sy.RandomInteger(0, 4))),
        max_depth=4,
        fallback=0,
    )
    return value


WIRINGS: dict[str, Callable[[], sy.Picker[Any]]] = {
    "dict of texts": lambda: sy.DictPicker(sy.RandomText(sy.RandomInteger(0, 8)), sy.RandomText(sy.RandomInteger(0, 40)), sy.RandomInteger(0, 8)),
    "texts or constants": lambda: sy.ComposeList(sy.Choice(sy.RandomText(sy.RandomInteger(0, 20), nasty=0.5), sy.Choice("a", "b")), sy.RandomInteger(0, 6)),
    "floats": lambda: sy.ComposeList(sy.AnyFloat(), sy.RandomInteger(0, 8)),
    "bytes and strings": lambda: sy.ArrayPicker(sy.RandomBytes(sy.RandomInteger(0, 20)), sy.RandomString(sy.RandomInteger(0, 20), alphabet="abc")),
    "nested JSON": _json,
}


def _mutated(tape: Tape, rnd: random.Random) -> list[Any]:
    """The tape's draws with a shrinker-like change: a run deleted, a value lowered, a span
    given as a Flex block; the draws left alone are the same objects."""
    draws: list[Any] = list(tape.draws)
    if not draws:
        return draws
    move = rnd.randrange(3)
    i = rnd.randrange(len(draws))
    if move == 0:
        del draws[i : i + rnd.randrange(1, 4)]
    elif move == 1 and isinstance(draws[i].value, int) and not isinstance(draws[i].value, bool):
        draws[i] = draws[i]._replace(value=draws[i].value // 2)
    elif tape.spans:
        span = rnd.choice(tape.spans)
        draws[span.start : span.end] = [Flex(span.label, tuple(draws[span.start : span.end][: rnd.randrange(len(span) + 1)]))]
    return draws


def _shape(tape: Tape) -> Any:
    return (
        [(d.kind, d.value, d.args) for d in tape.draws],
        [(s.label, s.start, s.end, s.parent, s.depth, s.index) for s in tape.spans],
        tape.atoms,
        tape.key(),
    )


@pytest.mark.parametrize("name", list(WIRINGS))
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_a_recalled_replay_is_the_replay_it_stands_for(name: str, seed: int) -> None:
    rnd = random.Random(seed)
    wiring = WIRINGS[name]().set_seed(seed)
    tapes = [record(wiring, 1)[1] for _ in range(4)]
    recalled = 0
    with ReplaySession(wiring.duplicate()) as session:
        for _ in range(150):
            base = rnd.choice(tapes)
            entries = _mutated(base, rnd) if rnd.random() < 0.8 else list(base.draws)
            replayer = session.begin(entries)
            try:
                value = session.wiring.pick()
            except sy.GiveUp:
                continue
            made = replayer.tape
            plain_value, plain = replay(wiring.duplicate(), entries)
            assert value == plain_value and _shape(made) == _shape(plain)
            assert replayer.fits == _fits(wiring, entries)
            recalled += replayer.recalled
            tapes.append(made)  # its draws are the objects a later candidate will hold
    assert recalled > 0  # the check above saw recalled picks, not only plain ones


def _fits(wiring: sy.Picker[Any], entries: list[Any]) -> bool:
    with ReplaySession(wiring.duplicate()) as session:
        session.memo = None  # type: ignore[assignment]
        replayer = session.begin(entries)
        session.wiring.pick()
        return replayer.fits


def test_a_pick_that_is_not_a_function_of_its_draws_is_never_recalled() -> None:
    # The text's length comes from a Sequence (state, no draw): recalling would repeat a length.
    text = sy.RandomText(sy.Sequence(2, 3))
    with ReplaySession(text.duplicate()) as session:
        entries = list(record(text.duplicate().set_seed(1), 1)[1].draws)
        lengths = []
        for _ in range(3):
            replayer = session.begin(entries)
            lengths.append(len(session.wiring.pick()))
            assert replayer.recalled == 0
    assert not session.memo and lengths == [2, 2, 2]  # every replay starts the Sequence again
