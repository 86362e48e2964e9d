"""The catalog: one module per family of pickers, each exporting its ``__all__``."""
from . import basic, bounded, collections, conversions, distributions, filters, geometry, listing, scalars, sequences, strings
from .basic import *  # noqa: F401,F403
from .bounded import *  # noqa: F401,F403
from .collections import *  # noqa: F401,F403
from .conversions import *  # noqa: F401,F403
from .distributions import *  # noqa: F401,F403
from .filters import *  # noqa: F401,F403
from .geometry import *  # noqa: F401,F403
from .listing import *  # noqa: F401,F403
from .scalars import *  # noqa: F401,F403
from .sequences import *  # noqa: F401,F403
from .strings import *  # noqa: F401,F403

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
]
