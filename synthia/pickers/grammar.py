"""Grammars: sentences and token sequences derived from a BNF grammar given as text.

The grammar text is a list of rules ``<name> := alternative | alternative ;`` (the ``;``
is optional when each rule starts on a new line). Symbols are separated by spaces:
``<other>`` is a non-terminal, ``^...$`` a regular-expression terminal (see
:mod:`synthia.pickers.regex` for the supported subset), ``"quoted text"`` or a bare word a
literal terminal, and ``""`` or ``ε`` the empty string (as in the Java library's grammar
files: ``<size> := big | small | ε``), which adds nothing to a derivation. The first rule
is the start rule. Every error -- an undefined rule, a rule that cannot terminate, a bad
regular expression -- is a :class:`GrammarError` naming the line and column.

Generation always terminates: each rule's minimal derivation depth is computed once, and
an alternative is only chosen while it can still finish within ``max_depth``. The
*simplest* derivation of a rule (:meth:`Grammar.minimal`) has the fewest terminal symbols
(then the smallest height); each rule's alternatives are drawn in that order of simplicity
(:attr:`Grammar.simplest_first`), so the minimal draw gives the simplest derivation. Every
output keeps its derivation tree (``value.derivation``), which shrinking uses to stay inside
the grammar and provenance to explain which alternative produced which token.

>>> g = GrammarSentence('''
... <greeting> := hello <who> | hi <who> ;
... <who> := world | ^[a-z]{3}$ ;
... ''')
>>> s = g.set_seed(5).pick()
>>> s, s.derivation.rule
('hello world', 'greeting')
"""
from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field
from typing import Any, Callable, Union

from ..core.checks import check_callable, check_int, check_text
from ..core.draws import open_span
from ..core.emitter import Emitter
from ..core.picker import RandomPicker
from ..core.shrinking import Shrinkable
from .regex import RegexError, RegexGenerator

__all__ = ["Grammar", "GrammarError", "Derivation", "GrammarSentence", "GrammarSequence"]

#: The empty string's symbols in a grammar's text.
EMPTY = ('""', "ε")

#: The deepest derivation a grammar picker makes: derivations are recursive, and Python's
#: call stack (1000 frames by default) must hold one.
MAX_DEPTH = 500


class GrammarError(ValueError):
    """A malformed grammar; the message names the rule and the position (line, column)."""


@dataclass(frozen=True)
class NonTerminal:
    name: str


@dataclass(frozen=True)
class Literal:
    text: str


@dataclass(frozen=True)
class Pattern:
    regex: str


Symbol = Union[NonTerminal, Literal, Pattern]


@dataclass
class Derivation:
    """A node of a derivation tree: ``rule`` expanded with alternative number ``alternative``.

    ``children`` holds sub-derivations and terminal strings, in order.
    """

    rule: str
    alternative: int
    children: list[Union["Derivation", str]] = field(default_factory=list)

    def tokens(self) -> list[str]:
        """The terminal strings, left to right (empty strings omitted)."""
        out: list[str] = []
        for child in self.children:
            if isinstance(child, Derivation):
                out.extend(child.tokens())
            elif child != "":
                out.append(child)
        return out

    def nodes(self) -> list["Derivation"]:
        """This node and every sub-derivation, in pre-order."""
        found = [self]
        for child in self.children:
            if isinstance(child, Derivation):
                found.extend(child.nodes())
        return found

    def replaced(self, old: "Derivation", new: "Derivation") -> "Derivation":
        """A copy of this tree with the node ``old`` (by identity) replaced by ``new``."""
        if self is old:
            return new
        return Derivation(self.rule, self.alternative, [c.replaced(old, new) if isinstance(c, Derivation) else c for c in self.children])


class Grammar:
    """A parsed BNF grammar (see the module docstring for the syntax).

    >>> g = Grammar("<s> := <adj> fox ; <adj> := quick brown | ε ;")
    >>> g.minimal("s").tokens()
    ['fox']
    """

    _HEADER = re.compile(r"<([\w\-]+)>\s*:=")

    def __init__(self, text: str) -> None:
        self.text = check_text(text, "text")
        self.rules: dict[str, list[list[Symbol]]] = {}
        self._positions: dict[str, tuple[int, int]] = {}
        self._shortest: dict[str, str] = {}  # each regular expression's shortest string
        headers = list(self._HEADER.finditer(text))
        if not headers:
            raise GrammarError("grammar text has no rule (expected '<name> := ...' at line 1, column 1)")
        leading = text[: headers[0].start()].strip()
        if leading:
            line, column = self._where(text.find(leading))
            raise GrammarError(f"text before the first rule at line {line}, column {column}: {leading[:20]!r}")
        for i, header in enumerate(headers):
            name = header.group(1)
            position = self._where(header.start())
            if name in self.rules:
                raise GrammarError(f"rule <{name}> is defined twice (again at line {position[0]}, column {position[1]})")
            end = headers[i + 1].start() if i + 1 < len(headers) else len(text)
            body = text[header.end() : end].rstrip()
            if body.endswith(";"):
                body = body[:-1]
            self._positions[name] = position
            self.rules[name] = [self._alternative(name, alt) for alt in self._split(body, header.end())]
        self.start = headers[0].group(1)
        for name, alternatives in self.rules.items():
            for alt in alternatives:
                for symbol in alt:
                    if isinstance(symbol, NonTerminal) and symbol.name not in self.rules:
                        line, column = self._positions[name]
                        raise GrammarError(f"rule <{name}> (line {line}, column {column}) uses undefined rule <{symbol.name}>")
        self._measure()

    def _where(self, offset: int) -> tuple[int, int]:
        line = self.text.count("\n", 0, offset) + 1
        column = offset - (self.text.rfind("\n", 0, offset) + 1) + 1
        return line, column

    @staticmethod
    def _split(body: str, offset: int) -> list[list[tuple[str, int]]]:
        """The alternatives of a rule's body: lists of (token, offset of the token in the text)."""
        alternatives: list[list[tuple[str, int]]] = [[]]
        for match in re.finditer(r'"[^"]*"|\S+', body):
            if match.group() == "|":
                alternatives.append([])
            else:
                alternatives[-1].append((match.group(), offset + match.start()))
        return alternatives

    def _alternative(self, rule: str, tokens: list[tuple[str, int]]) -> list[Symbol]:
        symbols: list[Symbol] = []
        for token, offset in tokens:
            line, column = self._where(offset)
            if token in EMPTY:
                continue  # the empty string: nothing to derive
            if token.startswith("<") and token.endswith(">") and len(token) > 2:
                symbols.append(NonTerminal(token[1:-1]))
            elif token.startswith("^") and token.endswith("$") and len(token) > 1:
                try:
                    self._shortest[token] = RegexGenerator(token).minimal()
                except RegexError as err:
                    raise GrammarError(
                        f"rule <{rule}>: bad regular expression {token!r} at line {line}, column {column + err.position}: {err.reason}"
                    ) from None
                symbols.append(Pattern(token))
            elif token.startswith('"') and token.endswith('"') and len(token) >= 2:
                symbols.append(Literal(token[1:-1]))
            elif token.startswith("<") or token.endswith(">") and "<" in token:
                raise GrammarError(f"rule <{rule}>: malformed symbol {token!r} at line {line}, column {column}")
            else:
                symbols.append(Literal(token))
        return symbols

    def _measure(self) -> None:
        """Each rule's minimal derivation depth, and the size and height of its simplest
        derivation (two fixed points)."""
        inf = float("inf")
        depth = {name: inf for name in self.rules}
        changed = True
        while changed:
            changed = False
            for name, alternatives in self.rules.items():
                best = min(self._alt_depth(alt, depth) for alt in alternatives)
                if best < depth[name]:
                    depth[name], changed = best, True
        for name, value in depth.items():
            if value == inf:
                line, column = self._positions[name]
                raise GrammarError(f"rule <{name}> (line {line}, column {column}) never terminates: every alternative recurses")
        self.min_depth = {name: int(v) for name, v in depth.items()}
        # The simplest derivation: fewest terminal symbols, then smallest height. Its parts
        # are the simplest derivations of their rules, so a fixed point finds it; an
        # alternative that leads back to its own rule is never the simplest (its height is
        # larger), so following the simplest alternatives always ends.
        self._simplest: dict[str, tuple[float, float]] = {name: (inf, inf) for name in self.rules}
        changed = True
        while changed:
            changed = False
            for name, alternatives in self.rules.items():
                simplest = min(self._alt_simplicity(alt) for alt in alternatives)
                if simplest < self._simplest[name]:
                    self._simplest[name], changed = simplest, True
        #: Each rule's alternatives, simplest first (fewest terminal symbols, then smallest
        #: height, then declaration order): the order in which a derivation draws them, so
        #: the minimal draw gives the simplest derivation (:meth:`minimal`).
        self.simplest_first: dict[str, list[int]] = {
            name: sorted(range(len(alts)), key=functools.partial(self._simplicity, name)) for name, alts in self.rules.items()
        }

    def _terminal_size(self, symbol: Symbol) -> int:
        if isinstance(symbol, Literal):
            return 1 if symbol.text else 0
        return 1 if self._shortest[symbol.regex] else 0  # type: ignore[union-attr]

    def _alt_simplicity(self, alt: list[Symbol]) -> tuple[float, float]:
        size: float = 0
        height: float = 1
        for symbol in alt:
            if isinstance(symbol, NonTerminal):
                sub_size, sub_height = self._simplest[symbol.name]
                size += sub_size
                height = max(height, 1 + sub_height)
            else:
                size += self._terminal_size(symbol)
        return size, height

    def _simplicity(self, rule: str, index: int) -> tuple[float, float, int]:
        return (*self._alt_simplicity(self.rules[rule][index]), index)

    @staticmethod
    def _alt_depth(alt: list[Symbol], depth: dict[str, float]) -> float:
        return 1 + max((depth[s.name] for s in alt if isinstance(s, NonTerminal)), default=0)

    def alternative_depth(self, rule: str, index: int) -> int:
        """The depth of the shallowest derivation of ``rule`` through its alternative ``index``."""
        return int(self._alt_depth(self.rules[rule][index], self.min_depth))  # type: ignore[arg-type]

    def minimal(self, rule: str) -> Derivation:
        """The simplest derivation of ``rule``: the fewest terminal symbols (optional words
        dropped), then the smallest height, then the first alternatives. It is the derivation
        that all-minimal draws give (when it fits the picker's ``max_depth``)."""
        index = self.simplest_first[rule][0]
        children: list[Union[Derivation, str]] = []
        for symbol in self.rules[rule][index]:
            if isinstance(symbol, NonTerminal):
                children.append(self.minimal(symbol.name))
            elif isinstance(symbol, Literal):
                children.append(symbol.text)
            else:
                children.append(RegexGenerator(symbol.regex).minimal())
        return Derivation(rule, index, children)


class DerivedString(str):
    """A generated sentence that remembers its derivation (``.derivation``)."""

    derivation: Derivation


class DerivedList(list):  # type: ignore[type-arg]
    """A generated token sequence that remembers its derivation (``.derivation``)."""

    derivation: Derivation

    def __deepcopy__(self, memo: dict[int, Any]) -> "DerivedList":
        import copy

        twin = DerivedList(copy.deepcopy(list(self), memo))
        twin.derivation = self.derivation
        return twin


class _GrammarPicker(RandomPicker[Any]):
    """Shared machinery: a grammar, a depth budget, the derivation of each output."""

    opens_parts = True

    def __init__(self, grammar: str | Grammar, max_depth: int = 12, *, seed: int | None = None) -> None:
        if not isinstance(grammar, (str, Grammar)):
            raise TypeError(f"grammar must be the text of a grammar or a Grammar, got {grammar!r} ({type(grammar).__name__})")
        self.grammar = grammar if isinstance(grammar, Grammar) else Grammar(grammar)
        self.max_depth = check_int(max_depth, "max_depth", minimum=1, maximum=MAX_DEPTH)
        if self.grammar.min_depth[self.grammar.start] > self.max_depth:
            raise ValueError(f"max_depth must be at least {self.grammar.min_depth[self.grammar.start]} for this grammar, got {max_depth}")
        self._regexes = {
            s.regex: RegexGenerator(s.regex) for alts in self.grammar.rules.values() for alt in alts for s in alt if isinstance(s, Pattern)
        }
        self._plans: dict[tuple[str, int], Any] = {}
        self._init_stream(seed)

    def derive(self, rule: str | None = None, depth: int = 0) -> Derivation:
        """A random derivation of ``rule`` (the start rule by default) within the depth budget."""
        rule = rule or self.grammar.start
        stream = self._stream
        # Each expansion is a span of its own, so that the shrinker sees the derivation tree
        # (a sub-derivation replaced by a smaller one of the same rule, siblings sorted).
        source = open_span(stream, ("rule", rule))
        try:
            plan = self._plans.get((rule, depth))
            if plan is None:
                plan = self._plans[rule, depth] = self._plan(rule, depth)
            fitting, steps = plan
            index = fitting[stream.below(len(fitting))]
            children: list[Union[Derivation, str]] = []
            for kind, payload in steps[index]:
                if kind == 0:
                    children.append(self.derive(payload, depth + 1))
                elif kind == 1:
                    children.append(payload)
                else:
                    children.append(self._regexes[payload].generate(stream))
        finally:
            if source is not None:
                source.close_span()
        return Derivation(rule, index, children)

    def _plan(self, rule: str, depth: int) -> tuple[list[int], dict[int, list[tuple[int, Any]]]]:
        """The alternatives of ``rule`` that fit the depth budget at ``depth`` (simplest first),
        and each one's symbols as ``(kind, payload)``: worked out once per (rule, depth)."""
        order = self.grammar.simplest_first[rule]
        fitting = [i for i in order if depth + self.grammar.alternative_depth(rule, i) <= self.max_depth] or order[:1]
        steps: dict[int, list[tuple[int, Any]]] = {}
        for i in fitting:
            steps[i] = [
                (0, symbol.name) if isinstance(symbol, NonTerminal) else (1, symbol.text) if isinstance(symbol, Literal) else (2, symbol.regex)
                for symbol in self.grammar.rules[rule][i]
            ]
        return fitting, steps

    def arguments(self) -> tuple[list[Any], dict[str, Any]]:
        return [f"<{self.grammar.start}> ({len(self.grammar.rules)} rules)"], {"max_depth": self.max_depth}

    # -- the stager's hook (each grammar picker's ``stage``) -------------------------------------
    def _staged(self, e: Emitter, out: list[str], ind: str) -> str:
        """The stager's code of a pick: one local function per rule, ``rule(depth, put)``,
        which draws the alternative among those that fit the depth budget (a table per rule,
        by depth, worked out here as :meth:`derive` does), derives its symbols left to right
        and returns the :class:`Derivation`; ``put`` collects a sentence's tokens on the way,
        so the tree is not walked again. Each derivation is a part of the pick."""
        e.staged += 1
        functions = e.memo.get(("grammar", id(self)))
        if functions is None:
            functions = e.memo[("grammar", id(self))] = self._stage_rules(e)
        return self._stage_value(e, functions[self.grammar.start], out, ind)

    def _stage_value(self, e: Emitter, start: str, out: list[str], ind: str) -> str:
        raise NotImplementedError  # pragma: no cover - each grammar picker writes its value

    def _stage_rules(self, e: Emitter) -> dict[str, str]:
        grammar = self.grammar
        sentence = isinstance(self, GrammarSentence)
        make = e.bind("Derivation", Derivation, "Derivation")
        names = {rule: e.var("rule") for rule in grammar.rules}
        generators: dict[str, str] = {}

        def pattern(regex: str) -> str:
            generate = generators.get(regex)
            if generate is None:
                generate = generators[regex] = e.stream_call(self, self._regexes[regex].generate)
            return generate

        for rule, alternatives in grammar.rules.items():
            order = grammar.simplest_first[rule]
            by_depth = []
            for depth in range(self.max_depth + 1):
                fitting = [i for i in order if depth + grammar.alternative_depth(rule, i) <= self.max_depth] or order[:1]
                by_depth.append((len(fitting), (len(fitting) - 1).bit_length(), tuple(fitting)))
            table = e.bind("fitting", tuple(by_depth))
            body = [f"    def {names[rule]}(depth, put):  # a rule of the grammar"]
            label = ("rule", rule)
            e.part_open(label, body, " " * 8)
            used = sorted(set(index for _, _, fit in by_depth for index in fit))
            if all(n == 1 for n, _, _ in by_depth):  # one alternative at every depth: no draw
                body.append(f"        a = {used[0]}")
            else:
                counts = tuple(sorted({n for n, _, _ in by_depth if n > 1}))
                body.append(f"        n, k, fit = {table}[depth]")
                body.append("        if n == 1:")
                body.append("            a = fit[0]")
                body.append("        else:")
                j = e.draw_below(self, "n", "k", counts, body, " " * 12)
                body.append(f"            a = fit[{j}]")
            self._stage_derivations(e, alternatives, used, names, sentence, body, pattern)
            e.part_close(label, body, " " * 8)
            body.append(f"        return {make}({e.bind('rule', rule)}, a, children)")
            e.functions.append(body)
        return names

    def _stage_derivations(
        self, e: Emitter, alternatives: list[Any], used: list[int], names: dict[str, str], sentence: bool, body: list[str],
        pattern: Callable[[str], str],
    ) -> None:
        """For each alternative ``a`` of ``used``: its symbols derived left to right into
        ``children`` (a rule's function called, a literal put, a pattern generated on the
        picker's stream)."""
        for position, index in enumerate(used):
            if len(used) == 1:
                pad = "        "
            else:
                pad = "            "
                last = position == len(used) - 1
                body.append("        else:" if last else f"        {'if' if position == 0 else 'elif'} a == {index}:")
            children = []
            for symbol in alternatives[index]:
                if isinstance(symbol, NonTerminal):
                    child = e.var("c")
                    body.append(f"{pad}{child} = {names[symbol.name]}(depth + 1, put)")
                    children.append(child)
                elif isinstance(symbol, Literal):
                    text = e.bind("text", symbol.text)
                    if sentence and symbol.text != "":
                        body.append(f"{pad}put({text})")
                    children.append(text)
                else:
                    child = e.var("c")
                    body.append(f"{pad}{child} = {pattern(symbol.regex)}")
                    if sentence:
                        body.append(f"{pad}if {child} != '':")
                        body.append(f"{pad}    put({child})")
                    children.append(child)
            body.append(f"{pad}children = [{', '.join(children)}]")


class GrammarSentence(_GrammarPicker):
    """Sentences of a grammar: the terminals of a random derivation, joined by ``separator``.

    Each value is a ``str`` with a ``.derivation`` attribute.
    """

    def __init__(self, grammar: str | Grammar, max_depth: int = 12, separator: str = " ", *, seed: int | None = None) -> None:
        super().__init__(grammar, max_depth, seed=seed)
        self.separator = check_text(separator, "separator")

    def _pick(self) -> str:
        derivation = self.derive()
        sentence = DerivedString(self.separator.join(derivation.tokens()))
        sentence.derivation = derivation
        return sentence

    def stage(self, e: Emitter, out: list[str], ind: str) -> str:
        """The stager's code of a pick (see :meth:`_GrammarPicker._staged`)."""
        return self._staged(e, out, ind)

    def _stage_value(self, e: Emitter, start: str, out: list[str], ind: str) -> str:
        d, v, tokens = e.var("d"), e.var("g"), e.var("tokens")
        out.append(f"{ind}{tokens} = []  # {type(self).__name__}")
        out.append(f"{ind}{d} = {start}(0, {tokens}.append)")
        sentence = e.bind("DerivedString", DerivedString, "DerivedString")
        out.append(f"{ind}{v} = {sentence}({e.bind('separator', self.separator)}.join({tokens}))")
        out.append(f"{ind}{v}.derivation = {d}")
        return v


class GrammarSequence(_GrammarPicker, Shrinkable[list[Any]]):
    """Token sequences of a grammar, each token turned into an object by ``to_object``.

    Values are lists with a ``.derivation`` attribute. Subclass and override
    :meth:`to_object` (or pass ``to_object=``) to get actions, events, AST nodes...

    Shrinking keeps values inside the grammar: each derivation is a span of draws, which
    the shrinker replaces by one of its own descendants of the same rule or by the rule's
    minimal derivation.

    >>> calc = GrammarSequence("<e> := <n> | <e> + <n> ; <n> := ^[1-9]$ ;", max_depth=4)
    >>> tokens = calc.set_seed(0).pick()
    >>> tokens
    ['6', '+', '3', '+', '1']
    """

    def __init__(
        self,
        grammar: str | Grammar,
        max_depth: int = 12,
        to_object: Callable[[str], Any] | None = None,
        *,
        seed: int | None = None,
    ) -> None:
        super().__init__(grammar, max_depth, seed=seed)
        self._to_object = None if to_object is None else check_callable(to_object, "to_object", arguments=1)

    def to_object(self, token: str) -> Any:
        """The object a terminal token becomes (the token itself by default)."""
        return self._to_object(token) if self._to_object is not None else token

    def build(self, derivation: Derivation) -> DerivedList:
        """The value of a derivation: its tokens as objects, remembering the derivation."""
        value = DerivedList(self.to_object(t) for t in derivation.tokens())
        value.derivation = derivation
        return value

    def _pick(self) -> list[Any]:
        return self.build(self.derive())

    def stage(self, e: Emitter, out: list[str], ind: str) -> str:
        """The stager's code of a pick (see :meth:`_GrammarPicker._staged`)."""
        return self._staged(e, out, ind)

    def _stage_value(self, e: Emitter, start: str, out: list[str], ind: str) -> str:
        d, v = e.var("d"), e.var("g")
        out.append(f"{ind}{d} = {start}(0, None)  # {type(self).__name__}")
        out.append(f"{ind}{v} = {e.bind('build', self.build)}({d})")
        return v

    def _valid(self, node: Derivation) -> bool:
        alternatives = self.grammar.rules.get(node.rule)
        if alternatives is None or not 0 <= node.alternative < len(alternatives):
            return False
        symbols = alternatives[node.alternative]
        if len(symbols) != len(node.children):
            return False
        for symbol, child in zip(symbols, node.children):
            if isinstance(symbol, NonTerminal):
                if not (isinstance(child, Derivation) and child.rule == symbol.name and self._valid(child)):
                    return False
            elif isinstance(symbol, Literal):
                if child != symbol.text:
                    return False
            elif not (isinstance(child, str) and re.fullmatch(symbol.regex.strip("^$"), child)):
                return False
        return True




