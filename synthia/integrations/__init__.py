"""Integrations: the pytest decorator and plugin."""
from .decorator import SynthiaFailure, given

__all__ = ["given", "SynthiaFailure"]
