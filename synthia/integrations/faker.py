"""Realistic data from Faker that stays seeded, replayable and shrinkable: :class:`Faker`.

Faker (``pip install 'synthia[faker]'``) takes all its randomness from one
:class:`random.Random` object. :class:`Faker` gives it one whose two primitive calls are
synthia typed draws of the picker's own stream -- ``random()`` is a float draw in
``[0, 1)``, ``getrandbits(k)`` an integer draw in ``[0, 2**k)`` -- so that every other
call Faker makes (``choice``, ``randint``, ``choices``, ``shuffle``...) is built on them.
Consequences:

* each ``sy.Faker`` picker has its own stream: adding a call elsewhere does not shift
  its values (Faker's own shared stream does, joke2k/faker#14), and the same synthia seed
  gives the same values;
* its draws are recorded and replayed like any picker's, so a failing value shrinks
  through the generic shrinker -- towards ``0`` for every draw, that is towards the
  **first entries of Faker's lists** (the first first name, the first street suffix) and
  the low end of its numeric ranges;
* explanations link its values to those draws.

Faker instances are created once per locale and thread, and shared by the pickers of
that thread (they hold no state of their own here: the picker sets its stream on the
random object before each call).
"""
from __future__ import annotations

import difflib
import random as _random
import threading
from typing import Any

from ..core.picker import RandomPicker

__all__ = ["Faker"]


class _DrawRandom(_random.Random):
    """A ``random.Random`` whose primitive calls are typed draws of ``stream`` (set before each use)."""

    def __init__(self) -> None:
        super().__init__(0)
        self.stream: Any = None

    def random(self) -> float:
        return float(self.stream.unit())

    def getrandbits(self, k: int) -> int:
        return int(self.stream.integer(0, 1 << k)) if k > 0 else 0

    def seed(self, *args: Any, **kwargs: Any) -> None:
        # Faker may reseed its random object; the picker's stream is what is seeded.
        if getattr(self, "stream", None) is None:
            super().seed(*args, **kwargs)


_local = threading.local()


def _faker(locale: str | None) -> tuple[Any, _DrawRandom]:
    """This thread's Faker for ``locale`` (threads never share the random object)."""
    cache = getattr(_local, "fakers", None)
    if cache is None:
        cache = _local.fakers = {}
    if locale not in cache:
        cache[locale] = _new_faker(locale)
    return cache[locale]  # type: ignore[no-any-return]


def _new_faker(locale: str | None) -> tuple[Any, _DrawRandom]:
    try:
        import faker
    except ImportError as err:  # pragma: no cover - exercised without the extra
        raise ImportError("sy.Faker needs Faker: pip install 'synthia[faker]'") from err
    from faker.config import AVAILABLE_LOCALES

    # Faker takes an unknown or empty locale silently for its default ('' and 'fr_fr' give
    # English): only the locales it lists are accepted, 'en-US' written as 'en_US'.
    if locale is not None and locale.replace("-", "_") not in AVAILABLE_LOCALES:
        close = difflib.get_close_matches(locale.replace("-", "_"), AVAILABLE_LOCALES, n=3, cutoff=0.6)
        hint = f" (did you mean {' or '.join(map(repr, close))}?)" if close else ""
        raise ValueError(f"locale must be a locale Faker knows, such as 'fr_FR', got {locale!r}{hint}")
    try:
        fake = faker.Faker(locale)
    except AttributeError:
        raise ValueError(f"locale must be a locale Faker knows, such as 'fr_FR', got {locale!r}") from None
    draws = _DrawRandom()
    fake.random = draws  # type: ignore[attr-defined]
    return fake, draws


class Faker(RandomPicker[Any]):
    """The values of Faker's ``method`` (``"name"``, ``"address"``, ``"email"``...) in ``locale``.

    ``kwargs`` are passed to the method on every call (``Faker("date_between",
    start_date="-30y")``). Seeded, resettable, duplicable and shrinkable like every
    picker: all-minimal draws give the first entries of Faker's lists.

    >>> names = Faker("name", locale="fr_FR", seed=1)
    >>> first = names.take(2); names.reset(); names.take(2) == first
    True
    >>> from synthia.core.draws import replay
    >>> replay(Faker("first_name", locale="en_US"), [])[0]   # the simplest first name
    'Aaron'
    >>> Faker("no_such_thing")
    Traceback (most recent call last):
    ...
    ValueError: method must name a Faker provider method, got 'no_such_thing'
    """

    def __init__(self, method: str, *, locale: str | None = None, seed: int | None = None, **kwargs: Any) -> None:
        if not isinstance(method, str):
            raise TypeError(f"method must be the name of a Faker method, got {method!r} ({type(method).__name__})")
        if locale is not None and not isinstance(locale, str):
            raise TypeError(f"locale must be a str such as 'fr_FR', got {locale!r}")
        fake, _ = _faker(locale)
        if method.startswith("_") or not callable(getattr(fake, method, None)):
            raise ValueError(f"method must name a Faker provider method, got {method!r}")
        self.method = method
        self.locale = locale
        self.kwargs = kwargs
        self._init_stream(seed)

    def _pick(self) -> Any:
        fake, draws = _faker(self.locale)
        draws.stream = self._stream
        try:
            return getattr(fake, self.method)(**self.kwargs)
        finally:
            draws.stream = None

    def arguments(self) -> tuple[list[Any], dict[str, Any]]:
        kwargs: dict[str, Any] = {} if self.locale is None else {"locale": self.locale}
        return [self.method], {**kwargs, **self.kwargs}
