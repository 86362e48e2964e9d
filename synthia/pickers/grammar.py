"""Grammars: sentences and token sequences derived from a BNF grammar given as text.

The grammar text is a list of rules ``<name> := alternative | alternative ;`` (the ``;``
is optional when each rule starts on a new line). Symbols are separated by spaces:
``<other>`` is a non-terminal, ``^...$`` a regular-expression terminal (see
:mod:`synthia.pickers.regex` for the supported subset), ``"quoted text"`` or a bare word a
literal terminal, and ``""`` the empty string. The first rule is the start rule.

Generation always terminates: each rule's minimal derivation depth is computed once, and
an alternative is only chosen while it can still finish within ``max_depth``. Every output
keeps its derivation tree (``value.derivation``), which shrinking uses to stay inside the
grammar and provenance to explain which alternative produced which token.

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

from ..core.checks import check_int
from ..core.constant import Nothing
from ..core.draws import open_span
from ..core.exceptions import CannotShrink, GiveUp
from ..core.picker import Picker, RandomPicker, Shrinkable
from ..core.shrinking import shrink_seed, simplicity
from .regex import RegexGenerator

__all__ = ["Grammar", "GrammarError", "Derivation", "GrammarSentence", "GrammarSequence", "GrammarPicker"]


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
    """A parsed BNF grammar (see the module docstring for the syntax)."""

    _HEADER = re.compile(r"<([\w\-]+)>\s*:=")

    def __init__(self, text: str) -> None:
        if not isinstance(text, str):
            raise TypeError(f"grammar must be a string, got {text!r}")
        self.text = text
        self.rules: dict[str, list[list[Symbol]]] = {}
        self._positions: dict[str, tuple[int, int]] = {}
        headers = list(self._HEADER.finditer(text))
        if not headers:
            raise GrammarError("grammar has no rule (expected '<name> := ...' at line 1, column 1)")
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
            body = text[header.end() : end].strip()
            if body.endswith(";"):
                body = body[:-1]
            self._positions[name] = position
            self.rules[name] = [self._alternative(name, alt, position) for alt in self._split(body)]
            if not self.rules[name]:
                raise GrammarError(f"rule <{name}> at line {position[0]}, column {position[1]} has no alternative")
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
    def _split(body: str) -> list[list[str]]:
        alternatives: list[list[str]] = [[]]
        for token in re.findall(r'"[^"]*"|\S+', body):
            if token == "|":
                alternatives.append([])
            else:
                alternatives[-1].append(token)
        return alternatives

    def _alternative(self, rule: str, tokens: list[str], position: tuple[int, int]) -> list[Symbol]:
        symbols: list[Symbol] = []
        for token in tokens:
            if token.startswith("<") and token.endswith(">") and len(token) > 2:
                symbols.append(NonTerminal(token[1:-1]))
            elif token.startswith("^") and token.endswith("$") and len(token) > 1:
                try:
                    RegexGenerator(token)
                except ValueError as err:
                    raise GrammarError(f"rule <{rule}> (line {position[0]}, column {position[1]}): {err}") from None
                symbols.append(Pattern(token))
            elif token.startswith('"') and token.endswith('"') and len(token) >= 2:
                symbols.append(Literal(token[1:-1]))
            elif token.startswith("<") or token.endswith(">") and "<" in token:
                raise GrammarError(f"rule <{rule}> (line {position[0]}, column {position[1]}): malformed symbol {token!r}")
            else:
                symbols.append(Literal(token))
        return symbols

    def _measure(self) -> None:
        """Minimal derivation depth and size of each rule and alternative (a fixed point)."""
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
        #: Each rule's alternatives, shallowest derivation first (declaration order on ties):
        #: the order in which a derivation draws them, so the minimal draw is the simplest.
        self.simplest_first: dict[str, list[int]] = {
            name: sorted(range(len(alts)), key=functools.partial(self._simplicity, name)) for name, alts in self.rules.items()
        }

    def _simplicity(self, rule: str, index: int) -> tuple[int, int]:
        return (self.alternative_depth(rule, index), index)

    @staticmethod
    def _alt_depth(alt: list[Symbol], depth: dict[str, float]) -> float:
        return 1 + max((depth[s.name] for s in alt if isinstance(s, NonTerminal)), default=0)

    def alternative_depth(self, rule: str, index: int) -> int:
        return int(self._alt_depth(self.rules[rule][index], self.min_depth))  # type: ignore[arg-type]

    def minimal(self, rule: str) -> Derivation:
        """A derivation of ``rule`` of minimal depth (first alternatives on ties)."""
        alternatives = self.rules[rule]
        index = min(range(len(alternatives)), key=lambda i: self.alternative_depth(rule, i))
        children: list[Union[Derivation, str]] = []
        for symbol in alternatives[index]:
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

    def __init__(self, grammar: str | Grammar, max_depth: int = 12, *, seed: int | None = None) -> None:
        self.grammar = grammar if isinstance(grammar, Grammar) else Grammar(grammar)
        self.max_depth = check_int(max_depth, "max_depth", minimum=1)
        if self.grammar.min_depth[self.grammar.start] > self.max_depth:
            raise ValueError(f"max_depth must be at least {self.grammar.min_depth[self.grammar.start]} for this grammar, got {max_depth}")
        self._regexes = {
            s.regex: RegexGenerator(s.regex) for alts in self.grammar.rules.values() for alt in alts for s in alt if isinstance(s, Pattern)
        }
        self._init_stream(seed)

    def derive(self, rule: str | None = None, depth: int = 0) -> Derivation:
        """A random derivation of ``rule`` (the start rule by default) within the depth budget."""
        rule = rule or self.grammar.start
        alternatives = self.grammar.rules[rule]
        # Each expansion is a span of its own, so that the shrinker sees the derivation tree
        # (a sub-derivation replaced by a smaller one of the same rule, siblings sorted).
        source = open_span(self._stream, ("rule", rule))
        try:
            order = self.grammar.simplest_first[rule]
            fitting = [i for i in order if depth + self.grammar.alternative_depth(rule, i) <= self.max_depth] or order[:1]
            index = fitting[self._stream.below(len(fitting))]
            children: list[Union[Derivation, str]] = []
            for symbol in alternatives[index]:
                if isinstance(symbol, NonTerminal):
                    children.append(self.derive(symbol.name, depth + 1))
                elif isinstance(symbol, Literal):
                    children.append(symbol.text)
                else:
                    children.append(self._regexes[symbol.regex].generate(self._stream))
        finally:
            if source is not None:
                source.close_span()
        return Derivation(rule, index, children)

    def _arguments(self) -> tuple[list[Any], dict[str, Any]]:
        return [f"<{self.grammar.start}> ({len(self.grammar.rules)} rules)"], {"max_depth": self.max_depth}


class GrammarSentence(_GrammarPicker):
    """Sentences of a grammar: the terminals of a random derivation, joined by ``separator``.

    Each value is a ``str`` with a ``.derivation`` attribute.
    """

    def __init__(self, grammar: str | Grammar, max_depth: int = 12, separator: str = " ", *, seed: int | None = None) -> None:
        super().__init__(grammar, max_depth, seed=seed)
        self.separator = separator

    def pick(self) -> str:
        derivation = self.derive()
        sentence = DerivedString(self.separator.join(derivation.tokens()))
        sentence.derivation = derivation
        return sentence


class GrammarSequence(_GrammarPicker, Shrinkable[list[Any]]):
    """Token sequences of a grammar, each token turned into an object by ``to_object``.

    Values are lists with a ``.derivation`` attribute. Subclass and override
    :meth:`to_object` (or pass ``to_object=``) to get actions, events, AST nodes...
    Alias: ``GrammarPicker``.

    Shrinking keeps values inside the grammar: ``shrink(v)`` gives derivations with fewer
    tokens, made by replacing a node of ``v``'s derivation with one of its own descendants
    of the same rule (a sub-derivation, so the tokens are a subsequence of ``v``'s) or with
    the rule's minimal derivation.

    >>> calc = GrammarSequence("<e> := <n> | <e> + <n> ; <n> := ^[1-9]$ ;", max_depth=4)
    >>> tokens = calc.set_seed(0).pick()
    >>> tokens
    ['6', '+', '3', '+', '1']
    >>> calc.shrink(tokens).take(3)
    [['1', '+', '1'], ['1'], ['6']]
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
        if to_object is not None and not callable(to_object):
            raise TypeError(f"to_object must be callable, got {to_object!r}")
        self._to_object = to_object

    def to_object(self, token: str) -> Any:
        """The object a terminal token becomes (the token itself by default)."""
        return self._to_object(token) if self._to_object is not None else token

    def build(self, derivation: Derivation) -> DerivedList:
        """The value of a derivation: its tokens as objects, remembering the derivation."""
        value = DerivedList(self.to_object(t) for t in derivation.tokens())
        value.derivation = derivation
        return value

    def pick(self) -> list[Any]:
        return self.build(self.derive())

    def in_domain(self, value: Any) -> bool | None:
        derivation = getattr(value, "derivation", None)
        if not isinstance(derivation, Derivation):
            return None
        return self._valid(derivation) and list(value) == [self.to_object(t) for t in derivation.tokens()]

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

    def shrink_key(self, value: Any) -> Any:
        return (len(value), simplicity(list(value)))

    def shrink(self, value: list[Any], decision: Picker[float] | None = None, magnitude: float = 1.0) -> Picker[list[Any]]:
        derivation = getattr(value, "derivation", None)
        if not isinstance(derivation, Derivation):
            raise CannotShrink(f"{value!r} carries no derivation: only values this picker produced can shrink")
        smaller = SmallerDerivation(self, derivation, seed=shrink_seed(decision))
        return smaller if smaller.candidates else Nothing()


GrammarPicker = GrammarSequence


class SmallerDerivation(RandomPicker[list[Any]], Shrinkable[list[Any]]):
    """Derivations with fewer tokens than ``reference``: what shrinking a :class:`GrammarSequence` gives."""

    def __init__(self, grammar_picker: GrammarSequence, reference: Derivation, *, seed: int | None = None) -> None:
        self.grammar_picker = grammar_picker
        self.reference = reference
        size = len(reference.tokens())
        self.candidates: list[tuple[Derivation, Derivation]] = []
        for node in reference.nodes():
            replacements = [d for d in node.nodes()[1:] if d.rule == node.rule]
            minimal = grammar_picker.grammar.minimal(node.rule)
            replacements.append(minimal)
            for new in replacements:
                if len(reference.replaced(node, new).tokens()) < size:
                    self.candidates.append((node, new))
        self._init_stream(seed)

    def pick(self) -> list[Any]:
        if not self.candidates:
            raise GiveUp(f"no derivation smaller than {self.reference.tokens()}")
        old, new = self.candidates[self._stream.below(len(self.candidates))]
        return self.grammar_picker.build(self.reference.replaced(old, new))

    def in_domain(self, value: Any) -> bool | None:
        return self.grammar_picker.in_domain(value)

    def shrink_key(self, value: Any) -> Any:
        return self.grammar_picker.shrink_key(value)

    def shrink(self, value: list[Any], decision: Picker[float] | None = None, magnitude: float = 1.0) -> Picker[list[Any]]:
        return self.grammar_picker.shrink(value, decision, magnitude)
