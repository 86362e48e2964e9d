"""What a test prints, kept off the screen while a run searches and shrinks.

A run plays hundreds of inputs and thousands of shrink candidates; a ``print`` in the test
would print for each. While a run goes, :class:`OutputCapture` stands in for ``sys.stdout``
and drops what is written, except during the replay of the smallest failure, whose output
the report keeps (``report.output``) and shows, as Hypothesis shows only the final replay's.
Writes from other threads during the run are dropped too (``sys.stdout`` is one for the
process); ``RunOptions(capture_output=False)`` lets everything through.
"""
from __future__ import annotations

import sys
from typing import Any

__all__ = ["OutputCapture"]


class OutputCapture:
    """``sys.stdout`` while a run goes (a context manager): writes are dropped, or kept
    between :meth:`keep` and :meth:`taken`.

    >>> with OutputCapture() as capture:
    ...     print("searching")
    ...     capture.keep()
    ...     print("the smallest failure")
    ...     kept = capture.taken()
    >>> kept
    'the smallest failure\\n'
    """

    def __init__(self) -> None:
        self._saved: Any = None
        self._kept: list[str] | None = None

    def __enter__(self) -> "OutputCapture":
        self._saved = sys.stdout
        sys.stdout = self  # type: ignore[assignment]
        return self

    def __exit__(self, *exc: object) -> None:
        if sys.stdout is self:
            sys.stdout = self._saved

    def keep(self) -> None:
        """Keep what is written from now on (the replay of the smallest failure)."""
        self._kept = []

    def taken(self) -> str:
        """What was written since :meth:`keep`; writes are dropped again from now on."""
        text = "".join(self._kept or ())
        self._kept = None
        return text

    def write(self, text: str) -> int:
        if self._kept is not None:
            self._kept.append(text)
        return len(text)

    def flush(self) -> None:
        pass

    def isatty(self) -> bool:
        return False

    def __getattr__(self, name: str) -> Any:
        # encoding, errors, fileno...: those of the stream it stands in for.
        return getattr(self._saved, name)
