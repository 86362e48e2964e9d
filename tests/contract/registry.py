"""The registry of example wirings that the contract suite checks for every public picker.

Each module in ``tests/contract/cases/`` defines:

* ``CASES``: a list of :class:`Case` -- a name, the picker class it covers, and a
  zero-argument factory that builds a fresh wiring (a factory, because every
  check needs a new instance);
* ``BAD_ARGUMENTS``: a list of :class:`BadArgument` -- a call that must raise
  ``ValueError``/``TypeError`` at construction, and a text its message must contain
  (the argument's name or the value);
* ``SIGNATURES``: a list of :class:`Signature` -- one valid call of each public
  constructor, which the constructor fuzzer (``tests/contract/fuzz.py``) takes apart
  argument by argument.

``test_registry_covers_every_public_picker`` fails when a public picker class of
``synthia`` has no case, and ``test_every_public_constructor_has_a_signature`` when a
public constructor has no signature: every public class and function of ``synthia`` that
takes arguments (:func:`public_constructors`), pickers or not -- harnesses, actions,
options, stopping rules, designators, profiles, decorators, exporters. So every new picker
must join both, and every new public callable needs a signature (or, for a record the
library builds and returns, a line in :data:`NOT_CONSTRUCTORS`).
"""
from __future__ import annotations

import importlib
import pkgutil
from dataclasses import dataclass, field
from typing import Any, Callable

import synthia
from synthia import Picker


@dataclass(frozen=True)
class Case:
    """One example wiring of ``covers``.

    ``random``: the values depend on the seed (different seeds must differ).
    ``bounded``: the wiring ends; ``max_values`` is more than it can produce.
    ``compare``: how values are compared (default ``==``; override for NaN, arrays...).
    """

    name: str
    covers: type
    factory: Callable[[], Picker[Any]]
    random: bool = True
    bounded: bool = False
    max_values: int = 30
    compare: Callable[[Any, Any], bool] | None = None
    extra_covers: tuple[type, ...] = field(default_factory=tuple)

    def __repr__(self) -> str:
        return self.name


@dataclass(frozen=True)
class BadArgument:
    """A constructor call that must fail with ``error`` whose message contains ``mentions``."""

    name: str
    call: Callable[[], Any]
    error: type[Exception] | tuple[type[Exception], ...]
    mentions: str

    def __repr__(self) -> str:
        return self.name


@dataclass(frozen=True)
class Signature:
    """One valid call of the public constructor ``target``, for the constructor fuzzer.

    ``call`` receives a stand-in for ``target`` and calls it as a user would
    (``lambda C: C(sy.RandomInteger(0, 10), length=3)``): the fuzzer reads the arguments
    off that call, binds them to ``target``'s signature and replaces them one at a time.
    ``call`` is called again for every variant, so each one gets fresh pickers.
    ``picks``: how many values the fuzzer draws from what a variant builds (``Delay``
    sleeps on every valid pick, so its signature draws none).

    For constructors that are not pickers: ``use`` is what the fuzzer then does with what
    the call returned (apply a decorator, enter a context, compute a Dask bag), where a bad
    argument may first be seen; ``around`` runs the call itself (``around(thunk)``), for a
    call that needs a context (inside a running test) or changes global state that must be
    put back (a registered profile); ``endings`` are exceptions the call documents as an
    outcome of valid arguments (``find``'s ``NoExampleFound``), counted as built.
    """

    target: Callable[..., Any]
    call: Callable[[Callable[..., Any]], Any]
    picks: int = 3
    use: Callable[[Any], Any] | None = None
    around: Callable[[Callable[[], Any]], Any] | None = None
    endings: tuple[type[BaseException], ...] = ()

    @property
    def name(self) -> str:
        return self.target.__name__

    def __repr__(self) -> str:
        return self.name


def _modules() -> list[Any]:
    from . import cases

    return [importlib.import_module(f"{cases.__name__}.{m.name}") for m in pkgutil.iter_modules(cases.__path__)]


def all_cases() -> list[Case]:
    return [case for module in _modules() for case in getattr(module, "CASES", [])]


def all_bad_arguments() -> list[BadArgument]:
    return [bad for module in _modules() for bad in getattr(module, "BAD_ARGUMENTS", [])]


def all_signatures() -> list[Signature]:
    return [signature for module in _modules() for signature in getattr(module, "SIGNATURES", [])]


def picker_signatures() -> list[Signature]:
    """The signatures of the modules of the picker contract (those with ``CASES``): the
    constructors of pickers, where a plain value may stand for an input picker."""
    return [signature for module in _modules() if getattr(module, "CASES", None) for signature in getattr(module, "SIGNATURES", [])]


#: Public callables of ``synthia`` that take arguments but are not constructors a user calls:
#: records the library builds and returns (a user reads them), each with the reason.
NOT_CONSTRUCTORS: dict[str, str] = {
    "TestReport": "built by Assert.run, read by the user",
    "MonkeyReport": "built by Monkey.run, read by the user",
    "CampaignReport": "built by run_campaign, read by the user",
    "Step": "a step of a Monkey trace, built by the Monkey",
    "TraceExplanation": "built by MonkeyReport.explain()",
    "History": "built by interleave and a concurrent Monkey",
    "Derivation": "built by GrammarSentence's derivations",
    "Explanation": "built by explain()",
    "Mutator": "the abstract base of mutators (its subclasses have signatures)",
    "BroadcastableShapes": "the value mutually_broadcastable_shapes picks (a named tuple), read by the user",
}


def public_constructors() -> set[Any]:
    """Every public class and function of ``synthia`` that takes arguments, except exceptions,
    warnings, the abstract picker bases and :data:`NOT_CONSTRUCTORS`."""
    import inspect

    abstract = {synthia.Picker, synthia.Bounded, synthia.Shrinkable, synthia.Seedable, synthia.Reactive, synthia.Resettable, synthia.RandomPicker, synthia.StoppingRule}
    found = set()
    for name in synthia.__all__:
        obj = getattr(synthia, name)
        if not callable(obj) or obj in abstract or name in NOT_CONSTRUCTORS:
            continue
        if isinstance(obj, type) and issubclass(obj, BaseException):
            continue
        try:
            parameters = inspect.signature(obj).parameters
        except (TypeError, ValueError):
            continue
        if parameters:
            found.add(obj)
    return found


def public_picker_classes() -> set[type]:
    """Every concrete picker class exported by ``synthia`` (aliases count once)."""
    abstract = {
        synthia.Picker,
        synthia.Bounded,
        synthia.Shrinkable,
        synthia.Seedable,
        synthia.Reactive,
        synthia.RandomPicker,
        synthia.Mutator,
    }
    found = set()
    for name in synthia.__all__:
        obj = getattr(synthia, name)
        if isinstance(obj, type) and issubclass(obj, Picker) and obj not in abstract:
            found.add(obj)
    return found
