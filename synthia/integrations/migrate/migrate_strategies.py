"""Hypothesis strategies to synthia pickers: one rule per name of ``hypothesis.strategies``
and ``hypothesis.extra.numpy`` (the rows of the migration table in docs/testing.md).

Each rule takes the call's arguments bound to Hypothesis's parameter names and returns the
picker expression, a :class:`Mark` when the translation is not mechanical, or ``BRIDGE``
when the strategy stays, wrapped in ``sy.from_strategy`` (synthia draws through it).
"""
from __future__ import annotations

import math

from typing import Any, Callable, Protocol

from .migrate_build import cst

from .migrate_build import BRIDGE, NOT_LITERAL, Bound, Mark, Out, code, expr, literal, paren, plus, plus_one

#: A recursive strategy's depth bound (``st.recursive``'s ``max_leaves`` counts leaves).
RECURSIVE_DEPTH = 3

#: Unicode general categories but surrogates (``st.characters()``'s default set).
CATEGORIES = ("Lu", "Ll", "Lt", "Lm", "Lo", "Mn", "Mc", "Me", "Nd", "Nl", "No", "Pc", "Pd", "Ps", "Pe", "Pi", "Pf", "Po",
              "Sm", "Sc", "Sk", "So", "Zs", "Zl", "Zp", "Cc", "Cf", "Co", "Cn")  # fmt: skip

Result = Any  # cst.BaseExpression | Mark | BRIDGE


class Context(Protocol):
    """What a rule may ask of the codemod."""

    def sy(self, name: str) -> str:
        """``sy.name`` with the module's alias of synthia."""

    def need(self, module: str, name: str) -> str:
        """The text that names ``module.name`` here (an import is added when needed)."""

    def is_picker(self, node: cst.BaseExpression) -> bool:
        """Whether ``node`` is known to be a picker (a translated strategy)."""

    def original(self, node: cst.BaseExpression) -> cst.BaseExpression | None:
        """The Hypothesis expression ``node`` was translated from, if it was."""


def _size(ctx: Context, b: Bound, minimum: str = "min_size", maximum: str = "max_size") -> cst.BaseExpression:
    """The length picker of a collection: ``RandomInteger(min, max + 1)``, the fixed size, or
    ``AnySize(min)`` without a ``max_size`` (Hypothesis's sizes there: short ones most, long
    ones too)."""
    low = b.get(minimum)
    high = b.get(maximum)
    low_value = b.literal(minimum, 0)
    if high is not None and literal(high) is None:
        high = None
    if low is None or low_value is None:
        low, low_value = cst.Integer("0"), 0
    if high is None:  # Hypothesis's sizes: usually short, sometimes long (a geometric count)
        return cst.parse_expression(ctx.sy("AnySize") + "()") if low_value == 0 else expr(ctx.sy("AnySize") + "({low})", low=low)
    if (type(low_value) is int and low_value == literal(high)) or code(low).strip() == code(high).strip():
        return high
    return expr(ctx.sy("RandomInteger") + "({low}, {high})", low=low, high=plus_one(high))


def _unknown(b: Bound, name: str) -> Result | None:
    if b.starred:
        return Mark(f"{name}(*args/**kwargs): give the arguments by name to translate it")
    if b.unknown:
        return Mark(f"{name}() argument {', '.join(b.unknown)} has no synthia equivalent")
    return None


def integers(ctx: Context, b: Bound) -> Result:
    low, high = b.args.get("min_value"), b.args.get("max_value")
    if low is not None and literal(low.value) is None:
        low = None
    if high is not None and literal(high.value) is None:
        high = None
    if low is not None and high is not None:
        return Out(ctx.sy("RandomInteger"), b.call).pos(low.value, low).pos(plus_one(high.value), high).build()
    out = Out(ctx.sy("AnyInteger"), b.call)
    if low is not None:
        out.pos(low.value, low)
    if high is not None:
        out.pos(low.value if low else cst.Name("None")).pos(plus_one(high.value), high)
    return out.build()


def floats(ctx: Context, b: Bound) -> Result:
    width = b.literal("width", 64)
    if width != 64:
        return Mark("st.floats(width=...) has no synthia equivalent: AnyFloat makes 64-bit floats (convert with sy.Apply)")
    low, high = b.get("min_value"), b.get("max_value")
    low = None if low is not None and literal(low) is None else low
    high = None if high is not None and literal(high) is None else high
    out = Out(ctx.sy("AnyFloat"), b.call)
    nextafter = inf = ""
    if low is not None or high is not None:
        nextafter, inf = ctx.need("math", "nextafter"), ctx.need("math", "inf")
    if low is not None:
        if b.literal("exclude_min", False) is True:
            low = expr(f"{nextafter}({{x}}, {inf})", x=low)
        out.pos(low, b.args["min_value"])
    if high is not None:
        if low is None:
            out.pos(expr(f"-{inf}"))
        if b.literal("exclude_max", False) is not True:
            high = expr(f"{nextafter}({{x}}, {inf})", x=high)
        out.pos(high, b.args["max_value"])
    bounded = low is not None or high is not None
    # Hypothesis's bounded floats hold -0.0 where the range does (floats(-1, 1), floats(-0.0, 1)).
    with_negative_zero = _has_negative_zero(_number(b.get("min_value")) if low is not None else -math.inf,
                                            _number(b.get("max_value")) if high is not None else math.inf,
                                            b.literal("exclude_min", False) is True, b.literal("exclude_max", False) is True)
    nan = b.literal("allow_nan", None)
    infinity = b.literal("allow_infinity", None)
    subnormal = b.literal("allow_subnormal", None)
    # allow_infinity=None: infinities where a bound is absent or infinite (floats(-math.inf, 0.0)).
    infinite = [isinstance(v, float) and math.isinf(v) and b.literal(f"exclude_{end}", False) is not True
                for v, end in ((_number(b.get("min_value")), "min"), (_number(b.get("max_value")), "max"))]
    unbounded = low is None or high is None or any(infinite)
    for flag, value, default in (("nan", nan, not bounded), ("infinity", infinity, unbounded),
                                 ("subnormal", subnormal, not bounded), ("signed_zero", None, not bounded or with_negative_zero)):
        if value is NOT_LITERAL:
            return Mark(f"st.floats(allow_{flag}=...) is not a literal: give AnyFloat's {flag}= by hand")
        if (default if value is None else value):
            out.kw(flag, cst.Name("True"))
    return out.build()


def _number(node: Any) -> Any:
    """A float bound's value: a literal, or ``math.inf`` / ``float("inf")`` with a sign."""
    if node is None:
        return None
    text = code(node).replace(" ", "").replace("'", '"')
    sign = -1.0 if text.startswith("-") else 1.0
    if text.lstrip("-+") in ("math.inf", "inf", 'float("inf")'):
        return sign * math.inf
    return literal(node)


def _has_negative_zero(low: Any, high: Any, exclude_low: bool, exclude_high: bool) -> bool:
    """Whether Hypothesis's ``floats(low, high)`` can give ``-0.0``: in sign-aware order
    ``low <= -0.0 <= high``. A bound known only when the test runs (a name, an expression)
    may hold it: ``AnyFloat`` keeps ``-0.0`` only where its bounds do, so it is allowed."""
    if low is NOT_LITERAL or high is NOT_LITERAL:
        return True
    if not isinstance(low, (int, float)) or not isinstance(high, (int, float)):
        return False
    low_ok = low < 0 or (low == 0 and math.copysign(1.0, low) < 0 and not exclude_low)
    high_ok = high > 0 or (high == 0 and not (exclude_high and math.copysign(1.0, high) < 0))
    return low_ok and high_ok


def booleans(ctx: Context, b: Bound) -> Result:
    return cst.parse_expression(ctx.sy("RandomBoolean") + "()")


def just(ctx: Context, b: Bound) -> Result:
    return Out(ctx.sy("Constant"), b.call).arg(b.args["value"]).build() if "value" in b else Mark("st.just() needs a value")


def none(ctx: Context, b: Bound) -> Result:
    return cst.parse_expression(ctx.sy("Constant") + "(None)")


def nothing(ctx: Context, b: Bound) -> Result:
    return cst.parse_expression(ctx.sy("Nothing") + "()")


def sampled_from(ctx: Context, b: Bound) -> Result:
    arg = b.args.get("elements")
    if arg is None:
        return Mark("st.sampled_from() needs its elements")
    out = Out(ctx.sy("Choice"), b.call)
    values = arg.value
    if isinstance(values, (cst.List, cst.Tuple)) and values.elements and not any(isinstance(e, cst.StarredElement) for e in values.elements):
        for element in values.elements:
            out.pos(element.value)
        return out.build()
    return out.star(values).build()


def one_of(ctx: Context, b: Bound) -> Result:
    out = Out(ctx.sy("Choice"), b.call)
    if len(b.extra) == 1 and not ctx.is_picker(b.extra[0].value):
        values = b.extra[0].value
        if isinstance(values, (cst.List, cst.Tuple)) and values.elements and not any(isinstance(e, cst.StarredElement) for e in values.elements):
            for element in values.elements:
                out.pos(element.value)
            return out.build()
        return out.star(values).build()
    for arg in b.extra:
        out.same(arg)
    return out.build() if b.extra else cst.parse_expression(ctx.sy("Nothing") + "()")


def tuples(ctx: Context, b: Bound) -> Result:
    if not b.extra:
        return cst.parse_expression(ctx.sy("Constant") + "(())")
    out = Out(ctx.sy("ArrayPicker"), b.call)
    for arg in b.extra:
        out.same(arg)
    return out.build()


def _unique(ctx: Context, b: Bound, collection: cst.BaseExpression, name: str) -> Result:
    if b.given("unique_by"):
        return Mark(f"st.{name}(unique_by=...): keep the first element of each key, e.g. sy.Apply(lambda l: list({{key(x): x for x in reversed(l)}}.values())[::-1], ...)")
    unique = b.literal("unique", False)
    if unique is NOT_LITERAL:
        return Mark(f"st.{name}(unique=...) is not a literal")
    if unique:
        collection = expr(ctx.sy("Apply") + "(lambda l: list(dict.fromkeys(l)), {c})", c=collection)
        minimum = b.literal("min_size", 0)
        if minimum:
            collection = expr(ctx.sy("PickIf") + "({c}, lambda l: len(l) >= {m})", c=collection, m=b.get("min_size") or cst.Integer("0"))
    return collection


def _of_nothing(ctx: Context, b: Bound) -> bool:
    """Whether the collection's elements are ``st.nothing()``: it is always empty."""
    elements = b.get("elements")
    return elements is not None and code(elements).strip() == ctx.sy("Nothing") + "()"


def lists(ctx: Context, b: Bound) -> Result:
    if "elements" not in b:
        return Mark("st.lists() needs its elements")
    if _of_nothing(ctx, b):
        return cst.parse_expression(ctx.sy("Apply") + "(list)")  # a new empty list each time
    made = Out(ctx.sy("ComposeList"), b.call).arg(b.args["elements"]).pos(_size(ctx, b)).build()
    return _unique(ctx, b, made, "lists")


def iterables(ctx: Context, b: Bound) -> Result:
    made = lists(ctx, b)
    return made if isinstance(made, Mark) else expr(ctx.sy("Apply") + "(iter, {l})", l=made)


def sets(ctx: Context, b: Bound) -> Result:
    if "elements" not in b:
        return Mark("st.sets() needs its elements")
    if _of_nothing(ctx, b):
        return cst.parse_expression(ctx.sy("Apply") + "(set)")
    return Out(ctx.sy("SetPicker"), b.call).arg(b.args["elements"]).pos(_size(ctx, b)).build()


def frozensets(ctx: Context, b: Bound) -> Result:
    made = sets(ctx, b)
    return made if isinstance(made, Mark) else expr(ctx.sy("Apply") + "(frozenset, {s})", s=made)


def dictionaries(ctx: Context, b: Bound) -> Result:
    if "keys" not in b or "values" not in b:
        return Mark("st.dictionaries() needs keys and values")
    made: cst.BaseExpression = Out(ctx.sy("DictPicker"), b.call).arg(b.args["keys"]).arg(b.args["values"]).pos(_size(ctx, b)).build()
    kind = b.get("dict_class")
    if kind is not None and literal(kind) is NOT_LITERAL and code(kind) != "dict":
        made = expr(ctx.sy("Apply") + "({k}, {d})", k=kind, d=made)
    return made


def fixed_dictionaries(ctx: Context, b: Bound) -> Result:
    if b.given("optional"):
        return Mark("st.fixed_dictionaries(optional=...): draw each optional key with sy.Choice and drop the absent ones in sy.Apply")
    mapping = b.get("mapping")
    if mapping is None:
        return Mark("st.fixed_dictionaries() needs its mapping")
    if isinstance(mapping, cst.Dict) and not mapping.elements:
        return cst.parse_expression(ctx.sy("Apply") + "(dict)")  # a new empty dict each time
    if isinstance(mapping, cst.Dict) and not all(isinstance(e, cst.DictElement) and isinstance(literal(e.key), str) for e in mapping.elements):
        return Mark("st.fixed_dictionaries with keys that are not strings: sy.Apply(lambda *v: dict(zip(keys, v)), *pickers)")
    return Out(ctx.sy("Struct"), b.call).arg(b.args["mapping"]).build()


def _characters_keywords(ctx: Context, b: Bound, out: Out) -> Mark | None:
    """The keywords of ``RandomText`` for the arguments of ``st.characters`` (on ``out``)."""
    old = {"blacklist_categories": "exclude_categories", "whitelist_categories": "categories",
           "blacklist_characters": "exclude_characters", "whitelist_characters": "include_characters"}
    values = {old.get(name, name): b.literal(name) for name in b.args}
    if any(v is NOT_LITERAL for v in values.values()):
        return Mark("st.characters() with arguments that are not literals: give RandomText's categories=, ranges=, exclude= by hand")
    if values.get("include_characters"):
        return Mark("st.characters(include_characters=...) adds characters to a set: use sy.Choice(sy.RandomText(1, ...), *chars)")
    categories = values.get("categories")
    if values.get("exclude_categories"):
        excluded = values["exclude_categories"]
        categories = [c for c in (categories or CATEGORIES) if c not in excluded and c[0] not in excluded]
    codec = values.get("codec")
    low, high = values.get("min_codepoint"), values.get("max_codepoint")
    if codec not in (None, "utf-8", "utf8", "ascii", "latin-1", "latin1", "iso-8859-1"):
        return Mark(f"st.characters(codec={codec!r}): give RandomText's ranges= by hand")
    top = {"ascii": 127, "latin-1": 255, "latin1": 255, "iso-8859-1": 255}.get(codec or "", None)
    if top is not None:
        high = top if high is None else min(high, top)
    if (low is not None or high is not None) and categories is not None:
        return Mark("st.characters() with both categories and a code point range: RandomText takes their union, Hypothesis their intersection")
    if categories is not None:
        out.kw("categories", cst.parse_expression(repr(list(categories))))
    if low is not None or high is not None:
        out.kw("ranges", cst.parse_expression(repr([(low or 0, 0x10FFFF if high is None else high)])))
    excluded_chars = values.get("exclude_characters")
    if excluded_chars:
        out.kw("exclude", cst.parse_expression(repr("".join(excluded_chars))))
    return None


def characters(ctx: Context, b: Bound) -> Result:
    out = Out(ctx.sy("RandomText"), b.call).pos(cst.Integer("1"))
    mark = _characters_keywords(ctx, b, out)
    # nasty strings have lengths of their own: a character is one character
    return mark or out.kw("nasty", cst.Integer("0")).build()


def text(ctx: Context, b: Bound) -> Result:
    size = _size(ctx, b)
    alphabet = b.get("alphabet")
    # RandomText's nasty strings keep their own lengths: not where Hypothesis has a bound
    bounded = b.given("min_size") and b.literal("min_size") != 0 or b.given("max_size")
    if alphabet is None:
        out = Out(ctx.sy("RandomText"), b.call).pos(size)
        return (out.kw("nasty", cst.Integer("0")) if bounded else out).build()
    alphabet_value = written = literal(alphabet)
    if isinstance(alphabet_value, (list, tuple)) and alphabet_value and all(isinstance(c, str) and len(c) == 1 for c in alphabet_value):
        alphabet_value = "".join(alphabet_value)  # text(alphabet=["a", "b"]): a list of characters
    if isinstance(alphabet_value, str) and alphabet_value:
        # Hypothesis's alphabet is a set, shrunk in its order; RandomString's is ordered,
        # its first character the simplest: the set written in Hypothesis's order.
        ordered = "".join(sorted(set(alphabet_value), key=_hypothesis_char_order))
        node = alphabet if ordered == written else cst.SimpleString(repr(ordered))
        return Out(ctx.sy("RandomString"), b.call).pos(size).pos(node, b.args["alphabet"]).build()
    if isinstance(alphabet, cst.Call) and isinstance(alphabet.func, cst.Attribute) and alphabet.func.attr.value == "RandomText" \
            and alphabet.args and literal(alphabet.args[0].value) == 1:
        # st.text(alphabet=st.characters(...)): the characters' set, with the text's length.
        out = Out(ctx.sy("RandomText"), b.call).pos(size)
        for arg in alphabet.args[1:]:
            if not (arg.keyword is not None and arg.keyword.value == "nasty"):
                out.same(arg)
        return (out.kw("nasty", cst.Integer("0")) if bounded else out).build()
    if isinstance(alphabet, cst.Call) and isinstance(alphabet.func, cst.Attribute) and alphabet.func.attr.value == "Choice" \
            and len(alphabet.args) == 1 and alphabet.args[0].star == "*" and isinstance(literal(alphabet.args[0].value), str):
        return Out(ctx.sy("RandomString"), b.call).pos(size).pos(alphabet.args[0].value).build()
    if ctx.is_picker(alphabet):
        return expr(ctx.sy("Apply") + '("".join, ' + ctx.sy("ComposeList") + "({a}, {n}))", a=alphabet, n=size)
    # A name or an expression: a string of characters (string.ascii_letters) as Hypothesis allows.
    return Out(ctx.sy("RandomString"), b.call).pos(size).pos(alphabet, b.args["alphabet"]).build()


def _hypothesis_char_order(char: str) -> tuple[int, int]:
    """Hypothesis's shrink order of characters: ``'0'`` to ``'Z'``, then those below ``'0'``
    downwards, then those above ``'Z'`` upwards."""
    cp = ord(char)
    if ord("0") <= cp <= ord("Z"):
        return (0, cp)
    return (1, -cp) if cp < ord("0") else (2, cp)


def binary(ctx: Context, b: Bound) -> Result:
    return Out(ctx.sy("RandomBytes"), b.call).pos(_size(ctx, b)).build()


def _bounded(ctx: Context, b: Bound, picker: str, step: str | None, text_as: str | None = None) -> Result:
    """A picker of ``[low, high)`` for Hypothesis's ``[min_value, max_value]``: ``high`` is the
    maximum plus ``step`` (the smallest step of the type), or kept as it is (``step=None``); a
    maximum given as a string is made a value by ``text_as`` first (``Decimal("0.2")``)."""
    out = Out(ctx.sy(picker), b.call)
    low, high = b.args.get("min_value"), b.args.get("max_value")
    if low is not None:
        out.pos(low.value, low)
    if high is not None:
        if low is None:
            return Mark(f"st.{picker}: give the lower bound too (the synthia picker's default)")
        top = high.value
        if text_as is not None and isinstance(literal(top), str):
            top = expr(text_as + "({x})", x=top)
        out.pos(top if step is None else plus(top, step), high)
    return out


def dates(ctx: Context, b: Bound) -> Result:
    made = _bounded(ctx, b, "RandomDate", f"{ctx.need('datetime', 'timedelta')}(days=1)" if "max_value" in b else None)
    return made if isinstance(made, Mark) else made.build()


def datetimes(ctx: Context, b: Bound) -> Result:
    zones = b.get("timezones")
    if b.literal("allow_imaginary", True) is not True:
        return Mark("st.datetimes(allow_imaginary=False) has no synthia equivalent")
    made = _bounded(ctx, b, "RandomDatetime", f"{ctx.need('datetime', 'timedelta')}(microseconds=1)" if "max_value" in b else None)
    if isinstance(made, Mark):
        return made
    if zones is not None:
        if isinstance(zones, cst.Call) and code(zones.func).endswith("Constant") and len(zones.args) == 1:
            if literal(zones.args[0].value) is not None:
                made.kw("timezones", cst.List([cst.Element(zones.args[0].value)]), b.args["timezones"])
        elif isinstance(zones, cst.Call) and code(zones.func).endswith("Choice"):
            if len(zones.args) == 1 and zones.args[0].star == "*":
                made.kw("timezones", expr("list({z})", z=zones.args[0].value), b.args["timezones"])
            else:
                made.kw("timezones", cst.List([cst.Element(a.value) for a in zones.args]), b.args["timezones"])
        else:
            return Mark("st.datetimes(timezones=...): give RandomDatetime a list of time zones (timezones=[...])")
    return made.build()


def times(ctx: Context, b: Bound) -> Result:
    if b.get("timezones") is not None:
        return Mark("st.times(timezones=...): give RandomTime one tz= (or choose among several with sy.Choice)")
    made = _bounded(ctx, b, "RandomTime", None)
    return made if isinstance(made, Mark) else made.build()


def timedeltas(ctx: Context, b: Bound) -> Result:
    made = _bounded(ctx, b, "RandomTimedelta", f"{ctx.need('datetime', 'timedelta')}(microseconds=1)" if "max_value" in b else None)
    return made if isinstance(made, Mark) else made.build()


def decimals(ctx: Context, b: Bound) -> Result:
    places = b.literal("places", None)
    bounded = b.given("min_value") and b.given("max_value")
    plain = b.literal("allow_nan") is False and b.literal("allow_infinity") is False
    if type(places) is not int or not (bounded or plain):
        return BRIDGE  # NaN, infinities or any precision: the bridge keeps them
    decimal = ctx.need("decimal", "Decimal")
    made = _bounded(ctx, b, "RandomDecimal", f"{decimal}(10) ** -{places}" if "max_value" in b else None, text_as=decimal)
    if isinstance(made, Mark):
        return made
    return made.kw("places", b.args["places"].value, b.args["places"]).build()


def fractions(ctx: Context, b: Bound) -> Result:
    denominator = b.get("max_denominator")
    d = "100" if denominator is None or literal(denominator) is None else code(paren(denominator))
    made = _bounded(ctx, b, "RandomFraction", f"{ctx.need('fractions', 'Fraction')}(1, {d} * {d})" if "max_value" in b else None)
    if isinstance(made, Mark):
        return made
    if denominator is not None and literal(denominator) is not None:
        made.kw("max_denominator", denominator, b.args["max_denominator"])
    return made.build()


def uuids(ctx: Context, b: Bound) -> Result:
    if b.literal("allow_nil", False) is not False:
        return Mark("st.uuids(allow_nil=True): add the nil UUID with sy.Choice")
    version = b.get("version")
    return Out(ctx.sy("RandomUUID"), b.call).pos(version if version is not None else cst.Name("None")).build()


def permutations(ctx: Context, b: Bound) -> Result:
    return Out(ctx.sy("Permutation"), b.call).arg(b.args["values"]).build() if "values" in b else Mark("st.permutations() needs values")


def deferred(ctx: Context, b: Bound) -> Result:
    return Out(ctx.sy("Deferred"), b.call).arg(b.args["definition"]).build() if "definition" in b else Mark("st.deferred() needs a definition")


def builds(ctx: Context, b: Bound) -> Result:
    out = Out(ctx.sy("builds"), b.call)
    for arg in b.call.args:
        out.same(arg)
    return out.build()


def _same_call(name: str) -> Callable[[Context, Bound], Result]:
    """A rule that keeps the arguments and calls ``sy.name`` (a picker with Hypothesis's signature)."""

    def rule(ctx: Context, b: Bound) -> Result:
        out = Out(ctx.sy(name), b.call)
        for arg in b.call.args:
            out.same(arg)
        return out.build()

    rule.__name__ = name
    return rule


def from_regex(ctx: Context, b: Bound) -> Result:
    pattern = b.literal("regex")
    if b.literal("fullmatch", False) is True and b.get("alphabet") is None and isinstance(pattern, str):
        try:
            from ...pickers.regex import RegexString

            RegexString(pattern)
        except (ValueError, TypeError):
            return BRIDGE
        return Out(ctx.sy("RegexString"), b.call).arg(b.args["regex"]).build()
    return BRIDGE


def ip_addresses(ctx: Context, b: Bound) -> Result:
    if b.given("network"):
        return BRIDGE
    version = b.literal("v", None)
    if version not in (None, 4, 6):
        return BRIDGE
    kinds = {4: "IPv4Address", 6: "IPv6Address"}
    picks = [f"{ctx.sy('from_type')}({ctx.need('ipaddress', kinds[v])})" for v in ((4, 6) if version is None else (version,))]
    return cst.parse_expression(picks[0] if len(picks) == 1 else f"{ctx.sy('Choice')}({', '.join(picks)})")


def randoms(ctx: Context, b: Bound) -> Result:
    if b.literal("use_true_random", False) is True:
        return Mark("st.randoms(use_true_random=True): a random.Random() seeded outside synthia is not reproducible")
    return cst.parse_expression(ctx.sy("randoms") + "()")


def register_type_strategy(ctx: Context, b: Bound) -> Result:
    return _same_call("register_type")(ctx, b)


def complex_numbers(ctx: Context, b: Bound) -> Result:
    if b.given("min_magnitude") and b.literal("min_magnitude") != 0 or b.given("max_magnitude") or b.literal("width", 128) != 128:
        return BRIDGE
    nan = b.literal("allow_nan", None)
    infinity = b.literal("allow_infinity", None)
    if NOT_LITERAL in (nan, infinity):
        return BRIDGE
    flags = [f for f, on in (("nan", nan is not False), ("infinity", infinity is not False), ("subnormal", b.literal("allow_subnormal", True) is not False), ("signed_zero", True)) if on]
    part = f"{ctx.sy('AnyFloat')}({', '.join(f'{f}=True' for f in flags)})"
    return cst.parse_expression(f"{ctx.sy('Apply')}(complex, {part}, {part})")


def _mark(message: str) -> Callable[[Context, Bound], Result]:
    def rule(ctx: Context, b: Bound) -> Result:
        return Mark(message)

    return rule


def _bridge(ctx: Context, b: Bound) -> Result:
    return BRIDGE


#: ``hypothesis.strategies`` name -> (its parameter names in order, variadic, rule).
STRATEGIES: dict[str, tuple[tuple[str, ...], bool, Callable[[Context, Bound], Result]]] = {
    "integers": (("min_value", "max_value"), False, integers),
    "floats": (("min_value", "max_value", "allow_nan", "allow_infinity", "allow_subnormal", "width", "exclude_min", "exclude_max"), False, floats),
    "booleans": ((), False, booleans),
    "just": (("value",), False, just),
    "none": ((), False, none),
    "nothing": ((), False, nothing),
    "sampled_from": (("elements",), False, sampled_from),
    "one_of": ((), True, one_of),
    "tuples": ((), True, tuples),
    "lists": (("elements", "min_size", "max_size", "unique_by", "unique"), False, lists),
    "iterables": (("elements", "min_size", "max_size", "unique_by", "unique"), False, iterables),
    "sets": (("elements", "min_size", "max_size"), False, sets),
    "frozensets": (("elements", "min_size", "max_size"), False, frozensets),
    "dictionaries": (("keys", "values", "dict_class", "min_size", "max_size"), False, dictionaries),
    "fixed_dictionaries": (("mapping", "optional"), False, fixed_dictionaries),
    "characters": (("codec", "min_codepoint", "max_codepoint", "categories", "exclude_categories", "exclude_characters",
                    "include_characters", "blacklist_categories", "whitelist_categories", "blacklist_characters",
                    "whitelist_characters"), False, characters),
    "text": (("alphabet", "min_size", "max_size"), False, text),
    "binary": (("min_size", "max_size"), False, binary),
    "dates": (("min_value", "max_value"), False, dates),
    "datetimes": (("min_value", "max_value", "timezones", "allow_imaginary"), False, datetimes),
    "times": (("min_value", "max_value", "timezones"), False, times),
    "timedeltas": (("min_value", "max_value"), False, timedeltas),
    "decimals": (("min_value", "max_value", "allow_nan", "allow_infinity", "places"), False, decimals),
    "fractions": (("min_value", "max_value", "max_denominator"), False, fractions),
    "uuids": (("version", "allow_nil"), False, uuids),
    "permutations": (("values",), False, permutations),
    "deferred": (("definition",), False, deferred),
    "builds": ((), True, builds),
    "from_type": (("thing",), False, _same_call("from_type")),
    "register_type_strategy": (("custom_type", "strategy"), False, register_type_strategy),
    "from_regex": (("regex", "fullmatch", "alphabet"), False, from_regex),
    "ip_addresses": (("v", "network"), False, ip_addresses),
    "randoms": (("note_method_calls", "use_true_random"), False, randoms),
    "complex_numbers": (("min_magnitude", "max_magnitude", "allow_infinity", "allow_nan", "allow_subnormal", "width"), False, complex_numbers),
    "emails": (("domains",), False, _bridge),
    "functions": (("like", "returns", "pure"), False, _bridge),
    "slices": (("size",), False, _bridge),
    "timezones": (("no_cache",), False, _bridge),
    "timezone_keys": (("allow_prefix",), False, _bridge),
    "random_module": ((), False, _bridge),
    "shared": (("base", "key"), False, _mark("st.shared(s, key=...): build the picker once and give it to every consumer through sy.Share(p) / .another(), or draw the dependent values with sy.Bind")),
    "runner": (("default",), False, _mark("st.runner(): a synthia test has no runner object; use the test's self")),
}

#: ``hypothesis.extra.numpy`` names: each is a synthia name of the same signature.
NUMPY = ("arrays", "from_dtype", "array_shapes", "scalar_dtypes", "boolean_dtypes", "integer_dtypes", "unsigned_integer_dtypes",
         "floating_dtypes", "complex_number_dtypes", "datetime64_dtypes", "timedelta64_dtypes", "byte_string_dtypes",
         "unicode_string_dtypes", "array_dtypes", "nested_dtypes", "basic_indices", "integer_array_indices",
         "broadcastable_shapes", "mutually_broadcastable_shapes", "valid_tuple_axes")  # fmt: skip


def rule_for(qualified: str) -> tuple[tuple[str, ...], bool, Callable[[Context, Bound], Result]] | None:
    """The rule of a strategy's qualified name (``hypothesis.strategies.integers``): the
    strategies of ``hypothesis.provisional`` and of the other ``hypothesis.extra`` modules
    (pytz, dateutil, django, pandas, lark...) go through the bridge."""
    module, _, name = qualified.rpartition(".")
    if module == "hypothesis.strategies":
        return STRATEGIES.get(name)
    if module == "hypothesis.extra.numpy":
        return ((), True, _same_call(name)) if name in NUMPY else None
    if (module == "hypothesis.provisional" or module.startswith("hypothesis.extra.")) and not name[:1].isupper():
        return ((), True, _bridge)
    return None
