"""The Bayesian stopping rule: stop when the inputs have shown enough, and say what they showed.

The pass rate ``theta`` of a test under a wiring (the probability that an input the
wiring makes passes) gets a Beta prior, ``Beta(alpha0, beta0)``; after ``s`` passes and
``f`` failures the posterior is ``Beta(alpha0 + s, beta0 + f)``. Four criteria can stop a
run (the early-stopping paper's, with its defaults, computed exactly):

* ``"confidence"``: the exact one-sided lower credible bound, the ``delta`` quantile of the
  posterior (``scipy.special.betaincinv``, the Beta quantile), is above ``gamma``. With the uniform prior and only
  passes the posterior is ``Beta(1 + n, 1)`` and the bound is ``delta ** (1 / (n + 1))``: for
  ``gamma = delta = 0.05`` … ``0.95`` the rule stops after exactly **58** passes (the normal
  approximation of the paper's code stops at 57, which is slightly anti-conservative);
* ``"coverage"``: the share of the input classes seen (at least ``k`` times) among those
  estimated to exist (Chao1) reaches ``coverage``;
* ``"saturation"``: fewer than ``saturation`` new classes per input over the last
  ``window`` inputs;
* ``"information"``: the exact expected information gain of one more input (the expected
  Kullback–Leibler divergence from the posterior to the next one),
  ``h(m) - [m (psi(a+b+1) - psi(a+1)) + (1 - m)(psi(a+b+1) - psi(b+1))]`` with
  ``m = a / (a + b)`` and ``h`` the binary entropy, is below ``information`` (with only
  passes: after 421 inputs for the default 0.001).

``combine`` joins the criteria in ``criteria``: ``"any"`` stops when one holds (the reason
named follows the order above), ``"all"`` when every one that can be computed holds,
``"weighted"`` when the weights of those that hold reach half the weights of those that
can be computed (paper's weights: confidence 1, coverage 1, saturation 0.5, information
0.5). No run stops before ``min_samples`` inputs, and every run stops at ``max_samples``.

The default is ``criteria=("confidence",)``: the only criterion whose stop comes with a
guarantee about the pass rate. The others say the wiring has stopped showing new kinds
of inputs, which is worth knowing but proves nothing about the inputs not yet made.
"""
from __future__ import annotations

import math
from typing import Any, Mapping, Sequence

from ..core.checks import check_float, check_int, check_probability, check_values
from ..engine.stopping import Outcome, StoppingRule

__all__ = ["Bayesian", "expected_information_gain", "lower_credible_bound", "passes_needed"]

CRITERIA = ("confidence", "coverage", "saturation", "information")
WEIGHTS = {"confidence": 1.0, "coverage": 1.0, "saturation": 0.5, "information": 0.5}


def lower_credible_bound(alpha: float, beta: float, delta: float) -> float:
    """The exact one-sided lower bound of ``Beta(alpha, beta)`` at error ``delta``: its
    ``delta`` quantile.

    >>> round(lower_credible_bound(59, 1, 0.05), 5)  # 58 passes, uniform prior
    0.95049
    """
    if beta == 1.0:
        # The CDF of Beta(a, 1) is x**a: the quantile is closed-form (and cheap at every input).
        return float(delta ** (1.0 / alpha))
    # The inverse of the regularised incomplete beta function is the Beta quantile (scipy.special
    # imports in a fraction of the time scipy.stats takes).
    from scipy.special import betaincinv

    return float(betaincinv(alpha, beta, delta))


def passes_needed(gamma: float = 0.95, delta: float = 0.05, prior: tuple[float, float] = (1.0, 1.0)) -> int:
    """The number of passes, without failure, after which the confidence criterion holds.

    >>> passes_needed(), passes_needed(0.99), passes_needed(0.999)
    (58, 298, 2994)
    """
    alpha0, beta0 = prior
    if beta0 == 1.0:
        # delta ** (1 / (alpha0 + n)) > gamma  <=>  alpha0 + n > log(delta) / log(gamma)
        n = max(0, math.floor(math.log(delta) / math.log(gamma) - alpha0) + 1)
        while n > 0 and lower_credible_bound(alpha0 + n - 1, 1.0, delta) > gamma:
            n -= 1
        while not lower_credible_bound(alpha0 + n, 1.0, delta) > gamma:
            n += 1
        return n
    n = 0
    while not lower_credible_bound(alpha0 + n, beta0, delta) > gamma:
        n += 1
    return n


def _binary_entropy(m: float) -> float:
    return -sum(p * math.log(p) for p in (m, 1.0 - m) if p > 0)


def expected_information_gain(alpha: float, beta: float) -> float:
    """The expected KL divergence (nats) from ``Beta(alpha, beta)`` to the posterior after one
    more Bernoulli observation: the mutual information between that observation and the rate.

    >>> round(expected_information_gain(1, 1), 4)
    0.1931
    """
    from scipy.special import digamma

    m = alpha / (alpha + beta)
    total = float(digamma(alpha + beta + 1))
    expected_conditional = m * (total - float(digamma(alpha + 1))) + (1.0 - m) * (total - float(digamma(beta + 1)))
    return max(0.0, _binary_entropy(m) - expected_conditional)


class Bayesian(StoppingRule):
    """Stop when a Beta posterior on the pass rate (and, optionally, the coverage of the input
    classes) says the run has shown enough; the report then states the guarantee.

    ``gamma``: the pass rate to establish; ``delta``: the error allowed (the run stops when
    the pass rate is above ``gamma`` with probability ``1 - delta``); ``prior``: the Beta
    prior's ``(alpha0, beta0)``. See the module docstring for ``criteria``, ``combine``,
    ``weights``, ``coverage``, ``k``, ``window``, ``saturation`` and ``information``.

    The harness ends a run at the first failure (it then shrinks it), so in practice the
    posterior of a passing run is ``Beta(alpha0 + n, beta0)``: after 58 passing inputs the
    default rule can say "the pass rate under this wiring is above 0.95 with probability
    0.95", and in frequentist terms a test whose pass rate is below 0.95 passes 58 inputs
    in a row with probability below 0.95**58 = 0.051.

    >>> import synthia as sy
    >>> report = sy.Assert(lambda x: x * 0 == 0, sy.Bayesian(), x=sy.RandomInteger(0, 10**6)).run(seed=1)
    >>> report.tried, report.reason
    (58, 'the pass rate is above 0.95 with probability 0.95 (confidence)')
    >>> print(report.guarantee)
    after 58 passing inputs, the pass rate under this wiring is above 0.95 with probability 0.95 (posterior Beta(59, 1), exact lower bound 0.9505)
    """

    needs_classes = True
    keeps_outcomes = False

    def __init__(
        self,
        gamma: float = 0.95,
        delta: float = 0.05,
        prior: tuple[float, float] = (1.0, 1.0),
        *,
        criteria: Sequence[str] = ("confidence",),
        combine: str = "any",
        weights: dict[str, float] | None = None,
        min_samples: int = 10,
        max_samples: int = 10_000,
        coverage: float = 0.8,
        k: int = 1,
        window: int = 10,
        saturation: float = 0.001,
        information: float = 0.001,
    ) -> None:
        self.gamma = check_probability(gamma, "gamma")
        self.delta = check_probability(delta, "delta")
        if not 0 < self.gamma < 1:
            raise ValueError(f"gamma must be strictly between 0 and 1, got {gamma!r}")
        if not 0 < self.delta < 1:
            raise ValueError(f"delta must be strictly between 0 and 1, got {delta!r}")
        if not isinstance(prior, (tuple, list)) or len(prior) != 2:
            raise TypeError(f"prior must be a pair (alpha0, beta0), got {prior!r}")
        alpha0, beta0 = (check_float(v, "prior") for v in prior)
        if not (alpha0 > 0 and beta0 > 0):
            raise ValueError(f"prior must be two positive numbers (alpha0, beta0), got {prior!r}")
        self.prior = (alpha0, beta0)
        if isinstance(criteria, str):
            criteria = CRITERIA if criteria == "all" else (criteria,)
        self.criteria = tuple(check_values(criteria, "criteria"))
        unknown = [c for c in self.criteria if c not in CRITERIA]
        if unknown or not self.criteria:
            raise ValueError(f"criteria must be some of {CRITERIA} (or 'all'), got {criteria!r}")
        if combine not in ("any", "all", "weighted"):
            raise ValueError(f"combine must be 'any', 'all' or 'weighted', got {combine!r}")
        self.combine = combine
        self.weights = dict(WEIGHTS)
        if weights is not None and not isinstance(weights, Mapping):
            raise TypeError(f"weights must be a dict of criterion to weight (such as {{'coverage': 2.0}}) or None, got {weights!r} ({type(weights).__name__})")
        for name, weight in (weights or {}).items():
            if name not in CRITERIA:
                raise ValueError(f"weights names an unknown criterion {name!r} (known: {CRITERIA})")
            self.weights[name] = check_float(weight, f"weights[{name!r}]")
            if self.weights[name] < 0:
                raise ValueError(f"weights[{name!r}] must be non-negative, got {weight!r}")
        self.min_samples = check_int(min_samples, "min_samples", minimum=0)
        self.max_samples = check_int(max_samples, "max_samples", minimum=1)
        if self.max_samples < self.min_samples:
            raise ValueError(f"max_samples ({max_samples}) must be at least min_samples ({min_samples})")
        self.coverage = check_probability(coverage, "coverage")
        self.k = check_int(k, "k", minimum=1)
        self.window = check_int(window, "window", minimum=1)
        self.saturation = check_float(saturation, "saturation")
        self.information = check_float(information, "information")
        self.begin()

    # -- the run ------------------------------------------------------------------------------
    def begin(self) -> None:
        self.alpha, self.beta = self.prior
        self.n = 0
        self.stopped_by: str | None = None
        self._evidence: Any = None
        self._bound = lower_credible_bound(self.alpha, self.beta, self.delta)

    def observe(self, outcome: Outcome) -> None:
        self.n += 1
        if outcome.passed:
            self.alpha += 1
        else:
            self.beta += 1
        self._bound = lower_credible_bound(self.alpha, self.beta, self.delta)
        evidence = outcome.evidence
        self._evidence = evidence
        if evidence is not None:
            evidence.history["lower_bound"].append(self._bound)
            evidence.history["mean"].append(self.alpha / (self.alpha + self.beta))
            if "information" in self.criteria:
                evidence.history["information"].append(expected_information_gain(self.alpha, self.beta))

    @property
    def lower_bound(self) -> float:
        """The current exact lower credible bound of the pass rate."""
        return self._bound

    def holds(self) -> dict[str, bool | None]:
        """Each enabled criterion: ``True``/``False``, or ``None`` when it cannot be computed
        (no classes recorded, fewer inputs than the window)."""
        out: dict[str, bool | None] = {}
        evidence = self._evidence
        classes = evidence is not None and evidence.recording_classes and bool(evidence.classes)
        for name in self.criteria:
            if name == "confidence":
                out[name] = self._bound > self.gamma
            elif name == "information":
                out[name] = expected_information_gain(self.alpha, self.beta) < self.information
            elif not classes:
                out[name] = None
            elif name == "coverage":
                out[name] = evidence.k_hit(self.k) >= self.coverage
            else:
                rate = evidence.discovery_rate(self.window)
                out[name] = None if rate is None else rate < self.saturation
        return out

    def reason_to_stop(self) -> str | None:
        if self.n >= self.max_samples:
            self.stopped_by = "max_samples"
            return f"tried {self.n} inputs, the most this rule allows (max_samples={self.max_samples})"
        if self.n < self.min_samples:
            return None
        holds = self.holds()
        known = {name: value for name, value in holds.items() if value is not None}
        met = [name for name in self.criteria if known.get(name)]
        if not known:
            return None
        if self.combine == "any":
            stop = bool(met)
        elif self.combine == "all":
            stop = len(met) == len(known)
        else:
            stop = sum(self.weights[c] for c in met) >= 0.5 * sum(self.weights[c] for c in known)
        if not stop:
            return None
        self.stopped_by = met[0]
        return self._describe(met)

    def _describe(self, met: list[str]) -> str:
        words = {
            "confidence": f"the pass rate is above {self.gamma:g} with probability {1 - self.delta:g}",
            "coverage": f"{self._evidence.k_hit(self.k) if self._evidence else 0:.0%} of the estimated input classes were seen",
            "saturation": f"no new input class in the last {self.window} inputs",
            "information": f"one more input would add less than {self.information:g} nats",
        }
        return "; ".join(words[c] for c in met) + f" ({', '.join(met)})"

    def guarantee(self, unit: str = "inputs") -> str | None:
        if self.n == 0:
            return None
        failures = self.beta - self.prior[1]
        passes = self.alpha - self.prior[0]
        inputs = f"{passes:g} passing {unit}" if not failures else f"{self.n} {unit} ({passes:g} passing, {failures:g} failing)"
        posterior = f"posterior Beta({self.alpha:g}, {self.beta:g}), exact lower bound {self._bound:.4f}"
        if self._bound > self.gamma:
            return f"after {inputs}, the pass rate under this wiring is above {self.gamma:g} with probability {1 - self.delta:g} ({posterior})"
        return (
            f"after {inputs}, the pass rate under this wiring is above {self._bound:.3f} with probability "
            f"{1 - self.delta:g}, short of {self.gamma:g} ({posterior})"
        )

    def __repr__(self) -> str:
        parts = []
        if self.gamma != 0.95:
            parts.append(f"gamma={self.gamma:g}")
        if self.delta != 0.05:
            parts.append(f"delta={self.delta:g}")
        if self.prior != (1.0, 1.0):
            parts.append(f"prior=({self.prior[0]:g}, {self.prior[1]:g})")
        if self.criteria != ("confidence",):
            parts.append(f"criteria={self.criteria!r}")
        if self.combine != "any":
            parts.append(f"combine={self.combine!r}")
        return f"Bayesian({', '.join(parts)})"
