"""The command line: sample, explain, bench, tour, and help that reads well."""
from __future__ import annotations

import csv
import errno
import io
import json
import os
import pathlib
import shutil
import subprocess
import sys

import pytest

from synthia.__main__ import main

ROOT = pathlib.Path(__file__).resolve().parent.parent
QUICKSTART = f"{ROOT / 'examples' / 'quickstart.py'}:order_picker"

WIRINGS = '''
import datetime, synthia as sy
people = sy.Struct(dict, name=sy.Choice("ada", "alan"), born=sy.RandomDate(), id=sy.Tick())
def counter():
    return sy.Tick()
not_a_picker = 3
'''


@pytest.fixture()
def module(tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch) -> str:
    (tmp_path / "my_wirings.py").write_text(WIRINGS)
    monkeypatch.syspath_prepend(str(tmp_path))
    return "my_wirings"


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    assert main(args) == 0
    return capsys.readouterr().out


def test_sample_jsonl_is_seeded(module: str, capsys: pytest.CaptureFixture[str]) -> None:
    out = run(["sample", f"{module}:people", "-n", "4", "--seed", "3"], capsys)
    lines = [json.loads(l) for l in out.splitlines()]
    assert len(lines) == 4 and [l["id"] for l in lines] == [0, 1, 2, 3]
    assert all(l["name"] in ("ada", "alan") and len(l["born"]) == 10 for l in lines)
    assert run(["sample", f"{module}:people", "-n", "4", "--seed", "3"], capsys) == out
    assert run(["sample", f"{module}:people", "-n", "4", "--seed", "4"], capsys) != out


def test_sample_csv_to_a_file_and_a_function_target(module: str, tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "people.csv"
    run(["sample", f"{module}:people", "-n", "25", "--format", "csv", "-o", str(target)], capsys)
    rows = list(csv.DictReader(target.open()))
    assert len(rows) == 25 and list(rows[0]) == ["name", "born", "id"] and rows[-1]["id"] == "24"
    assert run(["sample", f"{module}:counter", "-n", "3", "--format", "csv"], capsys) == "value\n0\n1\n2\n"


def test_sample_a_file_path_target(capsys: pytest.CaptureFixture[str]) -> None:
    out = run(["sample", QUICKSTART, "-n", "2"], capsys)
    assert [json.loads(l)["id"] for l in out.splitlines()] == [1000, 1001]


def test_bad_targets_say_what_is_wrong(module: str) -> None:
    with pytest.raises(SystemExit, match="MODULE:NAME"):
        main(["sample", "nothing"])
    with pytest.raises(SystemExit, match="no 'missing'"):
        main(["sample", f"{module}:missing"])
    with pytest.raises(SystemExit, match="not a picker"):
        main(["sample", f"{module}:not_a_picker"])


def test_explain_prints_the_value_and_its_explanation(module: str, tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str]) -> None:
    svg = tmp_path / "x.svg"
    args = ["explain", f"{module}:people", "--index", "3"] + (["--svg", str(svg)] if shutil.which("dot") else [])
    out = run(args, capsys)
    assert out.startswith("value #3: {'name'") and "RandomDate" in out
    if shutil.which("dot"):
        assert svg.read_text().lstrip().startswith(("<?xml", "<svg"))


def test_bench_reports_rates(module: str, capsys: pytest.CaptureFixture[str]) -> None:
    out = run(["bench", f"{module}:counter", "-n", "500"], capsys)
    assert "picks/s" in out and f"{module}:counter" in out and len(out.splitlines()) == 6


def test_help_lists_every_command_with_examples() -> None:
    done = subprocess.run([sys.executable, "-m", "synthia", "--help"], capture_output=True, text=True, check=True)
    for word in ("tour", "sample", "explain", "bench", "examples:", "MODULE:NAME"):
        assert word in done.stdout
    sample_help = subprocess.run([sys.executable, "-m", "synthia", "sample", "--help"], capture_output=True, text=True, check=True)
    assert "--format {jsonl,csv}" in sample_help.stdout and "--seed" in sample_help.stdout


def test_the_tour_still_runs() -> None:
    done = subprocess.run([sys.executable, "-m", "synthia", "tour", "--chapter", "core"], capture_output=True, text=True, check=True)
    assert done.stdout.strip()


def _cli(*args: str, cwd: pathlib.Path = ROOT) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "synthia", *args], capture_output=True, text=True, cwd=cwd, timeout=120)


def test_usage_errors_print_one_error_line_and_exit_non_zero(tmp_path: pathlib.Path) -> None:
    (tmp_path / "wirings.py").write_text("import synthia as sy\ndef sized(n):\n    return sy.Tick()\n")
    (tmp_path / "a_file").write_text("")  # a path under a file cannot be written
    cases = [
        (["sample", "no_such_module:x"], "error: no module named 'no_such_module'"),
        (["sample", QUICKSTART, "-o", str(tmp_path / "a_file" / "out.jsonl")], "error: cannot write"),
        (["explain", QUICKSTART, "--svg", str(tmp_path / "a_file" / "graph.svg")], "error: cannot write"),
        (["sample", f"{tmp_path / 'wirings.py'}:sized"], "takes arguments: give a picker, or a function of no argument"),
        (["sample", QUICKSTART, "-n", "-5"], "error: -n must be >= 0, got -5"),
        (["bench", "-n", "-5"], "error: -n must be >= 1, got -5"),
    ]
    for args, said in cases:
        done = _cli(*args)
        assert done.returncode != 0, args
        assert said in done.stderr and "Traceback" not in done.stderr, (args, done.stderr)


def test_sample_piped_into_head_ends_quietly() -> None:
    command = f"{sys.executable} -m synthia sample {QUICKSTART} -n 200000 | head -n 2"
    done = subprocess.run(["bash", "-c", f"set -o pipefail; {command}"], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert done.returncode == 0 and len(done.stdout.splitlines()) == 2 and done.stderr == ""


# -- issue 31: no traceback for a user's mistake or an I/O error ----------------------------------
MISTAKES = """
import synthia as sy
def broken():
    raise RuntimeError("no database here")
divides = sy.Apply(lambda x: 1 // x, sy.RandomInteger(0, 3))
"""


def test_no_command_prints_the_usage_and_exits_2() -> None:
    done = _cli()
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith("usage: python -m synthia") and "error: give a command" in done.stderr
    assert "Traceback" not in done.stderr


def test_a_target_that_raises_is_one_line_and_a_non_zero_exit(tmp_path: pathlib.Path) -> None:
    (tmp_path / "mistakes.py").write_text(MISTAKES)
    target = str(tmp_path / "mistakes.py")
    cases = [
        (["sample", f"{target}:broken"], f"error: calling {target}:broken raised RuntimeError: no database here"),
        (["sample", f"{target}:divides", "-n", "50"], "error: the picker Apply(<lambda>, RandomInteger(0, 3)) raised ZeroDivisionError: integer division or modulo by zero"),
        (["explain", f"{target}:divides", "--index", "40"], "raised ZeroDivisionError"),
        (["bench", f"{target}:divides", "-n", "200"], "raised ZeroDivisionError"),
        (["sample", f"{target}:missing"], "has no 'missing'"),
        (["sample", QUICKSTART, "--format", "xml"], "invalid choice: 'xml'"),
        (["sample", QUICKSTART, "-n", "many"], "invalid int value: 'many'"),
    ]
    for args, said in cases:
        done = _cli(*args)
        assert done.returncode != 0, args
        assert "Traceback" not in done.stderr, (args, done.stderr)
        assert said in done.stderr.splitlines()[-1], (args, done.stderr)  # the last line says it


@pytest.mark.parametrize("where", [[], ["-o", "/dev/full"]])
def test_a_full_disk_is_one_line_and_a_non_zero_exit(where: list[str]) -> None:
    with open("/dev/full", "w") as full:
        done = subprocess.run([sys.executable, "-m", "synthia", "sample", QUICKSTART, "-n", "2000", *where], stdout=full, stderr=subprocess.PIPE, text=True, cwd=ROOT, timeout=120)
    assert done.returncode == 1
    assert done.stderr.strip().splitlines() == [f"error: cannot write {'/dev/full' if where else 'standard output'}: No space left on device"]


class _FullDisk(io.StringIO):
    """A file object that fails as a full disk does (ENOSPC on every write)."""

    def write(self, text: str) -> int:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


def test_a_write_that_fails_in_process_says_so(monkeypatch: pytest.MonkeyPatch, module: str) -> None:
    monkeypatch.setattr(sys, "stdout", _FullDisk())
    for args in (["sample", f"{module}:people", "-n", "3"], ["bench", "-n", "10"], ["explain", f"{module}:people"]):
        with pytest.raises(SystemExit, match="^error: cannot write standard output: No space left on device$"):
            main(args)


def test_explain_without_graphviz_or_with_an_unknown_suffix_is_one_line(module: str, tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    from synthia.explain import rendering

    with pytest.raises(SystemExit, match=r"^error: path must end with a suffix that chooses the format .*got 'graph.txt'$"):
        main(["explain", f"{module}:people", "--svg", str(tmp_path / "graph.txt")])
    dot = tmp_path / "graph.dot"
    assert main(["explain", f"{module}:people", "--svg", str(dot)]) == 0 and dot.read_text().startswith("digraph")
    monkeypatch.setattr(rendering.shutil, "which", lambda name: None)
    with pytest.raises(SystemExit, match=r"^error: rendering graph.png needs Graphviz's `dot` program"):
        main(["explain", f"{module}:people", "--svg", str(tmp_path / "graph.png")])
