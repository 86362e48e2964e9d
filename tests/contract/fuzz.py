"""The constructor fuzzer: every public constructor, its arguments replaced one at a time.

For each :class:`~tests.contract.registry.Signature` of the registry, a *variant* replaces
one argument of the valid call (or adds an optional one it omits) by a value of
:data:`BAD_VALUES` -- wrong types, NaN and infinities, huge and negative numbers, empty and
endless inputs, pickers of the wrong kind -- or swaps two of its positional arguments.
Each variant is built and, when it builds, picked ``signature.picks`` times, under a time
limit. Its outcome is one of:

* ``built``: it built and its first picks succeeded (a bounded picker ending with
  ``NoMoreElements``, or a filter giving up with ``GiveUp``, counts: both are documented
  endings with clear messages);
* ``rejected``: construction raised ``ValueError``/``TypeError`` naming the argument (or
  the harnesses' ``InvalidTest`` naming the test function that cannot take its inputs);
* ``rejected at pick``: a first pick raised ``ValueError``/``TypeError`` naming the argument
  (for values no constructor can see, such as what an arbitrary picker will pick);
* ``documented``: the call raised one of the exceptions its signature lists as documented
  answers (``Signature.endings``: ``find``'s ``NoExampleFound``, ``explain``'s
  ``NotRecorded``, an ``OSError`` naming a path that cannot be written);
* ``user code``: a function of the call (a predicate, a key, an ``fn`` that builds a
  picker) raised on the values it was given (``x % 2`` on a string): the library passes the
  user's exception on unchanged, as Python does, and the traceback goes through the user's
  function;
* ``unclear``: any other exception, or a message that names no argument;
* ``hang``: the time limit was reached.

``tests/contract/test_fuzz.py`` requires every outcome to be clear (no ``unclear``, no
``hang``); ``benchmarks/bench_fuzz.py`` prints the counts.
"""
from __future__ import annotations

import inspect
import math
import pathlib
import re
import time
from dataclasses import dataclass
from typing import Any, Callable, Iterator

import numpy as np

import synthia as sy
from synthia.engine.report import time_limit
from synthia.engine.report import RunInterrupted

from .registry import Signature

#: The outcomes that count as clear.
CLEAR = ("built", "rejected", "rejected at pick", "documented", "user code")
OUTCOMES = CLEAR + ("unclear", "hang")

#: Seconds a variant may take to build and give its first picks.
TIME_LIMIT = 2.0


def _endless() -> Iterator[int]:
    n = 0
    while True:
        yield n
        n += 1


#: Bad values, each made fresh for every variant (pickers have state).
BAD_VALUES: list[tuple[str, Callable[[], Any]]] = [
    ("None", lambda: None),
    ("a string", lambda: "text"),
    ("a path-like string", lambda: "no/such/dir/x"),
    ("a list", lambda: [1, 2]),
    ("a dict", lambda: {"k": 1}),
    ("an object", object),
    ("a function", lambda: (lambda: 0)),
    ("True", lambda: True),
    ("zero", lambda: 0),
    ("-1", lambda: -1),
    ("-10**9", lambda: -(10**9)),
    ("0.5", lambda: 0.5),
    ("-0.5", lambda: -0.5),
    ("2**63", lambda: 2**63),
    ("10**30", lambda: 10**30),
    ("10**400", lambda: 10**400),
    ("a numpy int", lambda: np.int64(4)),
    ("a huge numpy int", lambda: np.uint64(2**64 - 1)),
    ("a numpy NaN", lambda: np.float64("nan")),
    ("a complex", lambda: 1j),
    ("bytes", lambda: b"xy"),
    ("a one-argument function", lambda: (lambda x: 0)),
    ("1e308", lambda: 1e308),
    ("-1e308", lambda: -1e308),
    ("nan", lambda: math.nan),
    ("inf", lambda: math.inf),
    ("-inf", lambda: -math.inf),
    ("an empty string", lambda: ""),
    ("an empty list", lambda: []),
    ("an endless generator", _endless),
    ("an endless picker", lambda: sy.RandomInteger(0, 3)),
    ("a picker of ints in [5, 10)", lambda: sy.RandomInteger(5, 10)),
    ("a picker of negative floats", lambda: sy.RandomFloat(-1.0, 0.0)),
    ("a picker of strings", lambda: sy.Choice("a", "b")),
    ("a picker of lists", lambda: sy.ComposeList(sy.RandomInteger(0, 3), 2)),
    ("a picker of NaN", lambda: sy.Constant(math.nan)),
    ("a picker of None", lambda: sy.Constant(None)),
    ("an empty picker", sy.Nothing),
]


#: The time limit was reached: a ``BaseException``, so that no ``except Exception`` in the
#: library swallows it (the library's own, which its harnesses let through).
Hang = RunInterrupted


@dataclass
class Variant:
    """One call of a constructor: positional and keyword arguments, and the argument names
    a clear error message may name."""

    signature: Signature
    label: str
    args: list[Any]
    kwargs: dict[str, Any]
    names: tuple[str, ...]


@dataclass
class Outcome:
    variant: Variant
    kind: str
    detail: str = ""
    seconds: float = 0.0

    def __str__(self) -> str:
        return f"{self.variant.signature.name}: {self.variant.label} -> {self.kind} {self.detail}".rstrip()


def _recorded(signature: Signature) -> tuple[list[Any], dict[str, Any]]:
    captured: list[tuple[list[Any], dict[str, Any]]] = []
    signature.call(lambda *args, **kwargs: captured.append((list(args), dict(kwargs))))
    return captured[0]


def _slots(signature: Signature) -> list[tuple[str, str, Any]]:
    """The argument slots of the valid call: ``(kind, name, where)``.

    ``kind`` is ``"arg"`` (``where`` = position), ``"kwarg"`` (``where`` = keyword) or
    ``"add"`` (an optional keyword the call omits).
    """
    args, kwargs = _recorded(signature)
    parameters = [p for p in inspect.signature(signature.target).parameters.values() if not p.name.startswith("_")]
    slots: list[tuple[str, str, Any]] = []
    position = 0
    for p in parameters:
        if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD):
            if position < len(args):
                slots.append(("arg", p.name, position))
                position += 1
            elif p.name in kwargs:
                slots.append(("kwarg", p.name, p.name))
            elif p.default is not p.empty:
                slots.append(("add", p.name, p.name))
        elif p.kind == p.VAR_POSITIONAL:
            for i in range(position, len(args)):
                slots.append(("arg", f"{p.name}[{i - position}]", i))
            position = len(args)
        elif p.kind == p.KEYWORD_ONLY:
            slots.append(("kwarg" if p.name in kwargs else "add", p.name, p.name))
        elif p.kind == p.VAR_KEYWORD:
            named = {q.name for q in parameters}
            slots.extend(("kwarg", k, k) for k in kwargs if k not in named)
    return slots


def variants(signature: Signature) -> Iterator[Variant]:
    """Every variant of ``signature``'s valid call (see the module docstring)."""
    slots = _slots(signature)
    for kind, name, where in slots:
        for label, make in BAD_VALUES:
            args, kwargs = _recorded(signature)
            if kind == "arg":
                args[where] = make()
            else:
                kwargs[where] = make()
            yield Variant(signature, f"{name}={label}", args, kwargs, (name,))
    positional = [(name, where) for kind, name, where in slots if kind == "arg"]
    for i, (first, a) in enumerate(positional):
        for second, b in positional[i + 1 :]:
            args, kwargs = _recorded(signature)
            args[a], args[b] = args[b], args[a]
            yield Variant(signature, f"{first} swapped with {second}", args, kwargs, (first, second))
    varargs = [p for p in inspect.signature(signature.target).parameters.values() if p.kind == p.VAR_POSITIONAL]
    if varargs and positional:
        args, kwargs = _recorded(signature)
        fixed = sum(1 for kind, name, _ in slots if kind == "arg" and "[" not in name)
        yield Variant(signature, f"no {varargs[0].name}", args[:fixed], kwargs, (varargs[0].name,))


def _names_an_argument(message: str, names: tuple[str, ...]) -> bool:
    stems = set()
    for name in names:
        stems.add(name)
        base = name.split("[")[0]
        stems.add(base)
        stems.add(base[:-3] if base.endswith("ren") else base.rstrip("s"))  # children, pickers: child, picker
    return any(re.search(rf"(?<![\w.]){re.escape(stem)}(?!\w)", message) for stem in stems if stem)


_LIBRARY = str(pathlib.Path(sy.__file__).resolve().parent)


def _raised_by_user_code(error: BaseException) -> bool:
    """Whether ``error`` was raised inside a function of the call (the traceback passes from
    the library into code outside it: a predicate, an ``fn`` building a picker)."""
    inside = False
    tb = error.__traceback__
    while tb is not None:
        in_library = str(pathlib.Path(tb.tb_frame.f_code.co_filename).resolve()).startswith(_LIBRARY)
        if inside and not in_library:
            return True
        inside = inside or in_library
        tb = tb.tb_next
    return False


def run(variant: Variant, limit: float = TIME_LIMIT) -> Outcome:
    """Build and pick ``variant`` under a time limit, and classify what happened."""
    start = time.perf_counter()
    stage = "construction"
    signature = variant.signature
    try:
        with time_limit(limit):
            def call() -> Any:
                return signature.target(*variant.args, **variant.kwargs)

            built = call() if signature.around is None else signature.around(call)
            stage = "pick"
            if signature.use is not None:
                signature.use(built)
            elif isinstance(built, sy.Picker):
                for _ in range(signature.picks):
                    built.pick()
    except Hang:
        return Outcome(variant, "hang", f"(more than {limit} s)", time.perf_counter() - start)
    except (sy.NoMoreElements, sy.GiveUp):
        return Outcome(variant, "built", "", time.perf_counter() - start)
    except signature.endings as error:
        return Outcome(variant, "documented", f"{type(error).__name__}: {error}", time.perf_counter() - start)
    except sy.InvalidTest as error:
        # The harnesses' refusal of a test function that cannot take its inputs, or of what
        # it returned (a verdict that is no boolean): clear when it names the function or the
        # argument it refuses.
        text = f"{type(error).__name__}: {error}"
        named = [getattr(v, "__name__", None) for v in [*variant.args, *variant.kwargs.values()] if callable(v)]
        if stage == "construction" and (any(n and n in str(error) for n in named) or _names_an_argument(str(error), variant.names)):
            return Outcome(variant, "rejected", text, time.perf_counter() - start)
        return Outcome(variant, "unclear", f"at {stage}: {text}", time.perf_counter() - start)
    except (ValueError, TypeError) as error:
        seconds = time.perf_counter() - start
        text = f"{type(error).__name__}: {error}"
        if stage == "pick" and _raised_by_user_code(error):
            return Outcome(variant, "user code", text, seconds)
        if _names_an_argument(str(error), variant.names):
            return Outcome(variant, "rejected" if stage == "construction" else "rejected at pick", text, seconds)
        return Outcome(variant, "unclear", f"at {stage}, names no argument: {text}", seconds)
    except Exception as error:  # noqa: BLE001 - every other exception is what the fuzzer looks for
        text = f"{type(error).__name__}: {error}"
        if stage == "pick" and _raised_by_user_code(error):
            return Outcome(variant, "user code", text, time.perf_counter() - start)
        return Outcome(variant, "unclear", f"at {stage}: {text}", time.perf_counter() - start)
    return Outcome(variant, "built", "", time.perf_counter() - start)


def fuzz(signatures: list[Signature], every: int = 1, limit: float = TIME_LIMIT) -> list[Outcome]:
    """The outcomes of the variants of ``signatures`` (every ``every``-th variant of each)."""
    out: list[Outcome] = []
    for signature in signatures:
        out.extend(run(v, limit) for i, v in enumerate(variants(signature)) if i % every == 0)
    return out
