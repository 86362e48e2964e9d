"""Command line: ``python -m synthia tour | sample | explain | bench | migrate`` (``--help`` on each)."""
from __future__ import annotations

import argparse
import csv
import dataclasses
import datetime as dt
import decimal
import fractions
import importlib
import importlib.util
import json
import pathlib
import sys
import time
import uuid
from typing import Any, Callable, TextIO

EXAMPLES = """examples:
  python -m synthia tour
  python -m synthia sample examples/quickstart.py:order_picker -n 5 --seed 1
  python -m synthia sample mypackage.data:orders -n 100000 --format csv -o orders.csv
  python -m synthia explain examples/quickstart.py:order_picker --index 3 --svg order.svg
  python -m synthia bench
  python -m synthia migrate tests/ --diff
"""


def load(target: str) -> Any:
    """The picker named by ``MODULE:NAME`` (a module path or a ``.py`` file; ``NAME`` may be
    a picker or a function of no argument that returns one)."""
    from .core.picker import Picker

    module_name, sep, name = target.rpartition(":")
    if not sep or not module_name or not name:
        raise SystemExit(f"error: expected MODULE:NAME (such as examples/quickstart.py:order_picker), got {target!r}")
    if module_name.endswith(".py") or "/" in module_name:
        path = pathlib.Path(module_name)
        if not path.exists():
            raise SystemExit(f"error: no file {module_name}")
        spec = importlib.util.spec_from_file_location(path.stem, path)
        assert spec and spec.loader
        module = importlib.util.module_from_spec(spec)
        sys.modules[path.stem] = module
        try:
            spec.loader.exec_module(module)
        except Exception as exc:
            raise SystemExit(f"error: running {module_name} raised {type(exc).__name__}: {exc}") from None
    else:
        sys.path.insert(0, ".")
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as exc:
            raise SystemExit(f"error: no module named {exc.name or module_name!r}") from None
        except Exception as exc:
            raise SystemExit(f"error: importing {module_name} raised {type(exc).__name__}: {exc}") from None
    try:
        obj = getattr(module, name)
    except AttributeError:
        raise SystemExit(f"error: {module_name} has no {name!r}") from None
    if callable(obj) and not isinstance(obj, Picker):
        import inspect

        try:
            inspect.signature(obj).bind()
        except TypeError:
            raise SystemExit(f"error: {target} takes arguments: give a picker, or a function of no argument that returns one") from None
        except ValueError:
            pass  # no signature to check (a builtin): call it
        try:
            obj = obj()
        except Exception as exc:
            raise SystemExit(f"error: calling {target} raised {_one_line(exc)}") from None
    if not isinstance(obj, Picker):
        raise SystemExit(f"error: {target} is not a picker (got {type(obj).__name__})")
    return obj


def _jsonable(value: Any) -> Any:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _jsonable(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, tuple) and hasattr(value, "_asdict"):
        return {k: _jsonable(v) for k, v in value._asdict().items()}
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        return [_jsonable(v) for v in value]
    if isinstance(value, (dt.date, dt.time, dt.timedelta, uuid.UUID, decimal.Decimal, fractions.Fraction, bytes)):
        return str(value)
    if hasattr(value, "tolist"):
        return value.tolist()
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    return repr(value)


def sample(picker: Any, n: int, fmt: str, out: TextIO, progress: bool | None = None) -> int:
    """Write ``n`` values of ``picker`` to ``out`` as JSON lines or CSV; return how many."""
    from .engine.progress import progress_bar
    from .integrations.tables import rows

    bar = progress_bar(n, "values", progress)
    written = 0
    writer: csv.DictWriter[str] | None = None
    try:
        for chunk_start in range(0, n, 10_000):
            values = _picks(picker, min(10_000, n - chunk_start))
            if not values:
                break
            if fmt == "jsonl":
                out.writelines(json.dumps(_jsonable(v), ensure_ascii=False) + "\n" for v in values)
            else:
                records = [{k: _cell(v) for k, v in r.items()} for r in rows(values)]
                if writer is None:
                    writer = csv.DictWriter(out, fieldnames=list(records[0]), lineterminator="\n")
                    writer.writeheader()
                writer.writerows(records)
            written += len(values)
            bar.update(len(values))
    finally:
        bar.close()
    return written


def _one_line(error: BaseException) -> str:
    """``Type: message`` on one line (a long message is cut)."""
    text = " ".join(str(error).split())
    if len(text) > 300:
        text = text[:297] + "..."
    return f"{type(error).__name__}: {text}" if text else type(error).__name__


def _picks(picker: Any, n: int) -> list[Any]:
    """``n`` values of ``picker``; a picker that raises (the user's wiring, a function it
    calls) ends the command with one line saying so, not a traceback."""
    try:
        return picker.take(n)  # type: ignore[no-any-return]
    except Exception as exc:
        raise SystemExit(f"error: the picker {_short(picker)} raised {_one_line(exc)}") from None


def _short(picker: Any) -> str:
    text = repr(picker)
    return text if len(text) <= 60 else text[:57] + "..."


def _cannot_write(where: str, exc: OSError) -> SystemExit:
    """The one-line error of a write that failed (a full disk, a closed pipe, a path under a file)."""
    return SystemExit(f"error: cannot write {where}: {exc.strerror or exc}")


def _write_to_stdout(write: Callable[[TextIO], Any]) -> None:
    """``write(sys.stdout)`` and flush it; an I/O error (a full disk behind a redirection)
    ends the command with one line, and standard output is pointed at nothing so that
    Python's own flush at exit does not fail again."""
    try:
        write(sys.stdout)
        sys.stdout.flush()
    except BrokenPipeError:
        raise
    except OSError as exc:
        _quiet_stdout()
        raise _cannot_write("standard output", exc) from None


def _quiet_stdout() -> None:
    import os

    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):  # not a real file (captured): nothing to flush at exit
        pass


def _cell(value: Any) -> Any:
    plain = _jsonable(value)
    return json.dumps(plain, ensure_ascii=False) if isinstance(plain, (list, dict)) else plain


def bench(target: str | None, n: int, out: TextIO) -> None:
    """Picks per second of a few standard wirings (and of ``target`` if given)."""
    import synthia as sy

    wirings: list[tuple[str, Any]] = [
        ("RandomInteger(0, 100)", sy.RandomInteger(0, 100)),
        ("ComposeList(RandomInteger, 0-20)", sy.ComposeList(sy.RandomInteger(0, 1000), sy.RandomInteger(0, 21))),
        ("Struct of a person", sy.Struct(dict, name=sy.Choice("ada", "alan", "grace"), age=sy.RandomInteger(0, 100), born=sy.RandomDate())),
        ("RandomText(10)", sy.RandomText(10)),
    ]
    if target:
        wirings.append((target, load(target)))
    print(f"{'wiring':45} {'picks/s':>12}", file=out)
    for name, picker in wirings:
        picker.set_seed(1)
        start = time.perf_counter()
        _picks(picker, n)
        rate = n / max(time.perf_counter() - start, 1e-9)
        print(f"{name[:45]:45} {rate:12,.0f}", file=out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m synthia",
        description="synthia: test inputs and synthetic data from pickers wired together.",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    tour = sub.add_parser("tour", help="a guided walk through real wirings and their values")
    tour.add_argument("--chapter", help="run only the chapters whose module name contains this text")

    sample_cmd = sub.add_parser("sample", help="print values of a picker as JSON lines or CSV")
    sample_cmd.add_argument("target", metavar="MODULE:NAME", help="a picker, or a function returning one (module or file.py)")
    sample_cmd.add_argument("-n", type=int, default=10, help="how many values (default 10)")
    sample_cmd.add_argument("--seed", type=int, default=0, help="the seed of the wiring (default 0): the same seed, the same values")
    sample_cmd.add_argument("--format", choices=["jsonl", "csv"], default="jsonl", help="one JSON value per line, or CSV rows (records become columns)")
    sample_cmd.add_argument("-o", "--output", help="write to this file instead of standard output")

    explain_cmd = sub.add_parser("explain", help="explain one value of a picker down to the draws that made it")
    explain_cmd.add_argument("target", metavar="MODULE:NAME", help="a picker, or a function returning one")
    explain_cmd.add_argument("--index", type=int, default=0, help="which value (0-based, default 0)")
    explain_cmd.add_argument("--seed", type=int, default=0, help="the seed of the wiring (default 0)")
    explain_cmd.add_argument("--svg", metavar="PATH", help="also draw the explanation graph to this file, in the format its suffix chooses (.svg, .png, .pdf need graphviz's dot; .dot writes the DOT source)")

    bench_cmd = sub.add_parser("bench", help="picks per second of standard wirings (and of MODULE:NAME)")
    bench_cmd.add_argument("target", nargs="?", metavar="MODULE:NAME", help="a picker to measure too")
    bench_cmd.add_argument("-n", type=int, default=20_000, help="picks per wiring (default 20000)")

    migrate_cmd = sub.add_parser("migrate", help="rewrite Hypothesis tests as synthia tests (needs libcst: pip install 'synthia[migrate]')")
    migrate_cmd.add_argument("paths", nargs="+", metavar="FILE_OR_DIR", help="Python files, or directories searched for them")
    migrate_cmd.add_argument("--diff", action="store_true", help="print the changes as a unified diff instead of writing them")
    migrate_cmd.add_argument("--check", action="store_true", help="write nothing; exit with status 1 if a file would change")

    args = parser.parse_args(argv)
    if args.command == "tour":
        from .tour import run

        run(only=args.chapter)
        return 0
    if args.command == "sample":
        if args.n < 0:
            parser.error(f"-n must be >= 0, got {args.n}")
        picker = load(args.target).set_seed(args.seed)
        if args.output:
            try:
                with open(args.output, "w", encoding="utf-8", newline="") as out:
                    sample(picker, args.n, args.format, out)
            except OSError as exc:  # cannot open it, or the disk is full
                raise _cannot_write(args.output, exc) from None
        else:
            _write_to_stdout(lambda out: sample(picker, args.n, args.format, out))
        return 0
    if args.command == "explain":
        from .explain import explain, recording

        if args.index < 0:
            parser.error(f"--index must be >= 0, got {args.index}")
        picker = load(args.target).set_seed(args.seed)
        with recording(picker):
            values = _picks(picker, args.index + 1)
        if len(values) <= args.index:
            raise SystemExit(f"error: the picker ended after {len(values)} values")
        explanation = explain(picker, args.index)
        _write_to_stdout(lambda out: print(f"value #{args.index}: {values[-1]!r}\n{explanation.describe()}", file=out))
        if args.svg:
            from .explain import RenderError

            try:
                path = explanation.render(args.svg)
            except OSError as exc:
                raise _cannot_write(args.svg, exc) from None
            except (RenderError, ValueError) as exc:  # no `dot` program, a suffix it cannot write
                raise SystemExit(f"error: {exc}") from None
            print(f"graph written to {path}")
        return 0
    if args.command == "bench":
        if args.n < 1:
            parser.error(f"-n must be >= 1, got {args.n}")
        _write_to_stdout(lambda out: bench(args.target, args.n, out))
        return 0
    if args.command == "migrate":
        from .integrations.migrate import migrate_command

        return migrate_command(args.paths, diff=args.diff, check=args.check)
    # No command: the usage, on standard error, and the exit status of a usage error.
    parser.print_usage(sys.stderr)
    print(f"{parser.prog}: error: give a command (tour, sample, explain, bench, migrate); --help says more", file=sys.stderr)
    return 2


def run(argv: list[str] | None = None) -> int:
    """:func:`main`, ending quietly when the reader of standard output goes away
    (``python -m synthia sample ... | head``)."""
    try:
        return main(argv)
    except BrokenPipeError:
        # Python would print an error while flushing at exit: point stdout at nothing first.
        _quiet_stdout()
        return 0
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(run())
