"""Knowing when to stop: the Bayesian rule's exact stop points and calibration, the class
statistics, coverage requirements as QuickCheck checks them, residual risk, observations,
figures, and the same rules stopping Monkey runs."""
from __future__ import annotations

import json
import math
import random
from collections import Counter
from typing import Any

import pytest

import synthia as sy
from synthia.testing import Evidence, Outcome
from synthia.testing.bayesian import expected_information_gain, lower_credible_bound, passes_needed
from synthia.engine.coverage import chao1, entropy, good_turing, k_hit, miller_madow, signature, wilson_high, wilson_low
from synthia.testing.trace import trace_class


# -- the exact bound and the analytic stop points -------------------------------------------------
@pytest.mark.parametrize("gamma, delta, n", [(0.95, 0.05, 58), (0.99, 0.05, 298), (0.999, 0.05, 2994), (0.9, 0.1, 21)])
def test_passes_needed_is_the_first_n_whose_exact_bound_clears_gamma(gamma: float, delta: float, n: int) -> None:
    assert passes_needed(gamma, delta) == n
    assert lower_credible_bound(1 + n, 1, delta) > gamma >= lower_credible_bound(n, 1, delta)


def test_the_closed_form_bound_agrees_with_scipy() -> None:
    from scipy.stats import beta

    for a in (2.0, 10.0, 59.0, 300.5):
        assert lower_credible_bound(a, 1.0, 0.05) == pytest.approx(beta.ppf(0.05, a, 1.0), rel=1e-12)
    assert lower_credible_bound(50, 3, 0.05) == pytest.approx(beta.ppf(0.05, 50, 3))


def test_the_normal_approximation_of_the_paper_stops_one_input_early() -> None:
    # The paper's code: mean - 1.96 sd > gamma, with the posterior Beta(1 + n, 1).
    z = 1.96

    def normal_stop(gamma: float) -> int:
        n = 0
        while True:
            a, b = 1 + n, 1
            mean, var = a / (a + b), a * b / ((a + b) ** 2 * (a + b + 1))
            if mean - z * math.sqrt(var) > gamma:
                return n
            n += 1

    assert normal_stop(0.95) == 57 and passes_needed(0.95, 0.05) == 58
    assert normal_stop(0.99) == 294 and passes_needed(0.99, 0.05) == 298


@pytest.mark.parametrize("gamma, n", [(0.95, 58), (0.99, 298)])
def test_an_all_pass_run_stops_exactly_at_the_analytic_n(gamma: float, n: int) -> None:
    report = sy.Assert(lambda x: True, sy.Bayesian(gamma), x=sy.RandomInteger(0, 100)).run(seed=4)
    assert report.passed and report.tried == n
    assert f"after {n} passing inputs, the pass rate under this wiring is above {gamma:g} with probability 0.95" in report.guarantee
    assert "guarantee:" in report.summary() and "FAILED" not in report.summary()


def test_the_information_criterion_stops_at_421_with_the_exact_gain() -> None:
    gains = [expected_information_gain(1 + n, 1) for n in range(600)]
    assert min(n for n, g in enumerate(gains) if g < 0.001) == 421
    assert all(a > b for a, b in zip(gains, gains[1:]))  # each pass teaches less
    rule = sy.Bayesian(criteria=("information",))
    report = sy.Assert(lambda x: True, rule, x=sy.RandomInteger(0, 9)).run(seed=1)
    assert report.tried == 421 and rule.stopped_by == "information"


def test_the_information_gain_is_the_expected_kl_divergence() -> None:
    # E[KL(posterior after one observation || posterior now)], by direct numeric integration.
    from scipy import integrate
    from scipy.stats import beta

    a, b = 3.0, 2.0

    def kl(a2: float, b2: float) -> float:
        f = lambda t: beta.pdf(t, a2, b2) * (beta.logpdf(t, a2, b2) - beta.logpdf(t, a, b))  # noqa: E731
        return float(integrate.quad(f, 0, 1)[0])

    m = a / (a + b)
    assert expected_information_gain(a, b) == pytest.approx(m * kl(a + 1, b) + (1 - m) * kl(a, b + 1), rel=1e-6)


# -- calibration: planted failures of known mass ---------------------------------------------------
def _false_accepts(mass: float, runs: int, seed: int) -> float:
    """Runs of the rule with gamma = 1 - mass on a test whose pass rate is exactly gamma: the
    share that accept (every one of them is a false accept: the pass rate is not above gamma)."""
    rng = random.Random(seed)
    accepted = 0
    for _ in range(runs):
        rule = sy.Bayesian(1 - mass)
        rule.begin()
        i = 0
        while not rule.reason_to_stop():
            passed = rng.random() >= mass
            rule.observe(Outcome(i, {}, passed))
            i += 1
            if not passed:
                break  # the harness ends a run at its first failure
        accepted += rule.stopped_by == "confidence"
    return accepted / runs


@pytest.mark.parametrize("mass, runs", [(1e-2, 2000), (1e-3, 300)])
def test_the_false_accept_rate_stays_within_delta_plus_monte_carlo_error(mass: float, runs: int) -> None:
    rate = _false_accepts(mass, runs, seed=11)
    monte_carlo = 3 * math.sqrt(0.05 * 0.95 / runs)
    assert rate <= 0.05 + monte_carlo
    # ... and the rule is not vacuous: it accepts close to the analytic (1 - mass) ** n.
    n = passes_needed(1 - mass, 0.05)
    assert rate == pytest.approx((1 - mass) ** n, abs=monte_carlo)


def test_a_planted_failure_through_the_harness_is_accepted_at_the_analytic_rate() -> None:
    # A failure region of mass 0.05 (x < 50 of 0..999) under gamma = 0.95: a run passes only if
    # its 58 inputs all miss the region, which happens with probability 0.95 ** 58 = 0.051.
    runs = 300
    passed = sum(
        sy.Assert(lambda x: x >= 50, sy.RunOptions(stop=sy.Bayesian(), shrink_budget=0), x=sy.RandomInteger(0, 1000)).run(seed=s).passed
        for s in range(runs)
    )
    assert passed / runs == pytest.approx(0.95**58, abs=3 * math.sqrt(0.05 * 0.95 / runs))


def test_the_uniform_miss_experiment_of_the_paper() -> None:
    # Exp 1a: t uniform inputs miss a failure region of mass mu with probability (1 - mu) ** t.
    mu, t, reps = 0.01, 100, 1500
    wiring = sy.RandomInteger(0, 10_000).set_seed(5)
    missed = sum(all(wiring.pick() >= mu * 10_000 for _ in range(t)) for _ in range(reps))
    expected = (1 - mu) ** t
    assert missed / reps == pytest.approx(expected, abs=3 * math.sqrt(expected * (1 - expected) / reps))
    evidence = Evidence()
    for _ in range(t):
        evidence.observe(True)
    assert evidence.residual_risk(mu) == pytest.approx(expected)


# -- the criteria and how they combine -------------------------------------------------------------
def _feed(rule: sy.Bayesian, classes: list[Any]) -> Evidence:
    evidence = Evidence(classes=True)
    rule.begin()
    for i, klass in enumerate(classes):
        evidence.observe(True, klass)
        evidence.history["classes"].append(len(evidence.classes))
        rule.observe(Outcome(i, {}, True, klass, (), evidence))
    return evidence


def test_coverage_and_saturation_criteria_read_the_classes() -> None:
    rule = sy.Bayesian(criteria=("coverage", "saturation"), combine="all", window=5)
    _feed(rule, ["a", "b", "c"] * 10)
    assert rule.holds() == {"coverage": True, "saturation": True}
    fresh = sy.Bayesian(criteria=("coverage", "saturation"), window=5)
    _feed(fresh, list(range(30)))  # every input a new class: Chao1 sees many unseen ones
    assert fresh.holds() == {"coverage": False, "saturation": False}
    assert sy.Bayesian(criteria=("coverage",)).holds() == {"coverage": None}  # no classes: cannot say


def test_combine_any_all_and_weighted() -> None:
    classes = list(range(60))  # all new: coverage and saturation fail; confidence holds at 58
    for combine, stops in (("any", True), ("all", False), ("weighted", False)):
        rule = sy.Bayesian(criteria="all", combine=combine, window=5)
        _feed(rule, classes)
        assert bool(rule.reason_to_stop()) is stops, combine
    rule = sy.Bayesian(criteria="all", combine="weighted", weights={"confidence": 5.0}, window=5)
    _feed(rule, classes)
    assert rule.reason_to_stop()  # confidence now weighs more than half


def test_min_and_max_samples() -> None:
    report = sy.Assert(lambda x: True, sy.Bayesian(criteria=("saturation",), min_samples=30), x=sy.Choice(1, 2)).run(seed=1)
    assert report.tried == 30
    report = sy.Assert(lambda x: True, sy.Bayesian(0.999, max_samples=100), x=sy.RandomInteger(0, 9)).run(seed=1)
    assert report.tried == 100 and "max_samples=100" in report.reason
    assert "short of 0.999" in report.guarantee


@pytest.mark.parametrize(
    "kwargs, words",
    [({"gamma": 1.0}, "gamma"), ({"delta": 0}, "delta"), ({"prior": (0, 1)}, "prior"), ({"criteria": ("speed",)}, "criteria"),
     ({"combine": "most"}, "combine"), ({"weights": {"x": 1}}, "weights"), ({"min_samples": 10, "max_samples": 5}, "max_samples")],
)
def test_bad_bayesian_arguments_are_named(kwargs: dict[str, Any], words: str) -> None:
    with pytest.raises((TypeError, ValueError), match=words):
        sy.Bayesian(**kwargs)


# -- class statistics ---------------------------------------------------------------------------------
def test_the_incremental_statistics_equal_the_batch_estimators() -> None:
    rng = random.Random(2)
    labels = [rng.choice("aaaabbbcdefghij") for _ in range(300)]
    evidence = Evidence(classes=True)
    for label in labels:
        evidence.observe(True, label)
    counts = Counter(labels)
    assert evidence.entropy == pytest.approx(entropy(counts))
    assert evidence.miller_madow == pytest.approx(miller_madow(counts))
    assert evidence.good_turing == pytest.approx(good_turing(counts))
    assert evidence.chao1 == pytest.approx(chao1(counts))
    assert evidence.k_hit(3) == pytest.approx(k_hit(counts, 3))


def test_estimators_on_known_counts() -> None:
    assert entropy([1] * 8) == pytest.approx(math.log(8))
    assert miller_madow([2, 2]) == pytest.approx(math.log(2) + 1 / 8)
    assert good_turing([1, 1, 1, 1]) == 1.0 and good_turing([2, 2]) == 0.0
    assert chao1([1, 1, 1, 2]) == 4 + 3 * 2 / (2 * 2)
    assert k_hit([5, 1], 2, classes=4) == 0.25


def test_the_class_of_an_input_comes_from_its_draws() -> None:
    # The class keeps the structure -- which alternative, the list length's order of magnitude,
    # the first elements' magnitudes -- not every value.
    wiring = sy.Choice(sy.ComposeList(sy.RandomInteger(0, 100), sy.RandomInteger(0, 40)), sy.Constant(None))
    groups: dict[Any, list[Any]] = {}
    for seed in range(300):
        value, tape = sy.record(wiring.duplicate().set_seed(seed))
        groups.setdefault(signature(tape), []).append(value)
    values = {repr(v) for members in groups.values() for v in members}
    assert len(groups) < len(values)
    for members in groups.values():
        assert len({v is None for v in members}) == 1  # one alternative per class
        assert len({len(v).bit_length() for v in members if v is not None}) <= 1  # one length bucket


# -- coverage requirements, as QuickCheck's checkCoverage -----------------------------------------------
def test_a_requirement_undecided_at_the_rule_s_stop_keeps_the_run_going_until_met() -> None:
    # Half the inputs are positive, 40% required: with certainty 10**9 the Wilson lower bound
    # reaches 0.9 * 0.4 only at the 800 checkpoint (QuickCheck's checkCoverage does the same).
    def test(x: int) -> None:
        sy.cover("positive", 0.4, x > 0)

    report = sy.Assert(test, x=sy.RandomInteger(-100, 100)).run(seed=1)
    assert report.passed and report.tried == 800 and report.evidence.requirements["positive"].verdict == "met"
    assert report.reason == "tried 100 inputs (FixedCount(100)); coverage requirements met after 800 inputs"


def test_a_requirement_confidently_not_met_fails_the_run() -> None:
    def test(x: int) -> None:
        sy.cover("big", 0.5, x > 90)

    report = sy.Assert(test, x=sy.RandomInteger(0, 100)).run(seed=1)
    assert report.status == "insufficient coverage" and not report.passed and report.tried == 100
    assert report.insufficient and "big" in report.insufficient[0]
    assert report.summary().startswith("FAILED: insufficient coverage")


def test_a_requirement_just_above_the_true_share_is_found_out_later() -> None:
    def test(x: int) -> None:
        sy.cover("even", 0.54, x % 2 == 0)  # the true share is 0.5

    report = sy.Assert(test, sy.FixedCount(100), x=sy.RandomInteger(0, 1000)).run(seed=3)
    assert report.status == "insufficient coverage" and report.tried > 1000


def test_discarded_inputs_do_not_count_towards_coverage() -> None:
    def test(x: int) -> None:
        sy.assume(x > 50)  # scopes the requirement: only big inputs are tested
        sy.cover("very big", 0.4, x > 75)

    with pytest.warns(sy.HealthWarning, match="discarded by assume"):
        report = sy.Assert(test, x=sy.RandomInteger(0, 101)).run(seed=2)
    assert report.passed and report.discarded > 0
    requirement = report.evidence.requirements["very big"]
    assert requirement.verdict == "met" and requirement.hits / report.tried > 0.4


def test_wilson_bounds_bracket_the_share() -> None:
    low, high = wilson_low(30, 100, 1e-9), wilson_high(30, 100, 1e-9)
    assert 0 < low < 0.3 < high < 1
    assert wilson_low(0, 100, 0.05) == pytest.approx(0.0, abs=1e-12)


def test_cover_checks_its_arguments_inside_a_run() -> None:
    report = sy.Assert(lambda x: sy.cover("c", 1.5, True), x=sy.Tick()).run(seed=1)
    assert isinstance(report.exception, ValueError) and "p must be a share" in str(report.exception)


# -- the report: labels, residual risk, observations, figures -------------------------------------
def test_a_passing_report_states_guarantee_classes_risk_and_reason() -> None:
    def test(x: int) -> None:
        sy.event("small" if x < 10 else "large")

    report = sy.Assert(test, sy.Bayesian(), x=sy.RandomInteger(0, 1000)).run(seed=1)
    text = report.summary()
    for words in ("guarantee: after 58 passing inputs", "classes:", "labels: large", "residual risk", "stopped because: the pass rate"):
        assert words in text, words
    assert "FAILED" not in text
    assert report.evidence.residual_risk(0.01) == pytest.approx(0.99**58)


def test_observations_follow_hypothesis_format(tmp_path: Any) -> None:
    report = sy.Assert(lambda x: x < 900, sy.RunOptions(observe=True), x=sy.RandomInteger(0, 1000)).run(seed=1)
    assert not report.passed
    statuses = Counter(o["status"] for o in report.observations)
    assert statuses["failed"] >= 2 and statuses["passed"] >= 1  # the failure found and the shrunk one
    required = {"type", "run_start", "property", "status", "status_reason", "representation", "arguments", "how_generated", "features", "timing", "metadata", "coverage"}
    for observation in report.observations:
        assert required <= set(observation) and observation["type"] == "test_case"
        json.dumps(observation)
    assert report.observations[-1]["how_generated"].startswith("shrunk") and report.observations[-1]["arguments"] == {"x": 900}
    path = report.write_observations(tmp_path / "out.jsonl")
    assert len(path.read_text().splitlines()) == len(report.observations)


def test_report_plot_draws_the_four_panels() -> None:
    pytest.importorskip("matplotlib")
    import matplotlib

    matplotlib.use("Agg")
    report = sy.Assert(lambda x: True, sy.Bayesian(), x=sy.ComposeList(sy.RandomInteger(0, 5), sy.RandomInteger(0, 6))).run(seed=1)
    figure = report.plot()
    titles = {ax.get_title() for ax in figure.axes}
    assert {"pass rate", "input classes", "diversity", "most frequent classes"} <= titles
    assert any(len(line.get_xdata()) == 58 for ax in figure.axes for line in ax.get_lines())


# -- Monkey ------------------------------------------------------------------------------------------------
class Stack:
    def __init__(self) -> None:
        self.items: list[int] = []

    def push(self, x: int) -> None:
        self.items.append(x)

    def pop(self) -> int | None:
        return self.items.pop() if self.items else None


def test_the_bayesian_rule_stops_a_monkey_and_states_its_guarantee() -> None:
    actions = [sy.Action("push", x=sy.RandomInteger(0, 9)), sy.Action("pop")]
    report = sy.Monkey(Stack, actions, stop=sy.Bayesian(), max_steps=6).run(seed=1)
    assert report.passed and report.tried == 58
    assert "above 0.95 with probability 0.95" in report.guarantee and "guarantee:" in report.summary()
    assert report.evidence is not None and len(report.evidence.classes) > 4
    assert "classes:" in report.summary()


def test_a_monkey_stops_on_saturation_of_its_trace_classes() -> None:
    actions = [sy.Action("push", x=sy.RandomInteger(0, 9)), sy.Action("pop")]
    rule = sy.Bayesian(criteria=("saturation",), window=50, min_samples=20)
    report = sy.Monkey(Stack, actions, stop=rule, max_steps=4).run(seed=1)
    # 2 actions, prefix 3, one length bucket: at most 8 classes, all seen early; then 50 without news.
    assert report.passed and rule.stopped_by == "saturation" and report.tried < 200
    assert len(report.evidence.classes) <= 8


def test_trace_classes() -> None:
    push, pop = sy.Action("push"), sy.Action("pop")
    steps = [sy.Step(push, {}), sy.Step(push, {}), sy.Step(pop, {}), sy.Step(pop, {}), sy.Step(pop, {})]
    assert trace_class(steps) == (("push", "push", "pop"), 3)
    assert trace_class([]) == ((), 0)


def test_the_ci_profile_stops_a_monkey_check() -> None:
    @sy.monkey()
    class TestStack:
        def __init__(self) -> None:
            self.items: list[int] = []

        @sy.action(x=sy.RandomInteger(0, 9))
        def push(self, x: int) -> None:
            self.items.append(x)

    sy.load_profile("ci")
    try:
        report = sy.Monkey.from_class(TestStack.machine)  # type: ignore[attr-defined]
        checked = report.check()
    finally:
        sy.load_profile("default")
    assert checked.tried == 100 and checked.seed == 0  # the ci profile: never fewer than the default


def test_a_failing_run_that_records_classes_leaves_no_route_behind() -> None:
    from synthia.core.draws import RoutedStream, current_route

    lists = sy.ComposeList(sy.RandomInteger(-50, 50), sy.RandomInteger(1, 8))
    report = sy.Assert(lambda xs: len(xs) < 5, sy.Bayesian(), xs=lists).run(seed=1)
    assert report.smallest == {"xs": [0, 0, 0, 0, 0]}
    assert current_route() is None
    assert not isinstance(sy.RandomInteger(0, 3)._stream, RoutedStream)  # a later picker is not routed


def test_quickchecks_documented_checkcoverage_example() -> None:
    # QuickCheck's documentation of checkCoverage: sorted xs ==> cover 50 (length xs > 1)
    # "non-trivial" (sort xs === xs) fails with "insufficient coverage", because random lists
    # that happen to be sorted are nearly all trivial. The precondition scopes the requirement.
    def sorted_sort(xs: list[int]) -> None:
        sy.assume(xs == sorted(xs))
        sy.cover("non-trivial", 0.5, len(xs) > 1)
        assert sorted(xs) == xs

    lists = sy.ComposeList(sy.RandomInteger(-10, 10), sy.RandomInteger(0, 6))
    with pytest.warns(sy.HealthWarning):
        report = sy.Assert(sorted_sort, xs=lists).run(seed=1)
    assert report.status == "insufficient coverage"
    assert "non-trivial" in report.insufficient[0] and "required 50%" in report.insufficient[0]
    # ... and with lists built sorted (no filter), the same requirement is met.
    built_sorted = sy.Apply(sorted, sy.ComposeList(sy.RandomInteger(-10, 10), sy.RandomInteger(0, 6)))
    assert sy.Assert(sorted_sort, xs=built_sorted).run(seed=1).status == "passed"


EVIDENCE_SCRIPT = """
import synthia as sy
lists = sy.ComposeList(sy.RandomInteger(-50, 50), sy.RandomInteger(1, 8))
def test(xs):
    sy.event("long" if len(xs) > 4 else "short")
    assert sum(xs) < 60
for rule in (sy.Bayesian(), sy.Bayesian(criteria="all")):
    r = sy.Assert(test, rule, xs=lists).run(seed=11)
    print(r.tried, r.smallest, r.reason, r.guarantee, r.evidence.summary())
def always(xs):
    sy.event("long" if len(xs) > 4 else "short")
r = sy.Assert(always, sy.Bayesian(criteria="all", combine="all"), xs=lists).run(seed=11)
print(r.tried, r.reason, r.guarantee, r.evidence.summary())
"""


def test_the_same_seed_gives_the_same_evidence_in_a_fresh_process() -> None:
    import subprocess
    import sys

    outputs = [
        subprocess.run(
            [sys.executable, "-c", EVIDENCE_SCRIPT], capture_output=True, text=True, check=True,
            env={"PYTHONHASHSEED": str(k), "PATH": ""},
        ).stdout
        for k in (1, 2)
    ]
    assert outputs[0] == outputs[1] and "classes:" in outputs[0]
