"""The options of a run, the same for every harness: :class:`RunOptions`."""
from __future__ import annotations

import dataclasses
from typing import Any, Callable

from ..core.checks import check_float
from .evidence import COVER_CERTAINTY, COVER_TOLERANCE, Evidence
from .progress import check_progress
from .stopping import FixedCount, StoppingRule, stop_rule

__all__ = ["RunOptions", "SHRINK_BUDGET", "OPTIONS_ATTRIBUTE"]

#: Shrinking stops after this many test calls by default: a count, so that the result never
#: depends on the speed of the machine.
SHRINK_BUDGET = 20_000


#: The attribute of a test function that holds the options given with ``@RunOptions(...)``.
OPTIONS_ATTRIBUTE = "synthia_options"


@dataclasses.dataclass
class RunOptions:
    """How a run goes, the same for every harness (see the options table in docs/testing.md).

    ``stop`` decides when discovery has seen enough (``FixedCount(100)`` when not given;
    ``max_examples=n`` is short for ``stop=FixedCount(n)``); ``restarts`` failures more are
    found and shrunk after the first (the smallest is kept); ``shrink_budget`` bounds
    shrinking by test calls (20,000 when not given); ``shrink_time`` and ``time_budget``
    (seconds) are explicit wall-clock limits on shrinking and on the whole run -- a report
    that one of them bound says so, since its result then depends on the machine.
    ``classes`` records each input's class (``None``: when the stopping rule needs it);
    ``observe`` keeps one observation per input (Hypothesis's format);
    ``coverage_certainty`` and ``coverage_tolerance`` tune the check of :func:`~synthia.cover`
    requirements; ``progress`` shows a bar (``None``: after two seconds where a person
    watches); ``timing`` measures the time each picker takes (``None``: when the run failed
    or was slow); ``copy_parts`` tries a few inputs again with a part copied over another of
    the same kind (the 8th, 24th, 40th, then one in 256 up to the 4,096th, then one in
    4,096; a number ``n``: after every ``n``-th input, as :func:`~synthia.find` does with 16); ``name`` names the test in reports; ``database`` saves a failure and
    replays saved ones first when the run is a test (``@given``, ``Monkey.check``);
    ``capture_output`` (on by default) keeps what the test prints to ``sys.stdout`` off the
    screen while the run searches and shrinks, and shows only what the replay of the
    smallest failure printed (``report.output``); ``False`` lets every print through.

    An option left at ``None`` takes its default -- or, in a run as a test, the active
    profile's setting. A ``RunOptions`` is also a decorator: on a ``@given`` test or a
    ``@monkey`` class it gives that test's options, as Hypothesis's ``@settings`` does.

    >>> RunOptions(max_examples=20, restarts=1)
    RunOptions(stop=FixedCount(20), restarts=1)
    >>> RunOptions(shrink_time=0)
    Traceback (most recent call last):
    ...
    ValueError: shrink_time must be a positive number of seconds or None, got 0
    """

    stop: StoppingRule | None = None
    restarts: int | None = None
    shrink_budget: int | None = None
    shrink_time: float | None = None
    time_budget: float | None = None
    classes: bool | None = None
    observe: bool | None = None
    coverage_certainty: float | None = None
    coverage_tolerance: float | None = None
    progress: bool | None = None
    timing: bool | None = None
    copy_parts: bool | int | None = None
    name: str | None = None
    database: bool | None = None
    capture_output: bool | None = None
    max_examples: dataclasses.InitVar[int | None] = None

    def __post_init__(self, max_examples: int | None) -> None:
        self.stop = stop_rule(self.stop, max_examples)
        if self.stop is not None and not isinstance(self.stop, StoppingRule):
            raise TypeError(f"stop must be a StoppingRule such as FixedCount(100), got {self.stop!r}")
        self._check_counts()
        self._check_seconds()
        self._check_flags()
        if self.name is not None and not isinstance(self.name, str):
            raise TypeError(f"name must be a string, got {self.name!r}")
        self.progress = check_progress(self.progress)
        if self.coverage_certainty is not None or self.coverage_tolerance is not None:
            Evidence(  # checks both, naming them
                certainty=COVER_CERTAINTY if self.coverage_certainty is None else self.coverage_certainty,
                tolerance=COVER_TOLERANCE if self.coverage_tolerance is None else self.coverage_tolerance,
            )

    def _check_counts(self) -> None:
        """``restarts`` and ``shrink_budget``: non-negative ints or ``None``."""
        for name in ("restarts", "shrink_budget"):
            value = getattr(self, name)
            if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 0):
                raise ValueError(f"{name} must be a non-negative int, got {value!r}")

    def _check_seconds(self) -> None:
        """``shrink_time`` and ``time_budget``: positive numbers of seconds (made floats) or ``None``."""
        for name in ("shrink_time", "time_budget"):
            value = getattr(self, name)
            if value is not None:
                if isinstance(value, bool) or not isinstance(value, (int, float)) or not value > 0:
                    raise ValueError(f"{name} must be a positive number of seconds or None, got {value!r}")
                setattr(self, name, check_float(value, name, finite=False))  # 10**400: a ValueError naming it

    def _check_flags(self) -> None:
        """The switches: ``True``, ``False`` or ``None``."""
        for name in ("classes", "timing", "observe", "copy_parts", "database", "capture_output"):
            value = getattr(self, name)
            if name == "copy_parts" and type(value) is int:
                if value < 1:
                    raise ValueError(f"copy_parts must be True, False, None or a number of inputs >= 1, got {value!r}")
                continue
            if value is not None and not isinstance(value, bool):
                raise TypeError(f"{name} must be True, False or None, got {value!r}")

    def __repr__(self) -> str:
        given = ", ".join(f"{f.name}={getattr(self, f.name)!r}" for f in dataclasses.fields(self) if getattr(self, f.name) is not None)
        return f"RunOptions({given})"

    def __call__(self, test: Callable[..., Any]) -> Callable[..., Any]:
        """Give these options to the ``@given`` test (or ``@monkey`` class) ``test``."""
        if not callable(test):
            raise TypeError(f"RunOptions(...) decorates a test function or class, got {test!r}")
        given = getattr(test, OPTIONS_ATTRIBUTE, None)
        setattr(test, OPTIONS_ATTRIBUTE, self if given is None else given.over(self))
        return test

    def over(self, base: "RunOptions") -> "RunOptions":
        """These options, with ``base``'s where these leave one at ``None``."""
        values = {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}
        return dataclasses.replace(base, **{k: v for k, v in values.items() if v is not None})

    def resolved(self) -> "RunOptions":
        """These options with every ``None`` replaced by its default."""
        return RunOptions(
            FixedCount(100) if self.stop is None else self.stop,
            0 if self.restarts is None else self.restarts,
            SHRINK_BUDGET if self.shrink_budget is None else self.shrink_budget,
            self.shrink_time, self.time_budget, self.classes, bool(self.observe),
            COVER_CERTAINTY if self.coverage_certainty is None else self.coverage_certainty,
            COVER_TOLERANCE if self.coverage_tolerance is None else self.coverage_tolerance,
            self.progress, self.timing, True if self.copy_parts is None else self.copy_parts, self.name,
            True if self.database is None else self.database,
            True if self.capture_output is None else self.capture_output,
        )

    @classmethod
    def of(cls, options: "RunOptions | StoppingRule | None") -> "RunOptions":
        """``options`` as a ``RunOptions``: a stopping rule alone is ``RunOptions(stop=rule)``."""
        if options is None:
            return cls()
        if isinstance(options, StoppingRule):
            return cls(stop=options)
        if not isinstance(options, RunOptions):
            raise TypeError(f"options must be a RunOptions or a StoppingRule such as FixedCount(100), got {options!r}")
        return options

    def new_evidence(self) -> Evidence:
        """The evidence of a new run: classes recorded when asked, or when the rule needs them."""
        resolved = self.resolved()
        assert resolved.stop is not None
        classes = resolved.stop.needs_classes if self.classes is None else self.classes
        return Evidence(classes, certainty=resolved.coverage_certainty, tolerance=resolved.coverage_tolerance)  # type: ignore[arg-type]
