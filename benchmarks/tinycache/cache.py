"""Mutable mappings with a maximum size: ``Cache`` (evicts an arbitrary item) and
``LRUCache`` (evicts the least recently used)."""
from __future__ import annotations

import collections
from typing import Any, Iterator


class Cache(collections.abc.MutableMapping):  # type: ignore[type-arg]
    """A mapping of at most ``maxsize`` items."""

    def __init__(self, maxsize: int) -> None:
        if maxsize < 1:
            raise ValueError(f"maxsize must be at least 1, got {maxsize!r}")
        self.maxsize = maxsize
        self.data: dict[Any, Any] = {}

    def __getitem__(self, key: Any) -> Any:
        try:
            return self.data[key]
        except KeyError:
            return self.__missing__(key)

    def __missing__(self, key: Any) -> Any:
        raise KeyError(key)

    def __setitem__(self, key: Any, value: Any) -> None:
        if key not in self.data:
            while len(self.data) >= self.maxsize:
                self.popitem()
        self.data[key] = value

    def __delitem__(self, key: Any) -> None:
        del self.data[key]

    def __iter__(self) -> Iterator[Any]:
        return iter(self.data)

    def __len__(self) -> int:
        return len(self.data)

    def setdefault(self, key: Any, default: Any = None) -> Any:
        if key in self:
            value = self[key]
        else:
            self[key] = value = default
        return value


class LRUCache(Cache):
    """A cache that evicts the least recently used item."""

    def __init__(self, maxsize: int) -> None:
        super().__init__(maxsize)
        self.order: collections.OrderedDict[Any, None] = collections.OrderedDict()

    def __getitem__(self, key: Any) -> Any:
        value = super().__getitem__(key)
        self.touch(key)
        return value

    def __setitem__(self, key: Any, value: Any) -> None:
        super().__setitem__(key, value)
        self.touch(key)

    def __delitem__(self, key: Any) -> None:
        super().__delitem__(key)
        del self.order[key]

    def popitem(self) -> tuple[Any, Any]:
        try:
            key = next(iter(self.order))
        except StopIteration:
            raise KeyError(f"{type(self).__name__} is empty") from None
        return key, self.pop(key)

    def touch(self, key: Any) -> None:
        if key in self.order:
            self.order.move_to_end(key)
        else:
            self.order[key] = None
