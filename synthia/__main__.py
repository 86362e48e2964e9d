"""Command line: ``python -m synthia tour`` runs the guided tour."""
from __future__ import annotations

import argparse
import sys


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m synthia", description="synthia command line")
    sub = parser.add_subparsers(dest="command")
    tour = sub.add_parser("tour", help="a guided walk through real wirings and their values")
    tour.add_argument("--chapter", help="run only the chapters whose module name contains this text")
    args = parser.parse_args(argv)
    if args.command == "tour":
        from .tour import run

        run(only=args.chapter)
        return 0
    parser.print_help()
    return 0


if __name__ == "__main__":
    sys.exit(main())
