"""Light streams claimed for random pickers not built yet.

A plain ``Bind`` builds its wiring again at every pick, and most pickers it builds are picked
once. A composite built there whose default input is a random picker of its own (a
``Choice``'s decision) may claim the light stream that picker would get (:func:`claim`, the
same place in the order of the pickers built, so every value stays what it was), draw its
first value straight from the claim (:func:`first_unit`), and build the picker only when
something reads it (a second pick, a walk of the wiring, a copy): one object fewer per
picker built, and no call through it for the one pick.

>>> from synthia.core.random import MixStream, derived_seeds
>>> with derived_seeds(7, light=True):
...     slot = claim()
>>> slot, first_unit(*slot) == MixStream(None, *slot).random()
((7, 1), True)
>>> print(claim())  # outside a Bind's pick: nothing to claim
None
"""
from __future__ import annotations

from .random import _GAMMA, _MASK64, DERIVING, ROUTE

__all__ = ["claim", "first_unit"]


def claim() -> tuple[int, int] | None:
    """``(root, index)`` of the light stream (:class:`~synthia.core.random.MixStream`) a random
    picker without a light stream of its own class would get if built now, claimed (the next
    picker built gets the next one); ``None`` outside a light :class:`~synthia.core.random.derived_seeds`
    block (a wiring a ``Bind`` keeps draws from a seeded Mersenne Twister) and while the streams
    made join a route (a recording sees the picker from its first draw)."""
    deriving = DERIVING.get()
    if deriving is None or not deriving.light or ROUTE.get() is not None:
        return None
    count = deriving.count = deriving.count + 1
    return deriving.root, count


def first_unit(root: int, index: int) -> float:
    """The first ``random()`` of ``MixStream(None, root, index)``: a float in ``[0, 1)``, which is
    also the first pick of a ``RandomFloat()`` on that stream (``0.0 + 1.0 * u`` is ``u``)."""
    z = (root + index * _GAMMA) & _MASK64  # the key, mix64(root + index * gamma)
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
    z = ((z ^ (z >> 31)) + _GAMMA) & _MASK64  # the first word, mix64(key + 1 * gamma)
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
    return ((z ^ (z >> 31)) >> 11) * (1.0 / 9007199254740992.0)
