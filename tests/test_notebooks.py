"""Every notebook in notebooks/ runs under a real Jupyter kernel (nbclient and ipykernel),
as a reader runs it: its cells in order, in a kernel whose own event loop is running (so an
async or concurrent Monkey must work inside a running loop), magics and all.

One kernel serves every notebook (starting one takes seconds): each notebook starts from a
namespace reset (``%reset -f``) in the notebooks' folder."""
from __future__ import annotations

import pathlib
import warnings
from typing import Iterator

import nbformat
import pytest
from jupyter_client.manager import KernelManager
from nbclient import NotebookClient
from nbformat.warnings import MissingIDFieldWarning

FOLDER = pathlib.Path(__file__).resolve().parent.parent / "notebooks"
NOTEBOOKS = sorted(FOLDER.glob("*.ipynb"))


@pytest.fixture(scope="module")
def kernel() -> Iterator[KernelManager]:
    manager = KernelManager(kernel_name="python3")
    manager.start_kernel(cwd=str(FOLDER))
    try:
        yield manager
    finally:
        manager.shutdown_kernel(now=True)


def test_there_are_notebooks() -> None:
    assert NOTEBOOKS


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_runs_under_a_jupyter_kernel(kernel: KernelManager, path: pathlib.Path) -> None:
    with warnings.catch_warnings():  # a notebook written before cells had ids gets them here
        warnings.simplefilter("ignore", MissingIDFieldWarning)
        notebook = nbformat.from_dict(nbformat.validator.normalize(nbformat.read(path, as_version=4))[1])
    reset = nbformat.v4.new_code_cell(f"%reset -f\nimport os\nos.chdir({str(path.parent)!r})")
    notebook.cells.insert(0, reset)
    NotebookClient(notebook, timeout=600, km=kernel).execute()  # raises CellExecutionError, naming the cell, when one fails
    ran = [cell for cell in notebook.cells[1:] if cell.cell_type == "code" and cell.source.strip()]
    assert ran and all(cell.execution_count is not None for cell in ran)
    assert not [output for cell in ran for output in cell.get("outputs", []) if output.get("output_type") == "error"]
