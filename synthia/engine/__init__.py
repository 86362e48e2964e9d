"""The engine under every harness: shrinking over recorded draws, and the failure database.

It depends only on the core (:mod:`synthia.core.draws` records and replays draws); the
harnesses of :mod:`synthia.testing` drive it.
"""
from .database import DatabaseWarning, FailureDatabase
from .session import ReplaySession
from .shrinker import FAIL, INVALID, PASS, Attempt, Shrinker, largest_true

__all__ = ["Attempt", "Shrinker", "largest_true", "FAIL", "PASS", "INVALID", "FailureDatabase", "DatabaseWarning", "ReplaySession"]
