"""Unicode text and bytes: :class:`RandomText`, :class:`RandomBytes`.

:class:`~synthia.RandomString` draws from a short alphabet; :class:`RandomText` draws
from the whole of Unicode, or the part of it given by general categories (``"Lu"``,
``"Nd"``, ``"Zs"``...) and code-point ranges, and mixes in *nasty* strings -- text that
breaks programs: a right-to-left override, a byte-order mark, combining marks, an emoji
joined by a zero-width joiner, a NUL, a lone surrogate (when surrogates are allowed),
words such as ``"null"`` and ``"NaN"``.

Characters are drawn like Hypothesis orders them: ``'0'``-``'9'``, ``'A'``-``'Z'``,
``'a'``-``'z'`` first (those in the set), then every other code point in increasing
order. Recorded for shrinking, a character is its general category (``Nd``, ``Lu``,
``Ll``, then the others, each from its simplest character) and its rank in it (ASCII
letters and digits first, then by code point): so all-minimal draws give the shortest
string of ``'0'``, and a character shrinks to the simplest of its category (``'À'`` to
``'A'``) where a failure depends on its kind, as most tests of characters do.
"""
from __future__ import annotations

import bisect
import functools
import sys
import unicodedata
from typing import Any, Callable, Iterable, Sequence

from ..core.checks import check_count_pick, check_int, check_probability, check_text, check_values, describe
from ..core.draws import open_span
from ..core.inputs import count_input
from ..core.parsing import Parse
from ..core.tapes import BOOLEAN, INTEGER, Draw
from ..core.picker import RandomPicker
from ..core.random import Stream

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


#: The label of the span of one character of a :class:`RandomText` (its class and its rank).
_CHARACTER = "character"


def spell(
    stream: Any, classes: Any, n: int, sample_class: Callable[[Any], int], sample_rank: Callable[[Any], int],
    before: Callable[[int], None] | None = None,
) -> str:
    """``n`` characters drawn as recorded text is: each in a span of its own, as two
    ``integer_by`` draws -- its class among ``classes`` (made by ``sample_class``), then its
    rank in that class (``sample_rank``); ``before(j)`` runs before the ``j``-th."""
    out = []
    for j in range(n):
        source = open_span(stream, _CHARACTER)
        try:
            if before is not None:
                before(j)
            c = stream.integer_by(0, len(classes), sample_class)
            out.append(classes[c][stream.integer_by(0, len(classes[c]), sample_rank)])
        finally:
            if source is not None:
                source.close_span()
    return "".join(out)


def _nothing(stream: Any) -> int:
    return 0


_SIMPLE = [ord(c) for c in "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"]


def _names(value: Any, name: str) -> list[str]:
    """A list of category names (a single ``str`` is refused: ``"Lu"`` would read as ``L``, ``u``)."""
    if isinstance(value, str):
        raise TypeError(f"{name} must be a list of Unicode categories such as ['Lu', 'Nd'], got the string {value!r}: write [{value!r}]")
    names = check_values(value, name)
    for item in names:
        if not isinstance(item, str):
            raise TypeError(f"{name} must hold category names (strings such as 'Lu'), got {describe(item)} in {value!r}")
    return names


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
        names = list(table) if categories is None else _names(categories, "categories")
        exclude_categories = _names(exclude_categories, "exclude_categories")
        for excluded in exclude_categories:
            if not any(c.startswith(excluded) for c in table):
                raise ValueError(f"exclude_categories must be Unicode general categories such as 'Zs' or 'C', got {excluded!r}")
        check_text(exclude, "exclude")
        ranges = check_values(ranges, "ranges")
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
        self._classes: CharacterClasses | None = None  # built when a draw first needs them
        #: The first 256 characters in shrink order, as one string (what plain generation indexes).
        self.head = "".join([self[i] for i in range(min(256, self.size))])

    def __len__(self) -> int:
        return self.size

    def __deepcopy__(self, memo: dict[int, Any]) -> "CharacterSet":
        # Never changed once made (its classes are a cache): copies of a wiring share it, and
        # a copy costs nothing (copying its ranges took ~15 ms per RandomText).
        return self

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

    # -- characters as (class, rank) --------------------------------------------------------
    @property
    def classes(self) -> "CharacterClasses":
        """The set's characters grouped by Unicode general category (see
        :class:`CharacterClasses`): ``Nd`` from ``'0'``, ``Lu`` from ``'A'``, ``Ll`` from
        ``'a'``, then the others from their first character.

        >>> chars = CharacterSet([], [(32, 255)])  # Latin-1 without its control characters
        >>> [(c.category, c[0], len(c)) for c in chars.classes][:4]
        [('Nd', '0', 10), ('Lu', 'A', 56), ('Ll', 'a', 59), ('Zs', ' ', 2)]
        >>> chars.locate("À"), chars.classes[1][26]
        ((1, 26), 'À')
        """
        if self._classes is None:
            runs = [(cp, cp, 1) for cp in self.simple] + [(a, b, 1) for a, b in self.ranges]
            self._classes = CharacterClasses(runs)
        return self._classes

    def locate(self, char: str) -> tuple[int, int]:
        """``(class, rank)``: the position of its general category in :attr:`classes`, and its
        rank in that class."""
        return self.classes.locate(char)


class _CharacterClass:
    """The characters of one general category in a set, in the set's shrink order: a list of
    runs ``(first, last, step)`` (consecutive code points, up when ``step`` is 1, down when
    it is -1), in that order."""

    __slots__ = ("category", "runs", "_offsets", "_lows", "_by_code", "size")

    def __init__(self, category: str, runs: list[tuple[int, int, int]]) -> None:
        self.category, self.runs = category, runs
        self._offsets = [0]
        for first, last, step in runs:
            self._offsets.append(self._offsets[-1] + (last - first) * step + 1)
        self.size = self._offsets.pop()
        by_code = sorted((min(first, last), i) for i, (first, last, _) in enumerate(runs))
        self._lows = [low for low, _ in by_code]
        self._by_code = [i for _, i in by_code]

    def __len__(self) -> int:
        return self.size

    def __getitem__(self, k: int) -> str:
        j = bisect.bisect_right(self._offsets, k) - 1
        first, _, step = self.runs[j]
        return chr(first + step * (k - self._offsets[j]))

    def rank(self, cp: int) -> int:
        """The rank of code point ``cp`` (which must be in the class)."""
        j = self._by_code[bisect.bisect_right(self._lows, cp) - 1]
        first, _, step = self.runs[j]
        return self._offsets[j] + (cp - first) * step


class CharacterClasses:
    """The characters of a set in its shrink order, grouped by general category: each group
    in shrink order, the groups ordered by where their simplest character stands. A
    character is then a pair ``(class, rank)``, which lowering the rank moves to the
    simplest character of its category.

    ``runs`` lists the set's code points in shrink order as runs ``(first, last, step)``
    (see :class:`_CharacterClass`).

    >>> classes = CharacterClasses([(ord("a"), ord("c"), 1), (ord("B"), ord("A"), -1), (0xC0, 0xC1, 1)])
    >>> [(c.category, "".join(c[k] for k in range(len(c)))) for c in classes]
    [('Ll', 'abc'), ('Lu', 'BAÀÁ')]
    >>> classes.locate("À"), classes.locate("b")
    ((1, 2), (0, 1))
    """

    def __init__(self, runs: Sequence[tuple[int, int, int]]) -> None:
        table = _category_table()
        pieces = sorted((a, b, category) for category, ranges in table.items() for a, b in ranges)
        lows = [a for a, _, _ in pieces]
        found: dict[str, list[tuple[int, int, int]]] = {}
        first_at: dict[str, int] = {}
        position = 0
        for first, last, step in runs:
            low, high = min(first, last), max(first, last)
            inside = []
            j = bisect.bisect_right(lows, low) - 1
            while j < len(pieces) and pieces[j][0] <= high:
                a, b, category = pieces[j]
                a, b = max(a, low), min(b, high)
                if a <= b:
                    inside.append((a, b, category))
                j += 1
            if step < 0:
                inside = [(b, a, category) for a, b, category in reversed(inside)]
            for a, b, category in inside:
                if category not in found:
                    found[category] = []
                    first_at[category] = position + (a - first) * step
                found[category].append((a, b, step))
            position += high - low + 1
        order = sorted(found, key=first_at.__getitem__)
        self.classes = [_CharacterClass(category, found[category]) for category in order]
        self._class_of = {category: i for i, category in enumerate(order)}

    def __len__(self) -> int:
        return len(self.classes)

    def __getitem__(self, i: int) -> _CharacterClass:
        return self.classes[i]

    def locate(self, char: str) -> tuple[int, int]:
        """``(class, rank)`` of a character of the set."""
        i = self._class_of[unicodedata.category(char)]
        return i, self.classes[i].rank(ord(char))


class RandomText(RandomPicker[str]):
    """A Unicode string of ``length`` characters from a :class:`CharacterSet`, nasty cases included.

    ``categories`` (Unicode general categories, or their first letter: ``["L", "Nd"]``)
    and ``ranges`` (inclusive ``(first, last)`` code points) say which characters may
    appear; by default every character but surrogates. ``exclude`` removes characters.
    With probability ``nasty`` the value is one of the nasty strings of this module that
    fit the set (see its docstring) instead of a drawn one. The characters come from
    the first 256 of the set in shrink order, or (for a quarter of the strings) from all of it.

    Shrinking (through its draws, see :meth:`_recorded`): a nasty string is spelled by the
    draws of a plain one, so it becomes a plain string and shrinks as one; then shorter,
    then character by character, each to the simplest character of its category, then
    towards ``'0'``.

    >>> RandomText(5, categories=["Lu"], seed=2).pick()
    'ŞPǓÖƵ'
    >>> RandomText(3, categories=["Xx"])
    Traceback (most recent call last):
    ...
    ValueError: categories must be Unicode general categories such as 'Lu' or 'L', got 'Xx'
    """

    atomic = True  # one string / one float: one choice in the shrinker's order

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
        self._nasty_lengths = {len(s) for s in self._nasty}
        self._longest = max(self._nasty_lengths, default=0)
        self._narrow = min(256, len(self.chars))
        # What the recorded draws' samples share (see _recorded).
        self._size, self._forced, self._rank = self._narrow, "", 0
        self._char: str | None = None
        self._init_stream(seed)

    def _pick(self) -> str:
        stream = self._stream
        if type(stream) is not Stream:
            return self._recorded(stream)
        # Plain generation: the draws below, without naming each character's class and rank.
        if self._nasty and self.nasty and stream.boolean(self.nasty):
            return self._nasty[stream.below(len(self._nasty))]
        n = check_count_pick(self.length.pick(), "length", self.length)
        # One draw per character (so the shrinker deletes characters one draw at a time);
        # whether they come from the whole set is decided once for the string.
        size = len(self.chars) if stream.boolean(WIDE) else self._narrow
        chars: Any = self.chars.head if size <= len(self.chars.head) else self.chars  # the same characters
        if size & (size - 1) == 0:  # a power of two (the first 256): below(size) is getrandbits, never redrawn
            bits, getrandbits = size.bit_length() - 1, stream.getrandbits
            return "".join([chars[getrandbits(bits)] for _ in range(n)])
        below = stream.below
        return "".join([chars[below(size)] for _ in range(n)])

    def _recorded(self, stream: Any) -> str:
        """:meth:`pick` with its draws recorded, replayed or guided. The stream gives the
        values of plain generation (the same draws in the same order), but each character is
        recorded as two draws in a span of its own -- its class (its general category) and its
        rank in the class -- and a nasty string as the characters that spell it:

        * plain: ``False``, the length's draws, ``wide?``, then per character ``class, rank``;
        * nasty: ``True``, the number of characters, ``0`` (where ``wide?`` stands), then the
          characters of the nasty string, ``class, rank`` each.

        Replayed, ``wide?`` is read and ignored (a rank counts in the whole set), and so is the
        nasty flag once the number of characters is read: so lowering the flag to ``False``
        keeps the string (the length's draw reads the number of characters), which shrinks
        on as any other (``'𝕳𝖊𝖑𝖑𝖔'`` to ``'A'`` for ``any(c.isupper() for c in s)``); and
        lowering a character's rank gives the simplest character of its category (``'À'``
        to ``'A'``, where halving a shrink-order index between ``'0'`` and ``'À'`` stops at
        ``'À'``).
        """
        if self._nasty and self.nasty and stream.boolean(self.nasty):
            n = stream.integer_by(0, self._longest + 1, self._choose_nasty)
            stream.integer_by(0, 1, _nothing)
            return self._spell(stream, n, self._forced)
        n = check_count_pick(self.length.pick(), "length", self.length)
        self._size = len(self.chars) if stream.boolean(WIDE) else self._narrow
        return self._spell(stream, n, "")

    def parse_draws(self, value: Any, parse: Parse) -> list[Any] | None:
        """The draws of a plain string (as :meth:`_recorded` reads them): not nasty, the
        length's draws, ``wide?`` false, then each character's class and rank."""
        if type(value) is not str or not all(c in self.chars for c in value):
            return None
        nasty = bool(self._nasty and self.nasty)
        draws = [Draw(BOOLEAN, False, (self.nasty,))] if nasty else []
        length = parse(self.length, len(value))
        if length is not None:
            draws += length + [Draw(BOOLEAN, False, (WIDE,))]
        elif nasty and value in self._nasty:  # a nasty string of a length the length cannot make
            draws = [Draw(BOOLEAN, True, (self.nasty,)), Draw(INTEGER, len(value), (0, self._longest + 1)), Draw(INTEGER, 0, (0, 1))]
        else:
            return None
        classes = self.chars.classes
        for char in value:
            c, rank = self.chars.locate(char)
            draws += [Draw(INTEGER, c, (0, len(classes))), Draw(INTEGER, rank, (0, len(classes[c])))]
        return draws

    def _choose_nasty(self, stream: Any) -> int:
        self._forced = self._nasty[stream.below(len(self._nasty))]
        return len(self._forced)

    def _spell(self, stream: Any, n: int, forced: str) -> str:
        def before(j: int) -> None:
            self._char = forced[j] if j < len(forced) else None

        return spell(stream, self.chars.classes, n, self._sample_class, self._sample_rank, before)

    def _sample_class(self, stream: Any) -> int:
        char = self._char
        if char is None:
            char = self.chars[stream.below(self._size)]
        c, self._rank = self.chars.locate(char)
        return c

    def _sample_rank(self, stream: Any) -> int:
        return self._rank

    def arguments(self) -> tuple[list[Any], dict[str, Any]]:
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

    atomic = True  # one string / one float: one choice in the shrinker's order

    inputs_fields = ("length",)

    def __init__(self, length: Any = 8, *, seed: int | None = None) -> None:
        self.length = count_input(length, "length")
        self._init_stream(seed)

    def _pick(self) -> bytes:
        n = check_count_pick(self.length.pick(), "length", self.length)
        below = self._stream.below
        return bytes([below(256) for _ in range(n)])

    def parse_draws(self, value: Any, parse: Parse) -> list[Any] | None:
        """The length's draws, then one integer draw of ``[0, 256)`` per byte."""
        if type(value) is not bytes:
            return None
        length = parse(self.length, len(value))
        return None if length is None else length + [Draw(INTEGER, b, (0, 256)) for b in value]

    def arguments(self) -> tuple[list[Any], dict[str, Any]]:
        return [self.length], {}
