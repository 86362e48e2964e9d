"""Hypothesis's ``settings`` to synthia's options: ``@settings(...)`` on a test becomes
``@sy.RunOptions(...)``, on a state machine the keywords of ``@sy.monkey(...)``, and
``settings.register_profile(...)`` becomes ``sy.register_profile(...)``.

What has no meaning in synthia is dropped (``suppress_health_check``, ``verbosity``,
``print_blob``, ``report_multiple_bugs``, ``deadline=None``); what synthia cannot do is marked.
"""
from __future__ import annotations

from typing import Any, Mapping

from .migrate_build import cst

from .migrate_build import NOT_LITERAL, code, literal
from .migrate_scan import hypothesis_name

#: Settings that change nothing a synthia run reports: dropped.
DROPPED = ("suppress_health_check", "verbosity", "print_blob", "report_multiple_bugs")

#: ``settings``'s fields, in the order of its signature (``parent`` first, positional).
FIELDS = ("parent", "max_examples", "derandomize", "database", "verbosity", "phases", "stateful_step_count",
          "report_multiple_bugs", "suppress_health_check", "deadline", "print_blob", "backend")  # fmt: skip


def _phases(node: cst.BaseExpression, names: Mapping[cst.CSTNode, Any]) -> tuple[list[tuple[str, str]], list[str]]:
    if not isinstance(node, (cst.List, cst.Tuple, cst.Set)):
        return [], ["settings(phases=...) is not a literal list of Phase members: shrink_budget=0 for no shrinking, database=False for no reuse"]
    phases = set()
    for element in node.elements:
        qualified = hypothesis_name(names, element.value) or ""
        if not qualified.startswith("hypothesis.Phase."):
            return [], ["settings(phases=...) holds something else than Phase members"]
        phases.add(qualified.rsplit(".", 1)[1])
    if "generate" not in phases:
        return [], ["settings(phases=...) without Phase.generate: a synthia test always generates; keep the @sy.example inputs in a plain test"]
    out = []
    if "shrink" not in phases:
        out.append(("shrink_budget", "0"))
    if "reuse" not in phases:
        out.append(("database", "False"))
    return out, []


def options(call: cst.Call, original: cst.Call, names: Mapping[cst.CSTNode, Any], where: str) -> tuple[list[tuple[str, cst.BaseExpression]], list[str]]:
    """The synthia keywords and the marks for a ``settings(...)`` call.

    ``where`` is ``"test"`` (``@sy.RunOptions``), ``"machine"`` (``@sy.monkey``) or
    ``"profile"`` (``sy.register_profile``; ``call`` then holds the profile's keywords)."""
    out: list[tuple[str, cst.BaseExpression]] = []
    marks: list[str] = []
    position = 0
    by_original = dict(zip((id(a) for a in call.args), original.args))
    for arg in call.args:
        if arg.star:
            marks.append("settings(**...): give the options by name")
            continue
        if arg.keyword is None:
            if where == "profile" and position == 0:  # register_profile(name, ...): the name
                position += 1
                continue
            name = "parent" if where != "profile" else ("parent" if position == 1 else "")
            position += 1
        else:
            name = arg.keyword.value
        value = arg.value
        source = by_original[id(arg)].value
        if name == "parent":
            if where == "profile":
                if isinstance(value, cst.Call) and code(value.func).endswith("get_profile") and value.args:
                    out.append(("parent", value.args[0].value))
                    continue
                if hypothesis_name(names, source) == "hypothesis.settings.default":
                    continue
                if isinstance(value, cst.Call) and isinstance(source, cst.Call) and hypothesis_name(names, source.func) == "hypothesis.settings":
                    inner, inner_marks = options(value, source, names, "test")  # a settings object: its options
                    out.extend(inner)
                    marks.extend(inner_marks)
                    continue
            marks.append(f"settings({code(value)}, ...): a parent settings object has no synthia form; copy its options here")
        elif name == "max_examples":
            out.append(("max_examples", value))
        elif name == "stateful_step_count":
            if where == "machine":
                out.append(("max_steps", value))
            elif where == "profile":
                marks.append("settings(stateful_step_count=...) in a profile: give the step count to @sy.monkey(max_steps=...)")
        elif name == "database":
            if literal(value) is None:
                out.append(("database", cst.Name("False")))
            else:
                marks.append("settings(database=...): synthia saves failures in .synthia/ (pytest --synthia-dir=...); database=False turns it off")
        elif name == "derandomize":
            flag = literal(value)
            if flag is True and where == "profile":
                out.append(("seed", cst.Integer("0")))
            elif flag is True:
                marks.append("settings(derandomize=True): a synthia run repeats from its seed; fix it with pytest --synthia-seed=0 or the ci profile")
            elif flag is NOT_LITERAL:
                marks.append("settings(derandomize=...) is not a literal")
        elif name == "deadline":
            if literal(value) is not None:
                marks.append("settings(deadline=...): synthia has no per-input deadline (RunOptions(time_budget=...) bounds a whole run)")
        elif name == "phases":
            kept, phase_marks = _phases(source, names)
            out.extend((k, cst.parse_expression(v)) for k, v in kept)
            marks.extend(phase_marks)
        elif name == "backend":
            if literal(value) != "hypothesis":
                marks.append("settings(backend=...): synthia has one engine")
        elif name in DROPPED:
            continue
        else:
            marks.append(f"settings({name}=...) is not a Hypothesis setting synthia knows")
    # One keyword once: the last wins, as in a call.
    seen: dict[str, cst.BaseExpression] = {}
    for key, value in out:
        seen[key] = value
    return list(seen.items()), marks


def keywords(pairs: list[tuple[str, cst.BaseExpression]]) -> list[cst.Arg]:
    """``name=value`` arguments, comma-separated."""
    args = []
    for i, (name, value) in enumerate(pairs):
        comma = cst.Comma(whitespace_after=cst.SimpleWhitespace(" ")) if i < len(pairs) - 1 else cst.MaybeSentinel.DEFAULT
        args.append(cst.Arg(value=value, keyword=cst.Name(name), comma=comma,
                            equal=cst.AssignEqual(whitespace_before=cst.SimpleWhitespace(""), whitespace_after=cst.SimpleWhitespace(""))))
    return args
