"""The Hypothesis bridge on the oldest and the newest Hypothesis that setup.cfg allows.

The bridge uses parts of Hypothesis that Hypothesis calls internal, so the extra pins a range
of versions; this runs ``tests/test_hypothesis_bridge.py`` on both ends of the range, each
version installed with pip into a directory of its own (PyPI is needed, as for installing
the project) and put first on the path of a fresh process.
"""
from __future__ import annotations

import configparser
import os
import pathlib
import re
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent


def allowed_range() -> tuple[str, str]:
    """``(lowest, below)`` of the ``hypothesis>=lowest,<below`` requirement of setup.cfg's
    ``hypothesis`` extra (the test extra must require the same)."""
    config = configparser.ConfigParser()
    config.read(ROOT / "setup.cfg")
    extras = config["options.extras_require"]
    requirements = {extra: [line.strip() for line in extras[extra].splitlines() if line.strip().startswith("hypothesis")] for extra in ("hypothesis", "test")}
    assert requirements["hypothesis"] == requirements["test"], requirements
    match = re.fullmatch(r"hypothesis>=([\d.]+),<([\d.]+)", requirements["hypothesis"][0])
    assert match, f"the hypothesis extra must pin a range, got {requirements['hypothesis']}"
    return match.group(1), match.group(2)


def test_the_extra_pins_a_range_of_versions() -> None:
    lowest, below = allowed_range()
    assert _release(lowest) < _release(below)


@pytest.mark.parametrize("end", ["oldest", "newest"])
def test_the_bridge_passes_its_tests_on_both_ends_of_the_range(end: str, tmp_path: pathlib.Path) -> None:
    lowest, below = allowed_range()
    requirement = f"hypothesis=={lowest}" if end == "oldest" else f"hypothesis>={lowest},<{below}"
    target = tmp_path / "site"
    install = subprocess.run(
        [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--disable-pip-version-check", "--target", str(target), requirement],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert install.returncode == 0, f"pip could not install {requirement}:\n{install.stderr}"
    (installed,) = [p.name for p in target.glob("hypothesis-*.dist-info")]
    version = installed.removeprefix("hypothesis-").removesuffix(".dist-info")
    environment = {"PYTHONPATH": f"{target}{os.pathsep}{ROOT}", "PATH": os.environ.get("PATH", ""), "HOME": str(tmp_path)}
    run = subprocess.run(
        [sys.executable, "-c", "import hypothesis; print(hypothesis.__version__)"],
        capture_output=True, text=True, env=environment, timeout=120,
    )
    assert run.stdout.strip() == version, run.stderr
    tests = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:randomly", "-p", "no:cacheprovider", str(ROOT / "tests" / "test_hypothesis_bridge.py")],
        capture_output=True, text=True, env=environment, cwd=tmp_path, timeout=1200,
    )
    assert tests.returncode == 0, f"the bridge's tests fail on Hypothesis {version}:\n{tests.stdout[-4000:]}\n{tests.stderr[-2000:]}"
    if end == "oldest":
        assert _release(version) == _release(lowest)


def _release(version: str) -> tuple[int, ...]:
    """``"6.150"`` and ``"6.150.0"`` alike: ``(6, 150, 0)``."""
    numbers = tuple(int(part) for part in version.split("."))
    return numbers + (0,) * (3 - len(numbers))
