"""Loaders: callables that fetch a value from a slow source (counted)."""
from __future__ import annotations

from typing import Any, Mapping


class Loader:
    """Fetch ``source[name]``, counting the fetches (what a cache is there to save)."""

    def __init__(self, source: Mapping[Any, Any]) -> None:
        self.source = source
        self.fetches = 0

    def __call__(self, name: Any) -> Any:
        self.fetches += 1
        value = self.source[name]
        return value
