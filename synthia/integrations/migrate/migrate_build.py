"""Small tools to read a Hypothesis call's arguments and build synthia expressions with libcst.

A rule of the codemod receives the call's arguments bound to the Hypothesis parameter names
(:class:`Bound`) and returns the new expression, a :class:`Mark` (leave the code, say what
to do by hand) or :data:`BRIDGE` (keep the strategy, wrapped in ``sy.from_strategy``).
"""
from __future__ import annotations

import ast
import dataclasses
from typing import Any, Sequence

import warnings

with warnings.catch_warnings():  # libcst's metadata package imports a module that warns on import
    warnings.simplefilter("ignore", DeprecationWarning)
    import libcst as cst
    from libcst.helpers import parse_template_expression
    from libcst.metadata import MetadataWrapper, QualifiedNameProvider

#: A value :meth:`Bound.literal` gives when the argument is not a Python literal.
NOT_LITERAL: Any = type("NotLiteral", (), {"__repr__": lambda self: "NOT_LITERAL"})()

_EMPTY = cst.Module(body=[])


def code(node: cst.CSTNode) -> str:
    """The source text of ``node``."""
    return _EMPTY.code_for_node(node)


@dataclasses.dataclass(frozen=True)
class Mark:
    """Leave the code as it is, with ``# synthia: {message}`` above its statement."""

    message: str


class _Bridge:
    def __repr__(self) -> str:
        return "BRIDGE"


#: Keep the strategy and wrap it: ``sy.from_strategy(<the original call>)``.
BRIDGE = _Bridge()


class Bound:
    """A call's arguments, bound to the names of the Hypothesis signature ``names``.

    ``extra`` holds the positional arguments past ``names`` (``one_of(a, b, c)``);
    ``starred`` is true when the call passes ``*args`` or ``**kwargs`` (nothing to bind)."""

    def __init__(self, call: cst.Call, names: Sequence[str], variadic: bool = False) -> None:
        self.call = call
        self.args: dict[str, cst.Arg] = {}
        self.extra: list[cst.Arg] = []
        self.starred = False
        self.unknown: list[str] = []
        position = 0
        for arg in call.args:
            if arg.star:
                self.starred = True
            elif arg.keyword is not None:
                name = arg.keyword.value
                if name in names:
                    self.args[name] = arg
                else:
                    self.unknown.append(name)
            elif variadic:
                self.extra.append(arg)
            elif position < len(names):
                self.args[names[position]] = arg
                position += 1
            else:
                self.extra.append(arg)

    def __contains__(self, name: str) -> bool:
        return name in self.args

    def get(self, name: str) -> cst.BaseExpression | None:
        arg = self.args.get(name)
        return None if arg is None else arg.value

    def literal(self, name: str, default: Any = None) -> Any:
        """The argument's value when it is a Python literal, ``default`` when absent,
        :data:`NOT_LITERAL` otherwise."""
        node = self.get(name)
        return default if node is None else literal(node)

    def given(self, name: str) -> bool:
        """Whether ``name`` is passed with a value other than ``None``."""
        return name in self.args and self.literal(name) is not None


def literal(node: cst.BaseExpression) -> Any:
    """The Python value of a literal expression, or :data:`NOT_LITERAL`."""
    try:
        return ast.literal_eval(code(node).strip())
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return NOT_LITERAL


def expr(template: str, **nodes: cst.BaseExpression) -> cst.BaseExpression:
    """``template`` (Python source with ``{name}`` holes) with ``nodes`` in the holes."""
    return parse_template_expression(template, cst.PartialParserConfig(), **nodes)


_ATOMS = (cst.Name, cst.Attribute, cst.Call, cst.Subscript, cst.Integer, cst.Float, cst.SimpleString, cst.ConcatenatedString, cst.FormattedString, cst.List, cst.Tuple, cst.Dict, cst.Set)


def _tight(node: cst.BaseExpression) -> bool:
    """Whether ``node + 1`` needs no parentheses around ``node``."""
    if isinstance(node, _ATOMS) or node.lpar:
        return True
    if isinstance(node, cst.BinaryOperation):
        return isinstance(node.operator, (cst.Add, cst.Subtract, cst.Multiply, cst.Divide, cst.FloorDivide, cst.Modulo, cst.Power, cst.MatrixMultiply))
    return isinstance(node, cst.UnaryOperation) and isinstance(node.operator, (cst.Minus, cst.Plus, cst.BitInvert))


def paren(node: cst.BaseExpression) -> cst.BaseExpression:
    """``node``, in parentheses unless it binds at least as tightly as ``+``."""
    if _tight(node):
        return node
    return node.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])


def plus_one(node: cst.BaseExpression) -> cst.BaseExpression:
    """``node + 1``, simplified: a literal integer is added to, ``x - 1`` becomes ``x``."""
    value = literal(node)
    if type(value) is int:
        return cst.parse_expression(repr(value + 1))
    if (isinstance(node, cst.BinaryOperation) and isinstance(node.operator, cst.Subtract)
            and literal(node.right) == 1 and type(literal(node.right)) is int and not node.lpar):
        return node.left
    return expr("{x} + 1", x=paren(node))


def plus(node: cst.BaseExpression, amount: str) -> cst.BaseExpression:
    """``node + amount`` (``amount`` a source text)."""
    return expr("{x} + " + amount, x=paren(node))


_COMMA = cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))


class Out:
    """A new call ``func(...)`` built from new values and, where they come from one, the
    original arguments (whose commas and comments are kept)."""

    def __init__(self, func: str, like: cst.Call | None = None) -> None:
        self.func = cst.parse_expression(func)
        self.like = like
        self.args: list[cst.Arg] = []

    def pos(self, value: cst.BaseExpression, source: cst.Arg | None = None) -> "Out":
        if source is not None:
            self.args.append(source.with_changes(value=value, keyword=None, equal=cst.MaybeSentinel.DEFAULT, star=""))
        else:
            self.args.append(cst.Arg(value=value))
        return self

    def star(self, value: cst.BaseExpression) -> "Out":
        self.args.append(cst.Arg(value=value, star="*"))
        return self

    def kw(self, name: str, value: cst.BaseExpression, source: cst.Arg | None = None) -> "Out":
        keyword = cst.Name(name)
        equal = cst.AssignEqual(whitespace_before=cst.SimpleWhitespace(""), whitespace_after=cst.SimpleWhitespace(""))
        if source is not None:
            self.args.append(source.with_changes(value=value, keyword=keyword, equal=equal, star=""))
        else:
            self.args.append(cst.Arg(value=value, keyword=keyword, equal=equal))
        return self

    def arg(self, source: cst.Arg) -> "Out":
        """The original argument's value, passed by position (its comma and comments kept)."""
        return self.pos(source.value, source)

    def same(self, source: cst.Arg) -> "Out":
        """The original argument as it is."""
        self.args.append(source)
        return self

    def build(self) -> cst.Call:
        trailing = bool(self.like and self.like.args and isinstance(self.like.args[-1].comma, cst.Comma))
        args = []
        for i, arg in enumerate(self.args):
            last = i == len(self.args) - 1
            if not last:
                if not isinstance(arg.comma, cst.Comma):
                    arg = arg.with_changes(comma=_COMMA)
            elif not trailing:
                arg = arg.with_changes(comma=cst.MaybeSentinel.DEFAULT)
            args.append(arg)
        call = cst.Call(func=self.func, args=args)
        if self.like is not None:
            call = call.with_changes(lpar=self.like.lpar, rpar=self.like.rpar, whitespace_before_args=self.like.whitespace_before_args)
        return call


def bound_name(alias: cst.ImportAlias) -> str:
    """The name an import binds: its alias, or ``a`` for ``import a.b``."""
    if alias.asname is not None:
        return str(alias.evaluated_alias)
    return str(alias.evaluated_name).split(".")[0]


def name_of(node: cst.BaseExpression) -> str | None:
    """``a.b.c`` for a dotted name, ``None`` for anything else."""
    if isinstance(node, cst.Name):
        return node.value
    if isinstance(node, cst.Attribute):
        left = name_of(node.value)
        return None if left is None else f"{left}.{node.attr.value}"
    return None
