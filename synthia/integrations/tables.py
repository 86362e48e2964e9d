"""Tables: a picker's values as a pandas DataFrame, a CSV file or a Parquet file (optional extras).

Records become rows: dicts by their keys, dataclasses and named tuples by their fields,
attrs classes by their attributes; any other value is one column, ``value``. A
:class:`~synthia.Struct` names its columns before anything is picked. Large files are
written in chunks of ``chunk_size`` rows, so memory stays bounded, with a progress bar
when a person is watching (:mod:`synthia.integrations.progress`).

The picker is picked from in its current state (like ``take``): seed it first for a
reproducible table.
"""
from __future__ import annotations

import dataclasses
import os
from typing import Any, Iterator

from ..core.checks import check_count, check_path, check_picker
from ..core.picker import Picker
from ..engine.progress import check_progress, progress_bar

__all__ = ["to_dataframe", "to_csv", "to_parquet", "rows", "chunks"]


def _pandas() -> Any:
    try:
        import pandas
    except ImportError as err:  # pragma: no cover - exercised without the extra
        raise ImportError("tables need pandas: pip install 'synthia[tables]'") from err
    return pandas


def rows(values: list[Any]) -> list[dict[str, Any]]:
    """Each value as a dict of columns (see the module docstring).

    >>> import collections
    >>> rows([{"a": 1}, collections.namedtuple("P", "x y")(1, 2), 7])
    [{'a': 1}, {'x': 1, 'y': 2}, {'value': 7}]
    """
    out = []
    for v in values:
        if isinstance(v, dict):
            out.append(v)
        elif dataclasses.is_dataclass(v) and not isinstance(v, type):
            out.append({f.name: getattr(v, f.name) for f in dataclasses.fields(v)})
        elif isinstance(v, tuple) and hasattr(v, "_asdict"):
            out.append(dict(v._asdict()))
        elif hasattr(type(v), "__attrs_attrs__"):
            out.append({a.name: getattr(v, a.name) for a in type(v).__attrs_attrs__})
        else:
            out.append({"value": v})
    return out


def _columns(picker: Picker[Any]) -> list[str] | None:
    columns = getattr(picker, "columns", None)
    return list(columns) if isinstance(columns, list) else None


def _check(picker: Any, n: Any, chunk_size: Any, progress: Any) -> tuple[int, int]:
    """``n`` and ``chunk_size`` as ints (numpy ints accepted), after checking every argument."""
    check_picker(picker, "picker")
    check_progress(progress)
    return check_count(n, "n"), check_count(chunk_size, "chunk_size", minimum=1)


def chunks(picker: Picker[Any], n: int, chunk_size: int = 10_000, *, progress: bool | None = None) -> Iterator[Any]:
    """``n`` values of ``picker`` as DataFrames of at most ``chunk_size`` rows each (the
    arguments are checked when it is called, not at the first chunk)."""
    n, chunk_size = _check(picker, n, chunk_size, progress)
    return _chunks(picker, n, chunk_size, progress)


def _chunks(picker: Picker[Any], n: int, chunk_size: int, progress: bool | None) -> Iterator[Any]:
    pd = _pandas()
    columns = _columns(picker)
    bar = progress_bar(n, "rows", progress)
    try:
        done = 0
        while done < n:
            values = picker.take(min(chunk_size, n - done))
            if not values:
                break
            frame = pd.DataFrame.from_records(rows(values), columns=columns)
            frame.index = pd.RangeIndex(done, done + len(values))
            done += len(values)
            bar.update(len(values))
            yield frame
    finally:
        bar.close()


def to_dataframe(picker: Picker[Any], n: int, *, chunk_size: int = 10_000, progress: bool | None = None) -> Any:
    """A pandas DataFrame of ``n`` values of ``picker``, one row each.

    >>> import synthia as sy
    >>> people = sy.Struct(dict, name=sy.Choice("ada", "alan"), age=sy.RandomInteger(18, 99)).set_seed(1)
    >>> to_dataframe(people, 3)
       name  age
    0   ada   67
    1  alan   52
    2  alan   55
    """
    pd = _pandas()
    frames = list(chunks(picker, n, chunk_size, progress=progress))
    if not frames:
        return pd.DataFrame(columns=_columns(picker))
    return pd.concat(frames) if len(frames) > 1 else frames[0]


def to_csv(picker: Picker[Any], n: int, path: str | os.PathLike[str], *, chunk_size: int = 10_000, progress: bool | None = None, **options: Any) -> int:
    """Write ``n`` values of ``picker`` to a CSV file in chunks; return the number of rows.

    ``options`` go to :meth:`pandas.DataFrame.to_csv` (``index`` is ``False`` by default).
    """
    path = check_path(path, "path")
    n, chunk_size = _check(picker, n, chunk_size, progress)
    options.setdefault("index", False)
    written = 0
    for i, frame in enumerate(chunks(picker, n, chunk_size, progress=progress)):
        frame.to_csv(path, mode="w" if i == 0 else "a", header=i == 0, **options)
        written += len(frame)
    if written == 0:
        _pandas().DataFrame(columns=_columns(picker)).to_csv(path, **options)
    return written


def to_parquet(picker: Picker[Any], n: int, path: str | os.PathLike[str], *, chunk_size: int = 10_000, progress: bool | None = None) -> int:
    """Write ``n`` values of ``picker`` to a Parquet file (one row group per chunk); return the rows.

    Needs pyarrow (``pip install 'synthia[tables]'``). The schema is the first chunk's.
    """
    path = check_path(path, "path")
    n, chunk_size = _check(picker, n, chunk_size, progress)
    try:
        import pyarrow as pa
        import pyarrow.parquet as pq
    except ImportError as err:  # pragma: no cover - exercised without the extra
        raise ImportError("to_parquet needs pyarrow: pip install 'synthia[tables]'") from err
    writer = None
    written = 0
    try:
        for frame in chunks(picker, n, chunk_size, progress=progress):
            table = pa.Table.from_pandas(frame, preserve_index=False)
            if writer is None:
                writer = pq.ParquetWriter(os.fspath(path), table.schema)
            writer.write_table(table.cast(writer.schema))
            written += len(frame)
    finally:
        if writer is not None:
            writer.close()
    if writer is None:
        pq.write_table(pa.Table.from_pandas(_pandas().DataFrame(columns=_columns(picker))), os.fspath(path))
    return written
