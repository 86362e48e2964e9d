"""Unicode text and bytes: :class:`RandomText`, :class:`RandomBytes`.

:class:`~synthia.RandomString` draws from a short alphabet; :class:`RandomText` draws
from the whole of Unicode, or the part of it given by general categories (``"Lu"``,
``"Nd"``, ``"Zs"``...) and code-point ranges, and mixes in *nasty* strings -- text that
breaks programs: a right-to-left override, a byte-order mark, combining marks, an emoji
joined by a zero-width joiner, a NUL, a lone surrogate (when surrogates are allowed),
words such as ``"null"`` and ``"NaN"``.

Characters are ordered for shrinking like Hypothesis orders them: ``'0'``-``'9'``,
``'A'``-``'Z'``, ``'a'``-``'z'`` first (those in the set), then every other code point
in increasing order; so all-minimal draws give the shortest string of ``'0'``.
"""
from __future__ import annotations

import bisect
import functools
import sys
import unicodedata
from typing import Any, Iterable, Sequence

from ..core.checks import check_count_pick, check_int, check_probability, check_text, check_values, describe
from ..core.inputs import count_input
from ..core.picker import Picker, RandomPicker

__all__ = ["RandomText", "RandomBytes", "CharacterSet"]

#: Categories of :class:`RandomText` by default: everything but surrogates (like Hypothesis).
DEFAULT_EXCLUDED = ("Cs",)
#: Probability that the characters of a :class:`RandomText` string come from the whole set
#: rather than from its first 256 characters in shrink order (ASCII-like ones).
WIDE = 0.25

NASTY = (
    "\u202eevil",  # right-to-left override
    "\ufeffbom",  # byte-order mark
    "e\u0301\u0301",  # combining acute accents
    "\U0001f468\u200d\U0001f469\u200d\U0001f467",  # a family emoji joined by zero-width joiners
    "\x00",
    "\r\n",
    "\t ",
    "\u00a0",  # no-break space
    "\u2028",  # line separator
    "𝕳𝖊𝖑𝖑𝖔",  # mathematical letters outside the BMP
    "مرحبا",  # right-to-left script
    "null",
    "NaN",
    "-0",
    "'\"; DROP TABLE users; --",
    "\ud800",  # a lone surrogate
    "Ω≈ç√∫",
    "ﬁ",  # a ligature that NFKC normalisation changes
)


@functools.lru_cache(maxsize=1)
def _category_table() -> dict[str, list[tuple[int, int]]]:
    """Every general category as a list of inclusive code-point ranges (one scan, ~0.3 s)."""
    table: dict[str, list[tuple[int, int]]] = {}
    category = unicodedata.category
    start, current = 0, category(chr(0))
    for cp in range(1, sys.maxunicode + 1):
        c = category(chr(cp))
        if c != current:
            table.setdefault(current, []).append((start, cp - 1))
            start, current = cp, c
    table.setdefault(current, []).append((start, sys.maxunicode))
    return table


def _merge(ranges: Iterable[tuple[int, int]]) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    for a, b in sorted(ranges):
        if out and a <= out[-1][1] + 1:
            out[-1] = (out[-1][0], max(out[-1][1], b))
        else:
            out.append((a, b))
    return out


def _subtract(ranges: list[tuple[int, int]], cut: list[tuple[int, int]]) -> list[tuple[int, int]]:
    out = []
    for a, b in ranges:
        pieces = [(a, b)]
        for c, d in cut:
            pieces = [p for x, y in pieces for p in ((x, min(y, c - 1)), (max(x, d + 1), y)) if p[0] <= p[1]]
        out += pieces
    return out


_SIMPLE = [ord(c) for c in "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"]


class CharacterSet:
    """A set of code points with synthia's shrink order (ASCII letters and digits first).

    >>> chars = CharacterSet(categories=["Nd"], ranges=[(ord("a"), ord("c"))])
    >>> chars[0], chars[10], chars[13], "٣" in chars, len(chars) > 600
    ('0', 'a', '٠', True, True)
    """

    def __init__(
        self,
        categories: Sequence[str] | None = None,
        ranges: Sequence[tuple[int, int]] = (),
        *,
        exclude_categories: Sequence[str] = (),
        exclude: str = "",
    ) -> None:
        table = _category_table()
        chosen: list[tuple[int, int]] = []
        names = list(table) if categories is None else list(categories)
        for name in names:
            if not isinstance(name, str) or not any(c.startswith(name) for c in table):
                raise ValueError(f"categories must be Unicode general categories such as 'Lu' or 'L', got {name!r}")
            for cat, rs in table.items():
                if cat.startswith(name) and not any(cat.startswith(x) for x in exclude_categories):
                    chosen += rs
        for pair in ranges:
            if not (isinstance(pair, tuple) and len(pair) == 2 and all(isinstance(x, int) for x in pair) and 0 <= pair[0] <= pair[1] <= sys.maxunicode):
                raise ValueError(f"ranges must hold (first, last) code points with first <= last, got {pair!r}")
            chosen.append(pair)
        merged = _subtract(_merge(chosen), [(ord(c), ord(c)) for c in exclude])
        simple = [cp for cp in _SIMPLE if any(a <= cp <= b for a, b in merged)]
        self.simple = simple
        self.ranges = _subtract(merged, [(cp, cp) for cp in simple])
        self._offsets = [0]
        for a, b in self.ranges:
            self._offsets.append(self._offsets[-1] + b - a + 1)
        self.size = len(simple) + self._offsets[-1]
        if self.size == 0:
            raise ValueError(f"the character set is empty (categories={categories!r}, ranges={list(ranges)!r}, exclude={exclude!r})")

    def __len__(self) -> int:
        return self.size

    def __getitem__(self, i: int) -> str:
        """The ``i``-th character in shrink order."""
        k = len(self.simple)
        if i < k:
            return chr(self.simple[i])
        i -= k
        j = bisect.bisect_right(self._offsets, i) - 1
        return chr(self.ranges[j][0] + i - self._offsets[j])

    def __contains__(self, char: str) -> bool:
        cp = ord(char)
        return cp in self.simple or any(a <= cp <= b for a, b in self.ranges)


class RandomText(RandomPicker[str]):
    """A Unicode string of ``length`` characters from a :class:`CharacterSet`, nasty cases included.

    ``categories`` (Unicode general categories, or their first letter: ``["L", "Nd"]``)
    and ``ranges`` (inclusive ``(first, last)`` code points) say which characters may
    appear; by default every character but surrogates. ``exclude`` removes characters.
    With probability ``nasty`` the value is one of the nasty strings of this module that
    fit the set (see its docstring) instead of a drawn one. The characters come from
    the first 256 of the set in shrink order, or (for a quarter of the strings) from all of it.

    Shrinking (through its draws): not nasty, then shorter, then character by character
    towards ``'0'``.

    >>> RandomText(5, categories=["Lu"], seed=2).pick()
    'ŞPǓÖƵ'
    >>> RandomText(3, categories=["Xx"])
    Traceback (most recent call last):
    ...
    ValueError: categories must be Unicode general categories such as 'Lu' or 'L', got 'Xx'
    """

    inputs_fields = ("length",)

    def __init__(
        self,
        length: Any = 10,
        *,
        categories: Sequence[str] | None = None,
        ranges: Sequence[tuple[int, int]] = (),
        exclude: str = "",
        nasty: float = 0.1,
        seed: int | None = None,
    ) -> None:
        self.length = count_input(length, "length")
        self.categories = None if categories is None else check_values(categories, "categories")
        self.ranges = [_code_point_range(r, i) for i, r in enumerate(check_values(ranges, "ranges"))]
        self.exclude = check_text(exclude, "exclude")
        self.nasty = check_probability(nasty, "nasty")
        excluded = DEFAULT_EXCLUDED if categories is None else ()
        self.chars = _character_set(
            None if self.categories is None else tuple(self.categories), tuple(self.ranges), tuple(excluded), exclude
        )
        self._nasty = [s for s in NASTY if all(c in self.chars for c in s)]
        self._narrow = min(256, len(self.chars))
        self._init_stream(seed)

    def pick(self) -> str:
        stream = self._stream
        if self._nasty and self.nasty and stream.boolean(self.nasty):
            return self._nasty[stream.below(len(self._nasty))]
        n = check_count_pick(self.length.pick(), "length", self.length)
        # One draw per character (so the shrinker deletes characters one draw at a time);
        # whether they come from the whole set is decided once for the string.
        size = len(self.chars) if stream.boolean(WIDE) else self._narrow
        chars, below = self.chars, stream.below
        return "".join([chars[below(size)] for _ in range(n)])

    def in_domain(self, value: Any) -> bool | None:
        if not isinstance(value, str):
            return False
        if value in self._nasty:
            return True
        if not all(c in self.chars for c in value):
            return False
        return self.length.in_domain(len(value))

    def _arguments(self) -> tuple[list[Any], dict[str, Any]]:
        kwargs: dict[str, Any] = {}
        for name, default in (("categories", None), ("ranges", []), ("exclude", ""), ("nasty", 0.1)):
            if getattr(self, name) != default:
                kwargs[name] = getattr(self, name)
        return [self.length], kwargs


def _code_point_range(pair: Any, index: int) -> tuple[int, int]:
    name = f"ranges[{index}]"
    if isinstance(pair, (str, bytes)) or not isinstance(pair, Sequence) or len(pair) != 2:
        raise TypeError(f"{name} must be a pair (first, last) of code points, got {describe(pair)}")
    first, last = (check_int(c, name, minimum=0, maximum=sys.maxunicode) for c in pair)
    if first > last:
        raise ValueError(f"{name} must have first <= last, got {pair!r}")
    return first, last


@functools.lru_cache(maxsize=64)
def _character_set(categories: tuple[str, ...] | None, ranges: tuple[tuple[int, int], ...], excluded: tuple[str, ...], exclude: str) -> CharacterSet:
    if categories is None and ranges:
        return CharacterSet([], list(ranges), exclude=exclude)
    return CharacterSet(categories, list(ranges), exclude_categories=excluded, exclude=exclude)


class RandomBytes(RandomPicker[bytes]):
    """``length`` random bytes (``length`` an int or a picker of ints).

    Shrinking (through its draws): shorter, then byte by byte towards ``0x00``.

    >>> RandomBytes(4, seed=1).pick()
    b'\\xc2KcJ'
    """

    inputs_fields = ("length",)

    def __init__(self, length: Any = 8, *, seed: int | None = None) -> None:
        self.length = count_input(length, "length")
        self._init_stream(seed)

    def pick(self) -> bytes:
        n = check_count_pick(self.length.pick(), "length", self.length)
        below = self._stream.below
        return bytes([below(256) for _ in range(n)])

    def in_domain(self, value: Any) -> bool | None:
        return self.length.in_domain(len(value)) if isinstance(value, bytes) else False

    def _arguments(self) -> tuple[list[Any], dict[str, Any]]:
        return [self.length], {}
