"""Races modelled on real-world bug reports, each with a correct version and a sequential
model: the subjects of ``benchmarks/bench_concurrency.py`` and of tests/test_concurrency.py.

Every subject is tested with the concurrent Monkey's **default settings** (``threads=2`` or
``tasks=2``, nothing else -- but ``within=["tinycache"]`` for the race inside a library):

=========  ===============================================================================
ids        an id generator reads the last id, then writes it back (duplicate ids)
worklist   a shared work list checked, then popped (``IndexError`` on an empty list)
memo       a memo cache checks, computes, then stores (two values for one key)
session    lazy components made on first use, botocore-style (``KeyError`` on first use)
refcount   a reference count decremented, then tested (a handle released twice)
buffer     a bounded buffer whose ``get`` waits under ``if``, not ``while`` (a stolen item)
deep       a ledger's read-modify-write after twenty lines of checks (points 24-25)
transfers  two account locks taken in opposite orders (a deadlock)
stampede   a get-or-compute stampede inside a caching library (``within=["tinycache"]``)
limiter    an asyncio rate limiter that checks its budget, awaits a timer, then spends it
=========  ===============================================================================
"""
from __future__ import annotations

import asyncio
import dataclasses
import queue
import threading
from typing import Any

import tinycache

import synthia as sy


@dataclasses.dataclass
class Subject:
    """A race: the system, its correct version, the model, the actions, the concurrent
    options (the defaults but ``threads`` or ``tasks``, and ``within``), what kind of race it
    is, and the real-world bug it is modelled on."""

    system: type
    fixed: type
    model: type
    actions: list[sy.Action]
    options: dict[str, Any]
    kind: str
    modelled_on: str


# -- ids: read, then write back ------------------------------------------------------------------
class Ids:
    """Hands out increasing ids."""

    def __init__(self) -> None:
        self.last = 0

    def next_id(self) -> int:
        n = self.last + 1
        self.last = n  # another thread may have read the same last id meanwhile
        return n

    def peek(self) -> int:
        return self.last


class LockedIds(Ids):
    def __init__(self) -> None:
        super().__init__()
        self.lock = threading.Lock()

    def next_id(self) -> int:
        with self.lock:
            return super().next_id()


class IdsModel(Ids):
    pass


# -- worklist: check, then pop -------------------------------------------------------------------
class WorkList:
    """Jobs shared by workers."""

    def __init__(self) -> None:
        self.jobs: list[int] = []

    def add(self, job: int) -> None:
        self.jobs.append(job)

    def take(self) -> int | None:
        if self.jobs:
            return self.jobs.pop()  # another worker may have taken the last job meanwhile
        return None


class LockedWorkList(WorkList):
    def __init__(self) -> None:
        super().__init__()
        self.lock = threading.Lock()

    def take(self) -> int | None:
        with self.lock:
            return super().take()


class WorkListModel(WorkList):
    pass


# -- memo: check, compute, store ---------------------------------------------------------------
class Memo:
    """Summaries computed once per key and kept (the values count the computations)."""

    def __init__(self) -> None:
        self.values: dict[int, str] = {}
        self.computed = 0

    def summary(self, key: int) -> str:
        if key not in self.values:
            self.computed += 1
            self.values[key] = f"summary {self.computed} of {key}"
        return self.values[key]


class LockedMemo(Memo):
    def __init__(self) -> None:
        super().__init__()
        self.lock = threading.RLock()

    def summary(self, key: int) -> str:
        with self.lock:
            return super().summary(key)


class MemoModel(Memo):
    pass


# -- session: lazy components, made on first use --------------------------------------------------
class Session:
    """Components made on first use from deferred factories, as botocore's session does."""

    def __init__(self) -> None:
        self.deferred = {"credentials": self.load_credentials, "endpoints": self.load_endpoints}
        self.components: dict[str, str] = {}
        self.loads = 0

    def load_credentials(self) -> str:
        self.loads += 1
        return f"credentials (load {self.loads})"

    def load_endpoints(self) -> str:
        self.loads += 1
        return f"endpoints (load {self.loads})"

    def component(self, name: str) -> str:
        if name in self.deferred:
            factory = self.deferred[name]
            self.components[name] = factory()
            del self.deferred[name]  # a second thread that saw the factory fails here
        return self.components[name]


class LockedSession(Session):
    def __init__(self) -> None:
        super().__init__()
        self.lock = threading.Lock()

    def component(self, name: str) -> str:
        with self.lock:
            return super().component(name)


class SessionModel(Session):
    pass


# -- refcount: decrement, then test ------------------------------------------------------------
class Handle:
    """A shared handle: each user acquires it; the last release closes it."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.refs = 0
        self.closed = False

    def acquire(self) -> int:
        with self.lock:
            if self.closed:
                raise ValueError("closed")
            self.refs += 1
            return self.refs

    def release(self) -> bool:
        if self.refs == 0:
            raise ValueError("not acquired")
        self.refs -= 1
        if self.refs == 0:  # another release may have come to 0 meanwhile: closed twice
            self.close()
            return True
        return False

    def close(self) -> None:
        if self.closed:
            raise RuntimeError("released twice: the handle is already closed")
        self.closed = True


class LockedHandle(Handle):
    def release(self) -> bool:
        with self.lock:
            return super().release()


class HandleModel:
    def __init__(self) -> None:
        self.refs = 0
        self.closed = False

    def acquire(self) -> int:
        if self.closed:
            raise ValueError("closed")
        self.refs += 1
        return self.refs

    def release(self) -> bool:
        if self.refs == 0:
            raise ValueError("not acquired")
        self.refs -= 1
        self.closed = self.refs == 0
        return self.closed


# -- buffer: wait under if, not while --------------------------------------------------------------
class Buffer:
    """A bounded buffer: ``put`` waits while it is full, ``get`` while it is empty (each at
    most ``timeout`` seconds, then ``queue.Full`` / ``queue.Empty``)."""

    size = 2

    def __init__(self) -> None:
        self.items: list[int] = []
        self.changed = threading.Condition()

    def put(self, item: int, timeout: float = 1.0) -> None:
        with self.changed:
            if not self.changed.wait_for(lambda: len(self.items) < self.size, timeout):
                raise queue.Full
            self.items.append(item)
            self.changed.notify_all()

    def get(self, timeout: float = 1.0) -> int:
        with self.changed:
            if not self.items:  # `if`, not `while`: another getter may take the item first
                if not self.changed.wait(timeout):
                    raise queue.Empty
            item = self.items.pop(0)
            self.changed.notify_all()
            return item


class CorrectBuffer(Buffer):
    def get(self, timeout: float = 1.0) -> int:
        with self.changed:
            if not self.changed.wait_for(lambda: self.items, timeout):
                raise queue.Empty
            item = self.items.pop(0)
            self.changed.notify_all()
            return item


class BufferModel:
    def __init__(self) -> None:
        self.items: list[int] = []

    def put(self, item: int) -> None:
        if len(self.items) >= Buffer.size:
            raise queue.Full
        self.items.append(item)

    def get(self) -> int:
        if not self.items:
            raise queue.Empty
        return self.items.pop(0)


# -- deep: a read-modify-write after twenty lines ---------------------------------------------------
class Ledger:
    """Postings to accounts, checked at length before the balance is updated."""

    limits = {0: 100, 1: 50, 2: 20}

    def __init__(self) -> None:
        self.balances: dict[int, int] = {}
        self.postings = 0

    def post(self, account: int, amount: int) -> int:
        if account not in self.limits:
            raise KeyError(account)
        entry = {"account": account, "amount": amount}
        for field in ("account", "amount"):
            if entry[field] is None:
                raise ValueError(f"{field} is missing")
        limit = self.limits[account]
        for check in (amount >= -limit, amount <= limit):
            if not check:
                raise ValueError(f"amount {amount} is beyond the limit {limit}")
        for field, value in entry.items():
            entry[field] = int(value)
        note = f"{account}:{amount}"
        note = note.strip()
        self.postings += 1
        balance = self.balances.get(account, 0)
        entry["note"] = note  # another posting to the account may come between read and write
        self.balances[account] = balance + amount
        return balance + amount

    def balance(self, account: int) -> int:
        return self.balances.get(account, 0)


class LockedLedger(Ledger):
    def __init__(self) -> None:
        super().__init__()
        self.lock = threading.Lock()

    def post(self, account: int, amount: int) -> int:
        with self.lock:
            return super().post(account, amount)


class LedgerModel(Ledger):
    pass


# -- transfers: two locks in opposite orders --------------------------------------------------------
class Bank:
    """Two accounts, each with its lock; a transfer holds both."""

    def __init__(self) -> None:
        self.a, self.b = threading.Lock(), threading.Lock()
        self.balances = {"a": 10, "b": 10}

    def a_to_b(self, amount: int) -> None:
        with self.a:
            with self.b:
                self.move("a", "b", amount)

    def b_to_a(self, amount: int) -> None:
        with self.b:
            with self.a:
                self.move("b", "a", amount)

    def move(self, source: str, target: str, amount: int) -> None:
        self.balances[source] -= amount
        self.balances[target] += amount

    def total(self) -> int:
        with self.a:
            with self.b:
                return sum(self.balances.values())


class OrderedBank(Bank):
    def b_to_a(self, amount: int) -> None:
        with self.a:  # every transfer takes the locks in one order
            with self.b:
                self.move("b", "a", amount)


class BankModel:
    def __init__(self) -> None:
        self.balances = {"a": 10, "b": 10}

    def a_to_b(self, amount: int) -> None:
        self.balances["a"] -= amount
        self.balances["b"] += amount

    def b_to_a(self, amount: int) -> None:
        self.balances["b"] -= amount
        self.balances["a"] += amount

    def total(self) -> int:
        return sum(self.balances.values())


# -- stampede: inside a caching library --------------------------------------------------------------
PRICES = {"ACME": 10, "INITECH": 20}


class Quotes:
    """Quotes fetched through a tinycache-memoized loader (its own lock, as cachetools's docs show)."""

    def __init__(self) -> None:
        self.loader = tinycache.Loader(PRICES)
        self.quote = tinycache.cached(tinycache.LRUCache(maxsize=8), lock=threading.Lock())(self.loader)

    def fetches(self) -> int:
        return self.loader.fetches


class WaitingQuotes(Quotes):
    def __init__(self) -> None:
        self.loader = tinycache.Loader(PRICES)
        self.quote = tinycache.cached(tinycache.LRUCache(maxsize=8), condition=threading.Condition())(self.loader)


class QuotesModel:
    def __init__(self) -> None:
        self.fetched: set[str] = set()

    def quote(self, name: str) -> int:
        self.fetched.add(name)
        return PRICES[name]

    def fetches(self) -> int:
        return len(self.fetched)


# -- limiter: asyncio, with timers --------------------------------------------------------------------
class Limiter:
    """At most ``limit`` requests per window; a request takes 10 ms (a timer), and the window
    restarts a second after ``restart`` is called."""

    limit = 1

    def __init__(self) -> None:
        self.used = 0

    async def request(self) -> bool:
        if self.used >= self.limit:
            return False
        await asyncio.sleep(0.01)  # the request itself; another may pass the check meanwhile
        self.used += 1
        return True

    async def restart(self) -> None:
        await asyncio.sleep(1.0)
        self.used = 0


class ReservingLimiter(Limiter):
    async def request(self) -> bool:
        if self.used >= self.limit:
            return False
        self.used += 1  # the budget is spent before the await
        await asyncio.sleep(0.01)
        return True


class LimiterModel:
    def __init__(self) -> None:
        self.used = 0

    def request(self) -> bool:
        if self.used >= Limiter.limit:
            return False
        self.used += 1
        return True

    def restart(self) -> None:
        self.used = 0


THREADS = {"threads": 2}
KEYS = sy.RandomInteger(0, 3)

SUBJECTS: dict[str, Subject] = {
    "ids": Subject(
        Ids, LockedIds, IdsModel, [sy.Action("next_id"), sy.Action("peek")], THREADS, "read, then write back",
        "hand-written id and sequence counters (`n = self.last + 1; self.last = n`), where two threads read the same "
        "last id: the duplicate keys of many bug reports (itertools.count's next() is atomic, this is not)",
    ),
    "worklist": Subject(
        WorkList, LockedWorkList, WorkListModel, [sy.Action("add", job=sy.RandomInteger(0, 10)), sy.Action("take")], THREADS,
        "check, then act", "workers draining a shared list with `if jobs: jobs.pop()`: a worker that checked a list "
        "another emptied meanwhile gets `IndexError: pop from empty list`",
    ),
    "memo": Subject(
        Memo, LockedMemo, MemoModel, [sy.Action("summary", key=KEYS)], THREADS, "check, compute, store",
        "functools.cached_property since Python 3.12, whose lock was removed (CPython gh-87634): two threads that "
        "read it first both compute it, and may get two different objects (CPython gh-150708)",
    ),
    "session": Subject(
        Session, LockedSession, SessionModel, [sy.Action("component", name=sy.Choice("credentials", "endpoints"))], THREADS,
        "first use", "boto3/botocore's lazily made session components: the first boto3.client() calls made at once in "
        "several threads fail with `KeyError: 'credential_provider'` (boto/boto3#1592, botocore#2985)",
    ),
    "refcount": Subject(
        Handle, LockedHandle, HandleModel, [sy.Action("acquire", raises=ValueError), sy.Action("release", raises=ValueError)],
        THREADS, "decrement, then test", "reference counts released outside the lock that guards the increment (a "
        "shared connection or file handle): two releases both see the count reach 0, and the resource is closed twice",
    ),
    "buffer": Subject(
        Buffer, CorrectBuffer, BufferModel, [sy.Action("put", item=sy.RandomInteger(0, 10), raises=queue.Full), sy.Action("get", raises=queue.Empty)],
        THREADS, "condition wait under if", "a condition variable waited on under `if` instead of `while` (the threading "
        "docs' warning): a getter woken by a put finds the item taken by another getter, and pops an empty list",
    ),
    "deep": Subject(
        Ledger, LockedLedger, LedgerModel, [sy.Action("post", account=KEYS, amount=sy.RandomInteger(-20, 21)), sy.Action("balance", account=KEYS)],
        THREADS, "deep in a call", "a read-modify-write at the end of a long method (validation, bookkeeping): its window is "
        "points 24 and 25 of 26, where a bound of 15 points per call never reached",
    ),
    "transfers": Subject(
        Bank, OrderedBank, BankModel, [sy.Action("a_to_b", amount=sy.RandomInteger(1, 5)), sy.Action("b_to_a", amount=sy.RandomInteger(1, 5)), sy.Action("total")],
        THREADS, "deadlock", "the lock-ordering deadlock of two transfers that take two account locks in opposite "
        "orders (the circular wait of the textbooks, and of many reports)",
    ),
    "stampede": Subject(
        Quotes, WaitingQuotes, QuotesModel, [sy.Action("quote", name=sy.Choice("ACME", "INITECH")), sy.Action("fetches")],
        {**THREADS, "within": ["tinycache"]}, "inside a library", "cachetools' @cached with a lock, before 6.0: concurrent "
        "misses of one key all call the function (cachetools#294: 1000 threads, 1000 misses), fixed by its condition= argument",
    ),
    "limiter": Subject(
        Limiter, ReservingLimiter, LimiterModel, [sy.Action("request"), sy.Action("restart")], {"tasks": 2}, "asyncio, timers",
        "asyncio rate limiters and quotas that check the budget, await (a request, a sleep), then spend it: every task "
        "that passed the check before the first spent it goes through",
    ),
}


def race_monkey(name: str, locked: bool = False, schedules: int = 2000, **options: Any) -> sy.Monkey:
    """The concurrent monkey of subject ``name`` (its correct version with ``locked``),
    with the default settings but those of the subject and ``options``."""
    subject = SUBJECTS[name]
    system = subject.fixed if locked else subject.system
    return sy.Monkey(system, subject.actions, model=subject.model, stop=sy.FixedCount(schedules), **{**subject.options, **options})
