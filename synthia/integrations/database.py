"""The local store of failing inputs: a failure found once is replayed first on the next run."""
from __future__ import annotations

import hashlib
import pathlib
import pickle
import warnings
from typing import Any

__all__ = ["load", "save", "forget"]


def _path(directory: pathlib.Path, key: str) -> pathlib.Path:
    digest = hashlib.sha1(key.encode("utf-8")).hexdigest()[:16]
    return directory / "examples" / f"{digest}.pickle"


def load(directory: pathlib.Path | None, key: str) -> dict[str, Any] | None:
    """The failing input saved for ``key``, or ``None``."""
    if directory is None:
        return None
    path = _path(directory, key)
    try:
        with path.open("rb") as handle:
            saved = pickle.load(handle)
    except (OSError, pickle.PickleError, EOFError, AttributeError, ImportError):
        return None
    return saved.get("inputs") if isinstance(saved, dict) and saved.get("key") == key else None


def save(directory: pathlib.Path | None, key: str, inputs: dict[str, Any]) -> None:
    """Save a failing input for ``key`` (a warning, not an error, if it cannot be pickled)."""
    if directory is None:
        return
    path = _path(directory, key)
    try:
        data = pickle.dumps({"key": key, "inputs": inputs})
    except Exception as err:  # lambdas, open files...: keep testing, say why nothing was saved
        warnings.warn(f"synthia could not save the failing input of {key}: {err}", stacklevel=2)
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)


def forget(directory: pathlib.Path | None, key: str) -> None:
    """Remove the saved input of ``key`` (once the test passes on it)."""
    if directory is not None:
        _path(directory, key).unlink(missing_ok=True)
