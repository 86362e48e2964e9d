from __future__ import annotations

import os
import pathlib

import pytest
from hypothesis import settings as hypothesis_settings

pytest_plugins = ["pytester"]

# The suite's own Hypothesis tests run the same examples on every run, so that a green run on
# one machine is green on the next (CI included); HYPOTHESIS_PROFILE=explore draws new ones.
hypothesis_settings.register_profile("deterministic", derandomize=True, database=None)
hypothesis_settings.register_profile("explore")
hypothesis_settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "deterministic"))


@pytest.fixture(autouse=True)
def _private_failure_database(tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test of the suite gets its own failure database: a ``@sy.given`` test here must not
    replay what another test (or an earlier run) saved in the project's ``.synthia/``."""
    from synthia.testing import settings

    monkeypatch.setattr(settings, "database", tmp_path / ".synthia")
