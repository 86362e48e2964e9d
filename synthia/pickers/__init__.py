"""The catalog: one module per family of pickers.

``__all__`` is written out (not computed) so that type checkers see every name;
``tests/test_public_api.py`` checks that it is the union of the modules' ``__all__``.
"""
from .arrays import *  # noqa: F401,F403
from .basic import *  # noqa: F401,F403
from .behavior import *  # noqa: F401,F403
from .bounded import *  # noqa: F401,F403
from .collections import *  # noqa: F401,F403
from .composite import *  # noqa: F401,F403
from .conversions import *  # noqa: F401,F403
from .deferred import *  # noqa: F401,F403
from .dependent import *  # noqa: F401,F403
from .dtypes import *  # noqa: F401,F403
from .distributions import *  # noqa: F401,F403
from .filters import *  # noqa: F401,F403
from .floats import *  # noqa: F401,F403
from .integers import *  # noqa: F401,F403
from .indices import *  # noqa: F401,F403
from .geometry import *  # noqa: F401,F403
from .grammar import *  # noqa: F401,F403
from .holding import *  # noqa: F401,F403
from .knit import *  # noqa: F401,F403
from .markov import *  # noqa: F401,F403
from .memory import *  # noqa: F401,F403
from .records import *  # noqa: F401,F403
from .randoms import *  # noqa: F401,F403
from .regex import *  # noqa: F401,F403
from .resolve import *  # noqa: F401,F403
from .scalars import *  # noqa: F401,F403
from .numbers import *  # noqa: F401,F403
from .sequences import *  # noqa: F401,F403
from .strings import *  # noqa: F401,F403
from .structures import *  # noqa: F401,F403
from .tuples import *  # noqa: F401,F403
from .text import *  # noqa: F401,F403
from .times import *  # noqa: F401,F403

__all__ = [
    "Bind",
    "Composite",
    "composite",
    "RandomInteger",
    "RandomFloat",
    "RandomBoolean",
    "AnyFloat",
    "AnyInteger",
    "AnySize",
    "BiasedRandomFloat",
    "GaussianFloat",
    "PoissonInteger",
    "AffineTransform",
    "AffineTransformInteger",
    "AffineTransformFloat",
    "Constant",
    "Nothing",
    "Choice",
    "Freeze",
    "Once",
    "Apply",
    "Deferred",
    "AsInt",
    "AsString",
    "Delay",
    "Tick",
    "Playback",
    
    "ComposeList",
    "ListPicker",
    "SetPicker",
    "ArrayPicker",
    "RandomSubList",
    "Scramble",
    "Bound",
    "Unbound",
    "AllBooleans",
    "AllIntegers",
    "AllElements",
    "AllPickers",
    "Merge",
    "PickIf",
    "PickSmaller",
    "RandomString",
    "StringPattern",
    "RandomPrefix",
    "RandomSuffix",
    "RandomTrim",
    "RandomSubString",
    "PrismPicker",
    "HyperspherePicker",
    "SineWave",
    "Record",
    "Share",
    "Knit",
    "MarkovChain",
    "MarkovReader",
    "BehaviorTree",
    "Sequence",
    "Selector",
    "Leaf",
    "Grammar",
    "GrammarError",
    "Derivation",
    "GrammarSentence",
    "GrammarSequence",
    "RegexGenerator",
    "RegexString",
    "RegexError",
    "TreePicker",
    "GraphPicker",
    "BarabasiAlbert",
    "graph_to_dot",
    "RandomDate",
    "RandomTime",
    "RandomDatetime",
    "RandomTimedelta",
    "RandomText",
    "RandomBytes",
    "CharacterSet",
    "RandomUUID",
    "RandomDecimal",
    "RandomFraction",
    "Struct",
    "DictPicker",
    "NumpyArray",
    "Permutation",
    "from_type",
    "builds",
    "register_type",
    "arrays",
    "from_dtype",
    "array_shapes",
    "scalar_dtypes",
    "boolean_dtypes",
    "integer_dtypes",
    "unsigned_integer_dtypes",
    "floating_dtypes",
    "complex_number_dtypes",
    "datetime64_dtypes",
    "timedelta64_dtypes",
    "byte_string_dtypes",
    "unicode_string_dtypes",
    "array_dtypes",
    "nested_dtypes",
    "basic_indices",
    "integer_array_indices",
    "broadcastable_shapes",
    "mutually_broadcastable_shapes",
    "BroadcastableShapes",
    "valid_tuple_axes",
    "randoms",
]
