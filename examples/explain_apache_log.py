"""Explaining one line of the Apache log (examples/apache_log.py).

The log is recorded while it is generated; then line 7 is explained: which visitor the Knit
chose, the draws that made that visitor (its seed, its frozen IP's region and numbers), the
shared clock's ticks that made the timestamp, and the Markov decision that led to the page.
The whole explanation graph is rendered to out/apache-line.svg when Graphviz is installed.
"""
from __future__ import annotations

import pathlib

import apache_log

import synthia as sy
from synthia.explain import RenderError


def main() -> None:
    log = apache_log.log_lines()
    with sy.recording(log):
        lines = log.take(8)
    print("line 7:", lines[7])
    explanation = sy.explain(log, 7)
    print(f"\nits explanation has {explanation.graph.number_of_nodes()} nodes; the draws it comes down to:")
    for leaf in explanation.leaves():
        print("  ", explanation.text(leaf))
    try:
        print("rendered", explanation.render(pathlib.Path("out") / "apache-line.svg"))
    except RenderError as err:
        print(err)


if __name__ == "__main__":
    main()
