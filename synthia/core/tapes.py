"""Draws and tapes: the typed draws of a wiring, each kind's order and simplest value, and
the :class:`Tape` a recorder or replayer logs (draws with their spans). See
:mod:`synthia.core.draws` for the whole draw machinery.

>>> Tape([Draw(INTEGER, 3, (0, 10))]).values(), simplest(INTEGER, (-5, 5))
([3], 0)
"""
from __future__ import annotations

import math
from typing import Any, Hashable, Iterable, NamedTuple, Sequence

from .exceptions import GiveUp

__all__ = ["INTEGER", "FLOAT", "BOOLEAN", "WEIGHTED", "KINDS", "Draw", "Flex", "Span", "Tape", "Overrun", "MAX_EMPTY_PICKS", "simplest", "clamp", "sort_key", "draw_key"]

INTEGER = "integer"
FLOAT = "float"
BOOLEAN = "boolean"
WEIGHTED = "weighted"
#: The kinds of draws, in the order the JSON format documents them.
KINDS = (INTEGER, FLOAT, BOOLEAN, WEIGHTED)


class Draw(NamedTuple):
    """One typed draw: its ``kind``, its ``value`` and the ``args`` that bound it.

    ``args`` is ``(low, high)`` for ``"integer"`` and ``"float"`` (half-open), ``(p,)``
    for ``"boolean"`` and ``(cumulative,)`` (the running sums of the weights, a tuple)
    for ``"weighted"``. In a sequence given to :class:`Replayer`, ``kind`` may be
    ``None``: the value is then taken for whatever draw comes, clamped.

    >>> Draw(INTEGER, 3, (0, 10)).key
    (0, 5)
    """

    kind: str | None
    value: Any
    args: tuple[Any, ...] = ()

    @property
    def key(self) -> tuple[Any, ...]:
        """The draw's place in its kind's order (see :func:`sort_key`)."""
        return sort_key(self.kind, self.value)

    @property
    def simplest(self) -> Any:
        """The simplest value a draw of this kind and these arguments can take."""
        return simplest(self.kind, self.args)


class Flex(NamedTuple):
    """In a sequence given to :class:`Replayer`: the draws of the next span of picker ``label``.

    When the replay opens a span of that picker at this point, its draws come from
    ``draws`` (the simplest ones once they run out) and any left over when the span
    closes are dropped, so that what follows stays aligned. ``draws`` may hold ``Flex``
    blocks too, one per sub-span: each sub-span then takes exactly its own draws, so a
    span moved to a place where its parts draw more or less (a sub-tree moved up, above a
    depth limit's fallback) keeps its parts aligned. The shrinker uses it to replace a span
    by a simpler one (the simplest, a descendant, a sibling).
    """

    label: Hashable
    draws: tuple[Any, ...]


class Overrun(GiveUp):
    """A replay made more draws than its budget allows (it cannot be smaller than the input)."""


# -- the order of each kind --------------------------------------------------------------
def _integer_rank(value: int) -> int:
    return 2 * value - 1 if value > 0 else -2 * value


def sort_key(kind: str | None, value: Any) -> tuple[Any, ...]:
    """The key of ``value`` in the order of draws of ``kind`` (smaller: simpler).

    >>> [sort_key(INTEGER, v)[1] for v in (0, 1, -1, 2)]
    [0, 1, 2, 3]
    >>> sort_key(FLOAT, 3.0) < sort_key(FLOAT, 0.5) < sort_key(FLOAT, -0.5)
    True

    Floats: integers first (in the order of ints); then finite fractions: those in
    ``(-1, 1)`` by magnitude (a decision in ``[0, 1)`` picks an alternative by it), the others
    by their integer part's magnitude, then the length of their binary fraction
    (:func:`fraction_bits`), then magnitude; the positive first; then infinities; NaN last.

    >>> sort_key(FLOAT, 0.1) < sort_key(FLOAT, 0.5) < sort_key(FLOAT, 1.5) < sort_key(FLOAT, 1.25) < sort_key(FLOAT, 2.5)
    True
    """
    if kind == FLOAT:
        if value != value:  # NaN: last
            return (2,)
        if math.isinf(value):
            return (1, math.inf, value < 0)
        if float(value).is_integer():
            return (0, _integer_rank(int(value)))
        whole = math.floor(abs(value))
        if whole == 0:  # in (-1, 1): by magnitude (a Choice's decision in [0, 1) picks by it)
            return (1, 0, 0, abs(value), value < 0)
        return (1, whole, fraction_bits(value), abs(value), value < 0)
    if kind == INTEGER:
        return (0, _integer_rank(value))
    return (0, int(value))


#: The first item of an atomic span's key (:meth:`Tape.key`): after every draw's (0 to 2).
ATOM = 3


def atom_key(draws: Sequence[Draw]) -> tuple[Any, ...]:
    """The key of the draws of one atomic pick, one choice in :meth:`Tape.key`: after every
    single draw's, then by their number, then draw by draw."""
    return (ATOM, len(draws), tuple([sort_key(d.kind, d.value) for d in draws]))


def fraction_bits(value: float) -> int:
    """How many binary digits the fraction of a finite float takes (0 for an integer): of two
    fractions with one integer part, the shorter is simpler (1.5, then 1.25, then
    1.2000000000000002), as Hypothesis puts short fractions first.

    >>> [fraction_bits(v) for v in (2.0, 1.5, -0.75, 0.1)]
    [0, 1, 2, 55]
    """
    return abs(value).as_integer_ratio()[1].bit_length() - 1


def draw_key(draw: Draw) -> tuple[Any, ...]:
    """``sort_key(draw.kind, draw.value)``."""
    return sort_key(draw.kind, draw.value)


def _simplest_float(low: float, high: float) -> float:
    """The simplest float of ``[low, high)`` in :func:`sort_key`'s order: zero, else the
    integer nearest zero, else the value nearest zero within ``(-1, 1)``, else the shortest
    binary fraction of the range."""
    if low <= 0.0 < high:
        return 0.0
    if low > 0.0:
        above = math.ceil(low)
        if above < high:
            return float(above)
        if low < 1.0:
            return low
        for k in range(1, 1075):
            c = math.ldexp(math.ceil(math.ldexp(low, k)), -k)
            if c < high:
                return c
        return low
    under = math.ceil(high) - 1  # the largest integer below high
    if under >= low:
        return float(under)
    if high > -1.0:
        return math.nextafter(high, -math.inf)
    for k in range(1, 1075):
        c = math.ldexp(math.floor(math.ldexp(high, k)), -k)
        if c == high:
            c = math.ldexp(math.floor(math.ldexp(high, k)) - 1, -k)
        if c >= low:
            return c
    return math.nextafter(high, -math.inf)


def _simplest_index(cumulative: Sequence[float]) -> int:
    for i, c in enumerate(cumulative):
        if c > 0:
            return i
    return 0


def simplest(kind: str | None, args: tuple[Any, ...]) -> Any:
    """The simplest value of a draw of ``kind`` bound by ``args`` (its order's minimum).

    >>> simplest(INTEGER, (5, 10)), simplest(INTEGER, (-10, -3)), simplest(INTEGER, (-5, 5))
    (5, -4, 0)
    >>> simplest(FLOAT, (0.5, 10.0)), simplest(FLOAT, (0.25, 0.75)), simplest(BOOLEAN, (0.5,))
    (1.0, 0.25, False)
    """
    if kind == INTEGER:
        low, high = args
        return 0 if low <= 0 < high else (low if low > 0 else high - 1)
    if kind == FLOAT:
        return _simplest_float(*args)
    if kind == BOOLEAN:
        return args[0] >= 1.0
    if kind == WEIGHTED:
        return _simplest_index(args[0])
    raise ValueError(f"kind must be one of {KINDS}, got {kind!r}")


def _weight(cumulative: Sequence[float], i: int) -> float:
    return cumulative[i] - (cumulative[i - 1] if i else 0.0)


def clamp(kind: str, args: tuple[Any, ...], value: Any) -> tuple[Any, bool]:
    """``(v, changed)``: ``value`` brought into the domain of a ``kind`` draw bound by ``args``.

    A value of the wrong type becomes the simplest value; ``changed`` says whether the
    value had to move.

    >>> clamp(INTEGER, (0, 10), 12), clamp(INTEGER, (0, 10), 3), clamp(BOOLEAN, (0.0,), True)
    ((9, True), (3, False), (False, True))
    """
    if kind == INTEGER:
        low, high = args
        if isinstance(value, bool) or not isinstance(value, int):
            if isinstance(value, float) and value.is_integer():
                value = int(value)
            else:
                return simplest(kind, args), True
        if value < low:
            return low, True
        if value >= high:
            return high - 1, True
        return value, False
    if kind == FLOAT:
        low, high = args
        if isinstance(value, bool) or not isinstance(value, (int, float)) or value != value:
            return simplest(kind, args), True
        value = float(value)
        if value < low:
            return low, True
        if value >= high:
            return max(low, math.nextafter(high, -math.inf)), True
        return value, False
    if kind == BOOLEAN:
        p = args[0]
        forced = False if p <= 0.0 else (True if p >= 1.0 else None)
        if not isinstance(value, bool):
            return (simplest(kind, args) if forced is None else forced), True
        if forced is not None:
            return forced, value is not forced
        return value, False
    if kind == WEIGHTED:
        cumulative = args[0]
        n = len(cumulative)
        if isinstance(value, bool) or not isinstance(value, int):
            return _simplest_index(cumulative), True
        i = min(max(value, 0), n - 1)
        if _weight(cumulative, i) > 0:
            return i, i != value
        for j in list(range(i - 1, -1, -1)) + list(range(i + 1, n)):
            if _weight(cumulative, j) > 0:
                return j, True
        return _simplest_index(cumulative), True
    raise ValueError(f"kind must be one of {KINDS}, got {kind!r}")


# -- tapes ------------------------------------------------------------------------------
class Span:
    """The draws made inside one ``pick()`` of one picker: ``draws[start:end]`` of a tape.

    ``label`` names the picker (its position in the upstream walk of the routed wiring,
    the same in every process); ``index`` is that picker's output number (outputs are
    numbered in completion order, as provenance numbers them); ``parent`` is the position
    of the enclosing span in :attr:`Tape.spans` (``-1`` for a top-level one).
    """

    __slots__ = ("label", "start", "end", "parent", "depth", "index")

    def __init__(self, label: Hashable, start: int, parent: int, depth: int) -> None:
        self.label = label
        self.start = start
        self.end = start
        self.parent = parent
        self.depth = depth
        self.index = -1

    def __len__(self) -> int:
        return self.end - self.start

    def __repr__(self) -> str:
        return f"Span(label={self.label}, draws=[{self.start}:{self.end}], depth={self.depth}, index={self.index})"


class Tape:
    """The draws of one input, with their spans: what a recorder or a replayer logged.

    ``picks`` is the number of top-level picks the input took (a harness tests the last
    one; the earlier ones set the wiring's state, for stateful pickers such as ``Tick``);
    ``pick_starts[i]`` is the position of the first draw of pick ``i``.
    """

    __slots__ = ("draws", "spans", "picks", "pick_starts", "atoms", "_atom_keys", "_key", "_children")

    def __init__(
        self,
        draws: Iterable[Draw] = (),
        spans: Iterable[Span] = (),
        picks: int = 1,
        pick_starts: Iterable[int] | None = None,
        atoms: Iterable[tuple[int, int]] = (),
        atom_keys: dict[int, tuple[Any, ...]] | None = None,
    ) -> None:
        self.draws: list[Draw] = list(draws)
        self.spans: list[Span] = list(spans)
        self.picks = picks
        self.pick_starts: list[int] = list(pick_starts) if pick_starts is not None else [0] * (1 if picks else 0)
        #: The draw ranges ``(start, end)`` of the outermost spans of atomic pickers, in order:
        #: each counts as one choice in :meth:`key`.
        self.atoms: list[tuple[int, int]] = list(atoms)
        #: The keys of some atoms, known already (a replay's recalled atoms), by first draw.
        self._atom_keys = atom_keys or {}
        self._key: tuple[Any, ...] | None = None
        self._children: dict[int, list[int]] | None = None

    def values(self) -> list[Any]:
        """The values of the draws, in order."""
        return [d.value for d in self.draws]

    def key(self) -> tuple[Any, ...]:
        """The shortlex key over choices: ``(picks, number of choices, each choice's key in
        order)``. A choice is a draw, or all the draws of one pick of an atomic picker (a
        string, bytes, a float: :attr:`~synthia.core.picker.Picker.atomic`), keyed by their
        number and their keys in order, after every single draw's key; a constant alternative
        of a ``Choice`` after its first, chosen, is an atom without draws: one choice. So fewer choices are
        simpler, then the earlier alternative of a ``Choice``, however many draws spell the
        value it makes (Hypothesis orders its choices so, a string being one).

        >>> a = Tape([Draw(INTEGER, 0, (0, 2))] + [Draw(INTEGER, 5, (0, 9))] * 3, atoms=[(1, 4)])
        >>> b = Tape([Draw(INTEGER, 1, (0, 2)), Draw(INTEGER, 0, (0, 9))])
        >>> a.key() < b.key(), a.choices, b.choices
        (True, 2, 2)
        """
        if self._key is None:
            draws = self.draws
            if not self.atoms:
                self._key = (self.picks, len(draws), tuple([sort_key(d.kind, d.value) for d in draws]))
            else:
                keys: list[Any] = []
                at = 0
                known = self._atom_keys
                for start, end in self.atoms:
                    keys += [sort_key(d.kind, d.value) for d in draws[at:start]]
                    key = known.get(start)
                    keys.append(key if key is not None and key[1] == end - start else atom_key(draws[start:end]))
                    at = end
                keys += [sort_key(d.kind, d.value) for d in draws[at:]]
                self._key = (self.picks, len(keys), tuple(keys))
        return self._key

    @property
    def choices(self) -> int:
        """The number of choices: draws, those of an atomic span counting as one."""
        return len(self.draws) - sum(end - start - 1 for start, end in self.atoms)

    def __len__(self) -> int:
        return len(self.draws)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Tape) and self.picks == other.picks and [(d.kind, d.value) for d in self.draws] == [
            (d.kind, d.value) for d in other.draws
        ]

    def __hash__(self) -> int:
        return hash((self.picks, tuple((d.kind, d.value) for d in self.draws)))

    def __repr__(self) -> str:
        shown = ", ".join(f"{d.kind}:{d.value!r}" for d in self.draws[:12])
        more = f", ... {len(self.draws) - 12} more" if len(self.draws) > 12 else ""
        return f"Tape(picks={self.picks}, draws=[{shown}{more}])"

    def direct_draws(self, span_position: int) -> list[int]:
        """Positions of the draws made by span ``span_position`` itself, not by its children."""
        span = self.spans[span_position]
        inside = set(range(span.start, span.end))
        for child in self.children(span_position):
            inside.difference_update(range(self.spans[child].start, self.spans[child].end))
        return sorted(inside)

    def children(self, span_position: int) -> list[int]:
        """Positions (in :attr:`spans`) of the spans directly inside span ``span_position``
        (``-1``: the top-level spans), in order."""
        if self._children is None:
            children: dict[int, list[int]] = {}
            for i, span in enumerate(self.spans):
                children.setdefault(span.parent, []).append(i)
            self._children = children
        return self._children.get(span_position, [])

    # -- JSON ------------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict: ``{"picks": n, "draws": [[kind, value, *args], ...]}``, with
        ``"atoms": [[start, end], ...]`` when the tape has atomic spans (:meth:`key`).

        Weighted draws store their running sums as a list. Spans are not stored: a
        replay through the wiring rebuilds them.
        """
        out = []
        for d in self.draws:
            if d.kind == WEIGHTED:
                out.append([d.kind, d.value, list(d.args[0])])
            else:
                out.append([d.kind, d.value, *d.args])
        data: dict[str, Any] = {"picks": self.picks, "pick_starts": list(self.pick_starts), "draws": out}
        if self.atoms:
            data["atoms"] = [list(atom) for atom in self.atoms]
        return data

    @classmethod
    def from_json(cls, data: Any) -> "Tape":
        """The tape that :meth:`to_json` wrote; ``ValueError`` for anything malformed."""
        if not isinstance(data, dict) or not isinstance(data.get("draws"), list):
            raise ValueError(f"a tape must be a dict with a list of draws, got {data!r:.80}")
        picks = data.get("picks", 1)
        if isinstance(picks, bool) or not isinstance(picks, int) or picks < 1:
            raise ValueError(f"picks must be a positive int, got {picks!r}")
        if picks > len(data["draws"]) + MAX_EMPTY_PICKS:  # a tape no run could have written
            raise ValueError(f"{picks} picks for {len(data['draws'])} draws is more than a tape holds")
        draws = []
        for item in data["draws"]:
            if not isinstance(item, list) or len(item) < 3 or item[0] not in KINDS:
                raise ValueError(f"a draw must be [kind, value, *args] with kind in {KINDS}, got {item!r:.80}")
            kind, value, *args = item
            if kind == WEIGHTED:
                if len(args) != 1 or not isinstance(args[0], list) or not args[0]:
                    raise ValueError(f"a weighted draw needs its running sums, got {item!r:.80}")
                draws.append(Draw(kind, value, (tuple(float(c) for c in args[0]),)))
                continue
            expected = 1 if kind == BOOLEAN else 2
            if len(args) != expected or not all(isinstance(a, (int, float)) and not isinstance(a, bool) for a in args):
                raise ValueError(f"a {kind} draw needs {expected} numeric arguments, got {item!r:.80}")
            draws.append(Draw(kind, value, tuple(args)))
        starts = data.get("pick_starts")
        if not (isinstance(starts, list) and len(starts) == picks and all(isinstance(s, int) for s in starts)):
            starts = [0] * picks
        return cls(draws, (), picks, starts, _atoms(data.get("atoms", []), len(draws)))


def _atoms(atoms: Any, draws: int) -> list[tuple[int, int]]:
    """The atomic spans of a tape read from JSON: ``[start, end]`` pairs, in order, apart."""
    out: list[tuple[int, int]] = []
    if not isinstance(atoms, list):
        raise ValueError(f"atoms must be a list of [start, end] pairs, got {atoms!r:.80}")
    for atom in atoms:
        at = out[-1][1] if out else 0
        if not (
            isinstance(atom, list) and len(atom) == 2 and all(type(i) is int for i in atom) and at <= atom[0] <= atom[1] <= draws
        ):
            raise ValueError(f"an atom must be [start, end], in order, within the {draws} draws, got {atom!r:.80}")
        out.append((atom[0], atom[1]))
    return out


#: Picks without draws a tape read from JSON may have (pickers that draw nothing); beyond
#: this, a tape is not one a run wrote, and replaying it would not end in reasonable time.
MAX_EMPTY_PICKS = 10_000
