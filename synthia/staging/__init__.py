"""Staging: a wiring compiled to one generated Python function (:func:`compile`), with exactly
the wiring's values and draws (see docs/staging.md)."""
from .compiler import Compiled, compile, stage

__all__ = ["compile", "Compiled", "stage"]
