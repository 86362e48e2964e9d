"""Recursive wirings: :class:`Deferred`, a picker built on first use, so that a wiring can
refer to itself (moved out of :mod:`synthia.pickers.basic`, which keeps ``Choice`` and ``Apply``)."""
from __future__ import annotations

import functools
import sys

from typing import Any, Callable, TypeVar

from ..core.checks import check_callable, check_int
from ..core.constant import Constant
from ..core.budget import MAKING_INPUTS
from ..core.exceptions import InputTooLarge
from ..core.inputs import value_input
from ..core.instrument import WATCHED
from ..core.emitter import Emitter, return_value
from ..core.picker import UNSET, Picker
from ..core.parsing import Parse
from .basic import Apply

__all__ = ["Deferred"]

T = TypeVar("T")


#: Nested picks one value of a ``Deferred`` without ``max_depth`` may make (all of its
#: recursion, at every depth), and how deep they may nest: past either, the value is
#: :class:`UnboundedRecursion`, raised before the pick starts (a ``RecursionError`` may
#: strike in the middle of any picker's bookkeeping, at a depth that differs between a
#: watched pick and a plain one).
MAX_RECURSIVE_PICKS = 10_000
MAX_RECURSIVE_DEPTH = 200
#: Frames the outermost pick of such a value adds to Python's recursion limit while it lasts
#: (some 15 frames a nested pick, watched: more than a value that recursed past Python's
#: default limit before ever used).
STACK_ROOM = 3_000


class RecursionTooDeep(ValueError):
    """A ``Deferred`` wiring recursed deeper than the interpreter allows: a clear error in
    place of a bare ``RecursionError`` (give ``max_depth`` and a ``fallback``)."""

    def __init__(self, deferred: "Deferred[Any]", message: str | None = None) -> None:
        limit = sys.getrecursionlimit()
        if deferred.max_depth is None:
            advice = "give it max_depth=... and a fallback"
        else:
            advice = f"its max_depth={deferred.max_depth} is beyond what Python allows: give a smaller one"
        super().__init__(
            message or f"a Deferred wiring recursed deeper than Python allows (sys.getrecursionlimit() is {limit}): {advice}"
        )


class UnboundedRecursion(RecursionTooDeep, InputTooLarge):
    """A value of a ``Deferred`` without ``max_depth`` nested more than
    :data:`MAX_RECURSIVE_DEPTH` picks of itself or made more than
    :data:`MAX_RECURSIVE_PICKS` nested picks: a harness discards that input and
    goes on (a recursion that branches more than it ends, Hypothesis's ``st.deferred`` of
    lists, still gives its smaller values); a plain ``pick()`` raises it."""

    @classmethod
    def past_budget(cls, deferred: "Deferred[Any]", picks: int) -> "UnboundedRecursion":
        return cls.too_large(deferred) if picks > MAX_RECURSIVE_PICKS else cls.too_deep(deferred)

    @classmethod
    def too_large(cls, deferred: "Deferred[Any]") -> "UnboundedRecursion":
        return cls(deferred, f"a Deferred wiring made more than {MAX_RECURSIVE_PICKS:,} nested picks for one value "
                             f"(it branches more than it ends): give it max_depth=... and a fallback")

    @classmethod
    def too_deep(cls, deferred: "Deferred[Any]") -> "UnboundedRecursion":
        return cls(deferred, f"a Deferred wiring nested more than {MAX_RECURSIVE_DEPTH} picks of itself for one value: "
                             f"give it max_depth=... and a fallback")


class Deferred(Picker[T]):
    """A picker built on first use by ``build()``, so a wiring can refer to itself.

    ``max_depth`` bounds recursion: when ``max_depth`` picks of this same picker are
    already under way (nested inside each other), the next value comes from ``fallback``
    instead (a picker or a plain value, ``None`` included; ``max_depth=0``: always the
    fallback), so a recursive wiring always terminates. Without ``max_depth``, while a run
    makes inputs (:mod:`synthia.core.budget`) one value may nest :data:`MAX_RECURSIVE_DEPTH`
    picks of itself and make :data:`MAX_RECURSIVE_PICKS` in all; past them the pick raises
    :class:`UnboundedRecursion`, which the harness counts as a discarded input (a recursion
    that branches more than it ends still gives its smaller values, as Hypothesis's
    ``st.deferred`` does). Outside a run a pick recurses as deep as Python allows.

    >>> from synthia import Choice, RandomInteger
    >>> tree = Deferred(lambda: Choice(Constant("leaf"), Apply(lambda l, r: [l, r], tree, tree)),
    ...                 max_depth=3, fallback="leaf")
    >>> tree.set_seed(14).pick()
    [[['leaf', 'leaf'], ['leaf', 'leaf']], [['leaf', 'leaf'], 'leaf']]
    """

    inputs_fields = ("target", "fallback")

    def __init__(self, build: Callable[[], Picker[T]], *, max_depth: int | None = None, fallback: Any = UNSET) -> None:
        self.build = check_callable(build, "build", arguments=0)
        self.max_depth = None if max_depth is None else check_int(max_depth, "max_depth", minimum=0)
        if max_depth is not None and fallback is UNSET:
            raise ValueError(f"fallback is required when max_depth is given (max_depth={max_depth!r}): the value used past that depth")
        self.fallback = None if fallback is UNSET else value_input(fallback, "fallback")
        self._target: Picker[T] | None = None
        self._depth = 0
        self._picks = 0  # nested picks of the value under way (without max_depth)

    @property
    def target(self) -> Picker[T]:
        """The wiring ``build()`` returns (built on first access)."""
        if self._target is None:
            self._target = value_input(self.build(), "build()")
        return self._target

    def _pick(self) -> T:
        try:
            target = self._target or self.target
            # While nothing is watched, target.pick is target._fast: read it without the property.
            pick = target.pick if WATCHED else target._fast
            if self.max_depth is None:
                if not MAKING_INPUTS:
                    return pick()  # type: ignore[no-any-return]
                # A run makes inputs: a budget of nested picks for one value.
                depth = self._depth
                if depth == 0:
                    return self._outermost(pick)
                picks = self._picks = self._picks + 1
                if picks > MAX_RECURSIVE_PICKS or depth >= MAX_RECURSIVE_DEPTH:
                    raise UnboundedRecursion.past_budget(self, picks)
                # No try/finally: an exception ends the value, and the outermost pick resets.
                self._depth = depth + 1
                value = pick()
                self._depth = depth
                return value  # type: ignore[no-any-return]
            if self._depth >= self.max_depth:
                return self.fallback.pick()  # type: ignore[union-attr]
            self._depth += 1
            try:
                return pick()  # type: ignore[no-any-return]
            finally:
                self._depth -= 1
        except RecursionError as error:
            # Raised at the deepest level, passed up as it is by the levels above.
            raise RecursionTooDeep(self) from error

    def _outermost(self, pick: Callable[[], T]) -> T:
        """The outermost pick of a value without ``max_depth``: its count of nested picks
        begins, and Python's recursion limit is raised for as long as it lasts, so that the
        budget of :data:`MAX_RECURSIVE_DEPTH` nested picks -- the same whether the pick is
        watched (recorded, replayed) or not, so a value is made the same way in both -- is
        reached before Python's limit (as Hypothesis makes room for its own draws)."""
        self._picks, self._depth = 1, 1
        limit = sys.getrecursionlimit()
        sys.setrecursionlimit(limit + STACK_ROOM)
        try:
            return pick()
        finally:
            self._depth = 0
            sys.setrecursionlimit(limit)

    def _reset_self(self) -> None:
        self._depth = self._picks = 0

    def parse_draws(self, value: Any, parse: Parse) -> list[Any] | None:
        """The target's draws for ``value`` (the fallback's past ``max_depth``), counting the
        depth as a pick does."""
        if self.max_depth is not None and self._depth >= self.max_depth:
            return parse(self.fallback, value)  # type: ignore[arg-type]
        self._depth += 1
        try:
            return parse(self.target, value)
        finally:
            self._depth -= 1

    def stage(self, e: Emitter, out: list[str], ind: str) -> str:
        """The stager's code of a pick: a call of one local recursive function for this picker
        (written once per walk). Past ``max_depth`` it gives the fallback; the depth is an
        argument (``deferred0(depth0 + 1)`` in its own body) when only its own body and
        ``pick`` call it, else a counter of ``make`` (``nonlocal``) that every caller shares
        (another recursive function calls it, or it is the lean pick of this one picker,
        re-entered through its inputs)."""
        name = e.memo.get(("deferred", id(self)))
        if name is None:
            e.staged += 1
            name = e.memo[("deferred", id(self))] = e.var("deferred")
            body = [f"    def {name}():  # Deferred"]
            target = self.target
            if self.max_depth is not None:
                depth = name.replace("deferred", "depth")
                body.append(f"        if {depth} >= {self.max_depth}:")
                fallback = e.pick(self.fallback, body, " " * 12)  # type: ignore[arg-type]
                return_value(body, fallback, " " * 12)
                body.append("")  # where the target's code opens: else (depth an argument) or try (a counter)
                opening = len(body) - 1
                return_value(body, e.pick(target, body, " " * 12), " " * 12)
                e.finishers.append(functools.partial(_count_depth, e, name, depth, body, opening))
            else:
                return_value(body, e.pick(target, body, " " * 8), " " * 8)
            e.functions.append(body)
        v = e.var("d")
        out.append(f"{ind}{v} = {name}({_depth_site(name) if self.max_depth is not None else ''})")
        return v

    def __deepcopy__(self, memo: dict[int, Any]) -> "Deferred[T]":
        # Build before copying: an unbuilt copy would call build(), whose closure
        # refers to the original wiring, and so share it.
        self.target
        twin: Deferred[T] = super().__deepcopy__(memo)  # type: ignore[assignment]
        return twin

    def arguments(self) -> tuple[list[Any], dict[str, Any]]:
        kwargs: dict[str, Any] = {}
        if self.max_depth is not None:
            kwargs = {"max_depth": self.max_depth, "fallback": self.fallback}
        return [self.build], kwargs


def _depth_site(name: str) -> str:
    """A mark in a call of a ``Deferred``'s function, written by its finisher: the depth it
    is called at (``depth0 + 1`` in its own body), or nothing (the shared counter)."""
    return f"\x00{name}\x00"


def _count_depth(e: Emitter, name: str, depth: str, body: list[str], opening: int, pick_lines: list[str]) -> None:
    """Finish the function ``name`` of a ``Deferred`` once the whole walk is written: its
    depth an argument if nothing but its own body and ``pick`` calls it, else a counter."""
    site = _depth_site(name)
    argument = e.one is None and not any(site in line for lines in e.lines_outside(pick_lines, body) for line in lines)
    if argument:
        body[0] = f"    def {name}({depth}=0):  # Deferred"
        body[opening] = "        else:"
        body[:] = [line.replace(site, f"{depth} + 1") for line in body]
    else:
        e.prelude.append(f"    {depth} = 0")
        body[opening : opening + 1] = [f"        {depth} += 1", "        try:"]
        body.append("        finally:")
        body.append(f"            {depth} -= 1")
        body.insert(1, f"        nonlocal {depth}")
        for lines in (pick_lines, *e.lines_outside(pick_lines, body)):
            lines[:] = [line.replace(site, "") for line in lines]
        body[:] = [line.replace(site, "") for line in body]
    pick_lines[:] = [line.replace(site, "") for line in pick_lines]
