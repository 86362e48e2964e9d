"""Property coverage: how well property tests kill mutants of the function they test.

A property that passes on a function says little until we know it would fail on a wrong
one. :func:`property_coverage` runs each property against *mutants* of the function under
test -- the function with its result perturbed by a mutator (``Offset``, ``Replace``,
``DeleteElement``, ``Swap``...), or with one argument perturbed before the call -- in this
process (no fork, no re-import), each run stopped by a stopping rule (the Bayesian rule by
default) and by a time limit. A mutant is *killed* by a property when the property fails
on it; it *survives* when the rule stops the run with every input passing. Mutants whose
mutator does not apply to the function's values are left out; mutants whose outputs equal
the function's on every recorded call are *possibly equivalent* (no property can kill
them) and are reported apart; runs that hit the time limit are *timeouts*.
"""
from __future__ import annotations

import copy
import dataclasses
import inspect
import time

from typing import Any, Callable, Iterable, Iterator, Mapping, Sequence, cast

from ..core.checks import check_callable, check_count, check_float, check_values
from ..core.picker import Picker
from ..core.random import check_seed, derive_seed
from ..mutators import DeleteElement, InsertElement, Offset, Replace, Swap, apply_mutation
from .bayesian import Bayesian
from ..engine.runner import RunOptions
from .harness import Assert
from ..engine.report import RunInterrupted, TestReport, time_limit
from ..engine.stopping import StoppingRule

__all__ = ["Mutant", "MutantRun", "PropertyCoverage", "property_coverage", "output_mutants", "argument_mutants"]


@dataclasses.dataclass(frozen=True)
class Mutant:
    """A wrong version of the function under test: ``function`` replaces it, ``name`` says
    what is wrong, ``kind`` is ``"output"``, ``"argument"`` or ``"custom"``.

    >>> off_by_one = Mutant("len + 1", lambda xs: len(xs) + 1)
    >>> off_by_one.function([1, 2])
    3
    """

    name: str
    function: Callable[..., Any]
    kind: str = "custom"

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name:
            raise TypeError(f"name must be a non-empty string, got {self.name!r}")
        check_callable(self.function, "function")
        if self.kind not in ("output", "argument", "custom"):
            raise ValueError(f"kind must be 'output', 'argument' or 'custom', got {self.kind!r}")


def _sequence_like(original: Any, mutated: list[Any]) -> Any:
    """``mutated`` in the type of ``original`` (list mutators work on lists)."""
    if isinstance(original, str):
        return "".join(str(c) for c in mutated)
    if isinstance(original, (bytes, bytearray)):
        return type(original)(mutated)
    if isinstance(original, tuple) and not hasattr(original, "_fields"):
        return tuple(mutated)
    return mutated


def _mutated(mutator: Any, value: Any) -> Any:
    if isinstance(mutator, (DeleteElement, InsertElement, Swap)) and isinstance(value, (str, bytes, bytearray, tuple, Iterator)):
        as_list = list(value)
        out = apply_mutation(mutator, as_list)
        return iter(out) if isinstance(value, Iterator) else _sequence_like(value, out)
    return apply_mutation(mutator, value)


def _seeded(mutator: Any, seed: int, name: str) -> Any:
    copy_ = mutator.duplicate()
    copy_.set_seed(derive_seed(seed, name))
    return copy_


def output_mutants(function: Callable[..., Any], mutators: Mapping[str, Any] | None = None, *, seed: int = 0) -> list[Mutant]:
    """Mutants whose result is ``function``'s, perturbed by each mutator (``name -> mutator``;
    the defaults: +1, -1, ``None``, 0, an element deleted, two swapped, a 0 inserted).
    A sequence result is mutated as a list and given back in its type (``str``, ``tuple``...);
    an iterator result is read into a list first.

    >>> import statistics
    >>> [m.name for m in output_mutants(statistics.median)][:3]
    ['result + 1', 'result - 1', 'result replaced by None']
    """
    chosen = dict(DEFAULT_OUTPUT_MUTATORS if mutators is None else mutators)
    out = []
    for name, mutator in chosen.items():
        mutator = _seeded(mutator, seed, name)

        def mutant(*args: Any, _mutator: Any = mutator, **kwargs: Any) -> Any:
            return _mutated(_mutator, function(*args, **kwargs))

        out.append(Mutant(name, mutant, "output"))
    return out


def argument_mutants(
    function: Callable[..., Any], positions: Sequence[int] | None = None, mutators: Mapping[str, Any] | None = None, *, seed: int = 0
) -> list[Mutant]:
    """Mutants that call ``function`` with the argument at each of ``positions`` (default: every
    positional parameter the signature shows, else the first) perturbed by each mutator
    (defaults: +1, an element deleted, two swapped). The mutated argument is a new value, so
    a function that changes its argument in place changes a copy: a lost update.

    >>> import bisect
    >>> [m.name for m in argument_mutants(bisect.insort)][:2]
    ['argument 0 + 1', 'argument 0 with an element deleted']
    """
    if positions is None:
        positions = _positional_count(function)
    chosen = dict(DEFAULT_ARGUMENT_MUTATORS if mutators is None else mutators)
    out = []
    for position in positions:
        for name, mutator in chosen.items():
            label = f"argument {position} {name}"
            mutator = _seeded(mutator, seed, label)

            def mutant(*args: Any, _mutator: Any = mutator, _i: int = position, **kwargs: Any) -> Any:
                if _i < len(args):
                    args = (*args[:_i], _mutated(_mutator, args[_i]), *args[_i + 1 :])
                return function(*args, **kwargs)

            out.append(Mutant(label, mutant, "argument"))
    return out


def _positional_count(function: Callable[..., Any]) -> list[int]:
    try:
        parameters = inspect.signature(function).parameters.values()
    except (TypeError, ValueError):
        return [0]
    count = sum(1 for p in parameters if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) and p.default is p.empty)
    return list(range(max(count, 1)))


DEFAULT_OUTPUT_MUTATORS: dict[str, Any] = {
    "result + 1": Offset(1),
    "result - 1": Offset(-1),
    "result replaced by None": Replace(None),
    "result replaced by 0": Replace(0),
    "result with an element deleted": DeleteElement(),
    "result with two elements swapped": Swap(),
    "result with a 0 inserted": InsertElement(0),
}

DEFAULT_ARGUMENT_MUTATORS: dict[str, Any] = {
    "+ 1": Offset(1),
    "with an element deleted": DeleteElement(),
    "with two elements swapped": Swap(),
}


@dataclasses.dataclass
class MutantRun:
    """One property against one mutant: ``status`` is ``"killed"``, ``"survived"``,
    ``"timeout"`` or ``"error"`` (nothing reached the property); ``inputs`` the inputs
    tried (for a kill: up to and including the killing one); ``seconds`` the time taken."""

    property: str
    mutant: str
    status: str
    inputs: int
    seconds: float
    detail: str = ""


@dataclasses.dataclass
class PropertyCoverage:
    """The result of :func:`property_coverage`.

    ``properties`` maps each property's name to its run on the original function (each
    must pass there: a property that fails on the original is reported and not run on
    mutants); ``runs`` has one :class:`MutantRun` per property and live mutant;
    ``equivalent`` names the possibly-equivalent mutants (the same outputs on the recorded
    calls, and killed by no property); ``not_applicable`` is kept for compatibility and is
    empty: a mutant that raises on every call is run, and killed.
    """

    function: str
    properties: dict[str, TestReport]
    mutants: list[str]
    runs: list[MutantRun]
    equivalent: list[str]
    not_applicable: dict[str, str]
    failing_on_original: dict[str, str]

    def run(self, property: str, mutant: str) -> MutantRun:
        """The run of ``property`` against ``mutant``."""
        for r in self.runs:
            if r.property == property and r.mutant == mutant:
                return r
        raise KeyError(f"no run of {property!r} against {mutant!r}")

    def killed(self, property: str | None = None) -> list[str]:
        """The mutants killed by ``property`` (by any property when ``None``)."""
        return sorted({r.mutant for r in self.runs if r.status == "killed" and (property is None or r.property == property)})

    def kill_rate(self, property: str | None = None) -> float:
        """The share of the live mutants (neither equivalent nor inapplicable) killed."""
        return len(self.killed(property)) / len(self.mutants) if self.mutants else 0.0

    def table(self) -> str:
        """The kill table: a row per mutant, a column per property; ``k@n`` killed at input n,
        ``-`` survived, ``T`` timeout, ``E`` error; then each property's kill rate, the mean
        number of inputs to kill, and where the stopping rule stopped on the original."""
        names = list(self.properties)
        width = max([len(m) for m in self.mutants] + [6])
        cols = [max(len(n), 7) for n in names]
        lines = [
            "k@n: killed at input n; -: survived; T: timeout; E: error",
            f"{'mutant':<{width}}  " + "  ".join(f"{n:>{c}}" for n, c in zip(names, cols)),
        ]
        marks = {"survived": "-", "timeout": "T", "error": "E"}
        for mutant in self.mutants:
            cells = []
            for name, c in zip(names, cols):
                try:
                    r = self.run(name, mutant)
                    cell = f"k@{r.inputs}" if r.status == "killed" else marks[r.status]
                except KeyError:
                    cell = "n/a"
                cells.append(f"{cell:>{c}}")
            lines.append(f"{mutant:<{width}}  " + "  ".join(cells))
        lines.append("")
        for name in names:
            kills = [r.inputs for r in self.runs if r.property == name and r.status == "killed"]
            mean = f", {sum(kills) / len(kills):.1f} inputs to kill on average" if kills else ""
            original = self.properties[name]
            if name in self.failing_on_original:
                lines.append(f"{name}: FAILS on the original function: {self.failing_on_original[name]}")
                continue
            lines.append(
                f"{name}: killed {len(kills)}/{len(self.mutants)} ({self.kill_rate(name):.0%}){mean}; "
                f"{original.tried} inputs passed on the original"
            )
        lines.append(f"all properties together: killed {len(self.killed())}/{len(self.mutants)} ({self.kill_rate():.0%})")
        if self.equivalent:
            lines.append(f"possibly equivalent (same outputs on every recorded call): {', '.join(self.equivalent)}")
        if self.not_applicable:
            lines.append(f"not applicable: {', '.join(self.not_applicable)}")
        return "\n".join(lines)

    def __str__(self) -> str:
        return f"property coverage of {self.function}\n{self.table()}"


class _Recording:
    """The function under test, keeping a copy of the arguments of its first calls."""

    def __init__(self, function: Callable[..., Any], limit: int) -> None:
        self.function = function
        self.limit = limit
        self.calls: list[tuple[tuple[Any, ...], dict[str, Any]]] = []

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if len(self.calls) < self.limit:
            try:
                self.calls.append((copy.deepcopy(args), copy.deepcopy(kwargs)))
            except Exception:
                pass
        return self.function(*args, **kwargs)


def _outcome(function: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    """What a call shows: its result (iterators read) and its arguments afterwards, or the exception's type."""
    args, kwargs = copy.deepcopy(args), copy.deepcopy(kwargs)
    try:
        result = function(*args, **kwargs)
        if isinstance(result, Iterator):
            result = list(result)
    except Exception as error:
        return ("raised", type(error))
    return ("returned", result, args, kwargs)


def _same(a: Any, b: Any) -> bool:
    try:
        return bool(a == b)
    except Exception:
        return repr(a) == repr(b)


def property_coverage(
    properties: Callable[..., Any] | Sequence[Callable[..., Any]] | Mapping[str, Callable[..., Any]],
    function: Callable[..., Any],
    mutants: Iterable[Mutant] | None = None,
    *,
    stop: StoppingRule | None = None,
    time_limit_per_mutant: float = 2.0,
    calls_compared: int = 200,
    seed: int = 0,
    **inputs: Picker[Any],
) -> PropertyCoverage:
    """Run each property against mutants of ``function`` and report which it kills.

    A property is a test that receives the function under test first, then one keyword
    argument per picker of ``inputs``: ``prop(f, xs=...)``; it fails by raising or
    returning ``False``, as for :class:`~synthia.Assert`. ``properties`` is one such
    function, a list (named after the functions) or a dict of names to functions.
    ``mutants`` default to :func:`output_mutants` and :func:`argument_mutants` of
    ``function``. Each property first runs on ``function`` itself with ``stop`` (default
    :class:`~synthia.Bayesian`: 58 passing inputs) -- it must pass there -- and its calls
    to the function are recorded: a mutant that gives the same outputs on all of the first
    ``calls_compared`` recorded calls and that no property kills is possibly equivalent (the
    recorded calls alone never decide it: a difference may lie beyond them). Every (property,
    mutant) pair runs with the same seed and rule, without shrinking, within
    ``time_limit_per_mutant`` seconds; a mutant that raises on every call is killed at the
    first input, as any property that calls the function would show.

    >>> import statistics, synthia as sy
    >>> def between(median, xs):
    ...     assert min(xs) <= median(xs) <= max(xs)
    >>> result = sy.property_coverage(between, statistics.median, xs=sy.ComposeList(sy.RandomInteger(-50, 50), sy.RandomInteger(1, 8)))
    >>> result.kill_rate("between") > 0.5, "result + 1" in result.killed("between")
    (True, True)
    """
    named = _named(properties)
    check_callable(function, "function")
    time_limit_per_mutant = check_float(time_limit_per_mutant, "time_limit_per_mutant")
    if not time_limit_per_mutant > 0:
        raise ValueError(f"time_limit_per_mutant must be a positive number of seconds, got {time_limit_per_mutant!r}")
    if not inputs:
        raise ValueError("property_coverage needs at least one input picker, as a keyword argument (xs=ComposeList(...))")
    if stop is not None and not isinstance(stop, StoppingRule):
        raise TypeError(f"stop must be a StoppingRule such as FixedCount(100), or None, got {stop!r} ({type(stop).__name__})")
    calls_compared = check_count(calls_compared, "calls_compared")
    seed = check_seed(seed)
    rule = Bayesian() if stop is None else stop
    chosen = check_values(mutants, "mutants") if mutants is not None else output_mutants(function, seed=seed) + argument_mutants(function, seed=seed)
    for i, mutant in enumerate(chosen):
        if not isinstance(mutant, Mutant):
            raise TypeError(f"mutants[{i}] must be a Mutant(name, function), got {mutant!r}")

    recording = _Recording(function, calls_compared)
    originals: dict[str, TestReport] = {}
    failing: dict[str, str] = {}
    for name, prop in named.items():
        report = _run(prop, recording, rule, seed, inputs, time_limit_per_mutant * 10)
        originals[name] = report
        if not report.passed:
            failing[name] = report.error or f"{report.smallest!r}: {report.exception!r}"

    # Every mutant is run: one that raises on every call is killed at the first input, and one
    # that gives the same outputs on the recorded calls is only *possibly* equivalent -- it
    # is called so when no property kills it either.
    candidates: set[str] = set()
    not_applicable: dict[str, str] = {}
    live: list[Mutant] = list(chosen)
    expected = [_outcome(function, a, k) for a, k in recording.calls]
    for mutant in chosen:
        try:
            with time_limit(time_limit_per_mutant):
                seen = [_outcome(mutant.function, a, k) for a, k in recording.calls]
        except RunInterrupted:
            continue  # too slow to compare: its runs will say so
        if seen and all(_same(s, e) for s, e in zip(seen, expected)):
            candidates.add(mutant.name)

    runs = []
    for name, prop in named.items():
        if name in failing:
            continue
        for mutant in live:
            t0 = time.perf_counter()
            try:
                report = _run(prop, mutant.function, rule, seed, inputs, time_limit_per_mutant)
            except RunInterrupted as stopped:
                runs.append(MutantRun(name, mutant.name, "timeout", 0, time.perf_counter() - t0, str(stopped)))
                continue
            seconds = time.perf_counter() - t0
            if report.error is not None:
                runs.append(MutantRun(name, mutant.name, "error", 0, seconds, report.error))
            elif report.passed:
                runs.append(MutantRun(name, mutant.name, "survived", report.tried, seconds))
            else:
                index = report.first_index
                killed_at = index + 1 if index is not None else report.tried
                raised = "returned False" if report.exception is None else f"{type(report.exception).__name__}: {report.exception}"
                runs.append(MutantRun(name, mutant.name, "killed", killed_at, seconds, raised))
    killed = {r.mutant for r in runs if r.status == "killed"}
    equivalent = [m.name for m in chosen if m.name in candidates and m.name not in killed]
    runs = [r for r in runs if r.mutant not in equivalent]
    return PropertyCoverage(
        getattr(function, "__qualname__", repr(function)), originals, [m.name for m in live if m.name not in equivalent], runs,
        equivalent, not_applicable, failing,
    )


def _named(properties: Any) -> dict[str, Callable[..., Any]]:
    if callable(properties) and not isinstance(properties, Mapping):
        properties = [properties]
    if isinstance(properties, Mapping):
        named = dict(properties)
    elif isinstance(properties, Sequence) and not isinstance(properties, str):
        named = {getattr(p, "__name__", f"property {i}"): p for i, p in enumerate(properties)}
    else:
        raise TypeError(f"properties must be a function, a list of functions or a dict of names to functions, got {properties!r}")
    if not named:
        raise ValueError("properties must hold at least one property")
    for name, prop in named.items():
        check_callable(prop, f"properties[{name!r}]")
    return named


def _run(
    prop: Callable[..., Any], function: Callable[..., Any], rule: StoppingRule, seed: int, inputs: dict[str, Picker[Any]], limit: float
) -> TestReport:
    def test(**values: Any) -> Any:
        return prop(function, **values)

    harness = Assert(test, RunOptions(stop=rule, shrink_budget=0, name=getattr(prop, "__name__", "property")), **cast(dict[str, Any], inputs))
    with time_limit(limit):
        return harness.run(seed=seed)
