"""The test side of the codemod: ``@given`` (positional strategies named, ``st.data()`` made
``sy.draw``, inferred arguments left to ``@sy.given``'s annotations), ``@settings``,
``@example``, ``@seed``/``@reproduce_failure``, ``@st.composite``, ``find``, ``event``,
``reject`` and profiles."""
from __future__ import annotations

from typing import Any, Callable, Iterator, cast

from .migrate_build import cst

from .migrate_build import Out, code, literal
from .migrate_scan import hypothesis_name
from .migrate_settings import keywords, options

#: Decorators whose keyword arguments may draw a data object (``data=st.data()``).
DRAWING = ("hypothesis.given", "hypothesis.stateful.rule", "hypothesis.stateful.initialize")


def _walk(node: cst.CSTNode) -> Iterator[cst.CSTNode]:
    yield node
    for child in node.children:
        yield from _walk(child)


def _parameters(function: cst.FunctionDef) -> list[str]:
    params = function.params
    return [p.name.value for p in (*params.posonly_params, *params.params, *params.kwonly_params)]


def _positional_targets(params: list[str], call: cst.Call) -> list[str]:
    """The parameters ``@given``'s positional strategies fill: the rightmost ones (those given
    by keyword left out)."""
    positional = [a for a in call.args if a.keyword is None and not a.star]
    named = {a.keyword.value for a in call.args if a.keyword is not None}
    free = [p for p in params if p not in named]
    return free[len(free) - len(positional):] if positional else []


class TestsMixin:
    """Part of :class:`~.migrate_transform.Migrator`: test functions and the calls of a test."""

    names: Any
    found: Any
    counts: Any
    data_names: list[set[str]]
    classes: list[str]

    mark: Callable[[str], None]
    sy: Callable[[str], str]
    stateful_function: Callable[[cst.FunctionDef, cst.FunctionDef], Any]
    stateful_call: Callable[[str, cst.Call, cst.Call], Any]

    # -- which parameters are data objects ---------------------------------------------------
    def _call_of(self, decorator: cst.Decorator) -> tuple[str | None, cst.Call | None]:
        target = decorator.decorator
        if isinstance(target, cst.Call):
            func = target.func
            # example(...).via(...): the example itself
            if isinstance(func, cst.Attribute) and func.attr.value in ("via", "xfail") and isinstance(func.value, cst.Call):
                return hypothesis_name(self.names, func.value.func), func.value
            return hypothesis_name(self.names, func), target
        return hypothesis_name(self.names, target), None

    def _data_parameters(self, function: cst.FunctionDef) -> dict[str, str]:
        """``{parameter: decorator}`` for the parameters drawn from ``st.data()``."""
        found = {}
        params = _parameters(function)
        for decorator in function.decorators:
            qualified, call = self._call_of(decorator)
            if call is None or qualified not in DRAWING:
                continue
            positional = [a for a in call.args if a.keyword is None and not a.star]
            targets = _positional_targets(params, call)
            for i, arg in enumerate(call.args):
                if arg.star or not isinstance(arg.value, cst.Call):
                    continue
                if hypothesis_name(self.names, arg.value.func) == "hypothesis.strategies.data":
                    name = arg.keyword.value if arg.keyword is not None else (targets[positional.index(arg)] if targets else None)
                    if name is not None:
                        found[name] = qualified or ""
        return found

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        data = self._data_parameters(node)
        if self.found.uses_data and not any(self._call_of(d)[0] in DRAWING for d in node.decorators):
            # a helper handed a test's data object: its draws need the test's sy.draw
            for name in _parameters(node):
                if any(isinstance(n, cst.Call) and isinstance(n.func, cst.Attribute) and n.func.attr.value == "draw"
                       and isinstance(n.func.value, cst.Name) and n.func.value.value == name for n in _walk(node.body)):
                    self.mark(f"{name} is a Hypothesis data object handed to a helper: draw with sy.draw(picker) here and drop the parameter")
        usable = set()
        for name in data:
            uses = [n for n in _walk(node.body) if isinstance(n, cst.Name) and n.value == name]
            draws = [n for n in _walk(node.body) if isinstance(n, cst.Call) and isinstance(n.func, cst.Attribute)
                     and n.func.attr.value == "draw" and isinstance(n.func.value, cst.Name) and n.func.value.value == name]
            if len(uses) == len(draws):
                usable.add(name)
        self.data_names.append(usable)

    # -- test functions ----------------------------------------------------------------------
    def leave_FunctionDef(self, original_node: cst.FunctionDef, updated_node: cst.FunctionDef) -> Any:
        data = self.data_names.pop()
        unusable = self._data_parameters(original_node).keys() - data
        params = _parameters(original_node)
        in_class = bool(self.classes)
        decorators = []
        removed: set[str] = set(data)
        for original, decorator in zip(original_node.decorators, updated_node.decorators):
            qualified, call = self._call_of(original)
            new = decorator.decorator
            if qualified == "hypothesis.given" and isinstance(new, cst.Call) and call is not None:
                new = self._given(new, call, params, data, unusable)
            elif qualified == "hypothesis.settings" and isinstance(new, cst.Call) and call is not None:
                pairs, marks = options(new, call, self.names, "test")
                for message in marks:
                    self.mark(message)
                if marks:
                    decorators.append(decorator)
                    continue
                self.counts.translated += 1
                if not pairs:
                    continue  # nothing left that synthia needs
                new = cst.Call(func=cst.parse_expression(self.sy("RunOptions")), args=keywords(pairs))
            elif qualified == "hypothesis.example" and isinstance(new, cst.Call):
                if isinstance(new.func, cst.Attribute) and isinstance(new.func.value, cst.Call):
                    if new.func.attr.value == "xfail":
                        self.mark("@example(...).xfail(...): an example expected to fail has no synthia form; test it in a plain test with pytest.raises")
                        decorators.append(decorator)
                        continue
                    new = new.func.value  # .via(...) only says where the example came from
                named = self._example(cast(cst.Call, new), params[1:] if in_class and params[:1] in (["self"], ["cls"]) else params)
                if named is None:
                    decorators.append(decorator)
                    continue
                new = named
            elif qualified in ("hypothesis.seed", "hypothesis.reproduce_failure"):
                self.counts.translated += 1
                continue  # synthia's seed: pytest --synthia-seed=N; its failures replay from .synthia/
            elif qualified == "hypothesis.strategies.composite":
                self.counts.translated += 1
                new = cst.parse_expression(self.sy("composite"))
            elif qualified in ("hypothesis.stateful.rule", "hypothesis.stateful.initialize") and isinstance(new, cst.Call):
                new = self._drop_data(new, data)
            decorators.append(decorator.with_changes(decorator=new))
        updated_node = updated_node.with_changes(decorators=decorators)
        if removed:
            updated_node = self._remove_parameters(updated_node, removed)
        if any(hypothesis_name(self.names, d.decorator) == "hypothesis.strategies.composite" for d in original_node.decorators):
            updated_node = self._plain_draw(updated_node)
        return self.stateful_function(original_node, updated_node)

    def _given(self, call: cst.Call, original: cst.Call, params: list[str], data: set[str], unusable: Any) -> cst.Call:
        positional = [a for a in call.args if a.keyword is None and not a.star]
        targets = _positional_targets(params, call)
        out = Out(self.sy("given"), call)
        for arg, source in zip(call.args, original.args):
            if arg.star:
                self.mark("@given(*strategies): name each argument (@sy.given(x=picker))")
                return call
            name = arg.keyword.value if arg.keyword is not None else targets[positional.index(arg)]
            if name in data:
                continue
            if name in unusable:
                self.mark(f"{name} is a data object used beyond {name}.draw(...): pass values, and draw with sy.draw(picker) in the test")
                return call
            if isinstance(arg.value, cst.Ellipsis) or hypothesis_name(self.names, source.value) == "hypothesis.infer":
                continue  # @sy.given infers it from the annotation
            out.kw(name, arg.value, arg)
        self.counts.translated += 1
        return out.build()

    def _drop_data(self, call: cst.Call, data: set[str]) -> cst.Call:
        kept = [a for a in call.args if not (a.keyword is not None and a.keyword.value in data)]
        if len(kept) == len(call.args):
            return call
        out = Out(code(call.func), call)
        for arg in kept:
            out.same(arg)
        return out.build()

    def _example(self, call: cst.Call, params: list[str]) -> cst.Call | None:
        if any(a.star for a in call.args):
            self.mark("@example(*args): give the example's arguments by name")
            return None
        out = Out(self.sy("example"), call)
        position = 0
        for arg in call.args:
            if arg.keyword is None:
                if position >= len(params):
                    self.mark("@example(...) has more values than the test has parameters")
                    return None
                out.kw(params[position], arg.value, arg)
                position += 1
            else:
                out.same(arg)
        self.counts.translated += 1
        return out.build()

    def _remove_parameters(self, function: cst.FunctionDef, removed: set[str]) -> cst.FunctionDef:
        params = function.params
        kept = [p for p in params.params if p.name.value not in removed]
        if kept and len(kept) < len(params.params) and not params.kwonly_params and params.star_arg is cst.MaybeSentinel.DEFAULT:
            last = params.params[-1]
            if not isinstance(last.comma, cst.Comma) or last.name.value in removed:
                kept[-1] = kept[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
        kwonly = [p for p in params.kwonly_params if p.name.value not in removed]
        star_arg = params.star_arg
        if not kwonly and isinstance(star_arg, cst.ParamStar):
            star_arg = cst.MaybeSentinel.DEFAULT
            if kept:
                kept[-1] = kept[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
        elif kwonly and len(kwonly) < len(params.kwonly_params):
            kwonly[-1] = kwonly[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
        return function.with_changes(params=params.with_changes(params=kept, kwonly_params=kwonly, star_arg=star_arg))

    def _plain_draw(self, function: cst.FunctionDef) -> cst.FunctionDef:
        """A composite's ``draw: st.DrawFn`` loses its annotation (sy.composite's draw is a function)."""
        params = function.params
        if params.params and params.params[0].annotation is not None:
            first = params.params[0]
            annotation = code(first.annotation.annotation)  # type: ignore[union-attr]
            if "DrawFn" in annotation or "Callable" in annotation:
                new_first = first.with_changes(annotation=None)
                return function.with_changes(params=params.with_changes(params=[new_first, *params.params[1:]]))
        return function

    # -- calls inside tests ------------------------------------------------------------------
    def special_call(self, qualified: str, original_node: cst.Call, updated_node: cst.Call) -> Any:
        if qualified in ("hypothesis.given", "hypothesis.settings", "hypothesis.seed", "hypothesis.reproduce_failure",
                         "hypothesis.strategies.data", "hypothesis.stateful.rule", "hypothesis.stateful.invariant"):
            return self.stateful_call(qualified, original_node, updated_node)
        if qualified == "hypothesis.example":
            return updated_node  # named in leave_FunctionDef, where the test's parameters are known
        if qualified == "hypothesis.reject":
            self.counts.translated += 1
            return cst.parse_expression(self.sy("assume") + "(False)")
        if qualified == "hypothesis.event":
            if len(updated_node.args) > 1:
                self.mark("event(value, payload): synthia's event takes one label; put the payload in it (sy.event(f'{value}: {payload}'))")
                return updated_node
            self.counts.translated += 1
            return updated_node.with_changes(func=cst.parse_expression(self.sy("event")))
        if qualified == "hypothesis.find":
            return self._find(updated_node, original_node)
        if qualified == "hypothesis.settings.register_profile":
            return self._register_profile(updated_node, original_node)
        return self.stateful_call(qualified, original_node, updated_node)

    def _find(self, call: cst.Call, original: cst.Call) -> Any:
        out = Out(self.sy("find"), call)
        for arg, source in zip(call.args, original.args):
            name = arg.keyword.value if arg.keyword is not None else None
            if name in ("random", "database_key"):
                continue
            if name == "settings":
                if isinstance(arg.value, cst.Call) and isinstance(source.value, cst.Call):
                    pairs, marks = options(arg.value, source.value, self.names, "test")
                    for message in marks:
                        self.mark(message)
                    for key, value in pairs:
                        if key == "max_examples":
                            out.kw(key, value)
                        elif key != "database":
                            self.mark(f"find(settings=settings({key}=...)): sy.find takes seed, max_examples, shrink_budget, shrink_time")
                    continue
                self.mark("find(settings=...): give sy.find its max_examples")
                return call
            out.same(arg)
        self.counts.translated += 1
        return out.build()

    def _register_profile(self, call: cst.Call, original: cst.Call) -> Any:
        pairs, marks = options(call, original, self.names, "profile")
        for message in marks:
            self.mark(message)
        if marks or not call.args:
            return call
        self.counts.translated += 1
        name = call.args[0].value
        values = {k: v for k, v in pairs}
        if "parent" in values:
            pairs = [(k, v) for k, v in pairs if k != "parent"]
            pairs.insert(0, ("parent", values["parent"]))
        args = [cst.Arg(value=name, comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" ")) if pairs else cst.MaybeSentinel.DEFAULT), *keywords(pairs)]
        return cst.Call(func=cst.parse_expression(self.sy("register_profile")), args=args)


__all__ = ["TestsMixin", "literal"]
