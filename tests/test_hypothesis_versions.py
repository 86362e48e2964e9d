"""The Hypothesis bridge on the oldest and the newest Hypothesis that setup.cfg allows.

The bridge uses Hypothesis internals (see docs/integrations.md), so the extras pin a range of
versions; this test installs each end of the range into a temporary folder (from the package
index, nothing cached between runs) and runs ``tests/test_hypothesis_bridge.py`` on it.
"""
from __future__ import annotations

import configparser
import os
import pathlib
import subprocess
import sys

import pytest
from packaging.requirements import Requirement
from packaging.version import Version

ROOT = pathlib.Path(__file__).resolve().parent.parent


def allowed_hypothesis() -> list[Requirement]:
    """The Hypothesis requirement of each extra that names it."""
    config = configparser.ConfigParser()
    config.read(ROOT / "setup.cfg", encoding="utf-8")
    lines = (line.strip() for extra in config["options.extras_require"].values() for line in extra.splitlines())
    return [Requirement(line) for line in lines if line and Requirement(line).name == "hypothesis"]


def ends_of_the_range() -> tuple[str, str]:
    (requirement,) = set(map(str, allowed_hypothesis()))
    bounds = {spec.operator: spec.version for spec in Requirement(requirement).specifier}
    return bounds[">="], bounds["<="]


def test_every_extra_pins_the_same_closed_range_of_hypothesis_versions() -> None:
    requirements = allowed_hypothesis()
    assert len(requirements) >= 2  # the hypothesis extra and the test extra
    assert len(set(map(str, requirements))) == 1, requirements
    oldest, newest = ends_of_the_range()
    assert Version(oldest) < Version(newest)


@pytest.mark.parametrize("end", ["oldest", "newest"])
def test_the_bridge_tests_pass_on_each_end_of_the_allowed_range(end: str, tmp_path: pathlib.Path) -> None:
    version = dict(zip(["oldest", "newest"], ends_of_the_range()))[end]
    target = tmp_path / "site"
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-cache-dir", "--target", str(target), f"hypothesis=={version}"],
        check=True, timeout=300,
    )
    # Hypothesis is imported first, from the folder, and its version checked, so that the
    # bridge's tests cannot run on another one (say the one installed beside pytest).
    runner = (
        "import sys, hypothesis, pytest\n"
        f"assert hypothesis.__file__.startswith({str(target)!r}), hypothesis.__file__\n"
        f"assert hypothesis.__version__.split('.')[:len({version!r}.split('.'))] == {version!r}.split('.'), hypothesis.__version__\n"
        "sys.exit(pytest.main(['-q', '-p', 'no:randomly', '-p', 'no:cacheprovider', 'tests/test_hypothesis_bridge.py']))\n"
    )
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(target), str(ROOT)])}
    done = subprocess.run([sys.executable, "-c", runner], cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, f"the bridge's tests on hypothesis=={version}:\n{done.stdout[-4000:]}\n{done.stderr[-2000:]}"
    assert " passed" in done.stdout.splitlines()[-1] and " failed" not in done.stdout.splitlines()[-1]
