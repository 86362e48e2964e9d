"""Stop when the evidence is enough, and say what a passing run proves.

A run-length encoder is checked by its round trip under three stopping rules: a fixed count,
the Bayesian rule (58 passing inputs: "the pass rate is above 0.95 with probability 0.95"),
and the Bayesian rule that also waits for the classes of inputs to saturate. A coverage
requirement makes sure the inputs hold the runs the encoder exists for; a planted bug that
only long runs reveal shows how the residual risk reads.
"""
import itertools

import synthia as sy


def encode(text):
    return [(char, len(list(group))) for char, group in itertools.groupby(text)]


def decode(pairs):
    return "".join(char * count for char, count in pairs)


def buggy_encode(text):  # loses runs longer than 8
    return [(char, min(count, 8)) for char, count in encode(text)]


# Texts over a small alphabet, so that runs happen; the length is drawn first.
texts = sy.RandomString(sy.RandomInteger(0, 30), "aab")


def round_trip(text):
    sy.cover("has a run of 3+", 0.3, any(count >= 3 for _, count in encode(text)))
    sy.event(f"{len(encode(text))} runs" if len(encode(text)) < 3 else "3+ runs")
    assert decode(encode(text)) == text


for rule in (sy.FixedCount(100), sy.Bayesian(), sy.Bayesian(criteria=("confidence", "saturation"), combine="all", window=30)):
    report = sy.Assert(round_trip, rule, text=texts).run(seed=2026)
    print(f"== {rule!r}: {report.status} after {report.tried} inputs")
    print(f"   stopped because: {report.reason}")
    if report.guarantee:
        print(f"   guarantee: {report.guarantee}")
    for line in report.evidence.summary(top=2):
        print(f"   {line}")
    print()


def buggy_round_trip(text):
    assert decode(buggy_encode(text)) == text


report = sy.Assert(buggy_round_trip, sy.Bayesian(), text=texts).run(seed=2026)
print("== the planted bug (runs longer than 8 are cut)")
print(report.summary())
