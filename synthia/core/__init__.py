"""The core layer: the picker contract, its traits, randomness and the graph walk."""
from .constant import Constant, Nothing
from .draws import Draw, DrawSource, Flex, Recorder, Replayer, Span, Tape, record, replay, routed
from .parsing import parse
from .exceptions import (
    CannotShrink,
    GiveUp,
    InputTooLarge,
    NoMoreElements,
    PickerError,
)
from .graph import edges, upstream
from .leaves import DrawSpec
from .picker import (
    UNSET,
    Bounded,
    Picker,
    RandomPicker,
    Reactive,
    Resettable,
    Seedable,
)
from .shrinking import Shrinkable

__all__ = [
    "Picker",
    "Bounded",
    "Shrinkable",
    "Seedable",
    "Reactive",
    "Resettable",
    "RandomPicker",
    "DrawSpec",
    "Constant",
    "Nothing",
    "PickerError",
    "NoMoreElements",
    "GiveUp",
    "InputTooLarge",
    "CannotShrink",
    "upstream",
    "edges",
    "UNSET",
    "Draw",
    "Tape",
    "Span",
    "Flex",
    "DrawSource",
    "Recorder",
    "Replayer",
    "routed",
    "record",
    "replay",
    "parse",
]
