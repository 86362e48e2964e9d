"""The ``cached`` decorator: memoize a function in a cache."""
from __future__ import annotations

import functools
from typing import Any, Callable

from .keys import hashkey


def cached(cache: Any, key: Callable[..., Any] = hashkey, lock: Any = None, condition: Any = None) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Memoize a function in ``cache``. With a ``lock``, every access to the cache holds it;
    the function itself runs without it, so concurrent misses of one key each call it
    (a stampede). With a ``condition`` (a ``threading.Condition``, which also serves as the
    lock), a call that misses a key another call is computing waits for that value."""

    def decorator(func: Callable[..., Any]) -> Callable[..., Any]:
        hits = misses = 0
        pending: set[Any] = set()

        def plain(*args: Any, **kwargs: Any) -> Any:
            nonlocal hits, misses
            k = key(*args, **kwargs)
            try:
                result = cache[k]
                hits += 1
                return result
            except KeyError:
                misses += 1
            value = func(*args, **kwargs)
            cache[k] = value
            return value

        def locked(*args: Any, **kwargs: Any) -> Any:
            nonlocal hits, misses
            k = key(*args, **kwargs)
            with lock:
                try:
                    result = cache[k]
                    hits += 1
                    return result
                except KeyError:
                    misses += 1
            value = func(*args, **kwargs)
            with lock:
                # Another thread may have stored a value meanwhile: keep the first one.
                return cache.setdefault(k, value)

        def waiting(*args: Any, **kwargs: Any) -> Any:
            nonlocal hits, misses
            k = key(*args, **kwargs)
            with condition:
                condition.wait_for(lambda: k not in pending)
                try:
                    result = cache[k]
                    hits += 1
                    return result
                except KeyError:
                    pending.add(k)
                    misses += 1
            try:
                value = func(*args, **kwargs)
                with condition:
                    cache[k] = value
                return value
            finally:
                with condition:
                    pending.discard(k)
                    condition.notify_all()

        wrapper = waiting if condition is not None else locked if lock is not None else plain

        def cache_info() -> tuple[int, int]:
            return hits, misses

        wrapper.cache_info = cache_info  # type: ignore[attr-defined]
        return functools.update_wrapper(wrapper, func)

    return decorator
