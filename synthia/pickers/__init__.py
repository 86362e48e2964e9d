"""The catalog: one module per family of pickers, each exporting its ``__all__``."""
from . import basic, collections, filters, scalars, sequences
from .basic import *  # noqa: F401,F403
from .collections import *  # noqa: F401,F403
from .filters import *  # noqa: F401,F403
from .scalars import *  # noqa: F401,F403
from .sequences import *  # noqa: F401,F403

__all__ = [
    *scalars.__all__,
    *basic.__all__,
    *sequences.__all__,
    *collections.__all__,
    *filters.__all__,
]
