"""The pytest plugin (registered through the ``pytest11`` entry point).

Options:

- ``--synthia-seed=N`` replays every ``@synthia.given`` test with seed ``N``;
- ``--synthia-profile=NAME`` runs the tests under a settings profile (built in: ``default``,
  ``ci``; more with :func:`synthia.register_profile` in a ``conftest.py``); the ini option
  ``synthia_profile`` (``pytest.ini``, ``[tool.pytest.ini_options]`` of ``pyproject.toml``)
  sets it for the project;
- ``--synthia-dir=PATH`` moves the store of failing inputs (default ``.synthia`` in the
  root directory; ``--synthia-dir=`` with an empty value disables it);
- ``--synthia-statistics`` prints, after the tests, what each run did: inputs tried and
  discarded, classes, labels, time generating against time in the test, the slowest
  pickers, health warnings;
- ``--synthia-observe`` writes one JSON line per test case, in Hypothesis's observability
  format, to ``<synthia-dir>/observed/<date>_testcases.jsonl`` (or the path given).
"""
from __future__ import annotations

import pathlib
from typing import Any

from ..testing import settings
from ..engine.observe import observations_path


def pytest_addoption(parser: Any) -> None:
    group = parser.getgroup("synthia", "synthia property tests")
    group.addoption("--synthia-seed", type=int, default=None, help="seed every @synthia.given test (replays a run)")
    group.addoption("--synthia-dir", default=".synthia", help="where failing inputs are saved and replayed first")
    group.addoption("--synthia-profile", default=None, help="the settings profile to run under (default, ci, or registered)")
    group.addoption("--synthia-statistics", action="store_true", default=False, help="print what each synthia run did")
    group.addoption(
        "--synthia-observe", nargs="?", const="", default=None, metavar="PATH",
        help="write one JSON line per test case (Hypothesis's observability format)",
    )
    parser.addini("synthia_profile", "the synthia settings profile of the project", default="")


#: The module settings a session changes, restored when it ends (pytester runs sessions inside one).
_SAVED = ("seed", "database", "statistics", "observations")


def pytest_configure(config: Any) -> None:
    import pytest

    config._synthia_saved = ({name: getattr(settings, name) for name in _SAVED}, settings.active_profile().name, list(settings.reports))
    settings.reports.clear()
    settings.seed = config.getoption("synthia_seed")
    directory = config.getoption("synthia_dir")
    root = pathlib.Path(str(config.rootpath))
    settings.database = (root / directory) if directory else None
    name = config.getoption("synthia_profile") or config.getini("synthia_profile")
    if name:
        try:
            settings.load_profile(name)
        except ValueError as error:
            raise pytest.UsageError(str(error)) from None
    settings.statistics = config.getoption("synthia_statistics")
    observe = config.getoption("synthia_observe")
    if observe is not None:
        settings.observations = pathlib.Path(observe) if observe else observations_path(settings.database or root / ".synthia")


def pytest_unconfigure(config: Any) -> None:
    saved = getattr(config, "_synthia_saved", None)
    if saved is not None:
        values, profile, reports = saved
        for name, value in values.items():
            setattr(settings, name, value)
        settings.load_profile(profile)
        settings.reports[:] = reports


def pytest_report_header(config: Any) -> str | None:
    parts = []
    if config.getoption("synthia_seed") is not None:
        parts.append(f"seed {config.getoption('synthia_seed')} (--synthia-seed)")
    profile = settings.active_profile()
    if profile.name != "default":
        parts.append(f"profile {profile.describe()}")
    return f"synthia: {'; '.join(parts)}" if parts else None


def pytest_terminal_summary(terminalreporter: Any) -> None:
    if settings.observations is not None and settings.observations.exists():
        terminalreporter.write_line(f"synthia: observations written to {settings.observations}")
    if not settings.statistics or not settings.reports:
        return
    terminalreporter.section("synthia statistics")
    for key, report in settings.reports:
        terminalreporter.write_line(f"{key}:")
        for line in report.statistics():
            terminalreporter.write_line(f"  - {line}")
        terminalreporter.write_line("")
