"""What the codemod learns about a module before it rewrites it: which names hold strategies
(so that ``s.map(f)`` and ``a | b`` on them are translated), which functions make strategies
(``@st.composite`` functions and helpers that return one), and which classes are state machines
with the settings given to them after the class."""
from __future__ import annotations

import dataclasses
from typing import Any, Iterator, Mapping

from .migrate_build import cst

from .migrate_build import name_of

STRATEGY_METHODS = ("map", "filter", "flatmap")


def hypothesis_name(names: Mapping[cst.CSTNode, Any], node: cst.CSTNode) -> str | None:
    """The qualified name (``hypothesis.strategies.integers``) ``node`` refers to, if it is
    one of Hypothesis's."""
    found = names.get(node, ())
    if callable(found):  # libcst computes qualified names lazily
        found = found()
    for qualified in found:
        if qualified.name.startswith("hypothesis.") or qualified.name == "hypothesis":
            return str(qualified.name)
    return None


@dataclasses.dataclass
class Scan:
    """What :func:`scan` found."""

    strategies: set[str] = dataclasses.field(default_factory=set)
    factories: set[str] = dataclasses.field(default_factory=set)
    composites: set[str] = dataclasses.field(default_factory=set)
    machines: set[str] = dataclasses.field(default_factory=set)
    #: machine name -> the ``settings(...)`` calls given to it after its class
    machine_settings: dict[str, list[cst.Call]] = dataclasses.field(default_factory=dict)
    #: ``TestX`` -> ``X`` for ``TestX = X.TestCase``
    test_cases: dict[str, str] = dataclasses.field(default_factory=dict)
    #: whether the module draws from ``st.data()`` objects
    uses_data: bool = False


def _walk(node: cst.CSTNode) -> Iterator[cst.CSTNode]:
    yield node
    for child in node.children:
        yield from _walk(child)


def is_strategy(node: cst.BaseExpression, names: Mapping[cst.CSTNode, Any], found: Scan, known: set[str]) -> bool:
    """Whether the expression ``node`` makes a strategy (before translation)."""
    if isinstance(node, cst.Call):
        qualified = hypothesis_name(names, node.func)
        if qualified is not None:
            return qualified.startswith(("hypothesis.strategies.", "hypothesis.extra.numpy.")) and qualified.rsplit(".", 1)[1] not in (
                "register_type_strategy", "SearchStrategy", "DataObject", "DrawFn", "composite")
        if isinstance(node.func, cst.Attribute) and node.func.attr.value in STRATEGY_METHODS:
            return is_strategy(node.func.value, names, found, known)
        called = name_of(node.func)
        return called is not None and (called in found.factories or called in found.composites or called in known)
    if isinstance(node, cst.Name):
        return node.value in found.strategies or node.value in known
    if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, cst.BitOr):
        return is_strategy(node.left, names, found, known) or is_strategy(node.right, names, found, known)
    return False


def scan(module: cst.Module, names: Mapping[cst.CSTNode, Any], known: set[str] = frozenset()) -> Scan:  # type: ignore[assignment]
    """Find the strategy names, strategy factories and state machines of ``module``.

    ``known`` are names known from other files (strategies and factories they define)."""
    found = Scan()
    nodes = list(_walk(module))
    for node in nodes:
        if isinstance(node, cst.Call) and hypothesis_name(names, node.func) == "hypothesis.strategies.data":
            found.uses_data = True
        if isinstance(node, cst.FunctionDef):
            for decorator in node.decorators:
                target = decorator.decorator
                if hypothesis_name(names, target) == "hypothesis.strategies.composite":
                    found.composites.add(node.name.value)
        if isinstance(node, cst.ClassDef):
            for base in node.bases:
                if hypothesis_name(names, base.value) == "hypothesis.stateful.RuleBasedStateMachine":
                    found.machines.add(node.name.value)
    for _ in range(3):  # names defined from names: a few rounds reach the fixpoint in practice
        for node in nodes:
            if isinstance(node, (cst.Assign, cst.AnnAssign)) and node.value is not None and is_strategy(node.value, names, found, known):
                targets = [t.target for t in node.targets] if isinstance(node, cst.Assign) else [node.target]
                found.strategies.update(t.value for t in targets if isinstance(t, cst.Name))
            elif isinstance(node, cst.FunctionDef) and node.name.value not in found.factories:
                returns = [n for n in _walk(node.body) if isinstance(n, cst.Return) and n.value is not None]
                if returns and all(is_strategy(r.value, names, found, known) for r in returns if r.value is not None):
                    found.factories.add(node.name.value)
    for node in nodes:
        if isinstance(node, cst.Assign) and len(node.targets) == 1:
            target, value = node.targets[0].target, node.value
            # TestX = X.TestCase
            if (isinstance(target, cst.Name) and isinstance(value, cst.Attribute) and value.attr.value == "TestCase"
                    and isinstance(value.value, cst.Name) and value.value.value in found.machines):
                found.test_cases[target.value] = value.value.value
    for node in nodes:
        if isinstance(node, cst.Assign) and len(node.targets) == 1:
            machine = settings_target(node.targets[0].target, found)
            if machine is not None and isinstance(node.value, cst.Call) and hypothesis_name(names, node.value.func) == "hypothesis.settings":
                found.machine_settings.setdefault(machine, []).append(node.value)
        # run_state_machine_as_test(X, settings=settings(...))
        if isinstance(node, cst.Call) and hypothesis_name(names, node.func) == "hypothesis.stateful.run_state_machine_as_test":
            machine_arg = node.args[0].value if node.args else None
            for arg in node.args[1:]:
                if (isinstance(machine_arg, cst.Name) and machine_arg.value in found.machines and arg.keyword is not None
                        and arg.keyword.value == "settings" and isinstance(arg.value, cst.Call)):
                    found.machine_settings.setdefault(machine_arg.value, []).append(arg.value)
    return found


def settings_target(target: cst.BaseExpression, found: Scan) -> str | None:
    """The machine whose settings ``target`` is: ``X.TestCase.settings`` or ``TestX.settings``."""
    if not (isinstance(target, cst.Attribute) and target.attr.value == "settings"):
        return None
    owner = target.value
    if isinstance(owner, cst.Attribute) and owner.attr.value == "TestCase" and isinstance(owner.value, cst.Name):
        return owner.value.value if owner.value.value in found.machines else None
    if isinstance(owner, cst.Name):
        if owner.value in found.test_cases:
            return found.test_cases[owner.value]
        if owner.value in found.machines:
            return owner.value
    return None


def exported(module: cst.Module, names: Mapping[cst.CSTNode, Any]) -> set[str]:
    """The module-level names of ``module`` that hold strategies or make them (for the files
    that import them)."""
    found = scan(module, names)
    top = set()
    for statement in module.body:
        if isinstance(statement, cst.FunctionDef):
            top.add(statement.name.value)
        elif isinstance(statement, cst.SimpleStatementLine):
            for small in statement.body:
                if isinstance(small, (cst.Assign, cst.AnnAssign)):
                    targets = [t.target for t in small.targets] if isinstance(small, cst.Assign) else [small.target]
                    top.update(t.value for t in targets if isinstance(t, cst.Name))
    return top & (found.strategies | found.factories | found.composites)
