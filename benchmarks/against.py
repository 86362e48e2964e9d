"""This release's speed beside an earlier commit's, measured in one run.

``python benchmarks/against.py 05da4f3`` (``--quick``: a smoke run). The commit's
``synthia`` package is extracted with ``git archive`` into a temporary directory; then
rounds alternate between the two libraries, each measurement in a fresh process, with
*this* checkout's workloads and hand-written loops (``bench_speed``), so both libraries run
exactly the same code around them. Each figure is the best over the rounds:

* per workload of ``bench_speed``: unstaged and staged ns per value over the hand loop of
  the same algorithm (``unstaged/hand``, ``staged/hand``);
* ``Assert`` inputs per CPU second on a passing property (a ``RandomInteger`` and a
  ``ComposeList``), and the list rate over Hypothesis's ``@given`` at the same count;
* a plain ``Bind``'s trees per CPU second over the same trees built by bare closures (the
  ceiling of any ``Bind`` that calls its function at every pick).

It is not part of ``run.py`` (it needs the repository's history); docs/benchmarks.md shows
its figures.
"""
from __future__ import annotations

import argparse
import json
import os
import pathlib
import subprocess
import sys
import tarfile
import tempfile
import time
from typing import Any

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parent


def _assert_rate(sy: Any, wiring: Any, count: int) -> float:
    """Inputs per CPU second of an ``Assert`` of ``count`` inputs on a property that holds."""
    try:
        harness = sy.Assert(lambda x: True, sy.RunOptions(stop=sy.FixedCount(count)), x=wiring)
    except AttributeError:  # (a commit before RunOptions)
        harness = sy.Assert(lambda x: True, stop=sy.FixedCount(count), x=wiring)
    start = time.process_time()
    report = harness.run(seed=1)
    seconds = time.process_time() - start
    assert report.passed and report.tried == count, report
    return count / max(seconds, 1e-9)


def measure(quick: bool) -> dict[str, float]:
    """Every figure of one round, with the ``synthia`` this process imports."""
    import random

    sys.path.insert(0, str(HERE))
    import bench_speed
    from bench_core import hypothesis_rate

    import synthia as sy

    count, loops = (300, 1) if quick else (20_000, 3)
    out: dict[str, float] = {}
    for name in bench_speed.WORKLOADS:
        try:
            unstaged = bench_speed.build(name).set_seed(1)
            staged = sy.compile(bench_speed.build(name)).set_seed(1)
        except Exception:  # noqa: BLE001 - a workload the older library cannot build
            continue
        hand = bench_speed.hand_written(name, random.Random(1))
        t = bench_speed.measure({"unstaged": unstaged.pick, "staged": staged.pick, "hand": hand}, count, loops)
        out[f"{name}: unstaged/hand"] = t["unstaged"] / t["hand"]
        out[f"{name}: staged/hand"] = t["staged"] / t["hand"]
    inputs = 2_000 if quick else 100_000
    out["Assert ints/CPU s"] = _assert_rate(sy, sy.RandomInteger(0, 1000), inputs)
    out["Assert lists/CPU s"] = _assert_rate(sy, bench_speed.build("list"), inputs // 5)
    out["Assert lists over Hypothesis"] = out["Assert lists/CPU s"] / hypothesis_rate(bench_speed.strategy("list"), 200 if quick else 2_000)
    trees = 200 if quick else 3_000
    for name, _flat, bind in bench_speed.BIND_TREES:
        try:
            closures = bind(bench_speed.BareClosures(1))
            plain = bind(bench_speed.Constructors()).set_seed(1).pick
        except Exception:  # noqa: BLE001
            continue
        rates = [bench_speed._rate(pick, trees) for pick in (closures, plain, closures, plain)]
        out[f"{name}: Bind/closures"] = max(rates[1], rates[3]) / max(rates[0], rates[2])
    return out


def _extract(commit: str, into: pathlib.Path) -> pathlib.Path:
    archive = subprocess.run(["git", "archive", "--format=tar", commit, "synthia"], cwd=ROOT, capture_output=True, check=True).stdout
    path = into / "lib.tar"
    path.write_bytes(archive)
    with tarfile.open(path) as tar:
        tar.extractall(into / commit, filter="data")
    return into / commit


def _round(library: pathlib.Path, quick: bool) -> dict[str, float]:
    env = dict(os.environ, PYTHONPATH=str(library))
    done = subprocess.run(
        [sys.executable, __file__, "--measure"] + (["--quick"] if quick else []), env=env, capture_output=True, text=True, check=True
    )
    return json.loads(done.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


#: Which way is better for each kind of figure (ratios to a hand loop: lower).
HIGHER_IS_BETTER = ("/CPU s", "over Hypothesis", "Bind/closures")


def _best(figures: list[dict[str, float]]) -> dict[str, float]:
    best: dict[str, float] = {}
    for round_ in figures:
        for key, value in round_.items():
            higher = key.endswith(HIGHER_IS_BETTER)
            if key not in best or (value > best[key] if higher else value < best[key]):
                best[key] = value
    return best


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("commit", nargs="?", default="05da4f3", help="the earlier commit (default: 05da4f3, before the runner)")
    parser.add_argument("--rounds", type=int, default=2, help="alternating rounds per library (default 2)")
    parser.add_argument("--quick", action="store_true", help="few repetitions: checks the script runs")
    parser.add_argument("--measure", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.measure:
        print(json.dumps(measure(args.quick)))
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        old = _extract(args.commit, pathlib.Path(tmp))
        rounds: dict[str, list[dict[str, float]]] = {"old": [], "new": []}
        for _ in range(args.rounds):
            rounds["old"].append(_round(old, args.quick))
            rounds["new"].append(_round(ROOT, args.quick))
    before, after = _best(rounds["old"]), _best(rounds["new"])
    head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True).stdout.strip()
    print(f"best of {args.rounds} alternating rounds, each in a fresh process; {args.commit} beside {head}")
    print(f"| figure | {args.commit} | {head} |")
    print("|---|---|---|")
    for key in after:
        old_value = before.get(key)
        shown = [("-" if v is None else f"{v:,.0f}" if v >= 1000 else f"{v:.2f}") for v in (old_value, after[key])]
        print(f"| {key} | {shown[0]} | {shown[1]} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
