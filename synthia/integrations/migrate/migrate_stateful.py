"""The state-machine side of the codemod: a ``RuleBasedStateMachine`` becomes a plain class
decorated with ``@sy.monkey(...)`` (its settings as keywords, ``stateful_step_count`` as
``max_steps``), ``super().__init__()`` goes, ``@rule`` becomes ``@sy.action``, ``@invariant``
``@sy.invariant``, ``TestX = X.TestCase`` becomes ``TestX = X`` and
``run_state_machine_as_test(X)`` becomes ``X().test_monkey()``."""
from __future__ import annotations

from typing import Any, Callable

from .migrate_build import cst

from .migrate_build import literal
from .migrate_scan import hypothesis_name, settings_target
from .migrate_settings import keywords, options


#: Hypothesis names left as they are, unmarked: exceptions (``raise InvalidArgument(...)``,
#: ``pytest.raises``), internal helpers (they keep working while Hypothesis is installed), and
#: the members of ``HealthCheck``/``Phase``/``Verbosity`` (dropped with the settings holding them).
QUIET = ("hypothesis.errors.", "hypothesis.internal.", "hypothesis.HealthCheck.", "hypothesis.Phase.", "hypothesis.Verbosity.")


def _is_super_init(statement: cst.BaseStatement) -> bool:
    """``super().__init__()`` or ``RuleBasedStateMachine.__init__(self)`` alone on its line."""
    if not isinstance(statement, cst.SimpleStatementLine) or len(statement.body) != 1:
        return False
    small = statement.body[0]
    if not (isinstance(small, cst.Expr) and isinstance(small.value, cst.Call)):
        return False
    func = small.value.func
    if not (isinstance(func, cst.Attribute) and func.attr.value == "__init__"):
        return False
    owner = func.value
    return (isinstance(owner, cst.Call) and isinstance(owner.func, cst.Name) and owner.func.value == "super") or (
        isinstance(owner, cst.Name) and owner.value == "RuleBasedStateMachine")


class StatefulMixin:
    """Part of :class:`~.migrate_transform.Migrator`: state machines."""

    names: Any
    found: Any
    counts: Any
    classes: list[str]
    decorating: set[int]

    mark: Callable[[str], None]
    sy: Callable[[str], str]

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        self.classes.append(node.name.value)

    def _machine(self) -> bool:
        return bool(self.classes) and self.classes[-1] in self.found.machines

    def leave_ClassDef(self, original_node: cst.ClassDef, updated_node: cst.ClassDef) -> Any:
        name = self.classes.pop()
        if name not in self.found.machines:
            for base in original_node.bases:
                if isinstance(base.value, cst.Name) and base.value.value in self.found.machines:
                    self.mark(f"{name} subclasses the state machine {base.value.value}: give it its own @sy.monkey() and the base class's actions (a decorated class is a test class)")
            return updated_node
        bases = [b for o, b in zip(original_node.bases, updated_node.bases)
                 if hypothesis_name(self.names, o.value) != "hypothesis.stateful.RuleBasedStateMachine"]
        if bases:
            bases[-1] = bases[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
        pairs: list[tuple[str, cst.BaseExpression]] = []
        decorators = []
        for original, decorator in zip(original_node.decorators, updated_node.decorators):
            target = original.decorator
            if isinstance(target, cst.Call) and hypothesis_name(self.names, target.func) == "hypothesis.settings":
                kept, marks = options(target, target, self.names, "machine")
                pairs.extend(kept)
                for message in marks:
                    self.mark(message)
                continue
            decorators.append(decorator)
        for call in self.found.machine_settings.get(name, []):
            kept, marks = options(call, call, self.names, "machine")
            pairs.extend(kept)
            for message in marks:
                self.mark(message)
        merged: dict[str, cst.BaseExpression] = {}
        for key, value in pairs:
            merged[key] = value
        monkey = cst.Decorator(decorator=cst.Call(func=cst.parse_expression(self.sy("monkey")), args=keywords(list(merged.items()))))
        self.counts.translated += 1
        changes: dict[str, Any] = {"bases": bases, "decorators": [monkey, *decorators]}
        if not bases:
            changes.update(lpar=cst.MaybeSentinel.DEFAULT, rpar=cst.MaybeSentinel.DEFAULT)
        return updated_node.with_changes(**changes)

    def stateful_function(self, original_node: cst.FunctionDef, updated_node: cst.FunctionDef) -> Any:
        if not self.classes:
            return updated_node
        if original_node.name.value == "execute_example":
            # Hypothesis's hook to run async tests; @sy.given awaits an async def test itself.
            self.counts.translated += 1
            return cst.RemovalSentinel.REMOVE
        if self._machine() and original_node.name.value == "__init__" and isinstance(updated_node.body, cst.IndentedBlock):
            body = [s for s in updated_node.body.body if not _is_super_init(s)]
            if len(body) < len(updated_node.body.body):
                self.counts.translated += 1
                if not body:
                    return cst.RemovalSentinel.REMOVE
                return updated_node.with_changes(body=updated_node.body.with_changes(body=body))
        return updated_node

    def stateful_call(self, qualified: str, original_node: cst.Call, updated_node: cst.Call) -> Any:
        if qualified == "hypothesis.stateful.rule":
            if any(a.keyword is not None and a.keyword.value == "targets" for a in updated_node.args):
                self.mark("@rule(targets=(a, b)): add the result to each bundle by returning sy.multiple(...) from two actions, or keep one target")
                return updated_node
            self.counts.translated += 1
            return updated_node.with_changes(func=cst.parse_expression(self.sy("action")))
        if qualified == "hypothesis.stateful.invariant":
            if any(a.keyword is not None and a.keyword.value == "check_during_init" and literal(a.value) is not False for a in updated_node.args):
                self.mark("@invariant(check_during_init=True): synthia checks invariants after the initialize actions")
                return updated_node
            self.counts.translated += 1
            return updated_node.with_changes(func=cst.parse_expression(self.sy("invariant")), args=[])
        if qualified == "hypothesis.stateful.run_state_machine_as_test":
            machine = updated_node.args[0].value if updated_node.args else None
            if isinstance(machine, cst.Name) and machine.value in self.found.machines:
                self.counts.translated += 1
                return cst.parse_expression(f"{machine.value}().test_monkey()")
            self.mark("run_state_machine_as_test() of a machine defined elsewhere: decorate it with @sy.monkey() and call Machine().test_monkey()")
            return updated_node
        if qualified == "hypothesis.settings":
            return updated_node  # decorators, machine settings and find's settings are read where they are used
        if qualified == "hypothesis.given":
            if id(original_node) in self.decorating:
                return updated_node  # rewritten with its test (migrate_tests)
            self.mark("given(...) not used as a decorator: write @sy.given(...) on the test")
            return updated_node
        if qualified == "hypothesis.strategies.data":
            return updated_node  # @given(data=st.data()) / @rule(data=st.data()): the test's sy.draw
        if qualified in ("hypothesis.seed", "hypothesis.reproduce_failure") and id(original_node) in self.decorating:
            return updated_node  # dropped with the test's decorators
        if qualified.startswith(QUIET):
            return updated_node  # exceptions, internals and enum members: they stay as they are
        self.mark(f"{qualified.replace('hypothesis.', '', 1)} has no mechanical translation: see the migration table in docs/testing.md")
        return updated_node

    def stateful_assign(self, original_node: cst.Assign, updated_node: cst.Assign) -> Any:
        if len(original_node.targets) != 1:
            return updated_node
        target, value = original_node.targets[0].target, original_node.value
        if settings_target(target, self.found) is not None and isinstance(value, cst.Call) \
                and hypothesis_name(self.names, value.func) == "hypothesis.settings":
            self.counts.translated += 1
            return cst.RemovalSentinel.REMOVE  # merged into the machine's @sy.monkey(...)
        if isinstance(value, cst.Attribute) and value.attr.value == "TestCase" and isinstance(value.value, cst.Name) \
                and value.value.value in self.found.machines:
            self.counts.translated += 1
            return updated_node.with_changes(value=value.value)
        return updated_node

    def leave_SimpleStatementLine(self, original_node: cst.SimpleStatementLine, updated_node: cst.SimpleStatementLine) -> Any:
        if not updated_node.body:
            return cst.RemovalSentinel.REMOVE
        return updated_node
