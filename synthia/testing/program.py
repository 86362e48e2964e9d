"""A trace of a :class:`~synthia.Monkey` printed as a Python program that performs it on a
fresh system and fails the same way (a concurrent trace: replayed under its schedule with
:func:`synthia.interleave`, then checked against the sequential model)."""
from __future__ import annotations

import ast
import collections
import inspect
import re
import sys
from typing import Any, Callable

from ..engine.report import safe_repr
from .scheduler import History
from .trace import Failure, Machine, Step, Trace

__all__ = ["program"]


def program(machine: Machine, trace: Trace) -> str:
    """A Python program that performs ``trace`` on a fresh system and fails the same way."""
    variable = machine.variable
    imports: dict[str, set[str]] = collections.defaultdict(set)
    notes: list[str] = []

    def name_of(obj: Any) -> str:
        qualified = str(getattr(obj, "__qualname__", None) or type(obj).__qualname__)
        module = getattr(obj, "__module__", None)
        head = qualified.split(".")[0]
        # Import what its module really holds; a class of __main__ or of a notebook is
        # taken to be defined where the program runs.
        if module and "<" not in qualified and getattr(sys.modules.get(module), head, None) is not None:
            if module != "__main__":
                imports[module].add(head)
        elif "<locals>" in qualified:
            notes.append(f"# {qualified} is defined inside a function: define it before running this program")
        return qualified

    factory = machine.system if (isinstance(machine.system, type) or not hasattr(machine.system, "reset")) else type(machine.system)
    body = [f"{variable} = {name_of(factory)}()"]
    if trace.history is not None and trace.lanes is not None:
        if machine.concurrency is not None and not machine.concurrency.tasks:
            # The threading primitives the system makes must be ones the scheduler sees.
            body = ["with sy.controlled_primitives():", f"    {body[0]}"]
        body.extend(concurrent_program(machine, trace.history, trace.lanes, variable, name_of, trace.failure))
        imports["functools"].add("*")
        header = [
            f"import {module}" if names == {"*"} else f"from {module} import {', '.join(sorted(names))}"
            for module, names in sorted(imports.items())
        ] + ["import synthia as sy"]
        return "\n".join([*dict.fromkeys(notes), *header, "", *body])
    if trace.failure is not None and trace.failure.kind == "setup":
        made = trace.failure.made
        if made is not machine.system:  # the model failed to be made
            body.append(f"{name_of(made)}()  # the model: raises {type(trace.failure.exception).__name__}")
        else:
            body[0] = f"{name_of(factory)}()  # raises {type(trace.failure.exception).__name__}"
        header = [f"from {module} import {', '.join(sorted(names))}" for module, names in sorted(imports.items())]
        return "\n".join([*dict.fromkeys(notes), *header, *body])
    def exception_name(kind: type[BaseException]) -> str:
        # An exception class the program names must be imported (a builtin needs nothing).
        return kind.__qualname__ if kind.__module__ == "builtins" else name_of(kind)

    failure = trace.failure
    check = failure.check if failure is not None else None
    # An invariant of (system, model) needs the model, stepped along with the system.
    with_model = machine.model is not None and check is not None and getattr(check, "method_name", None) is None and arity(check) >= 2
    if with_model:
        model_factory = machine.model if (isinstance(machine.model, type) or not hasattr(machine.model, "reset")) else type(machine.model)
        body.append(f"model = {name_of(model_factory)}()")
    for step in trace.steps[:-1] if failure else trace.steps:
        if not isinstance(step.action.fn, str):
            name_of(step.action.fn)
        if step.exception is not None:
            exception_name(type(step.exception))
        body.extend(guarded(step.text(variable), step.exception))
        if with_model:
            body.extend(guarded(step.model_text("model"), None, model_step=True))
    if failure is not None:
        last = trace.steps[-1]
        if not isinstance(last.action.fn, str):
            name_of(last.action.fn)
        call = last.text(variable)
        if failure.kind == "raised":
            body.append(f"{call}  # raises {type(failure.exception).__name__}")
        elif failure.kind == "mismatch" and not isinstance(failure.expected, BaseException):
            body.append(f"assert {call} == {safe_repr(failure.expected)}  # the model's result")
        elif failure.kind == "mismatch":
            raised = exception_name(type(failure.expected))
            body.extend([
                "try:", f"    {call}", f"except {raised}:", "    pass  # as the model does",
                "else:", f"    raise AssertionError({f'{call} did not raise {raised}, as the model does'!r})",
            ])
        elif failure.kind == "expect":
            expected = failure.expected
            if callable(expected):
                text = expression_of(expected)
                if text is None:
                    notes.append(f"# the expectation {getattr(expected, '__qualname__', expected)!r} has no source here: define it as expect")
                    text = "expect"
                elif not text.startswith("lambda"):
                    text = name_of(expected)
                body.append(f"assert {'await ' if failure.awaited else ''}({text})({call})  # the action's expectation")
            else:
                body.append(f"assert {call} == {safe_repr(expected)}  # the action's expectation")
        else:
            if last.exception is not None:
                exception_name(type(last.exception))
            body.extend(guarded(call, last.exception))
            if with_model:
                body.extend(guarded(last.model_text("model"), None, model_step=True))
            method = getattr(check, "method_name", None)
            wait = "await " if failure.awaited else ""
            if method is not None:
                body.append(f"assert {wait}{variable}.{method}() is not False  # invariant")
            elif with_model:
                body.append(f"assert {wait}{name_of(check)}({variable}, model) is not False  # invariant")
            else:
                body.append(f"assert {wait}{name_of(check)}({variable}) is not False  # invariant")
    if any(line.startswith("with contextlib.suppress") for line in body):
        imports["contextlib"].add("*")
    body = as_script(body, variable, any(step.awaited or step.model_awaited for step in trace.steps), imports)
    header = [
        f"import {module}" if names == {"*"} else f"from {module} import {', '.join(sorted(names))}"
        for module, names in sorted(imports.items())
    ]
    return "\n".join([*dict.fromkeys(notes), *header, *body])


def concurrent_program(
    machine: Machine, history: History, lanes: list[list[Step]], variable: str, name_of: Callable[[Any], str], failure: Failure | None = None,
) -> list[str]:
    """The statements that replay a concurrent trace under its recorded schedule with
    :func:`synthia.interleave`, then check what failed: that no deadlock happened (the
    scheduler reports one at once; ``timeout`` bounds a wait it does not see), that no call
    raised the exception the actions do not declare, or the history against the sequential
    model."""
    concurrency = machine.concurrency
    assert concurrency is not None

    def partial(step: Step) -> str:
        if not isinstance(step.action.fn, str):
            name_of(step.action.fn)
        text = step.action.call_text(variable, step.args)
        head, _, rest = text.partition("(")
        rest = rest[:-1]
        return f"functools.partial({head}{', ' + rest if rest else ''})"

    def model_step(step: Step) -> str:
        action = step.action
        if machine.model is None:
            return f"lambda m: {action.call_text('m', step.args)}"
        if action.model is False or (action.model is None and not isinstance(action.fn, str)):  # no counterpart
            return "lambda m: sy.ANY_RESULT"
        if callable(action.model) and not isinstance(action.model, bool):
            name_of(action.model)
        return f"lambda m: {action.model_text('m', step.args)}"

    def listed(items: list[str], indent: str) -> str:
        return "[" + "".join(f"\n{indent}    {item}," for item in items) + (f"\n{indent}]" if items else "]")

    branches = "".join(f"\n    {listed([partial(s) for s in lane], '    ')}," for lane in lanes[1:])
    choices = list(history.choices)
    while choices and choices[-1] == 0:  # a replay goes on with 0 (the next branch)
        choices.pop()
    options = [f"schedule={history.schedule}"] + ([f"choices={choices}"] if choices else [])
    if lanes[0]:
        options.append(f"prefix={listed([partial(s) for s in lanes[0]], '')}")
    if concurrency.tasks:
        options.append("tasks=True")
    elif history.preemption != "line":
        options.append(f"preemption={history.preemption!r}")
    if concurrency.within:
        options.append(f"within={list(concurrency.within)!r}")
    kind = failure.kind if failure is not None else None
    if kind == "deadlock":
        options.append("timeout=10")
    replay = [f"history = sy.interleave({variable}, [{branches}\n], {', '.join(options)})", "print(history)"]
    if kind == "deadlock":
        return [*replay, 'assert history.deadlock is None, f"deadlock: {history.deadlock}"']
    if kind == "raised" and failure is not None:
        raised = type(failure.exception)
        shown = raised.__qualname__ if raised.__module__ == "builtins" else name_of(raised)
        return [
            *replay,
            f"raised = [call.text for call in history.calls if isinstance(call.exception, {shown})]",
            f'assert not raised, f"{{raised}} raised {shown}"',
        ]
    model = machine.model if machine.model is not None else machine.system
    factory = model if (isinstance(model, type) or not hasattr(model, "reset")) else type(model)
    steps = "".join(f"\n    {listed([model_step(s) for s in lane], '    ')}," for lane in lanes[1:])
    check = [f"assert history.linearizable({name_of(factory)}, [{steps}\n]"]
    if lanes[0]:
        check[-1] += f", prefix={listed([model_step(s) for s in lanes[0]], '')}"
    check[-1] += '), "no sequential order of the calls explains their results"'
    return [*replay, *check]

# -- explanation -------------------------------------------------------------------------------


def as_script(body: list[str], variable: str, awaits: bool, imports: dict[str, set[str]]) -> list[str]:
    """The program's statements, inside ``async def test_...()`` run by ``asyncio.run`` when
    a step awaits (an async system): the program still runs as a script."""
    if not awaits:
        return body
    imports["asyncio"].add("*")
    name = f"test_{variable}"
    return [f"async def {name}():", *[f"    {line}" for line in body], "", "", f"asyncio.run({name}())"]


def guarded(call: str, raised: BaseException | None, model_step: bool = False) -> list[str]:
    """A step of a program: a step that raised an exception the check accepted (declared in
    ``raises``, or raised by the model as well) is run so that the program goes on."""
    if model_step:
        return ["with contextlib.suppress(Exception):  # the model", f"    {call}"]
    if raised is None:
        return [call]
    return [f"with contextlib.suppress({type(raised).__name__}):", f"    {call}"]


def expression_of(fn: Callable[..., Any]) -> str | None:
    """The source of a lambda (or the name of a function), for a program to print: the
    expression that starts at a ``lambda`` of the lines that define it and parses as one
    taking the same parameters (``None`` when there is no source, or no single such lambda)."""
    if getattr(fn, "__name__", "") != "<lambda>":
        return getattr(fn, "__qualname__", None)
    try:
        source = inspect.getsource(fn)
    except (OSError, TypeError):
        return None
    code = fn.__code__
    wanted = list(code.co_varnames[: code.co_argcount])
    found: list[str] = []
    for match in re.finditer(r"\blambda\b", source):
        start = match.start()
        for end in range(min(len(source), start + 400), start, -1):
            try:
                node = ast.parse(source[start:end].strip(), mode="eval").body
            except SyntaxError:
                continue
            if isinstance(node, ast.Tuple) and node.elts:  # "lambda x: ..., next_argument"
                node = node.elts[0]
            if isinstance(node, ast.Lambda) and [a.arg for a in node.args.args] == wanted:
                found.append(ast.unparse(node))
            break
    return found[0] if len(set(found)) == 1 else None


def arity(fn: Callable[..., Any]) -> int:
    try:
        return sum(
            1 for p in inspect.signature(fn).parameters.values()
            if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) and p.default is p.empty
        )
    except (TypeError, ValueError):
        return 1
