from __future__ import annotations

import pathlib

import pytest

pytest_plugins = ["pytester"]


@pytest.fixture(autouse=True)
def _private_failure_database(tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test of the suite gets its own failure database: a ``@sy.given`` test here must not
    replay what another test (or an earlier run) saved in the project's ``.synthia/``."""
    from synthia.integrations import settings

    monkeypatch.setattr(settings, "database", tmp_path / ".synthia")
