"""``import synthia`` stays light; the optional integrations load their dependency on use."""
from __future__ import annotations

import datetime
import subprocess
import sys

import pytest

OPTIONAL = ("hypothesis", "faker", "mimesis", "libcst", "pandas", "pyarrow", "dask", "distributed", "tqdm", "matplotlib", "pydantic", "attrs", "annotated_types")


def test_import_synthia_imports_no_optional_dependency() -> None:
    code = "import sys, synthia; print(' '.join(m for m in %r if m in sys.modules))" % (OPTIONAL,)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == ""


def test_plot_chooses_the_picture_from_the_values() -> None:
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    import synthia as sy

    hist = sy.plot(sy.RandomInteger(0, 10).set_seed(1), 300)
    assert sum(p.get_height() for p in hist.patches) == 300
    scatter = sy.plot(sy.HyperspherePicker(1.0, sy.RandomFloat(0, 6.3)).set_seed(2), 200)
    assert scatter.collections and len(scatter.collections[0].get_offsets()) == 200
    bars = sy.plot(sy.Choice("a", "b", "c").set_seed(3), 90)
    assert [t.get_text() for t in bars.get_xticklabels()] and sum(p.get_height() for p in bars.patches) == 90
    lengths = sy.plot(sy.ComposeList(sy.Tick(), sy.RandomInteger(0, 5)).set_seed(4), 100, of=len, title="lengths")
    assert lengths.get_title() == "lengths" and sum(p.get_height() for p in lengths.patches) == 100
    dates = sy.plot(sy.RandomDate(datetime.date(2020, 1, 1), datetime.date(2030, 1, 1)).set_seed(5), 50)
    assert sum(p.get_height() for p in dates.patches) == 50
