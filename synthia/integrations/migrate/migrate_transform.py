"""The codemod's transformer: one pass over a module's concrete syntax tree (libcst keeps the
comments and the layout), bottom-up, translating strategies to pickers, the test decorators
and helpers, and state machines; a ``# synthia: ...`` comment above each statement it could
not translate. The imports are fixed afterwards (:mod:`.migrate_imports`).
"""
from __future__ import annotations

import functools

import collections
import dataclasses
from typing import Any, Mapping, Sequence, cast

from .migrate_build import cst

from .migrate_build import BRIDGE, Bound, Mark, Out, bound_name, code, expr, literal, name_of
from .migrate_scan import STRATEGY_METHODS, Scan, hypothesis_name, is_strategy
from .migrate_stateful import StatefulMixin
from .migrate_strategies import RECURSIVE_DEPTH, rule_for
from .migrate_tests import TestsMixin

PREFIX = "# synthia: "

#: Calls renamed to a synthia function of the same arguments.
RENAMES = {
    "hypothesis.note": "note",
    "hypothesis.target": "target",
    "hypothesis.assume": "assume",
    "hypothesis.stateful.Bundle": "Bundle",
    "hypothesis.stateful.consumes": "consumes",
    "hypothesis.stateful.multiple": "multiple",
    "hypothesis.stateful.initialize": "initialize",
    "hypothesis.stateful.precondition": "precondition",
    "hypothesis.settings.load_profile": "load_profile",
}

#: Names with no synthia counterpart, and what to do instead (the code stays, marked).
NO_EQUIVALENT = {
    "hypothesis.currently_in_test_context": "currently_in_test_context() has no synthia equivalent: sy.note/sy.event do nothing outside a run",
    "hypothesis.is_hypothesis_test": "is_hypothesis_test() has no synthia equivalent: a @sy.given test has a synthia_report after it ran",
    "hypothesis.register_random": "register_random(): synthia never reseeds global random states; give the code a sy.randoms() instead",
    "hypothesis.settings.get_profile": "settings.get_profile(): synthia.testing.settings.get_profile(name) returns a synthia Profile",
    "hypothesis.settings.get_current_profile_name": "settings.get_current_profile_name(): synthia.testing.settings.active_profile().name",
}


@dataclasses.dataclass
class Counts:
    """What the codemod did to one module."""

    translated: int = 0
    bridged: int = 0
    marks: list[tuple[int, str]] = dataclasses.field(default_factory=list)


class Migrator(StatefulMixin, TestsMixin, cst.CSTTransformer):
    """Rewrites one module (see the module docstring)."""

    def __init__(self, names: Mapping[cst.CSTNode, Any], found: Scan, needs: "Needs", known: set[str]) -> None:
        super().__init__()
        self.names = names
        self.found = found
        self.needs = needs
        self.known = known
        self.counts = Counts()
        self.pickers: set[int] = set()
        self.origin: dict[int, cst.CSTNode] = {}
        #: The nodes whose ids ``pickers`` and ``choices`` hold, kept alive: a freed node's id
        #: given to a new node made it a picker or a Choice (a call's arguments spliced in).
        self.alive: list[cst.CSTNode] = []
        self.frames: list[list[str]] = [[]]
        self.assigning: list[tuple[cst.CSTNode, str | None]] = []
        self.data_names: list[set[str]] = [set()]
        self.classes: list[str] = []
        #: the original calls that are decorators (``@given(...)`` is rewritten with its test)
        self.decorating: set[int] = set()

    def visit_Decorator(self, node: cst.Decorator) -> None:
        target = node.decorator
        if isinstance(target, cst.Call):
            self.decorating.add(id(target))
            if isinstance(target.func, cst.Attribute) and isinstance(target.func.value, cst.Call):
                self.decorating.add(id(target.func.value))  # @example(...).via(...)

    # -- what rules may ask (migrate_strategies.Context) ------------------------------------
    def sy(self, name: str) -> str:
        return f"sy.{name}"

    def need(self, module: str, name: str) -> str:
        return self.needs.name(module, name)

    def is_picker(self, node: cst.BaseExpression) -> bool:
        return id(node) in self.pickers or (isinstance(node, cst.Name) and (node.value in self.found.strategies or node.value in self.known)) \
            or (isinstance(node, cst.Call) and name_of(node.func) in (self.found.factories | self.found.composites | self.known))

    def original(self, node: cst.BaseExpression) -> cst.BaseExpression | None:
        found = self.origin.get(id(node))
        return found if isinstance(found, cst.BaseExpression) else None

    # -- marks ------------------------------------------------------------------------------
    def mark(self, message: str) -> None:
        """Say ``message`` above the statement being rewritten (on one line)."""
        message = " ".join(message.split())
        if len(message) > 300:
            message = message[:297] + "..."
        if message not in self.frames[-1]:
            self.frames[-1].append(message)

    # (a decorator's marks go above the decorated definition: comments above the first
    # decorator belong to the definition when the file is read again)
    _ANCHORS = (cst.SimpleStatementLine, cst.FunctionDef, cst.ClassDef, cst.If, cst.For, cst.While, cst.With, cst.Try)

    def on_visit(self, node: cst.CSTNode) -> bool:
        if isinstance(node, self._ANCHORS):
            self.frames.append([])
        return super().on_visit(node)

    def on_leave(self, original_node: cst.CSTNode, updated_node: cst.CSTNode) -> Any:
        result = super().on_leave(original_node, updated_node)
        if isinstance(original_node, self._ANCHORS):
            messages = self.frames.pop()
            if messages:
                if isinstance(result, self._ANCHORS):
                    result = self._with_marks(result, messages)
                else:  # removed or replaced: the enclosing statement carries them
                    for message in messages:
                        self.mark(message)
        return result

    def _with_marks(self, node: Any, messages: list[str]) -> Any:
        lines = list(node.leading_lines)
        present = {line.comment.value for line in lines if line.comment is not None}
        for message in messages:
            text = PREFIX + message
            if text not in present:
                lines.append(cst.EmptyLine(indent=True, comment=cst.Comment(text)))
            self.counts.marks.append((0, message))
        return node.with_changes(leading_lines=lines)

    # -- imports are left to migrate_imports -------------------------------------------------
    def visit_Import(self, node: cst.Import) -> bool:
        return False

    def visit_ImportFrom(self, node: cst.ImportFrom) -> bool:
        return False

    # -- assignments (st.recursive needs the name it is assigned to) -------------------------
    def visit_Assign(self, node: cst.Assign) -> None:
        target = node.targets[0].target if len(node.targets) == 1 else None
        self.assigning.append((node.value, target.value if isinstance(target, cst.Name) else None))

    def leave_Assign(self, original_node: cst.Assign, updated_node: cst.Assign) -> Any:
        self.assigning.pop()
        return self.stateful_assign(original_node, updated_node)

    # -- names used without a call ----------------------------------------------------------
    def leave_Attribute(self, original_node: cst.Attribute, updated_node: cst.Attribute) -> Any:
        return self._reference(original_node, updated_node)

    def leave_Name(self, original_node: cst.Name, updated_node: cst.Name) -> Any:
        return self._reference(original_node, updated_node)

    def _reference(self, original_node: Any, updated_node: Any) -> Any:
        qualified = hypothesis_name(self.names, original_node)
        if qualified == "hypothesis.strategies.SearchStrategy":
            self.counts.translated += 1
            return cst.parse_expression(self.sy("Picker"))
        if qualified == "hypothesis.extra.numpy.BroadcastableShapes":
            self.counts.translated += 1
            return cst.parse_expression(self.sy("BroadcastableShapes"))
        if qualified == "hypothesis.strategies.just" and not self._called(original_node):
            self.counts.translated += 1  # a function given as a value: s.flatmap(st.just)
            return cst.parse_expression(self.sy("Constant"))
        return updated_node

    # -- calls ------------------------------------------------------------------------------
    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> Any:
        qualified = hypothesis_name(self.names, original_node.func)
        if qualified == "hypothesis.settings.register_profile":
            self.profiles -= 1
        func = original_node.func
        if qualified is None or (isinstance(func, cst.Attribute) and isinstance(func.value, cst.Call)):
            # a method of a value: st.integers().map(f) is a call of .map, not a Hypothesis name
            return self._method_call(original_node, updated_node)
        if self._inside_bridge():
            return updated_node
        rule = rule_for(qualified)
        if rule is not None:
            return self._strategy(qualified, rule, original_node, updated_node)
        if qualified == "hypothesis.strategies.recursive":
            return self._recursive(original_node, updated_node)
        if qualified in RENAMES:
            self.counts.translated += 1
            return updated_node.with_changes(func=cst.parse_expression(self.sy(RENAMES[qualified])))
        if qualified in NO_EQUIVALENT:
            if qualified == "hypothesis.settings.get_profile" and self.profiles:
                return updated_node  # register_profile(name, settings.get_profile(p)): read as parent=p
            self.mark(NO_EQUIVALENT[qualified])
            return updated_node
        return self.special_call(qualified, original_node, updated_node)

    def _inside_bridge(self) -> bool:
        return bool(self.bridging)

    bridging: int = 0
    profiles: int = 0
    recursions: int = 0  # st.recursive used in place, each named recursive1, recursive2, ...

    @functools.cached_property
    def callees(self) -> set[int]:
        """The nodes called (``f`` of ``f(...)``), as :meth:`visit_Call` meets them."""
        return set()

    def _called(self, node: cst.CSTNode) -> bool:
        return id(node) in self.callees

    def visit_Call(self, node: cst.Call) -> None:
        self.callees.add(id(node.func))
        if hypothesis_name(self.names, node.func) == "hypothesis.settings.register_profile":
            self.profiles += 1
        # Inside sy.from_strategy(...) a Hypothesis strategy stays one (a second run changes nothing).
        if name_of(node.func) in ("sy.from_strategy", "synthia.from_strategy"):
            self.bridging += 1

    def _leave_bridge(self, original_node: cst.Call) -> None:
        if name_of(original_node.func) in ("sy.from_strategy", "synthia.from_strategy"):
            self.bridging -= 1

    def _strategy(self, qualified: str, rule: Any, original_node: cst.Call, updated_node: cst.Call) -> Any:
        names, variadic, function = rule
        made = function(self, Bound(updated_node, names, variadic))
        if isinstance(made, Mark):
            self.mark(made.message)
            return original_node  # left as written, for the hand edit
        if made is BRIDGE:
            self.counts.bridged += 1
            bridged = Out(self.sy("from_strategy")).pos(original_node).build()
            self.pickers.add(self._keep(bridged))
            return bridged
        self.counts.translated += 1
        self.pickers.add(self._keep(made))
        self.origin[id(made)] = original_node
        if qualified == "hypothesis.strategies.one_of" and isinstance(made, cst.Call) and not any(a.star for a in made.args):
            self.choices.add(self._keep(made))
        return made

    def _recursive(self, original_node: cst.Call, updated_node: cst.Call) -> Any:
        bound = Bound(updated_node, ("base", "extend", "max_leaves"))
        target = self.assigning[-1][1] if self.assigning and self.assigning[-1][0] is original_node else None
        if "base" not in bound or "extend" not in bound:
            self.mark("st.recursive(...) needs base and extend: write name = sy.Deferred(lambda: sy.Choice(base, extend(name)), max_depth=3, fallback=base)")
            return updated_node
        named = target is not None
        if target is None:  # used in place (a call's argument): named by an assignment expression
            self.recursions += 1
            target = f"recursive{self.recursions}"
        base, extend = bound.get("base"), bound.get("extend")
        assert base is not None and extend is not None
        if isinstance(extend, cst.Lambda) and len(extend.params.params) == 1 and not isinstance(extend.params.star_arg, (cst.Param, cst.ParamStar)):
            grown = cast(cst.BaseExpression, extend.body.visit(_Rename(extend.params.params[0].name.value, target)))
        else:
            grown = self._extended(Bound(original_node, ("base", "extend", "max_leaves")).get("extend"), extend, target)
        made = expr(f"{self.sy('Deferred')}(lambda: {self.sy('Choice')}({{base}}, {{grown}}), max_depth={RECURSIVE_DEPTH}, fallback={{fallback}})",
                    base=base, grown=grown, fallback=base.deep_clone())
        if not named:
            made = expr(f"({target} := {{made}})", made=made)
        self.counts.translated += 1
        self.pickers.add(self._keep(made))
        return made

    def _extended(self, original: Any, extend: cst.BaseExpression, target: str) -> cst.BaseExpression:
        """``extend(target)``: for a strategy function given by name (``st.lists``), its picker."""
        call = cst.Call(func=extend, args=[cst.Arg(cst.Name(target))])
        rule = rule_for(hypothesis_name(self.names, original) or "") if original is not None else None
        if rule is not None:
            names, variadic, function = rule
            made = function(self, Bound(call, names, variadic))
            if isinstance(made, cst.BaseExpression):
                return made
        return call

    def _method_call(self, original_node: cst.Call, updated_node: cst.Call) -> Any:
        self._leave_bridge(original_node)
        func = updated_node.func
        if not isinstance(func, cst.Attribute):
            return updated_node
        method = func.attr.value
        receiver = func.value
        # data.draw(s) of a test's or rule's data object
        if method == "draw" and isinstance(receiver, cst.Name) and receiver.value in self.data_names[-1] and updated_node.args:
            self.counts.translated += 1
            first = updated_node.args[0].with_changes(comma=cst.MaybeSentinel.DEFAULT, keyword=None, equal=cst.MaybeSentinel.DEFAULT)
            return updated_node.with_changes(func=cst.parse_expression(self.sy("draw")), args=[first])
        known = self.is_picker(receiver) or is_strategy(original_node.func.value, self.names, self.found, self.known)  # type: ignore[attr-defined]
        if not known:
            return updated_node
        arguments = [a for a in updated_node.args]
        if method in STRATEGY_METHODS and len(arguments) == 1 and not arguments[0].star and arguments[0].keyword is None:
            picker = {"map": "Apply", "filter": "PickIf", "flatmap": "Bind"}[method]
            out = Out(self.sy(picker), updated_node)
            if method == "map":
                out.same(arguments[0]).pos(receiver)
            else:
                out.pos(receiver).same(arguments[0])
            made = out.build()
            self.counts.translated += 1
            self.pickers.add(self._keep(made))
            return made
        if method == "example" and not arguments:
            self.counts.translated += 1
            return updated_node.with_changes(func=func.with_changes(attr=cst.Name("pick")))
        return updated_node

    def leave_BinaryOperation(self, original_node: cst.BinaryOperation, updated_node: cst.BinaryOperation) -> Any:
        if not isinstance(updated_node.operator, cst.BitOr):
            return updated_node
        left, right = updated_node.left, updated_node.right
        if not (self.is_picker(left) or self.is_picker(right)
                or is_strategy(original_node, self.names, self.found, self.known)):
            return updated_node
        parts: list[cst.BaseExpression] = []
        for side in (left, right):
            if id(side) in self.choices:
                parts.extend(a.value for a in side.args)  # type: ignore[attr-defined]
            else:
                parts.append(side)
        made = cst.Call(func=cst.parse_expression(self.sy("Choice")),
                        args=[cst.Arg(p, comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" ")) if i < len(parts) - 1 else cst.MaybeSentinel.DEFAULT)
                              for i, p in enumerate(parts)],
                        lpar=updated_node.lpar, rpar=updated_node.rpar)
        self.choices.add(self._keep(made))
        self.pickers.add(self._keep(made))
        self.counts.translated += 1
        return made

    choices: set[int]

    def _keep(self, node: cst.CSTNode) -> int:
        self.alive.append(node)
        return id(node)

    def visit_Module(self, node: cst.Module) -> None:
        self.choices = set()

    def leave_Module(self, original_node: cst.Module, updated_node: cst.Module) -> cst.Module:
        # Comments at the top of a file are the module's header when it is read again: a mark
        # there is not repeated on the first statement.
        if not updated_node.body:
            return updated_node
        header = {line.comment.value for line in updated_node.header if line.comment is not None}
        first = updated_node.body[0]
        kept = [line for line in first.leading_lines if line.comment is None or line.comment.value not in header]  # type: ignore[union-attr]
        if len(kept) == len(first.leading_lines):  # type: ignore[union-attr]
            return updated_node
        return updated_node.with_changes(body=[first.with_changes(leading_lines=kept), *updated_node.body[1:]])


class _Rename(cst.CSTTransformer):
    """Renames the variable ``old`` to ``new`` (not attributes, not keywords)."""

    def __init__(self, old: str, new: str) -> None:
        super().__init__()
        self.old, self.new = old, new

    def visit_Attribute(self, node: cst.Attribute) -> bool:
        node.value.visit(self)
        return False

    def leave_Attribute(self, original_node: cst.Attribute, updated_node: cst.Attribute) -> Any:
        return updated_node.with_changes(value=original_node.value.visit(self))

    def visit_Arg(self, node: cst.Arg) -> bool:
        return True

    def leave_Arg(self, original_node: cst.Arg, updated_node: cst.Arg) -> Any:
        return updated_node.with_changes(keyword=original_node.keyword)

    def leave_Name(self, original_node: cst.Name, updated_node: cst.Name) -> Any:
        return updated_node.with_changes(value=self.new) if updated_node.value == self.old else updated_node


class Needs:
    """The names from other modules the translation uses (``math.nextafter``, ``timedelta``),
    written the way the module can reach them; the imports to add are kept in ``imports``."""

    def __init__(self, module: cst.Module) -> None:
        self.from_imports: dict[tuple[str, str], str] = {}
        self.module_imports: dict[str, str] = {}
        self.bound: set[str] = set()
        for statement in module.body:
            if isinstance(statement, cst.SimpleStatementLine):
                for small in statement.body:
                    self._read(small)
            elif isinstance(statement, (cst.FunctionDef, cst.ClassDef)):
                self.bound.add(statement.name.value)
        self.imports: list[tuple[str, str | None]] = []  # (module, name or None for `import module`)

    def _read(self, small: cst.BaseSmallStatement) -> None:
        if isinstance(small, cst.ImportFrom) and isinstance(small.names, Sequence) and not small.relative:
            module = name_of(small.module) if small.module is not None else None
            for alias in small.names:
                local = bound_name(alias)
                self.bound.add(local)
                if module is not None:
                    self.from_imports[(module, name_of(alias.name) or "")] = local
        elif isinstance(small, cst.Import):
            for alias in small.names:
                dotted = name_of(alias.name) or ""
                local = bound_name(alias)
                self.bound.add(local)
                if alias.asname or "." not in dotted:
                    self.module_imports[dotted] = local
        elif isinstance(small, (cst.Assign, cst.AnnAssign)):
            targets = [t.target for t in small.targets] if isinstance(small, cst.Assign) else [small.target]
            self.bound.update(t.value for t in targets if isinstance(t, cst.Name))

    def name(self, module: str, name: str) -> str:
        if module in self.module_imports:
            return f"{self.module_imports[module]}.{name}"
        if (module, name) in self.from_imports:
            return self.from_imports[(module, name)]
        if module not in self.bound:
            self.module_imports[module] = module
            self.bound.add(module)
            self.imports.append((module, None))
            return f"{module}.{name}"
        # the module's name is taken (from datetime import datetime): import the name itself
        self.from_imports[(module, name)] = name
        self.bound.add(name)
        self.imports.append((module, name))
        return name


def count_by_line(counts: Counts, module: cst.Module) -> list[tuple[int, str]]:
    """The marks of the new ``module`` with their line numbers (1-based)."""
    found: list[tuple[int, str]] = []
    seen: collections.Counter[str] = collections.Counter()
    for number, line in enumerate(module.code.splitlines(), 1):
        stripped = line.strip()
        if stripped.startswith(PREFIX):
            message = stripped[len(PREFIX):]
            seen[message] += 1
            found.append((number, message))
    return found


__all__ = ["Migrator", "Needs", "Counts", "PREFIX", "count_by_line", "literal", "code"]
