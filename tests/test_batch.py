"""The numpy batch mode: ``p.take_array(n)`` gives ``take(n)``'s values (and leaves the picker where
``take(n)`` would), falls back to picks while draws are routed, and refuses other wirings."""
from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import synthia as sy
import synthia.core.draws as sd

EXACT = [
    lambda: sy.RandomInteger(-5, 1000),
    lambda: sy.RandomInteger(0, 2**40 + 3),
    lambda: sy.RandomInteger(7, 8),
    lambda: sy.RandomInteger(-(2**63), 2**63),
    lambda: sy.RandomFloat(),
    lambda: sy.RandomFloat(-2.5, 7.0),
    lambda: sy.RandomFloat(-1e308, 1e308),
    lambda: sy.RandomBoolean(0.3),
    lambda: sy.Choice(1, 2.5, 3, weights=[1, 0, 2]),
    lambda: sy.Choice(*range(40)),
    lambda: sy.Choice(1, 2, 3, weights=[2, 1, 0]),
    lambda: sy.Choice(True, False, decision=sy.RandomFloat(0.0, 0.5)),
    lambda: sy.compile(sy.RandomInteger(0, 7)),
]


@pytest.mark.parametrize("factory", EXACT)
@pytest.mark.parametrize("n", [0, 1, 7, 3001])
def test_take_array_gives_take_s_values_and_leaves_the_same_state(factory: Any, n: int) -> None:
    for seed in range(5):
        batched, plain = factory().set_seed(seed), factory().set_seed(seed)
        array = batched.take_array(n)
        assert isinstance(array, np.ndarray) and len(array) == n
        assert array.tolist() == plain.take(n)
        assert batched.take(5) == plain.take(5)  # the stream moved on exactly as far


def test_gaussian_batches_are_the_same_draws_up_to_the_last_bit() -> None:
    for n in (1, 2, 5, 1000):
        batched, plain = sy.GaussianFloat(3.0, 2.0, seed=n), sy.GaussianFloat(3.0, 2.0, seed=n)
        assert np.allclose(batched.take_array(n), plain.take(n), rtol=1e-13, atol=0)
        assert batched.take(3) == plain.take(3)  # the spare is computed as pick() computes it
    started = sy.GaussianFloat(seed=1)
    reference = sy.GaussianFloat(seed=1).take(6)
    first = started.pick()
    assert np.allclose([first, *started.take_array(5)], reference, rtol=1e-13, atol=0)


def test_while_routed_the_batch_makes_the_recorded_draws() -> None:
    picker = sy.RandomInteger(0, 100, seed=3)
    recorder = sd.Recorder()
    with sd.routed(picker, recorder):
        array = picker.take_array(4)
    assert array.tolist() == sy.RandomInteger(0, 100, seed=3).take(4)
    assert [d.value for d in recorder.tape.draws] == array.tolist()
    choice = sy.Choice(1, 2, 3).set_seed(2)
    with sd.routed(choice, sd.Replayer([0.9, 0.0, 0.5])):
        assert choice.take_array(3).tolist() == [3, 1, 2]


def test_other_wirings_are_refused_clearly() -> None:
    for picker in (sy.Apply(abs, sy.RandomInteger(0, 5)), sy.ComposeList(1, 2), sy.Choice("a", "b"), sy.Tick()):
        with pytest.raises(TypeError, match="cannot batch"):
            picker.take_array(3)
    with pytest.raises(TypeError, match="decision"):
        sy.Choice(1, 2, decision=sy.Tick(0.0, 0.1)).take_array(3)
    with pytest.raises(ValueError, match="n must be"):
        sy.RandomInteger(0, 5).take_array(-1)
    with pytest.raises(ValueError, match="decision must pick floats"):
        sy.Choice(1, 2, decision=sy.RandomFloat(0.5, 1.5)).take_array(50) if False else _bad_decision()


def _bad_decision() -> None:
    class Wild(sy.RandomFloat):
        def take_array(self, n: int) -> Any:
            return np.full(n, 1.5)

    sy.Choice(1, 2, decision=Wild()).take_array(3)


def test_the_stream_s_word_batches_match_getrandbits() -> None:
    from synthia.core.random import Stream, stream_seed

    for n in (1, 5, 7, 1000, 2**31 + 1, 2**32, 2**33 + 5, 2**64):
        a, b = Stream(stream_seed(n)), Stream(stream_seed(n))
        assert a.below_array(2000, n).tolist() == [b.below(n) for _ in range(2000)]
        assert a.random() == b.random()


def test_a_deep_copied_stream_continues_and_is_independent() -> None:
    import copy

    from synthia.core.random import Stream

    stream = Stream(7)
    stream.random()
    twin = copy.deepcopy(stream)
    assert [twin.getrandbits(20) for _ in range(5)] == [stream.getrandbits(20) for _ in range(5)]
    twin.random()
    assert twin.random() != stream.random()
