"""Every notebook in notebooks/ runs: its code cells are executed in order in one namespace.

Running the cells directly (rather than through a Jupyter kernel) keeps the test
dependencies small; a notebook that needs matplotlib must guard its import.
"""
from __future__ import annotations

import json
import pathlib

import pytest

NOTEBOOKS = sorted((pathlib.Path(__file__).resolve().parent.parent / "notebooks").glob("*.ipynb"))


def test_there_are_notebooks() -> None:
    assert NOTEBOOKS


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_runs(path: pathlib.Path) -> None:
    notebook = json.loads(path.read_text(encoding="utf-8"))
    namespace: dict[str, object] = {"__name__": "__notebook__"}
    for number, cell in enumerate(notebook["cells"]):
        if cell["cell_type"] != "code":
            continue
        source = "".join(cell["source"])
        if source.lstrip().startswith(("%", "!")):
            continue
        # dont_inherit: a cell runs as in a kernel, without this module's future import.
        exec(compile(source, f"{path.name}[cell {number}]", "exec", dont_inherit=True), namespace)
