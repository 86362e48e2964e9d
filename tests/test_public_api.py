"""The public surface: every name re-exported, and written out for type checkers."""
from __future__ import annotations

import importlib
import pkgutil

import synthia
import synthia.mutators
import synthia.pickers


def _union(package: object) -> list[str]:
    names: list[str] = []
    for info in pkgutil.iter_modules(package.__path__):  # type: ignore[attr-defined]
        module = importlib.import_module(f"{package.__name__}.{info.name}")  # type: ignore[attr-defined]
        names += getattr(module, "__all__", [])
    return names


def test_catalog_and_mutators_export_every_module_name() -> None:
    assert sorted(synthia.pickers.__all__) == sorted(n for n in _union(synthia.pickers))
    assert sorted(synthia.mutators.__all__) == sorted(_union(synthia.mutators))


def test_top_level_exports_everything_once() -> None:
    assert len(synthia.__all__) == len(set(synthia.__all__))
    assert set(synthia.pickers.__all__) | set(synthia.mutators.__all__) <= set(synthia.__all__)
    for name in synthia.__all__:
        assert getattr(synthia, name) is not None


def test_py_typed_marker_is_shipped() -> None:
    import pathlib

    assert (pathlib.Path(synthia.__file__).parent / "py.typed").exists()
