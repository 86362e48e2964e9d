"""Observations of test cases in Hypothesis's observability format (one JSON object a line).

Tools that read Hypothesis's observations -- Tyche, the VS Code extension that shows the
distribution of a test's inputs -- read synthia runs the same way. Each tested input
becomes one ``"test_case"`` observation with the keys Hypothesis writes: ``type``,
``property``, ``run_start``, ``status`` (``"passed"``, ``"failed"``, ``"gave_up"``),
``status_reason``, ``representation``, ``arguments``, ``how_generated``, ``features``
(the labels of :func:`~synthia.event` and :func:`~synthia.cover`, and the input's
class), ``coverage`` (``None``: synthia does not trace lines), ``timing`` and
``metadata`` (the seed, the index of the input, the reproduction line, the traceback of a
failure). Hypothesis writes its files to ``.hypothesis/observed/``; synthia's
:func:`write_observations` writes wherever it is told, and the pytest plugin's
``--synthia-observe`` writes to ``.synthia/observed/<date>_testcases.jsonl``.
"""
from __future__ import annotations

import dataclasses
import datetime
import json
import math
import os
import pathlib
import sys
from typing import Any, Iterable

__all__ = ["observation", "jsonable", "write_observations", "observations_path"]


def jsonable(value: Any, depth: int = 0) -> Any:
    """``value`` as JSON data: containers recursively, dataclasses and named tuples as
    objects, non-finite floats and everything else as their ``repr``.

    >>> jsonable({"xs": (1, 2.5, float("nan")), 3: {4}})
    {'xs': [1, 2.5, 'nan'], '3': [4]}
    """
    if depth > 20:
        return repr(value)
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else repr(value)
    if isinstance(value, (dict, list, tuple, set, frozenset)):
        return _jsonable_container(value, depth)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: jsonable(getattr(value, f.name), depth + 1) for f in dataclasses.fields(value)}
    return repr(value)


def _jsonable_container(value: Any, depth: int) -> Any:
    """A dict, named tuple, list, tuple or set ``value`` as JSON data: an object of its items,
    a list of its elements (a set's sorted when they compare)."""
    if isinstance(value, dict):
        return {str(k): jsonable(v, depth + 1) for k, v in value.items()}
    if isinstance(value, tuple) and hasattr(value, "_fields"):
        return {f: jsonable(getattr(value, f), depth + 1) for f in value._fields}
    if isinstance(value, (list, tuple)):
        return [jsonable(v, depth + 1) for v in value]
    items = [jsonable(v, depth + 1) for v in value]
    try:
        return sorted(items)
    except TypeError:
        return items


def observation(
    *,
    property: str,
    run_start: float,
    status: str,
    arguments: dict[str, Any],
    status_reason: str = "",
    how_generated: str = "generated",
    features: dict[str, Any] | None = None,
    timing: dict[str, float] | None = None,
    metadata: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """One ``"test_case"`` observation (see the module docstring).

    >>> obs = observation(property="test_abs", run_start=0.0, status="passed", arguments={"x": -3})
    >>> obs["type"], obs["representation"], obs["arguments"]
    ('test_case', 'test_abs(x=-3)', {'x': -3})
    """
    if status not in ("passed", "failed", "gave_up"):
        raise ValueError(f"status must be 'passed', 'failed' or 'gave_up', got {status!r}")
    representation = f"{property}({', '.join(f'{k}={v!r}' for k, v in arguments.items())})"
    return {
        "type": "test_case",
        "property": property,
        "run_start": run_start,
        "status": status,
        "status_reason": status_reason,
        "representation": representation if len(representation) <= 10_000 else representation[:10_000] + "...",
        "arguments": jsonable(arguments),
        "how_generated": how_generated,
        "features": {str(k): jsonable(v) for k, v in (features or {}).items()},
        "coverage": None,
        "timing": dict(timing or {}),
        "metadata": {"sys.argv": list(sys.argv), "os.getpid()": os.getpid(), **jsonable(metadata or {})},
    }


def observations_path(directory: str | os.PathLike[str]) -> pathlib.Path:
    """Where a run on this day writes: ``<directory>/observed/<YYYY-MM-DD>_testcases.jsonl``."""
    return pathlib.Path(directory) / "observed" / f"{datetime.date.today().isoformat()}_testcases.jsonl"


def write_observations(observations: Iterable[dict[str, Any]], path: str | os.PathLike[str]) -> pathlib.Path:
    """Append ``observations`` to the JSON-lines file ``path`` (made with its directory)."""
    target = pathlib.Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    with target.open("a", encoding="utf-8") as out:
        for observation in observations:
            out.write(json.dumps(observation, ensure_ascii=False) + "\n")
    return target
