"""Run every benchmark: ``python benchmarks/run.py`` (``--quick`` for a fast smoke run).

Each ``benchmarks/bench_*.py`` module exposes ``run(quick: bool) -> None`` and prints
its own table; every figure is a ratio against a baseline measured in the same run,
so the numbers compare across machines. See docs/benchmarks.md.
"""
from __future__ import annotations

import argparse
import importlib.util
import pathlib
import platform
import sys

HERE = pathlib.Path(__file__).resolve().parent


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="few repetitions: checks the benchmarks run")
    parser.add_argument("only", nargs="*", help="run only the bench_*.py modules whose name contains one of these")
    args = parser.parse_args(argv)
    sys.path.insert(0, str(HERE))
    print(f"python {platform.python_version()} on {platform.machine()} ({'quick' if args.quick else 'full'} run)")
    for path in sorted(HERE.glob("bench_*.py")):
        if args.only and not any(word in path.stem for word in args.only):
            continue
        spec = importlib.util.spec_from_file_location(path.stem, path)
        assert spec and spec.loader
        module = importlib.util.module_from_spec(spec)
        sys.modules[path.stem] = module  # (dataclasses with string annotations look their module up)
        spec.loader.exec_module(module)
        print(f"\n## {path.stem}")
        module.run(args.quick)
    return 0


if __name__ == "__main__":
    sys.exit(main())
