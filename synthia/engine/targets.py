"""Targeted search: discovery steered towards inputs that make :func:`~synthia.target`'s
observations large, by hill climbing over draws (as Hypothesis's ``target`` and Löscher and
Sagonas's targeted property-based testing).

The runner keeps, for each label, the input with the highest observation so far and its
draws. Once a label exists, every other input of discovery is a *climb*: the draws of the
best input of one label (in turn) with one draw moved -- an integer anywhere in its range or
by a step of a random size, a float by a step of a random size (small steps are as likely as
large ones: ``2**k`` for a random ``k``), a boolean flipped, a choice moved -- replayed
through the wiring. A climb is a real
input of the wiring: it is tested and counted like any other, and a better observation makes
it the new best. Everything derives from the run's seed and the input's number.
"""
from __future__ import annotations

import math
import random
from typing import Any, Callable

from ..core.draws import BOOLEAN, FLOAT, INTEGER, WEIGHTED, Tape
from ..core.random import derive_seed
from .proposals import Attempt

__all__ = ["Targets"]


class Targets:
    """The best input of each target label, and the climbs from them."""

    def __init__(self, seed: int) -> None:
        self.seed = seed
        #: Per label: the highest observation, and the draws of the input that gave it (or
        #: a function that records them again: most inputs are not recorded as they are made).
        self.best: dict[str, tuple[float, Tape | Callable[[], Tape | None]]] = {}
        self._turn = 0

    @property
    def active(self) -> bool:
        return bool(self.best)

    def observe(self, attempt: Attempt, remake: Callable[[], Tape | None]) -> None:
        """Keep ``attempt`` as the best of each label it improves."""
        if not attempt.targets:
            return
        for label, value in attempt.targets.items():
            kept = self.best.get(label)
            if kept is None or value > kept[0]:
                self.best[label] = (value, attempt.tape if attempt.tape is not None else remake)

    def highest(self) -> dict[str, float]:
        """The highest observation of each label."""
        return {label: value for label, (value, _) in self.best.items()}

    def climb(self, index: int) -> tuple[int, list[Any]] | None:
        """The draws of a climb for input ``index`` (a best input with one draw moved), as
        ``(picks, draws)``; ``None`` when the best input has no draw to move."""
        labels = sorted(self.best)
        label = labels[self._turn % len(labels)]
        self._turn += 1
        value, kept = self.best[label]
        tape = kept if isinstance(kept, Tape) else kept()
        if tape is None:
            return None
        self.best[label] = (value, tape)
        movable = [k for k, draw in enumerate(tape.draws) if draw.kind in (INTEGER, FLOAT, BOOLEAN, WEIGHTED)]
        if not movable:
            return None
        rng = random.Random(derive_seed(self.seed, f"target/{index}"))
        position = rng.choice(movable)
        draws = list(tape.draws)
        draws[position] = draws[position]._replace(value=_moved(draws[position], rng))
        return tape.picks, draws


def _moved(draw: Any, rng: random.Random) -> Any:
    """``draw``'s value moved: half the time anywhere in its range, else one step of a random
    size up or down (the replayer clamps it into the draw's range)."""
    value = draw.value
    if draw.kind == BOOLEAN:
        return not value
    if draw.kind == INTEGER and rng.random() < 0.5:
        low, high = draw.args
        return rng.randrange(low, high)
    sign = rng.choice((-1, 1))
    if draw.kind == FLOAT:
        if not math.isfinite(value):
            return 0.0
        step = 2.0 ** rng.randint(-20, 20)
        return value + sign * step * max(1.0, abs(value)) * 2.0 ** -rng.randint(0, 20)
    step = 1 << rng.randint(0, max(1, int(value).bit_length() + 2))
    return int(value) + sign * step
