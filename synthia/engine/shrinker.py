"""The generic shrinker: a failing input made as small as possible by editing its draws.

It knows nothing of picker classes. It holds the :class:`~synthia.core.draws.Tape` of the
smallest failure found so far and proposes edited draw sequences to an ``attempt``
function (the harness), which replays each one through the wiring and runs the test.
A proposal is accepted only when the replay fails **the same way** (same exception type
raised at the same place, or ``False`` returned) and its real tape -- what the replay
actually drew, after clamping -- is smaller in the shortlex order
(:meth:`~synthia.core.draws.Tape.key`). So every accepted input is strictly smaller and a
real output of the wiring, and shrinking always ends.

The passes, run in rounds until a round finds nothing smaller:

* **history**: drop the picks before the tested one (they only set the state of stateful
  pickers), all at once, then the longest prefix, then one at a time;
* **delete**: remove runs of sibling spans of the same picker (list elements, sub-trees,
  actions) or runs of a picker's own draws of one shape (the characters of a string, the
  booleans of a list whose size a ``Bind`` drew; units of a few draws where a length counts
  the run so: the pairs of nodes a ``Bind``'s value bounds), each alone and with a preceding integer
  draw -- the length that controls the repetition, also one drawn inside an enclosing span
  of the same picker (a recursion's outer list) -- lowered by the number of units removed;
  a unit may be a few sibling spans of different pickers that repeat in turn (a dict's
  entry: its key span and its value span, deleted as one); where the first unit cannot go
  alone, the first two go together (a length that must stay odd) (a long run whose first, middle and last units cannot go is
  not tried unit by unit: the failure needs its length);
* **simplify spans**: replace a span by the simplest draws of its picker, by a descendant
  span of the same picker (a sub-tree by one of its own sub-trees: the smallest few, then
  the largest few, which hold most of the failure -- ``0+((((0*0))))`` becomes
  ``((((0*0))))``) or by a simpler sibling;
* **lower**: many draws of one shape to their simplest value together, then each draw
  towards its simplest value -- the simplest at once, then a binary search, integral values
  first for floats (over the float's bit pattern when it fails arbitrarily close to zero or
  the bisection ends at a threshold);
* **redecide**: a decision (a ``Choice``'s, a ``Bind``'s value) lowered with the part it
  decides made afresh from the simplest draws; failing that, the part's value **parsed
  again** by the picker that made it (:class:`~synthia.core.parsing.Reparser`): by an earlier
  alternative that can make it (4991 made by ``Choice(4991, 5009)`` is made by an earlier
  ``AnyInteger()``, which then goes to 4990, a ``RandomBoolean()`` before it skipped as it
  cannot), its children in a list (``{'': [5]}`` as ``[[5]]``) or a child in its place;
  an integer heading a span that goes on with draws of its own (a ``Bind``'s value and the
  draws of the wiring made from it) lowered with one of the next draws changed or a run of them gone (the pairs
  of 12 nodes read as those of 2, one of them flipped so the graph stays acyclic), or with the
  draws after it dealt again by kind, skipping those of another kind than the wiring asks for
  (a red-black tree of height 2 read as one of height 1 keeps its red nodes);
* **pairs**: two numeric draws (integers, floats, weighted indices) moved together -- both
  lowered by the same amount first (``0 < b - a <= 30`` reaches ``(0, 1)``), then one lowered
  while the other rises by the same amount (``a + b > 1000`` reaches ``(1, 1000)``), or a
  partner moved the same way as the draw, by as much -- its nearest, or one drawn alike with
  other draws between them (``(-1, 0)`` to ``(0, 1)``, ``(-3, 1)`` to ``(0, 4)``) -- and
  equal draws lowered as one (two sizes lowered together that leave draws unread are tried
  with as many draws deleted right after them: a square matrix keeps its last, failing,
  entries); a True boolean moved to the nearest later False;
* **transfer**: the last units of a counted run (a string's characters, a list's elements,
  counted by a length before them) moved to the end of a later run of the same units, the
  lengths lowered and raised by as many (:mod:`~synthia.engine.transfer`): a dict of strings
  whose values must total 61 characters ends with the fewest entries;
* **sort**: sibling spans of the same picker sorted, then adjacent ones swapped; two spans
  apart of one picker, or of two pickers of one kind (``kinds``), swapped when the later is
  the simpler.

In every pass, a candidate that changes one of two equal spans of one kind and does not fail
is tried again with the same change made to the other (values lowered, or draws deleted with
their length): equal parts -- ``x == y``, a string found in a list of strings -- shrink only
together (:meth:`~synthia.engine.proposals.Proposals.consider`).

The passes live by what they do: :mod:`~synthia.engine.deletion` (history, delete, merge,
simplify spans), :mod:`~synthia.engine.lowering` (lower, redecide: each kind's minimiser),
:mod:`~synthia.engine.reordering` (pairs, sort), :mod:`~synthia.engine.transfer` (transfer); :mod:`~synthia.engine.proposals` holds the
smallest failure and tries each candidate (:meth:`~synthia.engine.proposals.Proposals.consider`).
:attr:`Shrinker.passes` counts each pass's replays and finds.

The shrinker stops when a round improves nothing, after ``max_calls`` attempts, or when
``deadline`` (a :func:`time.perf_counter` value) passes; :attr:`Shrinker.stopped_by` says
which.
"""
from __future__ import annotations

from .deletion import Deletion
from .lowering import Lowering
from .proposals import FAIL, INVALID, PASS, Attempt, _Stop, far_end, largest_true
from .reordering import Reordering
from .transfer import Transfer

__all__ = ["Attempt", "Shrinker", "largest_true", "far_end", "FAIL", "PASS", "INVALID"]


class Shrinker(Deletion, Lowering, Reordering, Transfer):
    """Minimise a failing input over its recorded draws (see the module docstring): the
    passes of :class:`Deletion`, :class:`Lowering` and :class:`Reordering` run in rounds over
    the state of :class:`~synthia.engine.proposals.Proposals`, which says what ``attempt``
    and ``initial`` are."""

    #: The passes of a round, in order, by name (``pass_<name>`` is the method).
    PASSES = ("history", "delete", "merge", "simplify_spans", "lower", "redecide", "pairs", "transfer", "sort")

    # -- the run -------------------------------------------------------------------------------
    def shrink(self) -> Attempt:
        """Run rounds of passes until one improves nothing or the budget is spent.

        :attr:`passes` counts, for each pass, the replays it asked for and the smaller
        failures it found (the replays of all passes add up to :attr:`calls`).

        >>> from synthia.core.draws import replay
        >>> import synthia as sy
        >>> wiring = sy.ComposeList(sy.RandomInteger(0, 100), sy.RandomInteger(0, 10))
        >>> def attempt(picks, entries, max_draws):
        ...     try:
        ...         value, tape = replay(wiring, entries, max_draws=max_draws)
        ...     except sy.GiveUp:  # more draws than the best failure: not smaller
        ...         return Attempt(INVALID)
        ...     return Attempt(FAIL if sum(value) > 50 else PASS, tape, value, origin="returned False")
        >>> shrinker = Shrinker(attempt, attempt(1, [3, 60, 70, 80], None))
        >>> shrinker.shrink().value, shrinker.calls == sum(calls for calls, _ in shrinker.passes.values())
        ([51], True)
        """
        try:
            while True:
                before = self.tape.key()
                for name in self.PASSES:
                    calls, improvements = self.calls, self.improvements
                    try:
                        getattr(self, "pass_" + name)()
                    finally:
                        done, found = self.passes.get(name, (0, 0))
                        self.passes[name] = (done + self.calls - calls, found + self.improvements - improvements)
                if self.tape.key() == before:
                    self.stopped_by = "a full round of passes found nothing smaller"
                    break
        except _Stop:
            pass
        return self.best
