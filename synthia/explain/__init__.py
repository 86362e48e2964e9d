"""Provenance: record, explain and draw why values look the way they do."""
from .designators import Attribute, Character, Designator, Key, Member, NthElement, NthOutput, Path
from .explanation import Explanation, explain
from .failures import explain_failure
from .recording import NotRecorded, recording
from .rendering import RenderError
from .rules import rule
from .wiring import WiringDiagram, wiring_diagram

__all__ = [
    "explain",
    "Explanation",
    "recording",
    "NotRecorded",
    "RenderError",
    "Designator",
    "NthOutput",
    "NthElement",
    "Key",
    "Attribute",
    "Character",
    "Member",
    "Path",
    "wiring_diagram",
    "WiringDiagram",
    "rule",
    "explain_failure",
]
