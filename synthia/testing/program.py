"""A trace of a :class:`~synthia.Monkey` printed as a Python program that performs it on a
fresh system and fails the same way (a concurrent trace: replayed under its schedule with
:func:`synthia.interleave`, then checked against the sequential model)."""
from __future__ import annotations

import ast
import collections
import inspect
import keyword
import re
import sys
import textwrap
from typing import Any, Callable

from ..engine.report import safe_repr
from .bundles import Multiple
from .scheduler import History
from .trace import Failure, Machine, Step, Trace

__all__ = ["program"]


class Names:
    """The names a program gives the objects it calls, and what they need to be defined: an
    import for what a module holds; for a lambda or a function defined inside another (which
    no import reaches), its source, inlined as a definition at the top of the program; a
    note when there is no source to inline."""

    def __init__(self) -> None:
        self.imports: dict[str, set[str]] = collections.defaultdict(set)
        self.notes: list[str] = []
        self.definitions: list[str] = []
        self._given: dict[int, str] = {}
        self._taken: set[str] = set()

    def __call__(self, obj: Any, role: str = "function") -> str:
        """The name ``obj`` has in the program (``role`` names a lambda: ``invariant``, ``expect``...)."""
        known = self._given.get(id(obj))
        if known is not None:
            return known
        qualified = str(getattr(obj, "__qualname__", None) or type(obj).__qualname__)
        module = getattr(obj, "__module__", None)
        head = qualified.split(".")[0]
        # Import what its module really holds; a class of __main__ or of a notebook is
        # taken to be defined where the program runs.
        if module and "<" not in qualified and getattr(sys.modules.get(module), head, None) is not None:
            if module != "__main__":
                self.imports[module].add(head)
            name = qualified
        elif "<" not in qualified:  # a module the program cannot import (a notebook's): defined where it runs
            name = qualified
        else:
            name = self._define(obj, qualified, role)
        self._given[id(obj)] = name
        return name

    def _define(self, obj: Any, qualified: str, role: str) -> str:
        if getattr(obj, "__name__", "") == "<lambda>":
            text = expression_of(obj)
            name = self._fresh(_identifier(role))
            if text is None:
                self.notes.append(f"# {name} is a lambda whose source is not available here: define {name} before running this program")
            else:
                self._needs(obj, text)
                self.definitions.append(f"{name} = {text}")
            return name
        name = str(getattr(obj, "__name__", None) or _identifier(role))
        try:
            source = textwrap.dedent(inspect.getsource(obj))
        except (OSError, TypeError):
            self.notes.append(f"# {qualified} is defined inside a function and has no source here: define {name} before running this program")
            return name
        source = _undecorated(source)
        self._needs(obj, source)
        self.definitions.extend([*source.rstrip().splitlines(), ""])
        self._taken.add(name)
        return name

    def _needs(self, obj: Any, source: str) -> None:
        """Import the module-level names an inlined definition (``source``) uses, and say which
        variables of an enclosing function it reads (no program can give them)."""
        module = getattr(obj, "__module__", None)
        scope = getattr(obj, "__globals__", None) or (vars(sys.modules[module]) if module in sys.modules else {})
        try:
            tree = ast.parse(source)
        except SyntaxError:
            return
        used = {node.id for node in ast.walk(tree) if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load)}
        for name in sorted(used):
            if name not in scope or name == getattr(obj, "__name__", None):
                continue
            value = scope[name]
            home = getattr(value, "__module__", None)
            if inspect.ismodule(value):
                self.imports[value.__name__].add("*" if value.__name__ == name else f"* as {name}")
            elif isinstance(home, str) and home != "__main__" and getattr(sys.modules.get(home), name, None) is value:
                self.imports[home].add(name)  # from where it is defined (typing's Any, not the test's)
            elif module and module != "__main__" and getattr(sys.modules.get(module), name, None) is value:
                self.imports[module].add(name)
        code = getattr(obj, "__code__", None)
        if code is not None and code.co_freevars:
            self.notes.append(
                f"# {obj.__qualname__} reads {', '.join(code.co_freevars)} of the function that defines it: "
                "give them values before running this program"
            )

    def _fresh(self, base: str) -> str:
        name, k = base, 1
        while name in self._taken:
            k += 1
            name = f"{base}_{k}"
        self._taken.add(name)
        return name

    def header(self, *extra: str) -> list[str]:
        """The program's first lines: notes, imports, then the definitions it inlines."""
        imports: list[str] = []
        for module, names in sorted(self.imports.items()):
            imports.extend(f"import {module}{name[1:]}" for name in sorted(names) if name.startswith("*"))
            plain = sorted(name for name in names if not name.startswith("*"))
            if plain:
                imports.append(f"from {module} import {', '.join(plain)}")
        definitions = ["", *self.definitions] if self.definitions else []
        # An inlined definition's annotations name what the program may not import.
        future = ["from __future__ import annotations"] if self.definitions else []
        return [*dict.fromkeys(self.notes), *future, *dict.fromkeys([*imports, *extra]), *definitions]


def _names_used(code: Any) -> set[str]:
    """The global names a code object (and the code objects nested in it) reads."""
    names = set(code.co_names)
    for const in code.co_consts:
        if inspect.iscode(const):
            names |= _names_used(const)
    return names


def _identifier(text: str) -> str:
    cleaned = re.sub(r"\W+", "_", text).strip("_") or "function"
    if cleaned[0].isdigit():
        cleaned = f"f_{cleaned}"
    return f"{cleaned}_" if keyword.iskeyword(cleaned) else cleaned


def _undecorated(source: str) -> str:
    """A definition's source without its decorators (``@sy.invariant()`` needs the class)."""
    lines = source.splitlines()
    while lines and lines[0].lstrip().startswith("@"):
        lines.pop(0)
    return "\n".join(lines)


def program(machine: Machine, trace: Trace) -> str:
    """A Python program that performs ``trace`` on a fresh system and fails the same way.

    Every callable it names is importable, or inlined from its source (:class:`Names`);
    values are written in full (an int beyond Python's digit limit in hex), so the program
    runs as a regression test."""
    variable = machine.variable
    names = Names()
    factory = machine.system if (isinstance(machine.system, type) or not hasattr(machine.system, "reset")) else type(machine.system)
    body = [f"{variable} = {names(factory, 'system')}()"]
    if trace.history is not None and trace.lanes is not None:
        if machine.concurrency is not None and not machine.concurrency.tasks:
            # The threading primitives the system makes must be ones the scheduler sees.
            body = ["with sy.controlled_primitives():", f"    {body[0]}"]
        body.extend(concurrent_program(machine, trace.history, trace.lanes, variable, names, trace.failure))
        names.imports["functools"].add("*")
        return "\n".join([*names.header("import synthia as sy"), "", *body])
    failure = trace.failure
    if failure is not None and failure.kind == "setup":
        made = failure.made
        if made is not machine.system:  # the model failed to be made
            body.append(f"{names(made, 'model')}()  # the model: raises {type(failure.exception).__name__}")
        else:
            body[0] = f"{names(factory, 'system')}()  # raises {type(failure.exception).__name__}"
        return "\n".join([*names.header(), *body])
    check = failure.check if failure is not None else None
    # An invariant or teardown of (system, model) needs the model, stepped along with the system.
    with_model = machine.model is not None and check is not None and getattr(check, "method_name", None) is None and arity(check) >= 2
    if with_model:
        model_factory = machine.model if (isinstance(machine.model, type) or not hasattr(machine.model, "reset")) else type(machine.model)
        body.append(f"model = {names(model_factory, 'model')}()")
    last_passed = failure is None or failure.kind == "teardown"
    for step in trace.steps if last_passed else trace.steps[:-1]:
        body.extend(_step_lines(step, variable, names, with_model))
    if failure is not None:
        body.extend(_failure_lines(machine, trace, failure, variable, names, with_model))
    if any(line.startswith("with contextlib.suppress") for line in body):
        names.imports["contextlib"].add("*")
    body = as_script(body, variable, any(step.awaited or step.model_awaited for step in trace.steps), names.imports)
    return "\n".join([*names.header(), *body])


def _call(step: Step, variable: str, names: Names) -> str:
    action = step.action
    name = None if isinstance(action.fn, str) or inspect.ismethod(action.fn) else names(action.fn, action.name)
    return step.text(variable, name, full=True)


def _model_call(step: Step, names: Names) -> str:
    counterpart = step.action.model
    name = names(counterpart, f"model_{step.action.name}") if callable(counterpart) and not isinstance(counterpart, (str, bool)) else None
    return step.model_text("model", name, full=True)


def _exception_name(kind: type[BaseException], names: Names) -> str:
    # An exception class the program names must be imported (a builtin needs nothing).
    return kind.__qualname__ if kind.__module__ == "builtins" else names(kind)


def _step_lines(step: Step, variable: str, names: Names, with_model: bool) -> list[str]:
    """A step that passed: its call (an accepted exception suppressed; its result put in the
    variables of its bundle values), the model's after it."""
    if step.exception is not None:
        _exception_name(type(step.exception), names)
    call = _call(step, variable, names)
    if isinstance(step.result, Multiple):
        call = f"{', '.join(step.made)}{',' if len(step.made) == 1 else ''} = {call}.values" if step.made else call
    elif step.made:
        call = f"{step.made[0]} = {call}"
    lines = guarded(call, step.exception)
    if with_model:
        lines.extend(guarded(_model_call(step, names), None, model_step=True))
    return lines


def _failure_lines(machine: Machine, trace: Trace, failure: Any, variable: str, names: Names, with_model: bool) -> list[str]:
    """The last lines of the program: what fails, and how."""
    if failure.kind == "teardown":
        return _teardown_lines(machine, failure, variable, names, with_model)
    last = trace.steps[-1]
    call = _call(last, variable, names)
    if failure.kind == "raised":
        return [f"{call}  # raises {type(failure.exception).__name__}"]
    if failure.kind == "mismatch" and not isinstance(failure.expected, BaseException):
        return [f"assert {call} == {safe_repr(failure.expected, None)}  # the model's result"]
    if failure.kind == "mismatch":
        raised = _exception_name(type(failure.expected), names)
        return [
            "try:", f"    {call}", f"except {raised}:", "    pass  # as the model does",
            "else:", f"    raise AssertionError({f'{call} did not raise {raised}, as the model does'!r})",
        ]
    if failure.kind == "expect":
        expected = failure.expected
        if callable(expected):
            return [f"assert {'await ' if failure.awaited else ''}{names(expected, f'expect_{last.action.name}')}({call})  # the action's expectation"]
        return [f"assert {call} == {safe_repr(expected, None)}  # the action's expectation"]
    lines = _step_lines(last, variable, names, with_model)
    check = failure.check
    method = getattr(check, "method_name", None)
    wait = "await " if failure.awaited else ""
    if method is not None:
        test = f"{variable}.{method}()"
    else:
        test = f"{names(check, 'invariant')}({variable}{', model' if with_model else ''})"
    return [*lines, f"assert {wait}{test} in (None, True)  # invariant"]


def _teardown_lines(machine: Machine, failure: Any, variable: str, names: Names, with_model: bool) -> list[str]:
    teardown = failure.check
    raised = type(failure.exception).__name__
    if isinstance(machine.system, type) and getattr(machine.system, "teardown", None) is teardown:  # the class's own method
        return [f"{variable}.teardown()  # teardown: raises {raised}"]
    return [f"{names(teardown, 'teardown')}({variable}{', model' if with_model else ''})  # teardown: raises {raised}"]


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
