"""Strings: random strings, patterns filled from pickers, and random pieces of a given string."""
from __future__ import annotations

import string
from typing import Any, Callable

from ..core.checks import check_count_pick, check_text, describe
from ..core.constant import Constant
from ..core.inputs import count_input, value_input
from ..core.leaves import DrawSpec
from ..core.parsing import Parse
from ..core.picker import RandomPicker
from ..core.shrinking import Shrinkable
from ..core.tapes import INTEGER, Draw

__all__ = ["RandomString", "StringPattern", "RandomPrefix", "RandomSuffix", "RandomTrim", "RandomSubString"]

#: The default alphabet of :class:`RandomString`: ASCII letters and digits (62 characters).
ALPHANUMERIC = string.ascii_letters + string.digits


class RandomString(RandomPicker[str], Shrinkable[str]):
    """A string of ``length`` characters drawn uniformly from ``alphabet``.

    Simplest value: the simplest length of ``alphabet``'s first character; shrinking
    deletes characters and moves each one earlier in ``alphabet``.

    ``length`` is an int or a picker of ints; the length picker has its own
    stream, so lengths and characters are independent (the Java original seeded
    both with the same seed).

    >>> from synthia import RandomInteger
    >>> RandomString(RandomInteger(2, 6), alphabet="ab").set_seed(3).take(3)
    ['aa', 'aabb', 'ab']
    """

    atomic = True  # one string / one float: one choice in the shrinker's order

    inputs_fields = ("length",)

    def __init__(self, length: Any, alphabet: str = ALPHANUMERIC, *, seed: int | None = None) -> None:
        self.length = count_input(length, "length")
        if not check_text(alphabet, "alphabet"):
            raise ValueError(f"alphabet must be a non-empty string, got {alphabet!r}")
        self.alphabet = alphabet
        self._init_stream(seed)

    def sampler(self) -> Callable[[], str]:
        length, alphabet = self.length, self.alphabet
        character = self.stream.integer_sampler(0, len(alphabet))

        def pick() -> str:
            n = length.pick()
            if n.__class__ is not int or n < 0:  # the usual case stays one test
                n = check_count_pick(n, "length", length)
            return "".join([alphabet[character()] for _ in range(n)])

        return pick

    def parse_draws(self, value: Any, parse: Parse) -> list[Any] | None:
        """The length's draws, then each character's index in the alphabet."""
        alphabet = self.alphabet
        if type(value) is not str or not all(c in alphabet for c in value):
            return None
        length = parse(self.length, len(value))
        return None if length is None else length + [Draw(INTEGER, alphabet.index(c), (0, len(alphabet))) for c in value]

    def arguments(self) -> tuple[list[Any], dict[str, Any]]:
        return [self.length], ({} if self.alphabet == ALPHANUMERIC else {"alphabet": self.alphabet})



class StringPattern(Shrinkable[str]):
    """A template whose ``{0}``, ``{1}`` ... (or ``{}``) fields are filled by picks of ``pickers``.

    The template uses :meth:`str.format` syntax, format specs included
    (``{0:03d}``). Every field must name a picker and every picker must be used:
    a mismatch is a ``ValueError`` at construction, and so is a plain value its
    field cannot format (``StringPattern("{0:d}", "x")``); a picked value its field
    cannot format is a ``ValueError`` naming the picker. Shrinking falls back on
    :class:`~synthia.PickSmaller`: fresh patterns simpler (shorter first) than the value.

    >>> from synthia import RandomInteger
    >>> ip = StringPattern("10.0.{0}.{1}", RandomInteger(0, 256), RandomInteger(1, 255))
    >>> ip.set_seed(7).take(2)
    ['10.0.126.246', '10.0.116.232']
    """

    inputs_fields = ("pickers",)

    def __init__(self, pattern: str, *pickers: Any) -> None:
        check_text(pattern, "pattern")
        #: Each field as (picker index, a template of that field alone), to name a field that fails.
        self._fields: list[tuple[int, str]] = []
        automatic = 0
        try:
            for _, field, spec, conversion in string.Formatter().parse(pattern):
                if field is None:
                    continue
                head = field.split(".")[0].split("[")[0]
                if head == "":
                    index, automatic = automatic, automatic + 1
                elif head.isdigit():
                    index = int(head)
                else:
                    raise ValueError(f"pattern field {{{field}}} must be positional ({{0}}, {{1}} or {{}}), in {pattern!r}")
                alone = "{0" + field[len(head) :] + (f"!{conversion}" if conversion else "") + (f":{spec}" if spec else "") + "}"
                self._fields.append((index, alone))
        except ValueError as err:
            if "pattern field" in str(err):
                raise
            raise ValueError(f"pattern is not a valid template: {err}: {pattern!r}") from None
        used = {index for index, _ in self._fields}
        if used != set(range(len(pickers))):
            raise ValueError(f"pattern {pattern!r} uses fields {sorted(used)} but {len(pickers)} pickers were given")
        self.pattern = pattern
        self.pickers = [value_input(p, f"pickers[{i}]") for i, p in enumerate(pickers)]
        for index, alone in self._fields:
            if type(self.pickers[index]) is Constant:
                self._check_field(index, alone, self.pickers[index].value)  # type: ignore[attr-defined]

    def _check_field(self, index: int, alone: str, value: Any) -> None:
        try:
            alone.format(value)
        except Exception as error:  # whatever a value's __format__ raises, the field cannot take it
            where = f"pickers[{index}] {self.pickers[index]!r}"
            raise ValueError(f"pattern field {alone.replace('{0', '{' + str(index), 1)} cannot format {describe(value)} from {where}: {error}") from None

    def _pick(self) -> str:
        values = [p.pick() for p in self.pickers]
        try:
            return self.pattern.format(*values)
        except Exception:
            for index, alone in self._fields:
                self._check_field(index, alone, values[index])
            raise

    def arguments(self) -> tuple[list[Any], dict[str, Any]]:
        return [self.pattern, *self.pickers], {}


class _Piece(RandomPicker[str], Shrinkable[str]):
    """A random piece of a fixed string.

    Simplest value: the shortest piece.
    """

    def __init__(self, text: str, *, seed: int | None = None) -> None:
        if not isinstance(text, str):
            raise TypeError(f"text must be a string, got {text!r} ({type(text).__name__})")
        self.text = text
        self._init_stream(seed)

    def arguments(self) -> tuple[list[Any], dict[str, Any]]:
        return [self.text], {}


class RandomPrefix(_Piece):
    """A prefix of ``text`` whose length is uniform in ``[0, len(text)]`` (the whole text included).

    >>> RandomPrefix("synthia", seed=1).take(3)
    ['synthi', 'sy', 'syn']
    """

    def draw_spec(self) -> DrawSpec:
        """One integer draw, the prefix's length (its inverse: a prefix's length)."""
        return DrawSpec(INTEGER, (0, len(self.text) + 1), self._prefix, inverse=len)

    def _prefix(self, n: int) -> str:
        return self.text[:n]


class RandomSuffix(_Piece):
    """A suffix of ``text`` whose length is uniform in ``[0, len(text)]``.

    >>> RandomSuffix("synthia", seed=1).take(3)
    ['ynthia', 'ia', 'hia']
    """

    def draw_spec(self) -> DrawSpec:
        """One integer draw, the suffix's length (its inverse: a suffix's length)."""
        return DrawSpec(INTEGER, (0, len(self.text) + 1), self._suffix, inverse=len)

    def _suffix(self, n: int) -> str:
        return self.text[len(self.text) - n :]


class RandomTrim(_Piece):
    """A random prefix of ``text``, then a random suffix of that prefix: a substring that
    favours the middle-left of the text.

    >>> RandomTrim("synthia", seed=2).take(3)
    ['i', '', 'h']
    """

    def _pick(self) -> str:
        prefix = self.text[: self._stream.below(len(self.text) + 1)]
        n = self._stream.below(len(prefix) + 1)
        return prefix[len(prefix) - n :]


class RandomSubString(_Piece):
    """A contiguous substring ``text[start:end]`` with ``start`` uniform in ``[0, len]`` and
    ``end`` uniform in ``[start, len]``.

    >>> RandomSubString("synthia", seed=4).take(3)
    ['i', '', 't']
    """

    def _pick(self) -> str:
        n = len(self.text)
        start = self._stream.below(n + 1)
        end = start + self._stream.below(n - start + 1)
        return self.text[start:end]
