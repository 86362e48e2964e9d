"""Guided generation (issue 12) against random generation of the same wiring, in one run.

Three cases, each run with random generation as the baseline (the same wiring, picked
plainly) and the guided picker (RLCheck's learner: epsilon 0.25, rewards 20/0/-1, window 4),
over the same number of trials and the same seeds:

* **BST** -- RLCheck's case study exactly: node values 0..10, depth <= 4 (4 links; a node
  four links down is a leaf, made without child decisions, as in RLCheck's generator),
  strict validity (left subtree < node < right subtree), 100,000 trials; the sequence and
  tree (Tree L/R) states. RLCheck's reproduction: Random ~840 unique valid, Sequence ~7,000,
  Tree L/R ~9,300 (about 11x). Also ``sy.compile`` of the guided pickers (the same values:
  the same rows of counts), the compiled random wiring, and RLCheck's learner hand-written
  for this wiring (the same algorithm with everything inlined: the floor of the algorithm
  in CPython, what the guided picker's speed is to be judged against).
* **grammar** -- one-line Python programs from a grammar (statements, loops, ``def``,
  targets, expressions) that ``compile()`` accepts: ``break`` outside a loop, ``return`` or
  ``yield`` outside a function, ``nonlocal`` at module level, assignments to literals and
  calls, ``await`` outside ``async`` are all rejected.
* **record** -- records checked against a JSON-schema-like rule set: required and
  non-empty fields, ranges, unique items, an enum, and conditional requirements
  (``if kind == "admin" then ...``).

* **in a time budget** -- RLCheck's own metric: distinct valid BSTs made in a fixed wall-clock
  budget by random generation and by the guided pickers.
* **inside Assert** -- valid inputs tested per second by ``Assert``: ``PickIf`` over the
  random wiring (what a guided picker replaces) against the guided pickers.
* **a bug behind the precondition** -- ``Assert`` of a property that fails only on valid BSTs
  of 8+ nodes (random generation makes none in 100,000 trees): the guided picker against
  ``PickIf`` over the random wiring, each with a time budget; time to the failure and the
  size of the shrunk input.

Reported per technique: valid and unique-valid counts (mean over seeds, with the standard
error), the ratio of unique valid to random's, trials per second as a ratio to random's,
and unique valid per second. Every trial pays the same validity check and digest.
"""
from __future__ import annotations

import collections
import json
import math
import statistics
import time
import warnings
from typing import Any, Callable

from timing import table

import synthia as sy
from synthia.rl import digest
from synthia.rl.bst import bst_wiring, canonical, is_bst, size

# -- BST ---------------------------------------------------------------------------------------
bst = bst_wiring
bst_text = canonical


# -- grammar -----------------------------------------------------------------------------------
PYTHON = r'''
<prog> := <stmt> | <stmt> "; " <prog>
<stmt> := <simple> | <compound>
<compound> := "while " <expr> ": " <body> | "for " <name> " in " <expr> ": " <body> | "def f(" <name> "): " <body> | "if " <expr> ": " <body> | "with " <expr> " as " <target> ": " <body>
<body> := <simple> | <simple> "; " <body>
<simple> := "pass" | "break" | "continue" | "return " <expr> | "yield " <expr> | <target> " = " <expr> | <target> " += " <expr> | "del " <target> | "global " <name> | "nonlocal " <name> | "assert " <expr> | "raise " <expr> | <expr>
<target> := <name> | <name> "." <name> | <name> "[" <expr> "]" | "(" <target> ", " <target> ")" | <literal> | <name> "(" ")" | "*" <name>
<expr> := <name> | <literal> | <expr> " + " <expr> | <name> "(" <expr> ")" | "not " <expr> | "lambda: " <expr> | "await " <expr> | "(" <expr> " if " <expr> " else " <expr> ")" | "*" <expr>
<name> := x | y | f
<literal> := 0 | 1 | "'s'" | None
'''


def python_programs() -> sy.Picker:
    return sy.GrammarSentence(PYTHON, max_depth=8, separator="")


def compiles(source: str) -> bool:
    try:
        compile(source, "<generated>", "exec")
    except (SyntaxError, ValueError):
        return False
    return True


# -- records -------------------------------------------------------------------------------------
def _record(kind: str, name: str, age: int, email: Any, roles: list[str], active: bool, manager: Any) -> dict[str, Any]:
    return {"kind": kind, "name": name, "age": age, "email": email, "roles": roles, "active": active, "manager": manager}


def records() -> sy.Picker:
    return sy.Apply(
        _record,
        sy.Choice("user", "admin", "guest", "service"),
        sy.Choice("ann", "bob", "cy", "dee", ""),
        sy.RandomInteger(0, 120),
        sy.Choice(None, "ann@example.org", "bob@", "cy@example.com", "not-an-email"),
        sy.ComposeList(sy.Choice("read", "write", "admin", "audit"), sy.RandomInteger(0, 5)),
        sy.RandomBoolean(),
        sy.Choice(None, "ann", "bob", "cy"),
    )


def _email(value: Any) -> bool:
    return isinstance(value, str) and "@" in value and not value.endswith("@")


def schema_valid(r: dict[str, Any]) -> bool:
    """A JSON-schema-like rule set: required fields, ranges, uniqueItems, enums, if/then."""
    if not r["name"] or not 13 <= r["age"] <= 99 or len(set(r["roles"])) != len(r["roles"]):
        return False
    if r["email"] is not None and not _email(r["email"]):
        return False
    if r["manager"] == r["name"]:
        return False
    kind = r["kind"]
    if kind == "admin":
        return r["age"] >= 21 and "admin" in r["roles"] and _email(r["email"]) and r["active"]
    if kind == "user":
        return bool(r["roles"]) and "admin" not in r["roles"] and r["manager"] is not None
    if kind == "guest":
        return not r["roles"] and r["email"] is None and not r["active"]
    return r["active"] and r["roles"] == ["read"] and r["manager"] is not None  # a service


def record_text(r: dict[str, Any]) -> str:
    return json.dumps(r, sort_keys=True)


# -- running -------------------------------------------------------------------------------------
def random_run(make: Callable[[], sy.Picker], valid: Callable[[Any], bool], text: Callable[[Any], str], seed: int, trials: int,
               sizes: Callable[[Any], int] | None = None) -> dict[str, Any]:
    picker = make().set_seed(seed)
    pick = picker.pick
    seen: set[bytes] = set()
    found: collections.Counter[int] = collections.Counter()
    valid_count = 0
    start = time.perf_counter()
    for _ in range(trials):
        value = pick()
        if valid(value):
            valid_count += 1
            key = digest(text(value))
            if key not in seen:
                seen.add(key)
                if sizes is not None:
                    found[sizes(value)] += 1
    seconds = time.perf_counter() - start
    return {"valid": valid_count, "unique": len(seen), "seconds": seconds, "sizes": found}


def guided_run(make: Callable[[], sy.Picker], valid: Callable[[Any], bool], text: Callable[[Any], str], seed: int, trials: int,
               sizes: Callable[[Any], int] | None = None, compiled: bool = False, **options: Any) -> dict[str, Any]:
    """The guided picker (``compiled``: ``sy.compile`` of it, the same values) over ``trials`` episodes."""
    guided = sy.guided(make(), valid=valid, canonical=text, only_valid=False, seed=seed, **options)
    pick = (sy.compile(guided) if compiled else guided).pick
    found: collections.Counter[int] = collections.Counter()
    stats = guided.stats  # the counts of the run, read as they grow
    start = time.perf_counter()
    for _ in range(trials):
        before = stats.unique
        value = pick()
        if stats.unique != before and sizes is not None:
            found[sizes(value)] += 1
    seconds = time.perf_counter() - start
    return {"valid": guided.valid_count, "unique": guided.unique_count, "seconds": seconds, "sizes": found}


def hand_written_run(seed: int, trials: int) -> dict[str, Any]:
    """RLCheck's learner hand-written for the BST wiring: what the guided picker would cost
    with no abstraction at all. The same algorithm as the guided picker's (one uniform draw
    per decision, epsilon 0.25 exploring with it, else greedy with random ties; every-visit
    running averages; rewards 20/0/-1; the 64-bit digest; the Tree L/R state of the last 4
    choices; one value learner at every depth, no child decisions four links down) on
    Python's ``random.Random``, everything inlined, one function per node."""
    import random

    rng = random.Random(seed)
    rnd, below = rng.random, rng._randbelow
    epsilon = 0.25
    states: dict[tuple[Any, ...], Any] = {}
    visits: list[Any] = []
    visit = visits.append

    class State:
        __slots__ = ("tokens", "value", "left", "right")

    def state_of(tokens: tuple[Any, ...]) -> Any:
        state = states.get(tokens)
        if state is None:  # an entry: [Q values, counts, the state each action leads to]
            state = states[tokens] = State()
            state.tokens = tokens
            state.value = [[0.0] * 11, [0] * 11, [None] * 11]
            state.left = [[0.0] * 2, [0] * 2, [None] * 2]
            state.right = [[0.0] * 2, [0] * 2, [None] * 2]
        return state

    def follow(state: Any, entry: list[Any], point: str, action: int) -> Any:
        following = entry[2][action] = state_of((*state.tokens, (point, action))[-4:])
        return following

    def greedy(q: list[float]) -> int:
        top = max(q)
        if q.count(top) == 1:
            return q.index(top)
        ties = [i for i, v in enumerate(q) if v == top]
        return ties[below(len(ties))]

    def two(q: list[float]) -> int:
        return 0 if q[0] > q[1] else 1 if q[1] > q[0] else below(2)

    def node(state: Any, depth: int) -> Any:
        e = state.value
        u = rnd()
        a = int(u / epsilon * 11) if u < epsilon else greedy(e[0])
        visit((e, a))
        if depth == 4:
            return (a, None, None)
        value = a
        s = e[2][a] or follow(state, e, "value", a)
        e = s.left
        u = rnd()
        a = int(u / epsilon * 2) if u < epsilon else two(e[0])
        visit((e, a))
        left = node(e[2][a] or follow(s, e, "left", a), depth + 1) if a else None
        e = s.right
        u = rnd()
        a = int(u / epsilon * 2) if u < epsilon else two(e[0])
        visit((e, a))
        right = node(e[2][a] or follow(s, e, "right", a), depth + 1) if a else None
        return (value, left, right)

    root = state_of(())
    seen: set[bytes] = set()
    found: collections.Counter[int] = collections.Counter()
    valid_count = 0
    start = time.perf_counter()
    for _ in range(trials):
        tree = node(root, 0)
        reward = -1.0
        if is_bst(tree):
            valid_count += 1
            key = digest(bst_text(tree))
            reward = 0.0
            if key not in seen:
                seen.add(key)
                found[size(tree)] += 1
                reward = 20.0
        for entry, action in visits:
            counts = entry[1]
            n = counts[action] = counts[action] + 1
            q = entry[0]
            q[action] += (reward - q[action]) / n
        visits.clear()
    seconds = time.perf_counter() - start
    return {"valid": valid_count, "unique": len(seen), "seconds": seconds, "sizes": found}


def _mean_se(xs: list[float]) -> str:
    mean = statistics.fmean(xs)
    if len(xs) < 2:
        return f"{mean:,.0f}"
    return f"{mean:,.0f} ± {statistics.stdev(xs) / math.sqrt(len(xs)):,.0f}"


def compare(title: str, techniques: dict[str, Callable[[int], dict[str, Any]]], seeds: range, trials: int, show_sizes: bool = False) -> None:
    runs = {name: [fn(seed) for seed in seeds] for name, fn in techniques.items()}
    base = runs["random"]
    base_unique = statistics.fmean(r["unique"] for r in base)
    base_rate = statistics.fmean(trials / r["seconds"] for r in base)
    rows = []
    for name, results in runs.items():
        unique = [r["unique"] for r in results]
        rate = statistics.fmean(trials / r["seconds"] for r in results)
        per_second = statistics.fmean(r["unique"] / r["seconds"] for r in results)
        row = (
            name, _mean_se([r["valid"] for r in results]), _mean_se(unique), f"{statistics.fmean(unique) / base_unique:.2f}x",
            f"{rate:,.0f} ({rate / base_rate:.2f}x)", f"{per_second:,.0f}",
        )
        if show_sizes:
            total: collections.Counter[int] = collections.Counter()
            for r in results:
                total.update(r["sizes"])
            row += (" ".join(f"{k}:{total[k] / len(results):g}" for k in range(5, 12) if total[k]),)
        rows.append(row)
    print(f"\n{title}: {trials:,} trials, {len(seeds)} seeds (mean ± standard error)")
    header = ("technique", "valid", "unique valid", "x random", "trials/s (x random)", "unique valid/s")
    if show_sizes:
        header += ("unique valid by size 5..11 (per seed)",)
    table(rows, header)


def in_a_time_budget(seeds: range, budget: float) -> None:
    """RLCheck's own metric: distinct valid BSTs made in a fixed wall-clock budget (random
    generation, its every trial checked and digested, against the guided pickers)."""

    def random_source(seed: int) -> tuple[Callable[[], Any], Callable[[], int]]:
        pick = bst().set_seed(seed).pick
        seen: set[bytes] = set()

        def trial() -> Any:
            t = pick()
            if is_bst(t):
                seen.add(digest(bst_text(t)))
            return t

        return trial, lambda: len(seen)

    def guided_source(compiled: bool, state: str) -> Callable[[int], tuple[Callable[[], Any], Callable[[], int]]]:
        def make(seed: int) -> tuple[Callable[[], Any], Callable[[], int]]:
            g = sy.guided(bst(), valid=is_bst, canonical=bst_text, state=state, only_valid=False, seed=seed)
            return (sy.compile(g) if compiled else g).pick, lambda: g.unique_count

        return make

    rows = []
    base = 0.0
    for name, make in {
        "random": random_source,
        "guided, tree state": guided_source(False, "tree"),
        "guided, sequence state, compiled": guided_source(True, "sequence"),
        "guided, tree state, compiled": guided_source(True, "tree"),
    }.items():
        counts = []
        for seed in seeds:
            trial, unique = make(seed)
            deadline = time.perf_counter() + budget
            while time.perf_counter() < deadline:
                for _ in range(256):
                    trial()
            counts.append(unique())
        mean = statistics.fmean(counts)
        base = base or mean
        rows.append((name, _mean_se(counts), f"{mean / base:.2f}x"))
    print(f"\nBST in a time budget (RLCheck's metric): {budget:g} s per run, {len(seeds)} seeds")
    table(rows, ("technique", "unique valid BSTs", "x random"))


def inside_assert(seeds: range, count: int) -> None:
    """Valid inputs tested per second by ``Assert`` (a property that only counts distinct
    inputs): ``PickIf`` over the random wiring, the input guided replaces, against the guides."""
    rows = []
    base = 0.0
    for name, make in {
        "PickIf(random wiring, is_bst)": lambda s: sy.PickIf(bst(), is_bst),
        "guided, sequence state": lambda s: sy.guided(bst(), valid=is_bst, canonical=bst_text, seed=s),
        "guided, tree state": lambda s: sy.guided(bst(), valid=is_bst, canonical=bst_text, state="tree", seed=s),
        "guided, tree state, compiled": lambda s: sy.compile(
            sy.guided(bst(), valid=is_bst, canonical=bst_text, state="tree", seed=s)),
    }.items():
        rates, distinct = [], []
        for seed in seeds:
            seen: set[str] = set()
            report = sy.Assert(lambda t: seen.add(bst_text(t)), sy.RunOptions(stop=sy.FixedCount(count)), t=make(seed)).run(seed=seed)
            rates.append(report.tried / report.time_discovery)
            distinct.append(len(seen))
        rate = statistics.fmean(rates)
        base = base or rate
        rows.append((name, f"{rate:,.0f} ({rate / base:.2f}x)", _mean_se(distinct)))
    print(f"\nInside Assert: {count:,} valid inputs tested per run, {len(seeds)} seeds")
    table(rows, ("inputs from", "valid inputs tested/s (x PickIf)", "distinct inputs tested"))


def bug_hunt(seeds: range, budget: float) -> None:
    def check(t: Any) -> None:
        assert size(t) < 8, "an operation that breaks on valid BSTs of 8+ nodes"

    rows = []
    for name, make in {
        "PickIf(random wiring, is_bst)": lambda s: sy.PickIf(bst(), is_bst),
        "guided, tree state": lambda s: sy.guided(bst(), valid=is_bst, canonical=bst_text, state="tree", seed=s),
        "guided, tree state, compiled": lambda s: sy.compile(
            sy.guided(bst(), valid=is_bst, canonical=bst_text, state="tree", seed=s)),
    }.items():
        times, tried, found, smallest = [], [], 0, set()
        for seed in seeds:
            report = sy.Assert(check, sy.RunOptions(stop=sy.TimeBudget(budget)), t=make(seed)).run(seed=seed)
            if not report.passed:
                found += 1
                times.append(report.time_to_failure)
                smallest.add(size(report.smallest["t"]))
            tried.append(report.tried)
        median = f"{statistics.median(times):.2f} s" if times else f"none in {budget:g} s"
        rows.append((name, f"{found}/{len(seeds)}", median, f"{statistics.fmean(tried):,.0f}", " ".join(map(str, sorted(smallest))) or "-"))
    print(f"\nA bug behind the precondition (fails on valid BSTs of 8+ nodes), time budget {budget:g} s, {len(seeds)} seeds")
    table(rows, ("inputs from", "found", "median time to failure", "inputs tested (mean)", "shrunk size"))


def run(quick: bool) -> None:
    # PickIf over the random wiring keeps ~5% of the trees: exactly the case its health check
    # warns about, and the baseline these tables measure on purpose.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", sy.HealthWarning)
        _run(quick)


def _run(quick: bool) -> None:
    seeds = range(2) if quick else range(10)
    trials = 3_000 if quick else 100_000
    compare("BST (RLCheck's case: values 0..10, depth <= 4, strict)", {
        "random": lambda s: random_run(bst, is_bst, bst_text, s, trials, size),
        "guided, sequence state": lambda s: guided_run(bst, is_bst, bst_text, s, trials, size),
        "guided, tree state (Tree L/R)": lambda s: guided_run(bst, is_bst, bst_text, s, trials, size, state="tree"),
        "guided, sequence state, compiled": lambda s: guided_run(bst, is_bst, bst_text, s, trials, size, compiled=True),
        "guided, tree state, compiled": lambda s: guided_run(bst, is_bst, bst_text, s, trials, size, compiled=True, state="tree"),
        "random, compiled": lambda s: random_run(lambda: sy.compile(bst()), is_bst, bst_text, s, trials, size),
        "RLCheck hand-written for this wiring": lambda s: hand_written_run(s, trials),
    }, seeds, trials, show_sizes=True)
    trials = 1_000 if quick else 10_000
    compare("grammar (one-line Python programs accepted by compile())", {
        "random": lambda s: random_run(python_programs, compiles, str, s, trials),
        "guided, sequence state": lambda s: guided_run(python_programs, compiles, str, s, trials),
        "guided, tree state": lambda s: guided_run(python_programs, compiles, str, s, trials, state="tree"),
        "guided, tree state, compiled": lambda s: guided_run(python_programs, compiles, str, s, trials, compiled=True, state="tree"),
    }, seeds, trials)
    trials = 2_000 if quick else 20_000
    compare("records (a JSON-schema-like rule set)", {
        "random": lambda s: random_run(records, schema_valid, record_text, s, trials),
        "guided, sequence state": lambda s: guided_run(records, schema_valid, record_text, s, trials),
        "guided, tree state": lambda s: guided_run(records, schema_valid, record_text, s, trials, state="tree"),
        "guided, tree state, compiled": lambda s: guided_run(records, schema_valid, record_text, s, trials, compiled=True, state="tree"),
    }, seeds, trials)
    in_a_time_budget(seeds, 0.5 if quick else 5.0)
    inside_assert(seeds, 2_000 if quick else 20_000)
    bug_hunt(seeds, 1.0 if quick else 10.0)
