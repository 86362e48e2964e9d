"""Guided generation: RLCheck's learner steers the choice points of any wiring.

:func:`guided` (a :class:`GuidedPicker`) and the learner :class:`Guide`; see ``docs/guided.md``.
"""
from .guide_source import GuideSource, digest
from .guided import STATES, GuidedPicker, guided
from .learning import REWARDS, Guide

__all__ = ["Guide", "GuidedPicker", "GuideSource", "REWARDS", "STATES", "digest", "guided"]
