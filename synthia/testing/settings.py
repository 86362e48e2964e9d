"""Run-wide settings of test runs: named profiles, and what the pytest plugin read from the
command line.

A :class:`Profile` says how a ``@synthia.given`` test (and ``Monkey.check``, ``@monkey``)
runs when the test does not say it itself: the stopping rule, the shrinking budget, whether
the failure database is used, a fixed seed. Two profiles are built in: ``"default"`` (100
inputs, the database on, a fresh seed per run) and ``"ci"`` (the Bayesian rule after at
least as many inputs as the default -- stop once 100 or more inputs passed and the pass rate
is above 0.95 with probability 0.95 -- no database, seed 0, so a CI run is repeatable, reads
no state from earlier runs, and never tests less than the default).
Register more with :func:`register_profile` (in a ``conftest.py``), choose one with
:func:`load_profile`, ``pytest --synthia-profile=NAME`` or the ini option
``synthia_profile``.

>>> from synthia.testing import settings
>>> settings.register_profile("thorough", max_examples=2000, parent="default")
>>> settings.get_profile("thorough").stop
FixedCount(2000)
"""
from __future__ import annotations

import dataclasses
import pathlib
from typing import Any

from ..engine.stopping import FixedCount, StoppingRule, stop_rule

__all__ = ["Profile", "register_profile", "load_profile", "get_profile", "active_profile", "profile_names", "stop_rule"]

#: The seed every test uses (``--synthia-seed``); ``None``: the profile's (a fresh one by default).
seed: int | None = None

#: Where failing inputs are saved and replayed first (``--synthia-dir``); ``None`` disables it.
database: pathlib.Path | None = pathlib.Path(".synthia")

#: Where observations are written (``--synthia-observe``): a JSON-lines file, or ``None``.
observations: pathlib.Path | None = None

#: Whether the plugin prints statistics of every run (``--synthia-statistics``).
statistics: bool = False

#: ``(test id, report)`` of each run, kept for the statistics summary when it is asked for.
reports: list[tuple[str, Any]] = []


@dataclasses.dataclass(frozen=True)
class Profile:
    """How a test runs when it does not say: ``stop`` (the stopping rule; ``max_examples=n``
    is short for ``FixedCount(n)``), ``shrink_budget`` (test calls) and ``shrink_time`` (an explicit wall-clock limit, ``None`` by default), ``restarts``,
    ``database`` (save failing inputs and replay them first), ``seed`` (``None``: a fresh
    seed per run; an int makes every run repeat the same inputs), ``observe`` (keep one
    observation per input, Hypothesis's format) and ``max_steps`` (the most steps of a
    ``Monkey`` trace when the monkey does not say; ``None``: 50, Hypothesis's
    ``stateful_step_count``)."""

    name: str
    stop: StoppingRule
    shrink_budget: int = 20_000
    shrink_time: float | None = None
    restarts: int = 0
    database: bool = True
    seed: int | None = None
    observe: bool = False
    max_steps: int | None = None

    def describe(self) -> str:
        """One line: the profile's name and what it sets."""
        parts = [f"stop={self.stop!r}", f"database={'on' if self.database else 'off'}"]
        if self.seed is not None:
            parts.append(f"seed={self.seed}")
        return f"{self.name} ({', '.join(parts)})"


_FIELDS = {f.name for f in dataclasses.fields(Profile)} - {"name"}


def _profile(name: str, parent: Profile | None, values: dict[str, Any]) -> Profile:
    unknown = sorted(set(values) - _FIELDS - {"max_examples"})
    if unknown:
        raise TypeError(f"a profile has no setting {unknown[0]!r} (settings: {', '.join(sorted(_FIELDS | {'max_examples'}))})")
    if "max_examples" in values:
        values["stop"] = stop_rule(values.get("stop"), values.pop("max_examples"))
    fields = {} if parent is None else {f: getattr(parent, f) for f in _FIELDS}
    fields.update(values)
    return checked(Profile(name=name, **fields))


def checked(profile: Profile) -> Profile:
    """``profile`` if every setting has a valid type and value; a clear error otherwise."""
    if not isinstance(profile.stop, StoppingRule):
        raise TypeError(f"stop must be a StoppingRule such as FixedCount(100), got {profile.stop!r}")
    for name in ("shrink_budget", "restarts"):
        value = getattr(profile, name)
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise ValueError(f"{name} must be a non-negative int, got {value!r}")
    shrink_time = profile.shrink_time
    if shrink_time is not None and (isinstance(shrink_time, bool) or not isinstance(shrink_time, (int, float)) or not shrink_time > 0):
        raise ValueError(f"shrink_time must be a positive number of seconds or None, got {shrink_time!r}")
    for name in ("database", "observe"):
        if not isinstance(getattr(profile, name), bool):
            raise TypeError(f"{name} must be True or False, got {getattr(profile, name)!r}")
    steps = profile.max_steps
    if steps is not None and (isinstance(steps, bool) or not isinstance(steps, int) or steps < 1):
        raise ValueError(f"max_steps must be a positive int or None, got {steps!r}")
    if profile.seed is not None and (isinstance(profile.seed, bool) or not isinstance(profile.seed, int) or profile.seed < 0):
        raise ValueError(f"seed must be a non-negative int or None, got {profile.seed!r}")
    return profile


def _builtin() -> dict[str, Profile]:
    from .bayesian import Bayesian

    return {
        "default": Profile("default", FixedCount(100)),
        # Never fewer inputs than the default: a CI run must not miss what a local run finds.
        "ci": Profile("ci", Bayesian(min_samples=100), database=False, seed=0),
    }


_profiles: dict[str, Profile] = {}
_active = "default"


def _registry() -> dict[str, Profile]:
    if not _profiles:
        _profiles.update(_builtin())
    return _profiles


def register_profile(name: str, *, parent: str | None = None, **values: Any) -> None:
    """Register (or replace) the profile ``name``: the settings of ``parent`` (built-in
    defaults when ``None``) overridden by ``values`` (:class:`Profile`'s fields, or
    ``max_examples=n``)."""
    if not isinstance(name, str) or not name:
        raise TypeError(f"name must be a non-empty string, got {name!r}")
    base = None if parent is None else get_profile(parent, "parent")
    if "max_examples" in values and values["max_examples"] is None:  # None: not given, as in RunOptions
        values = {k: v for k, v in values.items() if k != "max_examples"}
    if base is None:
        values = {"stop": FixedCount(100), **values} if "max_examples" not in values else values
    _registry()[name] = _profile(name, base, dict(values))


def get_profile(name: str, argument: str = "name") -> Profile:
    """The profile registered as ``name`` (``argument``: what the caller calls ``name``, for
    the message)."""
    registry = _registry()
    if not isinstance(name, str):
        raise TypeError(f"{argument} must be the name of a profile (a str such as 'ci'), got {name!r} ({type(name).__name__})")
    if name not in registry:
        raise ValueError(
            f"{argument} must name a registered profile, got {name!r}: no synthia profile named {name!r}"
            f" (registered: {', '.join(sorted(registry))}); register it with synthia.register_profile"
        )
    return registry[name]


def load_profile(name: str) -> None:
    """Make ``name`` the profile of the tests that run from now on."""
    global _active
    get_profile(name)
    _active = name


def active_profile() -> Profile:
    """The profile in force."""
    return get_profile(_active)


def profile_names() -> list[str]:
    """The names of the registered profiles, sorted."""
    return sorted(_registry())
