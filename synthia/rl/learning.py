"""The learner of RLCheck: tabular, on-policy, every-visit Monte-Carlo control.

One Q-table per choice point, keyed by an abstract state (Reddy et al., ICSE 2020,
section 4; the digest is ``docs/guided.md``):

* **policy**: epsilon-greedy -- with probability ``epsilon`` (0.25) an action drawn
  uniformly, otherwise the action of highest Q, ties broken uniformly at random (so a
  state never updated is uniform: every Q starts at 0). One uniform draw ``u`` decides:
  ``u < epsilon`` explores, with the action ``int(u / epsilon * n)`` (:func:`explored`);
* **episode**: one generated input; every ``(table, state, action)`` visited is
  remembered, each visit separately;
* **update**: one terminal reward ``r`` per episode, given to every visit, no discount:
  ``N <- N + 1``, ``Q <- Q + (r - Q) / N`` (the running average of the rewards);
* **rewards**: ``20`` for a valid input never seen before, ``0`` for a valid input seen
  before, ``-1`` for an invalid one (:data:`REWARDS`).

The learner's own randomness (exploration and ties) comes from its own seeded
:class:`~synthia.core.random.Stream`, never from the wiring's, so the same seed gives
the same decisions.

>>> guide = Guide(seed=1)
>>> guide.choose(("point", (0, 3), ()), 3) in (0, 1, 2)
True
>>> guide.learn(20.0)
>>> guide.q(("point", (0, 3), ()))
[...]
"""
from __future__ import annotations

import math

import copy
from typing import Any, Callable, Hashable

from ..core.checks import check_int, check_number, check_probability
from ..core.random import Stream, check_seed, stream_seed

__all__ = ["Guide", "REWARDS", "greedy", "explored"]

#: RLCheck's rewards: (unique valid, valid but seen before, invalid).
REWARDS = (20.0, 0.0, -1.0)


def greedy(q: list[float], below: Callable[[int], int]) -> int:
    """The greedy action for the Q values ``q``: the action of highest value, ties broken
    uniformly at random by ``below`` (the ties in action order).

    Worked out afresh at each decision, in C (``max``, ``count``, ``index``): an entry's values
    change after nearly every episode it is visited in, so a kept answer is almost never reused.

    >>> greedy([0.0, 2.0, 2.0], lambda n: n - 1), greedy([0.0, 3.0, 2.0], lambda n: 0)
    (2, 1)
    """
    top = max(q)
    if q.count(top) == 1:
        return q.index(top)
    ties = [i for i, v in enumerate(q) if v == top]
    return ties[below(len(ties))]


def explored(u: float, epsilon: float, n: int) -> int:
    """The action an exploring decision takes: ``u`` (below ``epsilon``) is the uniform draw
    that decided to explore, and ``u / epsilon`` is uniform in ``[0, 1)`` again, so one draw
    both decides to explore and picks the action.

    >>> explored(0.0, 0.25, 11), explored(0.2, 0.25, 10), explored(0.2499999, 0.25, 4)
    (0, 8, 3)
    """
    action = int(u / epsilon * n)
    return action if action < n else n - 1


class Guide:
    """Q-tables, counts and the episode of one learner (RLCheck's Monte-Carlo control).

    ``choose(key, n)`` returns an action in ``range(n)`` for the table entry ``key``
    (a hashable naming the choice point, its domain and the abstract state);
    ``learn(reward)`` ends the episode. ``reset()`` forgets everything learnt and reseeds.

    >>> guide = Guide(epsilon=0.0, seed=3)
    >>> for _ in range(20):
    ...     action = guide.choose("s", 2)
    ...     guide.learn(20.0 if action == 1 else -1.0)
    >>> guide.q("s")[1] == 20.0, guide.choose("s", 2)
    (True, 1)
    """

    __slots__ = ("epsilon", "seed", "tables", "episode", "_rng", "_random", "_below", "episodes", "last", "last_reward")

    def __init__(self, epsilon: float = 0.25, seed: int = 0) -> None:
        self.epsilon = check_probability(epsilon, "epsilon")
        self.seed = check_seed(seed)
        #: ``key -> [Q values, visit counts]``.
        self.tables: dict[Hashable, list[Any]] = {}
        #: The visits of the current episode: ``(entry, action)``.
        self.episode: list[tuple[list[Any], int]] = []
        self.episodes = 0
        #: The visits of the last episode learnt, and its reward (see :meth:`relearn`).
        self.last: list[tuple[list[Any], int]] = []
        self.last_reward: float | None = None
        self._rng = Stream(stream_seed(self.seed))
        self._bind()

    def _bind(self) -> None:
        self._random = self._rng.random
        self._below = self._rng.below

    def reset(self) -> None:
        """Forget every table and the current episode; reseed (the state after construction)."""
        self.tables = {}
        self.episode.clear()
        self.episodes = 0
        self.last, self.last_reward = [], None
        self._rng.seed(stream_seed(self.seed))

    def entry(self, key: Hashable, n: int) -> list[Any]:
        """The table entry of ``key`` (``[Q values, counts]``), made with ``n`` actions at 0
        when new."""
        entry = self.tables.get(key)
        if entry is None or len(entry[0]) != n:
            entry = self.tables[key] = [[0.0] * n, [0] * n]
        return entry

    def restart(self) -> None:
        """Keep the tables, drop the current episode, reseed (a frozen policy replays from here)."""
        self.episode.clear()
        self.last, self.last_reward = [], None
        self._rng.seed(stream_seed(self.seed))

    def choose(self, key: Hashable, n: int, *, explore: bool = True) -> int:
        """An action in ``range(n)`` for ``key``, epsilon-greedy, remembered for :meth:`learn`.

        ``explore=False`` is the greedy policy alone (a frozen guide still explores unless
        its epsilon is 0: freezing keeps the policy, exploration included).
        """
        entry = self.tables.get(key)
        if entry is None or len(entry[0]) != n:
            entry = self.tables[key] = [[0.0] * n, [0] * n]
        u = self._random() if explore else 1.0
        action = explored(u, self.epsilon, n) if u < self.epsilon else greedy(entry[0], self._below)
        self.episode.append((entry, action))
        return action

    def learn(self, reward: float) -> None:
        """End the episode: every visit gets ``reward`` (every-visit Monte Carlo, no discount)."""
        for entry, action in self.episode:
            counts = entry[1]
            n = counts[action] + 1
            counts[action] = n
            q = entry[0]
            q[action] += (reward - q[action]) / n
        self.last = self.episode[:]
        self.last_reward = reward
        self.episode.clear()
        self.episodes += 1

    def relearn(self, reward: float) -> None:
        """Give the last episode ``reward`` instead of the one it got (before any other
        episode is learnt): every one of its visits' running averages is corrected exactly.

        >>> guide = Guide(seed=1)
        >>> a = guide.choose("k", 2); guide.learn(0.0); guide.relearn(20.0)
        >>> guide.q("k")[a], guide.counts("k")[a]
        (20.0, 1)
        """
        old = self.last_reward
        if old is None or reward == old:
            return
        for entry, action in self.last:
            entry[0][action] += (reward - old) / entry[1][action]
        self.last_reward = reward

    def forget_episode(self) -> None:
        """Drop the current episode without learning (the wiring raised)."""
        self.episode.clear()

    def q(self, key: Hashable) -> list[float]:
        """The Q values of ``key`` (a copy; ``[]`` when never visited)."""
        entry = self.tables.get(key)
        return list(entry[0]) if entry is not None else []

    def counts(self, key: Hashable) -> list[int]:
        """The visit counts of ``key`` (a copy; ``[]`` when never visited)."""
        entry = self.tables.get(key)
        return list(entry[1]) if entry is not None else []

    def __len__(self) -> int:
        return len(self.tables)

    def __deepcopy__(self, memo: dict[int, Any]) -> "Guide":
        twin = Guide.__new__(Guide)
        twin.epsilon, twin.seed, twin.episodes = self.epsilon, self.seed, self.episodes
        twin.tables = {k: [list(e[0]), list(e[1])] for k, e in self.tables.items()}
        index = {id(e): twin.tables[k] for k, e in self.tables.items()}
        twin.episode = [(index[id(e)], a) for e, a in self.episode]
        twin.last = [(index[id(e)], a) for e, a in self.last if id(e) in index]
        twin.last_reward = self.last_reward
        twin._rng = copy.deepcopy(self._rng, memo)
        twin._bind()
        return twin

    # -- saving --------------------------------------------------------------------------
    def to_state(self) -> dict[str, Any]:
        """The tables as JSON-ready data (keys as nested lists; see :meth:`from_state`)."""
        return {
            "epsilon": self.epsilon,
            "seed": self.seed,
            "episodes": self.episodes,
            "tables": [[_jsonable(k), e[0], e[1]] for k, e in self.tables.items()],
        }

    @classmethod
    def from_state(cls, state: dict[str, Any]) -> "Guide":
        """The guide :meth:`to_state` saved (its random stream restarts from the seed)."""
        if not isinstance(state, dict) or not isinstance(state.get("tables"), list):
            raise ValueError(f"state must be a dict saved by Guide.to_state(), got {type(state).__name__}")
        guide = cls(check_number(state.get("epsilon", 0.25), "epsilon"), check_int(state.get("seed", 0), "seed"))
        guide.episodes = check_int(state.get("episodes", 0), "episodes", minimum=0)
        for i, row in enumerate(state["tables"]):
            key, entry = _checked_row(i, row)
            guide.tables[_hashable(key)] = entry
        return guide

    def __repr__(self) -> str:
        return f"Guide(epsilon={self.epsilon!r}, seed={self.seed!r})"


def _checked_row(i: int, row: Any) -> tuple[Any, list[list[Any]]]:
    """Row ``i`` of saved tables as ``(key, [q values, counts])``, or one ``ValueError`` saying
    what is wrong: a row cut short, values that are not finite numbers, negative counts."""
    if not isinstance(row, list) or len(row) != 3 or not isinstance(row[1], list) or not isinstance(row[2], list):
        raise ValueError(f"tables[{i}] must be [key, q values, counts], got {row!r:.80}")
    key, q, n = row
    if len(q) != len(n) or not q:
        raise ValueError(f"tables[{i}] has {len(q)} q values for {len(n)} counts")
    values = []
    for v in q:
        if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v):
            raise ValueError(f"tables[{i}] has a q value that is not a finite number: {v!r}")
        values.append(float(v))
    for c in n:
        if isinstance(c, bool) or not isinstance(c, int) or c < 0:
            raise ValueError(f"tables[{i}] has a count that is not a non-negative int: {c!r}")
    return key, [values, list(n)]


def _jsonable(key: Any) -> Any:
    if isinstance(key, tuple):
        return [_jsonable(k) for k in key]
    return key


def _hashable(key: Any) -> Any:
    if isinstance(key, list):
        return tuple(_hashable(k) for k in key)
    return key
