"""The ``Assert`` harness: draw inputs from pickers, find a failure, shrink it, report."""
from __future__ import annotations

import copy
import time
from typing import Any, Callable

from ..core.constant import Nothing
from ..core.exceptions import GiveUp, NoMoreElements
from ..core.graph import upstream
from ..core.instrument import intercept
from ..core.picker import Picker, Shrinkable
from ..core.random import check_seed, derive_seed, fresh_seed
from ..core.shrinking import simplicity
from ..pickers.filters import PickSmaller
from ..pickers.scalars import RandomFloat
from .report import TestReport
from .stopping import FixedCount, Outcome, StoppingRule

__all__ = ["Assert"]

#: Magnitudes tried in order at each shrinking step (the most aggressive first), with the
#: number of candidates drawn at each: the last, widest one is searched longest before a
#: cycle concludes that nothing smaller fails.
MAGNITUDES = ((0.25, 10), (0.5, 10), (0.75, 10), (1.0, 200))


class Assert:
    """Check that ``test`` holds for inputs drawn from pickers; shrink any failure.

    ``test`` receives one keyword argument per picker given (``x=...``, ``y=...``).
    It fails when it returns ``False`` or raises an exception (kept with its
    traceback); any other return value is a pass. :meth:`run` draws inputs until the
    stopping rule ``stop`` (default ``FixedCount(100)``) says enough, shrinks the
    first failure argument by argument (each argument through its own picker's
    ``shrink``, the others fixed), always re-centring on the last *failure*, and
    stops shrinking when a full cycle over the arguments finds nothing smaller. With
    ``restarts`` > 0, discovery goes on after a failure to find and shrink that many
    more, and the smallest of all is reported. Everything is derived from one seed.

    >>> from synthia import RandomInteger
    >>> report = Assert(lambda x: x < 500, x=RandomInteger(0, 1000)).run(seed=1)
    >>> report.passed, report.smallest
    (False, {'x': 500})
    """

    def __init__(
        self,
        test: Callable[..., Any],
        stop: StoppingRule | None = None,
        *,
        restarts: int = 1,
        shrink_budget: int = 20_000,
        name: str | None = None,
        **inputs: Picker[Any],
    ) -> None:
        if not callable(test):
            raise TypeError(f"test must be callable, got {test!r}")
        if not inputs:
            raise ValueError("Assert needs at least one input picker, given as a keyword argument (x=RandomInteger(0, 10))")
        for key, picker in inputs.items():
            if not isinstance(picker, Picker):
                raise TypeError(f"input {key} must be a picker, got {picker!r} ({type(picker).__name__})")
        self.test = test
        self.inputs = dict(inputs)
        self.stop = FixedCount(100) if stop is None else stop
        if not isinstance(self.stop, StoppingRule):
            raise TypeError(f"stop must be a StoppingRule such as FixedCount(100), got {stop!r}")
        if isinstance(restarts, bool) or not isinstance(restarts, int) or restarts < 0:
            raise ValueError(f"restarts must be a non-negative int, got {restarts!r}")
        if isinstance(shrink_budget, bool) or not isinstance(shrink_budget, int) or shrink_budget < 0:
            raise ValueError(f"shrink_budget must be a non-negative int, got {shrink_budget!r}")
        self.restarts = restarts
        self.shrink_budget = shrink_budget
        self.name = name or getattr(test, "__name__", "test")

    def __repr__(self) -> str:
        args = ", ".join(f"{k}={v!r}" for k, v in self.inputs.items())
        return f"Assert({self.name}, {args}, stop={self.stop!r})"

    # -- single checks and replay ------------------------------------------------------
    def check(self, values: dict[str, Any]) -> tuple[bool, BaseException | None]:
        """Run the test once on ``values``: ``(passed, exception or None)``."""
        try:
            result = self.test(**values)
        except Exception as exc:  # a raising test is a failing test
            return False, exc
        return result is not False, None

    def fresh_inputs(self, seed: int) -> dict[str, Picker[Any]]:
        """Independent copies of the input pickers, seeded for a run with ``seed``."""
        return {key: p.duplicate().set_seed(derive_seed(seed, key)) for key, p in self.inputs.items()}

    def example(self, seed: int, index: int) -> dict[str, Any]:
        """The input number ``index`` (0-based) that a run with ``seed`` draws."""
        pickers = self.fresh_inputs(seed)
        values: dict[str, Any] = {}
        for _ in range(index + 1):
            values = {key: p.pick() for key, p in pickers.items()}
        return values

    def key(self, values: dict[str, Any]) -> tuple[Any, ...]:
        """The order in which failing inputs compare: each argument in its picker's order."""
        return tuple(self._key_of(name, values[name]) for name in self.inputs)

    def _key_of(self, name: str, value: Any) -> Any:
        picker = self.inputs[name]
        return picker.shrink_key(value) if isinstance(picker, Shrinkable) else simplicity(value)

    # -- the run ------------------------------------------------------------------------
    def run(self, seed: int | None = None, *, first: dict[str, Any] | None = None) -> TestReport:
        """Test, shrink, and report. ``seed=None`` draws a fresh seed (always in the report).

        ``first`` is an input to try before any drawn one (a failure saved by a
        previous run).
        """
        seed = fresh_seed() if seed is None else check_seed(seed)
        pickers = self.fresh_inputs(seed)
        decision = RandomFloat(seed=derive_seed(seed, "#shrink"))
        report = TestReport(passed=True, seed=seed, reason="", harness=self)
        rule = self.stop
        rule.begin()
        best: dict[str, Any] | None = None
        best_exception: BaseException | None = None
        starts = 0
        started = time.perf_counter()
        shrinking = 0.0
        index = 0
        pending = [first] if first is not None else []
        reason = ""
        while True:
            if pending:
                values = pending.pop()
                drawn_index = None
            else:
                reason = rule.reason_to_stop() or ""
                if reason:
                    break
                try:
                    values = {key: p.pick() for key, p in pickers.items()}
                except NoMoreElements:
                    reason = "the input pickers ran out of values"
                    break
                except GiveUp as err:
                    reason = f"an input picker gave up: {err}"
                    break
                drawn_index = index
                index += 1
            snapshot = copy.deepcopy(values)
            passed, exception = self.check(values)
            report.tried += 1
            if drawn_index is not None:
                rule.observe(Outcome(drawn_index, snapshot, passed))
            if passed:
                continue
            report.failures += 1
            if report.first is None:
                report.first, report.first_index = snapshot, drawn_index
            t0 = time.perf_counter()
            small, small_exception, steps, tries = self._shrink(snapshot, exception, decision)
            shrinking += time.perf_counter() - t0
            report.shrink_steps += steps
            report.shrink_tries += tries
            if best is None or self.key(small) < self.key(best):
                best, best_exception = small, small_exception
            starts += 1
            if starts > self.restarts:
                reason = "found a failure and shrank it until a full cycle found nothing smaller"
                if starts > 1:
                    reason += f" ({starts} failures shrunk, the smallest kept)"
                break
        report.time_shrinking = shrinking
        report.time_discovery = time.perf_counter() - started - shrinking
        report.reason = reason
        if best is not None:
            report.passed = False
            report.smallest = best
            report.exception = best_exception
        report.picker_times = self.profile(seed, min(max(report.tried, 1), 50))
        return report

    # -- shrinking ----------------------------------------------------------------------
    def _smaller(self, name: str, value: Any, decision: Picker[float], magnitude: float) -> Picker[Any] | None:
        picker = self.inputs[name]
        if isinstance(picker, Shrinkable):
            smaller = picker.shrink(value, decision, magnitude)
        else:
            smaller = PickSmaller(picker.duplicate(), value, key=simplicity, max_tries=200)
        return None if isinstance(smaller, Nothing) else smaller

    def _shrink(
        self,
        failing: dict[str, Any],
        exception: BaseException | None,
        decision: Picker[float],
    ) -> tuple[dict[str, Any], BaseException | None, int, int]:
        best, best_exception = failing, exception
        steps = tries = 0
        while tries < self.shrink_budget:
            improved = False
            for name in self.inputs:
                while tries < self.shrink_budget:
                    found = False
                    for magnitude, candidates in MAGNITUDES:
                        smaller = self._smaller(name, best[name], decision, magnitude)
                        if smaller is None:
                            break
                        reference = self._key_of(name, best[name])
                        for _ in range(candidates):
                            try:
                                candidate = smaller.pick()
                            except (NoMoreElements, GiveUp):
                                break
                            if not self._key_of(name, candidate) < reference:
                                continue
                            tries += 1
                            trial = {**best, name: candidate}
                            snapshot = copy.deepcopy(trial)
                            passed, trial_exception = self.check(trial)
                            if not passed:
                                best, best_exception, found = snapshot, trial_exception, True
                                steps += 1
                                break
                        if found:
                            break
                    if not found:
                        break
                    improved = True
            if not improved:
                break
        return best, best_exception, steps, tries

    # -- profiling ----------------------------------------------------------------------
    def profile(self, seed: int, n: int) -> dict[str, float]:
        """Seconds per input spent in each picker (its own time, not its inputs'), over
        the first ``n`` inputs of a run with ``seed``, replayed with timers on."""
        pickers = self.fresh_inputs(seed)
        totals: dict[int, float] = {}
        names: dict[int, str] = {}
        stack: list[float] = []

        def timed(picker: Picker[Any], pick: Callable[[], Any]) -> Callable[[], Any]:
            def wrapper() -> Any:
                stack.append(0.0)
                start = time.perf_counter()
                try:
                    return pick()
                finally:
                    elapsed = time.perf_counter() - start
                    inner = stack.pop()
                    totals[id(picker)] = totals.get(id(picker), 0.0) + elapsed - inner
                    if stack:
                        stack[-1] += elapsed

            return wrapper

        for name, root in pickers.items():
            for key, node in upstream(root):
                label = f"{name}/{key}" if key else name
                names[id(node)] = f"{label}: {type(node).__name__}"
        from contextlib import ExitStack

        with ExitStack() as stack_of_contexts:
            for root in pickers.values():
                stack_of_contexts.enter_context(intercept(root, timed))
            done = 0
            try:
                for _ in range(n):
                    for p in pickers.values():
                        p.pick()
                    done += 1
            except (NoMoreElements, GiveUp):
                pass
        done = max(done, 1)
        return {names[k]: v / done for k, v in totals.items()}
