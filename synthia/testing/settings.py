"""Run-wide settings of the pytest integration (set by the plugin from the command line)."""
from __future__ import annotations

import pathlib

#: The seed every ``@synthia.given`` test uses (``--synthia-seed``); ``None`` draws a fresh one.
seed: int | None = None

#: Where failing inputs are saved and replayed first (``--synthia-dir``); ``None`` disables it.
database: pathlib.Path | None = pathlib.Path(".synthia")
