"""tinycache: a small memoizing-cache library, written for synthia's race benchmark as a
third-party module would be (its code is not the system's: its lines are preemption points
only when a concurrent Monkey names it in ``within=["tinycache"]``).

Its ``cached`` decorator is modelled on cachetools' (before 6.0): the lock given guards each
access to the cache, but not the call of the function, so two threads that miss the same key
at once both call it -- the *cache stampede* of cachetools issue #294 ("misses=1000" for 1000
threads), which cachetools 6.0 addressed with its ``condition`` argument; ``condition`` here
does the same: the threads that miss a key being computed wait for it.
"""
from .cache import Cache, LRUCache
from .decorators import cached
from .keys import hashkey
from .loaders import Loader

__all__ = ["Cache", "LRUCache", "cached", "hashkey", "Loader"]
