"""The catalog: one module per family of pickers, each exporting its ``__all__``."""
from . import (
    basic,
    behavior,
    bounded,
    collections,
    conversions,
    distributions,
    filters,
    geometry,
    grammar,
    knit,
    listing,
    markov,
    recording,
    scalars,
    sequences,
    strings,
    structures,
)
from .basic import *  # noqa: F401,F403
from .behavior import *  # noqa: F401,F403
from .bounded import *  # noqa: F401,F403
from .collections import *  # noqa: F401,F403
from .conversions import *  # noqa: F401,F403
from .distributions import *  # noqa: F401,F403
from .filters import *  # noqa: F401,F403
from .geometry import *  # noqa: F401,F403
from .grammar import *  # noqa: F401,F403
from .knit import *  # noqa: F401,F403
from .listing import *  # noqa: F401,F403
from .markov import *  # noqa: F401,F403
from .recording import *  # noqa: F401,F403
from .scalars import *  # noqa: F401,F403
from .sequences import *  # noqa: F401,F403
from .strings import *  # noqa: F401,F403
from .structures import *  # noqa: F401,F403

__all__ = [
    *scalars.__all__,
    *distributions.__all__,
    *basic.__all__,
    *conversions.__all__,
    *sequences.__all__,
    *collections.__all__,
    *listing.__all__,
    *bounded.__all__,
    *filters.__all__,
    *strings.__all__,
    *geometry.__all__,
    *recording.__all__,
    *knit.__all__,
    *markov.__all__,
    *behavior.__all__,
    *grammar.__all__,
    *structures.__all__,
]
