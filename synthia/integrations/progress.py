"""Progress bars (tqdm, an optional extra) that show only where a person watches.

A bar is shown when tqdm is installed, standard error is a terminal, and neither pytest
(``PYTEST_CURRENT_TEST``) nor a CI system (``CI``) is running; otherwise every call is a
no-op. ``enabled=True`` or ``False`` overrides the detection.

:class:`Progress` wraps a stopping rule so that a long :class:`~synthia.Assert` run shows
its inputs as they are tested, without any change to the harness::

    sy.Assert(test, stop=sy.Progress(sy.FixedCount(100_000)), x=...).run()
"""
from __future__ import annotations

import os
import sys
from typing import Any

from ..testing.stopping import FixedCount, Outcome, StoppingRule

__all__ = ["progress_bar", "Progress", "watching"]


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

    def guarantee(self) -> str | None:
        return self.rule.guarantee()

    def __repr__(self) -> str:
        return f"Progress({self.rule!r})"

    def __getstate__(self) -> dict[str, Any]:
        # A bar does not travel to another process (a Dask worker): it is made again there.
        state = dict(self.__dict__)
        state["_bar"] = _Silent()
        return state
