"""Draws: every random choice of a wiring, typed, recorded with its spans, and replayable.

A random picker takes its randomness only through the typed draws of its stream
(:class:`~synthia.core.random.Stream`): ``below(n)``, ``integer(low, high)``,
``unit()``, ``floating(low, high)``, ``boolean(p)``, ``weighted(cumulative)``. A draw is
recorded as a :class:`Draw`: its kind (``"integer"``, ``"float"``, ``"boolean"`` or
``"weighted"``), its value and the arguments that bound it. Each kind has an **order**
(:func:`sort_key`) whose minimum is the simplest value (:func:`simplest`):

* integers: closest to zero first, the positive one first (``0, 1, -1, 2, -2, ...``), so a
  range above zero starts at its low end and one below zero at its high end;
* floats: integral values first, in the integers' order, then the others by distance to
  zero (``0.0, 1.0, -1.0, 2.0, ..., 0.5, -0.5, ...``);
* booleans: ``False`` first; weighted indices: the first index first.

Behind the stream stand interchangeable **sources** (:class:`DrawSource`): while
:func:`routed` is active, every picker of a wiring -- and every picker created while it
is active -- sends its draws to one source instead of its own stream:

* :class:`Recorder` takes each draw from the picker's own seeded stream (the values are
  exactly those of plain generation) and logs it;
* :class:`Replayer` feeds a given sequence back: a draw out of its new range is clamped, a
  draw of another kind or past the end of the sequence is the simplest of its kind;
* a source fed by Hypothesis's data, or a learner, implements the same four methods.

Both log a :class:`Tape`: the draws in order, and the **spans** -- which picker's
``pick()`` each draw happened inside, nested -- so that a list element, a sub-tree, an
action or a grammar derivation is visible as a contiguous block of draws. Inputs are
ordered **shortlex** on their tapes (:meth:`Tape.key`): fewer picks, then fewer choices (a
draw, or the draws of one pick of an atomic picker: a text, bytes, a float), then choice by
choice in each draw's order. This is what the generic shrinker
(:mod:`synthia.engine`) edits and what the failure database stores.

>>> import synthia as sy
>>> lists = sy.ComposeList(sy.RandomInteger(0, 100), sy.RandomInteger(0, 4)).set_seed(1)
>>> value, tape = record(lists)
>>> value, tape.values()
([18, 79, 86], [3, 18, 79, 86])
>>> replay(lists, [1, 7])[0]      # length 1, then the element 7
[7]
>>> replay(lists, [3, 7])[0]      # past the end: the simplest draws
[7, 0, 0]
"""
from __future__ import annotations

from .routing import (
    Route,
    RoutedStream,
    current_route,
    drawing_from,
    follow_routes,
    keep_routed,
    is_routed,
    leave_routes,
    outside_routes,
    live_stream,
    open_span,
    outer_source,
    put_stream,
    record,
    release_routes,
    replay,
    restore_current_route,
    route_key,
    routed,
    set_current_route,
    stream_behind,
    stream_of,
)
from .sources import PASSTHROUGH, DrawSource, Passthrough, Recorder, Replayer
from .tapes import (
    BOOLEAN,
    FLOAT,
    INTEGER,
    KINDS,
    MAX_EMPTY_PICKS,
    WEIGHTED,
    Draw,
    Flex,
    Overrun,
    Span,
    Tape,
    clamp,
    draw_key,
    simplest,
    sort_key,
)

__all__ = [
    "INTEGER", "FLOAT", "BOOLEAN", "WEIGHTED", "KINDS", "Draw", "Flex", "Span", "Tape", "Overrun", "MAX_EMPTY_PICKS",
    "DrawSource", "Passthrough", "PASSTHROUGH", "Recorder", "Replayer",
    "Route", "RoutedStream", "routed", "current_route", "set_current_route", "restore_current_route", "leave_routes", "outside_routes",
    "stream_behind", "stream_of", "put_stream", "outer_source", "open_span", "record", "replay",
    "live_stream", "is_routed", "route_key", "follow_routes", "keep_routed", "release_routes", "drawing_from",
    "simplest", "clamp", "sort_key", "draw_key",
]
