"""Realistic data from Mimesis that stays seeded, replayable and shrinkable: :class:`Mimesis`.

Mimesis (``pip install 'synthia[mimesis]'``) takes all its randomness from a
``mimesis.random.Random`` -- a :class:`random.Random` -- that each provider holds and hands
to the providers it builds. :class:`Mimesis` builds its providers with one whose two
primitive calls are synthia typed draws of the picker's own stream -- ``random()`` a float
draw in ``[0, 1)``, ``getrandbits(k)`` an integer draw in ``[0, 2**k)`` -- so that
everything else Mimesis calls (``choice``, ``randint``, ``choices``, its ``uniform``,
``randints``, masks) is built on them. As with :class:`~synthia.Faker`:

* each ``sy.Mimesis`` picker has its own stream: a column added elsewhere does not shift
  its values, and the same synthia seed gives the same values;
* its draws are recorded and replayed like any picker's, so a failing value shrinks
  through the generic shrinker towards ``0`` for every draw: towards the **first entries
  of the provider's lists** (the first first name of the locale's data) and the low end of
  its numeric ranges;
* explanations link its values to those draws.

What Mimesis does not take from its random object is not seeded: a few methods read the
clock (``Datetime``'s default ranges end at the current year) or ``uuid.uuid4``
(``Person.username(unique=True)``); give them explicit bounds, or avoid them where values
must repeat.

Providers are built once per thread, locale and provider, and shared by the pickers of
that thread (the picker sets its stream on their random object before each call).
"""
from __future__ import annotations

import threading
from typing import Any

from ..core.picker import RandomPicker

__all__ = ["Mimesis"]

_local = threading.local()


def _mimesis() -> Any:
    try:
        import mimesis
    except ImportError as err:  # pragma: no cover - exercised without the extra
        raise ImportError("sy.Mimesis needs Mimesis: pip install 'synthia[mimesis]'") from err
    return mimesis


def _draw_random() -> Any:
    """This thread's random object: a ``mimesis.random.Random`` whose primitives are draws."""
    draws = getattr(_local, "draws", None)
    if draws is None:
        base = _mimesis().random.Random

        class DrawRandom(base):  # type: ignore[misc, valid-type]
            """``random()`` and ``getrandbits()`` are typed draws of ``stream`` (set before each use)."""

            stream: Any = None

            def random(self) -> float:
                return float(self.stream.unit())

            def getrandbits(self, k: int) -> int:
                return int(self.stream.integer(0, 1 << k)) if k > 0 else 0

            def seed(self, *args: Any, **kwargs: Any) -> None:
                # A provider reseeds its random object when built; the picker's stream is what is seeded.
                if getattr(self, "stream", None) is None:
                    super().seed(*args, **kwargs)

        draws = _local.draws = DrawRandom()
    return draws


def _providers() -> dict[str, type]:
    """Mimesis's providers by their name (``"person"``, ``"address"``...), ``Generic`` left out."""
    mimesis = _mimesis()
    bases = mimesis.providers.base
    left_out = (bases.BaseProvider, bases.BaseDataProvider, mimesis.Generic)
    found = {}
    for name in getattr(mimesis, "__all__", dir(mimesis)):
        cls = getattr(mimesis, name, None)
        if isinstance(cls, type) and issubclass(cls, bases.BaseProvider) and cls not in left_out:
            meta = getattr(cls, "Meta", None)
            found[getattr(meta, "name", cls.__name__.lower())] = cls
    return found


def _resolve(method: str) -> tuple[str, str]:
    """``(provider, method)`` for ``"provider.method"`` or a method name only one provider has."""
    providers = _providers()
    provider, dot, name = method.rpartition(".")
    if dot:
        cls = providers.get(provider)
        if cls is None:
            raise ValueError(f"method must name a Mimesis provider, such as 'person.first_name', got {method!r} (providers: {', '.join(sorted(providers))})")
        if name.startswith("_") or not callable(getattr(cls, name, None)):
            raise ValueError(f"method must name a method of Mimesis's {cls.__name__} provider, got {method!r}")
        return provider, name
    owners = sorted(p for p, cls in providers.items() if not method.startswith("_") and callable(getattr(cls, method, None)))
    if not owners:
        raise ValueError(f"method must name a Mimesis provider method, such as 'person.first_name', got {method!r}")
    if len(owners) > 1:
        raise ValueError(f"method {method!r} is a method of several Mimesis providers ({', '.join(owners)}): write 'provider.{method}'")
    return owners[0], method


def _locale(locale: Any) -> Any:
    mimesis = _mimesis()
    if locale is None:
        return mimesis.Locale.DEFAULT
    try:
        return mimesis.locales.validate_locale(locale)
    except Exception:
        raise ValueError(f"locale must be a locale Mimesis knows, such as 'de' or Locale.DE, got {locale!r}") from None


def _provider(provider: str, locale: Any) -> Any:
    """This thread's instance of ``provider`` in ``locale``, drawing from the thread's random object."""
    cache = getattr(_local, "providers", None)
    if cache is None:
        cache = _local.providers = {}
    key = (provider, locale)
    instance = cache.get(key)
    if instance is None:
        mimesis = _mimesis()
        cls = _providers()[provider]
        if issubclass(cls, mimesis.providers.base.BaseDataProvider):
            instance = cls(locale, random=_draw_random())
        else:
            instance = cls(random=_draw_random())
        cache[key] = instance
    return instance


class Mimesis(RandomPicker[Any]):
    """The values of Mimesis's ``method`` -- ``"person.first_name"``, ``"address.city"``, or a
    method name only one provider has (``"email"``) -- in ``locale`` (``"de"``, ``Locale.DE``;
    default Mimesis's ``en``).

    ``kwargs`` are passed to the method on every call (``Mimesis("numeric.integer_number",
    start=1, end=9)``). Seeded, resettable, duplicable and shrinkable like every picker:
    all-minimal draws give the first entries of the provider's data.

    >>> names = Mimesis("person.first_name", locale="de", seed=1)
    >>> first = names.take(3); names.reset(); names.take(3) == first
    True
    >>> from synthia.core.draws import replay
    >>> replay(Mimesis("address.country_code"), [])[0]   # the simplest: the data's first entry
    'AD'
    >>> Mimesis("person.no_such_thing")
    Traceback (most recent call last):
    ...
    ValueError: method must name a method of Mimesis's Person provider, got 'person.no_such_thing'
    """

    def __init__(self, method: str, *, locale: Any = None, seed: int | None = None, **kwargs: Any) -> None:
        if not isinstance(method, str):
            raise TypeError(f"method must be the name of a Mimesis method, such as 'person.first_name', got {method!r} ({type(method).__name__})")
        self.provider, self.method_name = _resolve(method)
        self._locale = _locale(locale)
        self.method = method
        self.locale = locale
        self.kwargs = kwargs
        self._init_stream(seed)

    def pick(self) -> Any:
        instance = _provider(self.provider, self._locale)
        draws = instance.random
        draws.stream = self._stream
        try:
            return getattr(instance, self.method_name)(**self.kwargs)
        finally:
            draws.stream = None

    def arguments(self) -> tuple[list[Any], dict[str, Any]]:
        kwargs: dict[str, Any] = {} if self.locale is None else {"locale": self.locale}
        return [self.method], {**kwargs, **self.kwargs}
