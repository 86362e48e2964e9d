"""Progress bars (tqdm, an optional extra) that show only where a person watches.

A bar is shown when tqdm is installed, standard error is a terminal, and neither pytest
(``PYTEST_CURRENT_TEST``) nor a CI system (``CI``) is running; otherwise every call is a
no-op. ``enabled=True`` or ``False`` overrides the detection.

``Assert`` and ``Monkey`` runs show a bar by themselves once they have run for
:data:`LONG_RUN` seconds (:class:`RunProgress`; their ``progress`` argument overrides the
detection). :class:`Progress` wraps a stopping rule to show a bar from the first input::

    sy.Assert(test, sy.Progress(sy.FixedCount(100_000)), x=...).run()
"""
from __future__ import annotations

import os
import sys
import time
from typing import Any

from .stopping import FixedCount, Outcome, StoppingRule

__all__ = ["progress_bar", "Progress", "RunProgress", "watching", "LONG_RUN", "check_progress", "run_progress"]

#: Seconds after which a harness run shows a progress bar by itself (where a person watches).
LONG_RUN = 2.0


def watching() -> bool:
    """Whether a person is likely watching: a terminal, not pytest, not CI."""
    if os.environ.get("PYTEST_CURRENT_TEST") or os.environ.get("CI"):
        return False
    stream = sys.stderr
    return bool(getattr(stream, "isatty", lambda: False)())


class _Silent:
    def update(self, n: int = 1) -> None:
        pass

    def close(self) -> None:
        pass


def progress_bar(total: int | None, description: str, enabled: bool | None = None) -> Any:
    """A tqdm bar of ``total`` steps, or a silent stand-in (see the module docstring).

    >>> bar = progress_bar(10, "rows", enabled=False); bar.update(3); bar.close()
    """
    if enabled is None:
        enabled = watching()
    if not enabled:
        return _Silent()
    try:
        from tqdm import tqdm
    except ImportError:
        return _Silent()
    return tqdm(total=total, desc=description, unit=" values", leave=False)


class RunProgress:
    """The bar of a harness run: it appears once the run has lasted ``after`` seconds (at
    once with ``enabled=True``), and only where a person watches (``enabled=None``).
    The harness calls :meth:`tick` now and then with the count so far, so a run that
    shows no bar pays only the test of a counter.

    >>> bar = RunProgress(100, "inputs", enabled=False); bar.tick(50); bar.close()
    """

    def __init__(self, total: int | None, description: str, *, after: float = LONG_RUN, enabled: bool | None = None) -> None:
        self.total = total
        self.description = description
        self.enabled = watching() if enabled is None else bool(enabled)
        self.after = 0.0 if enabled else after
        self.start = time.perf_counter()
        self.shown = 0
        self._bar: Any = None

    def tick(self, done: int) -> None:
        """Report ``done`` steps so far."""
        if not self.enabled:
            return
        if self._bar is None:
            if time.perf_counter() - self.start < self.after:
                return
            self._bar = progress_bar(self.total, self.description, True)
        self._bar.update(done - self.shown)
        self.shown = done

    def close(self) -> None:
        if self._bar is not None:
            self._bar.close()
            self._bar = None


def check_progress(progress: Any) -> bool | None:
    """``progress`` if it is ``True``, ``False`` or ``None`` (a harness's ``progress`` argument)."""
    if progress is not None and not isinstance(progress, bool):
        raise TypeError(f"progress must be True, False or None (a bar on long runs where a person watches), got {progress!r}")
    return progress


def run_progress(rule: StoppingRule, description: str, progress: bool | None) -> "RunProgress | None":
    """The bar of a harness run under ``rule`` (``None`` when ``progress`` is ``False`` or the
    rule shows its own, a :class:`Progress`).

    >>> run_progress(FixedCount(10), "inputs", False) is None
    True
    """
    if progress is False or isinstance(rule, Progress):
        return None
    return RunProgress(rule.n if isinstance(rule, FixedCount) else None, description, enabled=progress)


class Progress(StoppingRule):
    """A stopping rule that shows a progress bar of another rule's run (it decides nothing).

    >>> rule = Progress(FixedCount(2), enabled=False); rule.begin()
    >>> rule.observe(Outcome(0, {}, True)); rule.reason_to_stop() is None
    True
    """

    def __init__(self, rule: StoppingRule, *, description: str = "inputs", enabled: bool | None = None) -> None:
        if not isinstance(rule, StoppingRule):
            raise TypeError(f"rule must be a StoppingRule such as FixedCount(1000), got {rule!r}")
        self.rule = rule
        self.needs_classes = rule.needs_classes
        self.keeps_outcomes = rule.keeps_outcomes
        self.description = description
        self.enabled = enabled
        self._bar: Any = _Silent()

    def begin(self) -> None:
        self.rule.begin()
        self._bar.close()
        total = self.rule.n if isinstance(self.rule, FixedCount) else None
        self._bar = progress_bar(total, self.description, self.enabled)

    def observe(self, outcome: Outcome) -> None:
        self.rule.observe(outcome)
        self._bar.update(1)

    def reason_to_stop(self) -> str | None:
        reason = self.rule.reason_to_stop()
        if reason:
            self._bar.close()
        return reason

    def guarantee(self, unit: str = "inputs") -> str | None:
        return self.rule.guarantee(unit)

    def __repr__(self) -> str:
        return f"Progress({self.rule!r})"

    def __getstate__(self) -> dict[str, Any]:
        # A bar does not travel to another process (a Dask worker): it is made again there.
        state = dict(self.__dict__)
        state["_bar"] = _Silent()
        return state
