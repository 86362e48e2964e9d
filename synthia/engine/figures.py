"""Figures of a harness run (matplotlib, the optional extra ``plots``).

:func:`plot_evidence` draws four panels from a run's :class:`~synthia.engine.evidence.Evidence`:

1. the posterior of the pass rate over the inputs: its mean and its lower credible bound
   against the target ``gamma`` (when the rule was :class:`~synthia.Bayesian`), else the
   residual risk of a 1% failure region;
2. the input classes seen, and the Chao1 estimate of how many there are;
3. the entropy of the classes and the Good–Turing chance that the next input is new;
4. the most frequent classes and labels, as horizontal bars.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pragma: no cover
    from .evidence import Evidence

__all__ = ["plot_evidence"]


def _pyplot() -> Any:
    try:
        import matplotlib.pyplot as plt
    except ImportError:  # pragma: no cover - depends on the machine
        raise ImportError("plots need matplotlib: pip install 'synthia[plots]'") from None
    return plt


def plot_evidence(evidence: "Evidence", rule: Any = None, *, figure: Any = None, top: int = 12) -> Any:
    """Draw the run's figures on ``figure`` (a new 2 x 2 figure when ``None``); returns it.

    >>> import synthia as sy
    >>> report = sy.Assert(lambda x: x >= 0, sy.Bayesian(), x=sy.ComposeList(sy.RandomInteger(0, 3), sy.RandomInteger(0, 5))).run(seed=1)
    >>> figure = report.plot()
    >>> [axes.get_title() for axes in figure.axes[:4]]
    ['pass rate', 'input classes', 'diversity', 'most frequent classes']
    """
    plt = _pyplot()
    if figure is None:
        figure = plt.figure(figsize=(11, 7.5))
    axes = figure.subplots(2, 2)
    history = evidence.history
    n = evidence.n

    ax = axes[0][0]
    ax.set_title("pass rate")
    if history.get("lower_bound"):
        xs = range(1, len(history["lower_bound"]) + 1)
        ax.plot(xs, history["mean"], label="posterior mean")
        ax.plot(xs, history["lower_bound"], label=f"lower bound (probability {1 - getattr(rule, 'delta', 0.05):g})")
        gamma = getattr(rule, "gamma", None)
        if gamma is not None:
            ax.axhline(gamma, color="grey", linestyle="--", label=f"gamma = {gamma:g}")
        ax.set_ylim(0, 1.02)
    else:
        xs = range(0, evidence.passes + 1)
        ax.plot(xs, [0.99**t for t in xs], label="P(miss a 1% failure region)")
        ax.plot(xs, [0.999**t for t in xs], label="P(miss a 0.1% failure region)")
        ax.set_ylim(0, 1.02)
    ax.set_xlabel("inputs")
    ax.legend(fontsize="small")

    ax = axes[0][1]
    ax.set_title("input classes")
    if history.get("classes"):
        xs = range(1, len(history["classes"]) + 1)
        ax.plot(xs, history["classes"], label="seen")
        ax.plot(xs, history["chao1"], label="estimated (Chao1)")
        ax.legend(fontsize="small")
    else:
        ax.text(0.5, 0.5, "classes not recorded\n(RunOptions(classes=True))", ha="center", va="center", transform=ax.transAxes)
    ax.set_xlabel("inputs")

    ax = axes[1][0]
    ax.set_title("diversity")
    if history.get("entropy"):
        xs = range(1, len(history["entropy"]) + 1)
        ax.plot(xs, history["entropy"], label="entropy of the classes (nats)")
        twin = ax.twinx()
        twin.plot(xs, history["good_turing"], color="tab:red", label="P(next input is new), Good–Turing")
        twin.set_ylim(0, 1.02)
        lines = ax.get_lines() + twin.get_lines()
        ax.legend(lines, [line.get_label() for line in lines], fontsize="small", loc="center right")
    ax.set_xlabel("inputs")

    ax = axes[1][1]
    ax.set_title("most frequent classes")
    rows = [(_short(k), c) for k, c in evidence.classes.most_common(top)]
    rows += [(f"label: {k}", c) for k, c in evidence.labels.most_common(max(0, top - len(rows)))]
    if rows:
        names, counts = zip(*reversed(rows))
        ax.barh(range(len(rows)), [c / max(n, 1) for c in counts])
        ax.set_yticks(range(len(rows)))
        ax.set_yticklabels(names, fontsize="x-small")
        ax.set_xlabel("share of the inputs")
    figure.tight_layout()
    return figure


def _short(klass: Any, width: int = 40) -> str:
    text = repr(klass)
    return text if len(text) <= width else text[: width - 3] + "..."
