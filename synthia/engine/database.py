"""The failure database: the draws of failing inputs, saved as versioned JSON, replayed first.

A failure is stored as the :class:`~synthia.core.draws.Tape` of its smallest input -- the
typed draws, never the value, and never with :mod:`pickle`, so a file can be read by a
person and cannot run code. One file per key (a test, and its parametrization)::

    .synthia/failures/<first 20 hex digits of sha256(key)>.json
    {
      "format": "synthia-failures",
      "version": 1,
      "key": "tests/test_sort.py::test_sorted[small]",
      "entries": [
        {"seed": 2026, "tape": {"picks": 1, "pick_starts": [0],
                                "draws": [["integer", 5, 0, 2000], ["integer", 0, 0, 1000], ...]}}
      ]
    }

Each draw is ``[kind, value, *args]``: ``["integer", v, low, high]``, ``["float", v, low,
high]``, ``["boolean", v, p]`` or ``["weighted", i, [running sums]]``. A harness replays
each entry through the *current* wiring before drawing new inputs; an entry that no longer
fits the wiring (a changed picker) or no longer fails is dropped. Because only draws are
stored, renaming an argument changes nothing. A corrupt file or entry is ignored with a
:class:`DatabaseWarning`; a folder that cannot be written gives a warning too, and the test
result is reported all the same.
"""
from __future__ import annotations

import hashlib
import json
import os
import pathlib
import tempfile
import warnings
from typing import Any

from ..core.checks import check_path
from ..core.draws import Tape

__all__ = ["FailureDatabase", "DatabaseWarning", "FORMAT", "VERSION", "MAX_BYTES"]

FORMAT = "synthia-failures"
VERSION = 1
#: A failure file larger than this is not one synthia wrote (a tape of a million draws is far less).
MAX_BYTES = 64 * 1024 * 1024


class DatabaseWarning(UserWarning):
    """The failure database could not be read or written (the run goes on without it)."""


class FailureDatabase:
    """The failures saved under ``directory`` (``None``: a database that keeps nothing).

    >>> import tempfile
    >>> db = FailureDatabase(tempfile.mkdtemp())
    >>> from synthia.core.draws import Draw, Tape
    >>> db.save("test_x", Tape([Draw("integer", 500, (0, 1000))]), seed=1)
    >>> [t.values() for t in db.load("test_x")]
    [[500]]
    >>> db.forget("test_x"); db.load("test_x")
    []
    """

    def __init__(self, directory: str | os.PathLike[str] | None) -> None:
        self.directory = None if directory is None else check_path(directory, "directory")

    def __repr__(self) -> str:
        return f"FailureDatabase({str(self.directory) if self.directory else None!r})"

    def path(self, key: str) -> pathlib.Path | None:
        """The file that holds the failures of ``key``."""
        if self.directory is None:
            return None
        digest = hashlib.sha256(key.encode("utf-8")).hexdigest()[:20]
        return self.directory / "failures" / f"{digest}.json"

    def load(self, key: str) -> list[Tape]:
        """The tapes saved for ``key``. Anything it cannot trust is skipped with one
        :class:`DatabaseWarning`, in bounded time and memory: a file that is not a regular file
        (a FIFO, a link to a device), one over ``MAX_BYTES``, JSON nested too deep, wrong
        types, or a tape with more picks than a run could have written (``Tape.from_json``)."""
        path = self.path(key)
        if path is None or not path.exists():
            return []
        try:
            if not path.is_file():
                raise ValueError("it is not a regular file")
            with path.open("rb") as handle:
                raw = handle.read(MAX_BYTES + 1)
            if len(raw) > MAX_BYTES:
                raise ValueError(f"it is larger than {MAX_BYTES} bytes")
            data = json.loads(raw.decode("utf-8"))
        except (OSError, UnicodeDecodeError, ValueError, RecursionError) as err:
            warnings.warn(f"synthia ignores the unreadable failure file {path}: {err}", DatabaseWarning, stacklevel=2)
            return []
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            warnings.warn(f"synthia ignores {path}: it is not a synthia failure file", DatabaseWarning, stacklevel=2)
            return []
        if data.get("version") != VERSION:
            warnings.warn(
                f"synthia ignores {path}: format version {data.get('version')!r}, this synthia reads {VERSION}",
                DatabaseWarning,
                stacklevel=2,
            )
            return []
        if data.get("key") != key:
            return []  # a hash collision, or a file copied from elsewhere
        entries = data.get("entries") or []
        if not isinstance(entries, list):
            warnings.warn(f"synthia ignores {path}: its entries are not a list", DatabaseWarning, stacklevel=2)
            return []
        tapes = []
        for i, entry in enumerate(entries):
            try:
                tapes.append(Tape.from_json(entry["tape"]))
            except (KeyError, TypeError, ValueError, OverflowError, RecursionError) as err:
                warnings.warn(f"synthia ignores entry {i} of {path}: {err}", DatabaseWarning, stacklevel=2)
        return tapes

    def save(self, key: str, tape: Tape, *, seed: int | None = None) -> None:
        """Keep ``tape`` as the failure of ``key`` (replacing what was saved before)."""
        self._write(key, [{"seed": seed, "tape": tape.to_json()}])

    def forget(self, key: str) -> None:
        """Remove everything saved for ``key`` (once the test passes)."""
        path = self.path(key)
        if path is None:
            return
        try:
            path.unlink(missing_ok=True)
        except OSError as err:
            warnings.warn(f"synthia could not remove {path}: {err}", DatabaseWarning, stacklevel=2)

    def _write(self, key: str, entries: list[dict[str, Any]]) -> None:
        path = self.path(key)
        if path is None:
            return
        document = {"format": FORMAT, "version": VERSION, "key": key, "entries": entries}
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            # Write then rename, so that a reader never sees half a file.
            handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=".tmp-", suffix=".json")
            with os.fdopen(handle, "w", encoding="utf-8") as out:
                json.dump(document, out, indent=1)
            os.replace(temporary, path)
        except OSError as err:
            warnings.warn(f"synthia could not save the failure of {key} in {path.parent}: {err}", DatabaseWarning, stacklevel=2)
