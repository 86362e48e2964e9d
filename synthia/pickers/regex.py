"""Strings that match a regular expression, for grammar terminals (a documented subset).

Supported: literal characters, escaped punctuation (``\\.``, ``\\-``), the classes
``\\d``, ``\\w``, ``\\s`` and their complements ``\\D``, ``\\W``, ``\\S`` (over printable
ASCII), the control escapes ``\\n``, ``\\t``, ``\\r``, ``\\f``, ``\\v``, ``.``, character
classes (``[a-z0-9_]``, negation ``[^...]`` over printable ASCII), groups ``( )`` (and
``(?: )``), alternation ``|``, and the quantifiers ``?``, ``*``, ``+``, ``{m}``, ``{m,}``,
``{m,n}`` (unbounded repetition is capped at ``max_repeat``; counts above
:data:`MAX_COUNT` are refused, since every string would be that long). The anchors ``^``,
``$``, ``\\A`` and ``\\Z`` are accepted and ignored: every string is a full match. Anything
else -- flags ``(?i)``, lookarounds, named groups, backreferences ``\\1``, ``\\b``, Unicode
classes ``\\p{L}``, any other escape of a letter or digit -- raises :class:`RegexError` (a
``ValueError``) at once, with the position in the pattern.

>>> from synthia.core.random import Stream
>>> g = RegexGenerator(r"^[a-c]{2}-\\d+$")
>>> import re; bool(re.fullmatch(g.pattern.strip("^$"), g.generate(Stream(1))))
True
"""
from __future__ import annotations

import string
from typing import Any

from ..core.checks import check_int, check_text
from ..core.picker import RandomPicker
from ..core.random import Stream

__all__ = ["RegexGenerator", "RegexError", "RegexString"]

#: The largest repetition count a pattern may ask for (``a{10000}``).
MAX_COUNT = 10_000


class RegexError(ValueError):
    """A pattern outside the supported subset; ``position`` is the 0-based offset in the pattern."""

    def __init__(self, pattern: str, reason: str, position: int) -> None:
        super().__init__(f"regular expression {pattern!r}: {reason} at position {position}")
        self.reason = reason
        self.position = position

_PRINTABLE = [c for c in string.printable if c not in "\t\n\r\x0b\x0c"]
_CLASSES = {"d": string.digits, "w": string.ascii_letters + string.digits + "_", "s": " "}
_CLASSES.update({name.upper(): "".join(c for c in _PRINTABLE if c not in chars) for name, chars in list(_CLASSES.items())})
_CONTROLS = {"n": "\n", "t": "\t", "r": "\r", "f": "\f", "v": "\v"}


class RegexGenerator:
    """Generates strings matching ``pattern`` (see the module docstring for the subset)."""

    def __init__(self, pattern: str, max_repeat: int = 8) -> None:
        self.pattern = check_text(pattern, "pattern")
        self.max_repeat = check_int(max_repeat, "max_repeat", minimum=0, maximum=MAX_COUNT)
        self._text = pattern
        self._pos = 0
        self._tree = self._alternation()
        if self._pos != len(self._text):
            self._fail("unexpected character")

    def _fail(self, why: str) -> None:
        raise RegexError(self.pattern, why, self._pos)

    def _peek(self) -> str:
        return self._text[self._pos] if self._pos < len(self._text) else ""

    def _alternation(self) -> Any:
        branches = [self._sequence()]
        while self._peek() == "|":
            self._pos += 1
            branches.append(self._sequence())
        return ("alt", branches)

    def _sequence(self) -> Any:
        items = []
        while self._peek() not in ("", "|", ")"):
            atom = self._atom()
            if atom is not None:
                items.append(self._quantified(atom))
        return ("seq", items)

    def _atom(self) -> Any:
        c = self._peek()
        self._pos += 1
        if c in "^$":
            return None
        if c == "(":
            if self._text.startswith("?:", self._pos):
                self._pos += 2
            elif self._peek() == "?":
                self._fail("unsupported group (?...): flags, lookarounds and named groups are not in the subset")
            inner = self._alternation()
            if self._peek() != ")":
                self._fail("missing )")
            self._pos += 1
            return inner
        if c == "[":
            return ("set", self._set())
        if c == ".":
            return ("set", _PRINTABLE)
        if c == "\\":
            if self._peek() in ("A", "Z"):
                self._pos += 1
                return None
            escaped = self._escape()
            return ("set", list(escaped)) if len(escaped) > 1 else ("lit", escaped)
        if c in "*+?{":
            self._pos -= 1
            self._fail("nothing to repeat")
        return ("lit", c)

    def _escape(self) -> str:
        """The characters the escape after a backslash stands for (one for a literal)."""
        e = self._peek()
        if not e:
            self._fail("dangling backslash")
        if e in _CLASSES:
            self._pos += 1
            return _CLASSES[e]
        if e in _CONTROLS:
            self._pos += 1
            return _CONTROLS[e]
        if e.isalnum():  # \b, \1, \p, \u...: a meaning the subset does not have
            self._fail(f"unsupported escape \\{e}")
        self._pos += 1
        return e

    def _set(self) -> list[str]:
        negate = self._peek() == "^"
        if negate:
            self._pos += 1
        chars: list[str] = []
        first = True
        while True:
            c = self._peek()
            if not c:
                self._fail("missing ]")
            if c == "]" and not first:
                self._pos += 1
                break
            first = False
            self._pos += 1
            if c == "\\":
                chars.extend(self._escape())
                continue
            if self._peek() == "-" and self._text[self._pos + 1 : self._pos + 2] not in ("]", ""):
                end = self._text[self._pos + 1]
                if ord(end) < ord(c):
                    self._pos -= 1  # point at the range's first character
                    self._fail(f"bad range {c}-{end}")
                self._pos += 2
                chars.extend(chr(o) for o in range(ord(c), ord(end) + 1))
            else:
                chars.append(c)
        if negate:
            chars = [c for c in _PRINTABLE if c not in chars]
        if not chars:
            self._fail("empty character class")
        return list(dict.fromkeys(chars))

    def _quantified(self, atom: Any) -> Any:
        c = self._peek()
        if c == "?":
            low, high = 0, 1
        elif c == "*":
            low, high = 0, self.max_repeat
        elif c == "+":
            low, high = 1, max(1, self.max_repeat)  # max_repeat=0 must not leave an empty range
        elif c == "{":
            end = self._text.find("}", self._pos)
            if end < 0:
                self._fail("missing }")
            body = self._text[self._pos + 1 : end]
            try:
                if "," in body:
                    a, b = body.split(",", 1)
                    low, high = int(a), (int(b) if b.strip() else int(a) + self.max_repeat)
                else:
                    low = high = int(body)
            except ValueError:
                self._fail(f"bad repetition {{{body}}}")
            if low < 0 or high < low:
                self._fail(f"bad repetition {{{body}}}: the maximum is below the minimum")
            if high > MAX_COUNT:
                self._fail(f"bad repetition {{{body}}}: more than {MAX_COUNT} repetitions")
            self._pos = end
        else:
            return atom
        self._pos += 1
        return ("rep", atom, low, high)

    def generate(self, stream: Stream) -> str:
        """A string matching the pattern, drawn from ``stream``."""
        out: list[str] = []
        self._emit(self._tree, stream, out)
        return "".join(out)

    def _emit(self, node: Any, stream: Stream, out: list[str]) -> None:
        kind = node[0]
        if kind == "lit":
            out.append(node[1])
        elif kind == "set":
            out.append(node[1][stream.below(len(node[1]))])
        elif kind == "seq":
            for item in node[1]:
                self._emit(item, stream, out)
        elif kind == "alt":
            self._emit(node[1][stream.below(len(node[1]))], stream, out)
        else:
            _, atom, low, high = node
            for _ in range(low + stream.below(high - low + 1)):
                self._emit(atom, stream, out)

    def minimal(self) -> str:
        """The shortest string this generator can produce (first choices everywhere)."""
        class _First:
            def below(self, n: int) -> int:
                return 0

        out: list[str] = []
        self._emit(self._tree, _First(), out)  # type: ignore[arg-type]
        return "".join(out)


class RegexString(RandomPicker[str]):
    """Strings that fully match ``pattern``, a regular expression of the subset above
    (Hypothesis's ``st.from_regex(pattern, fullmatch=True)``); a pattern outside it is a
    :class:`RegexError` (a ``ValueError``) naming the position. ``*`` and ``+`` repeat at
    most ``max_repeat`` times (``+`` at least once), ``{m,}`` at most ``m + max_repeat``.

    Every choice is a draw (an alternative, a character, a repetition count), so the
    minimal draws give the shortest string: first alternatives, first characters.

    >>> RegexString(r"[a-c]{2}-\\d{1,3}").set_seed(1).take(3)
    ['bb-94', 'bb-2', 'cb-64']
    >>> RegexString(r"(?i)abc")
    Traceback (most recent call last):
    ...
    synthia.pickers.regex.RegexError: regular expression '(?i)abc': unsupported group (?...): flags, lookarounds and named groups are not in the subset at position 1
    """

    def __init__(self, pattern: str, max_repeat: int = 8, *, seed: int | None = None) -> None:
        self.generator = RegexGenerator(pattern, max_repeat)
        self._init_stream(seed)

    def _pick(self) -> str:
        return self.generator.generate(self._stream)

    def arguments(self) -> tuple[list[Any], dict[str, Any]]:
        keywords = {} if self.generator.max_repeat == 8 else {"max_repeat": self.generator.max_repeat}
        return [self.generator.pattern], keywords
