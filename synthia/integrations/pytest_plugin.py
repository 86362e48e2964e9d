"""The pytest plugin (registered through the ``pytest11`` entry point).

Options: ``--synthia-seed=N`` replays every ``@synthia.given`` test with seed ``N``;
``--synthia-dir=PATH`` moves the store of failing inputs (default ``.synthia`` in the
root directory; ``--synthia-dir=`` with an empty value disables it).
"""
from __future__ import annotations

import pathlib
from typing import Any

from ..testing import settings


def pytest_addoption(parser: Any) -> None:
    group = parser.getgroup("synthia", "synthia property tests")
    group.addoption("--synthia-seed", type=int, default=None, help="seed every @synthia.given test (replays a run)")
    group.addoption("--synthia-dir", default=".synthia", help="where failing inputs are saved and replayed first")


def pytest_configure(config: Any) -> None:
    settings.seed = config.getoption("synthia_seed")
    directory = config.getoption("synthia_dir")
    settings.database = (pathlib.Path(str(config.rootpath)) / directory) if directory else None


def pytest_report_header(config: Any) -> str | None:
    seed = config.getoption("synthia_seed")
    return f"synthia: seed {seed} (--synthia-seed)" if seed is not None else None
