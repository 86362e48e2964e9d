"""What the inputs of a run say: passes, classes, labels, coverage requirements, residual risk.

A harness keeps one :class:`Evidence` per run and feeds it every tested input (discarded
ones never count). Stopping rules read it (a :class:`~synthia.Bayesian` rule's coverage,
saturation and history), the report carries it (``report.evidence``), and its
:meth:`~Evidence.summary` is the part of the report that says how much the run showed.

The statistics over classes are kept incrementally, so each input costs a few dict
updates: the plug-in entropy is ``log n - (1/n) sum c log c``, and the sum only changes by
one term when a class count goes from ``c`` to ``c + 1``.

Coverage **requirements** (:func:`synthia.cover`) follow QuickCheck's ``checkCoverage``: at
``n = 100, 200, 400, ...`` tested inputs each requirement "label in at least ``p`` of the
inputs" is checked with Wilson score bounds at a stated ``certainty`` (default ``10**9``):
it is *met* when the lower bound reaches ``tolerance * p`` (default tolerance 0.9), and
*confidently not met* when the upper bound is below ``p``, which fails the run. While a
requirement is undecided, the run goes on past what its stopping rule asked, up to
``limit`` inputs (then the report warns that it stayed undecided).
"""
from __future__ import annotations

import math
from collections import Counter, defaultdict
from dataclasses import dataclass
from typing import Any, Hashable, Iterable

from ..core.checks import check_float, check_int
from .coverage import describe_class, wilson_high, wilson_low

__all__ = ["Evidence", "Requirement", "RISK_MASSES", "COVER_CERTAINTY", "COVER_TOLERANCE", "COVER_LIMIT"]

#: The failure-region masses the residual risk is stated for.
RISK_MASSES = (0.05, 0.01, 0.001)
#: QuickCheck's defaults for checking coverage requirements.
COVER_CERTAINTY = 1e9
COVER_TOLERANCE = 0.9
#: Undecided requirements extend a run up to this many tested inputs (100 * 2**10).
COVER_LIMIT = 102_400


@dataclass
class Requirement:
    """A coverage requirement: ``label`` on at least ``p`` of the tested inputs."""

    label: str
    p: float
    hits: int = 0
    verdict: str = "undecided"  # "met", "not met" or "undecided"

    def describe(self, n: int) -> str:
        share = self.hits / n if n else 0.0
        return f"{share:.1%} {self.label} (required {self.p:.0%}): {self.verdict}"


class Evidence:
    """The running record of one harness run (see the module docstring).

    ``classes`` counts the inputs per class (only when the run records classes: a rule
    that needs them, or ``RunOptions(classes=True)``); ``labels`` counts the labels the
    test gave with :func:`~synthia.event` and the requirements of :func:`~synthia.cover`
    that held; ``history`` has one entry per tested input for each metric (``"classes"``,
    ``"entropy"``, ``"good_turing"``, ``"chao1"``, and what the stopping rule adds, such as
    ``"lower_bound"``).

    >>> evidence = Evidence(classes=True)
    >>> for klass in "aabc":
    ...     evidence.observe(True, klass)
    >>> evidence.passes, len(evidence.classes), evidence.good_turing
    (4, 3, 0.5)
    >>> round(evidence.residual_risk(0.01), 4)  # a 1% failure region missed by 4 passes
    0.9606
    """

    def __init__(
        self, classes: bool = False, *, certainty: float = COVER_CERTAINTY, tolerance: float = COVER_TOLERANCE, limit: int = COVER_LIMIT
    ) -> None:
        self.recording_classes = bool(classes)
        # Named as the run option that gives them (RunOptions.coverage_certainty, ...).
        certainty = check_float(certainty, "coverage_certainty")
        if not certainty > 1:
            raise ValueError(f"coverage_certainty must be above 1 (QuickCheck uses 10**9), got {certainty!r}")
        tolerance = check_float(tolerance, "coverage_tolerance")
        if not 0 < tolerance <= 1:
            raise ValueError(f"coverage_tolerance must be in (0, 1], got {tolerance!r}")
        self.certainty = certainty
        self.tolerance = tolerance
        self.limit = check_int(limit, "limit", minimum=100)
        self.n = 0
        self.passes = 0
        self.failures = 0
        self.classes: Counter[Hashable] = Counter()
        self.labels: Counter[str] = Counter()
        self.requirements: dict[str, Requirement] = {}
        self.history: dict[str, list[float]] = defaultdict(list)
        self._classified = 0
        self._sum_c_log_c = 0.0
        self._f1 = 0
        self._f2 = 0

    # -- feeding ------------------------------------------------------------------------------
    def observe(self, passed: bool, klass: Hashable = None, labels: Iterable[str] = (), covers: Iterable[tuple[str, float, bool]] = ()) -> None:
        """One tested input: whether it passed, its class (``None`` when classes are not
        recorded), the labels the test gave it, and the ``(label, p, held)`` of each
        coverage requirement it met on the way."""
        self.n += 1
        if passed:
            self.passes += 1
        else:
            self.failures += 1
        for label in labels:
            self.labels[label] += 1
        for label, p, held in covers:
            requirement = self.requirements.get(label)
            if requirement is None:
                requirement = self.requirements[label] = Requirement(label, p)
            elif requirement.p != p:
                raise ValueError(f"cover({label!r}, ...) is required at {requirement.p!r} and at {p!r}: one label, one requirement")
            if held:
                requirement.hits += 1
                self.labels[label] += 1
        if self.recording_classes:
            self._classify(klass)

    def _classify(self, klass: Hashable) -> None:
        c = self.classes[klass]
        self.classes[klass] = c + 1
        self._classified += 1
        self._sum_c_log_c += (c + 1) * math.log(c + 1) - (c * math.log(c) if c else 0.0)
        if c == 0:
            self._f1 += 1
        elif c == 1:
            self._f1 -= 1
            self._f2 += 1
        elif c == 2:
            self._f2 -= 1
        history = self.history
        history["classes"].append(len(self.classes))
        history["entropy"].append(self.entropy)
        history["good_turing"].append(self.good_turing)
        history["chao1"].append(self.chao1)

    # -- class statistics ---------------------------------------------------------------------
    @property
    def entropy(self) -> float:
        """The plug-in entropy of the classes seen, in nats."""
        n = self._classified
        return math.log(n) - self._sum_c_log_c / n if n else 0.0

    @property
    def miller_madow(self) -> float:
        """The entropy corrected for the plug-in's bias, ``+ (m - 1) / 2n``."""
        n = self._classified
        return self.entropy + (len(self.classes) - 1) / (2 * n) if n else 0.0

    @property
    def normalised_entropy(self) -> float:
        """The entropy over ``log m``, ``m`` the classes seen (1: hit evenly; ``nan`` for one class)."""
        m = len(self.classes)
        return self.entropy / math.log(m) if m > 1 else math.nan

    @property
    def good_turing(self) -> float:
        """The Good–Turing probability that the next input falls in a class not seen yet."""
        return self._f1 / self._classified if self._classified else 1.0

    @property
    def chao1(self) -> float:
        """The Chao1 estimate of the number of classes, seen or not."""
        return len(self.classes) + self._f1 * (self._f1 - 1) / (2 * (self._f2 + 1))

    def k_hit(self, k: int = 1) -> float:
        """The share of the estimated classes (Chao1) seen at least ``k`` times."""
        total = self.chao1
        if not total:
            return 0.0
        seen = len(self.classes) if k <= 1 else sum(1 for c in self.classes.values() if c >= k)
        return seen / total

    def discovery_rate(self, window: int) -> float | None:
        """New classes per input over the last ``window`` inputs (``None`` before enough inputs)."""
        seen = self.history["classes"]
        if len(seen) <= window:
            return None
        return (seen[-1] - seen[-1 - window]) / window

    # -- guarantees ---------------------------------------------------------------------------
    def residual_risk(self, mass: float) -> float:
        """The probability that a failure region of ``mass`` (under the wiring's
        distribution) is missed by a run whose every input passed: ``(1 - mass) ** passes``.

        It assumes independent inputs; a stateful wiring (``Tick``, ``Playback``) makes it
        an approximation."""
        return (1.0 - mass) ** self.passes

    # -- coverage requirements ----------------------------------------------------------------
    def check_coverage(self) -> str:
        """Decide every requirement at the current count: ``"met"`` (all met), ``"not met"``
        (one is confidently not met) or ``"undecided"``."""
        alpha = 1.0 / self.certainty
        n = self.n
        for requirement in self.requirements.values():
            if requirement.verdict == "not met":
                continue
            if wilson_high(requirement.hits, n, alpha) < requirement.p:
                requirement.verdict = "not met"
            elif wilson_low(requirement.hits, n, alpha) >= self.tolerance * requirement.p:
                requirement.verdict = "met"
            else:
                requirement.verdict = "undecided"
        verdicts = {r.verdict for r in self.requirements.values()}
        if "not met" in verdicts:
            return "not met"
        return "undecided" if "undecided" in verdicts else "met"

    @staticmethod
    def is_checkpoint(n: int) -> bool:
        """Whether requirements are checked after ``n`` tested inputs (100, 200, 400, ...)."""
        return n >= 100 and n % 100 == 0 and ((n // 100) & (n // 100 - 1)) == 0

    def unmet(self) -> list[Requirement]:
        return [r for r in self.requirements.values() if r.verdict == "not met"]

    # -- the report ---------------------------------------------------------------------------
    def summary(self, top: int = 5) -> list[str]:
        """Lines for the report: classes and their statistics, labels, requirements, risk."""
        lines = []
        if self.recording_classes and self.classes:
            lines.append(
                f"classes: {len(self.classes)} seen (Chao1 estimate {self.chao1:.1f} in all; seen "
                f"{self.k_hit(1):.0%} of them, twice or more {self.k_hit(2):.0%}); entropy "
                f"{self.miller_madow:.3f} nats (Miller–Madow)"
                + (f", normalised {self.normalised_entropy:.2f}; " if len(self.classes) > 1 else " (one class: nothing to normalise); ")
                + 
                f"P(next input in a new class) = {self.good_turing:.3f} (Good–Turing)"
            )
            common = self.classes.most_common(top)
            shown = "; ".join(f"{count}× {_show_class(klass)}" for klass, count in common)
            lines.append(f"most frequent classes: {shown}")
        if self.labels:
            shown = ", ".join(f"{label} {count / self.n:.1%}" for label, count in self.labels.most_common(10))
            lines.append(f"labels: {shown}")
        for requirement in self.requirements.values():
            lines.append(f"coverage: {requirement.describe(self.n)}")
        if self.passes and not self.failures:
            risks = ", ".join(f"{m:g}: {self.residual_risk(m):.3g}" for m in RISK_MASSES)
            lines.append(f"residual risk (a failure region of this mass missed by {self.passes} passes): {risks}")
        return lines

    def plot(self, rule: Any = None, *, figure: Any = None) -> Any:
        """Figures of the run (needs matplotlib, extra ``plots``); see :func:`synthia.engine.figures.plot_evidence`."""
        from .figures import plot_evidence

        return plot_evidence(self, rule, figure=figure)

    def to_json(self) -> dict[str, Any]:
        """The counts and metrics as plain JSON data (classes by their text)."""
        return {
            "n": self.n,
            "passes": self.passes,
            "failures": self.failures,
            "classes": len(self.classes),
            "chao1": self.chao1,
            "entropy": self.entropy,
            "miller_madow": self.miller_madow,
            "good_turing": self.good_turing,
            "labels": dict(self.labels),
            "requirements": {r.label: {"p": r.p, "hits": r.hits, "verdict": r.verdict} for r in self.requirements.values()},
            "residual_risk": {str(m): self.residual_risk(m) for m in RISK_MASSES},
        }


def _show_class(klass: Hashable, width: int = 100) -> str:
    text = describe_class(klass)
    return text if len(text) <= width else text[: width - 3] + "..."
