"""The names of the original Java library (and Hypothesis's ``FlatMap``), for code ported from
them: each is another name of a picker, designator or exception of the top-level namespace,
which keeps one name per thing. See docs/coming-from-java.md.

>>> import synthia as sy
>>> from synthia.compat import PickElement, NoMoreElementException
>>> PickElement is sy.Choice, NoMoreElementException is sy.NoMoreElements
(True, True)
"""
from __future__ import annotations

from .core.constant import Nothing
from .core.exceptions import CannotShrink, GiveUp, NoMoreElements
from .explain.designators import NthOutput
from .pickers.basic import Choice
from .pickers.bounded import AllPickers
from .pickers.collections import ComposeList, SetPicker
from .pickers.dependent import Bind
from .pickers.filters import PickSmaller
from .pickers.geometry import PrismPicker
from .pickers.grammar import GrammarSequence
from .pickers.structures import TreePicker
from .pickers.tuples import ArrayPicker

__all__ = [
    "PickElement",
    "PickList",
    "PickSet",
    "PickArray",
    "PickTree",
    "PickSmallerComparable",
    "HypercubePicker",
    "GrammarPicker",
    "Enumerate",
    "NothingPicker",
    "FlatMap",
    "NthSuccessiveOutput",
    "NoMoreElementException",
    "GiveUpException",
    "CannotShrinkException",
]

#: The original library's names, each for the synthia name on its right.
ALIASES = {
    "PickElement": "Choice",
    "PickList": "ComposeList",
    "PickSet": "SetPicker",
    "PickArray": "ArrayPicker",
    "PickTree": "TreePicker",
    "PickSmallerComparable": "PickSmaller",
    "HypercubePicker": "PrismPicker",
    "GrammarPicker": "GrammarSequence",
    "Enumerate": "AllPickers",
    "NothingPicker": "Nothing",
    "FlatMap": "Bind",
    "NthSuccessiveOutput": "NthOutput",
    "NoMoreElementException": "NoMoreElements",
    "GiveUpException": "GiveUp",
    "CannotShrinkException": "CannotShrink",
}

PickElement = Choice
PickList = ComposeList
PickSet = SetPicker
PickArray = ArrayPicker
PickTree = TreePicker
PickSmallerComparable = PickSmaller
HypercubePicker = PrismPicker
GrammarPicker = GrammarSequence
Enumerate = AllPickers
NothingPicker = Nothing
FlatMap = Bind
NthSuccessiveOutput = NthOutput
NoMoreElementException = NoMoreElements
GiveUpException = GiveUp
CannotShrinkException = CannotShrink
