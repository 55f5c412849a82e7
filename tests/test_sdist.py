"""The source distribution tests itself: unpacked anywhere, its own tests build a test root.

Also the publishing checks a maintainer runs before an upload: licence files in both
artefacts, metadata that renders (``twine check --strict``).
"""

from __future__ import annotations

import os
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def dist(tmp_path_factory) -> Path:
    outdir = tmp_path_factory.mktemp("dist")
    subprocess.run(
        [sys.executable, "-m", "build", "--no-isolation", "--outdir", str(outdir), str(ROOT)],
        check=True,
        capture_output=True,
    )
    return outdir


@pytest.fixture(scope="module")
def unpacked(dist: Path, tmp_path_factory) -> Path:
    (sdist,) = dist.glob("*.tar.gz")
    target = tmp_path_factory.mktemp("sdist")
    with tarfile.open(sdist) as archive:
        archive.extractall(target, filter="data")  # Python 3.11.4 and later
    (tree,) = target.iterdir()
    return tree


def test_twine_check_strict_passes(dist: Path):
    artefacts = sorted(str(path) for path in dist.iterdir())
    assert len(artefacts) == 2  # the sdist and the wheel
    done = subprocess.run(
        [sys.executable, "-m", "twine", "check", "--strict", *artefacts], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.count("PASSED") == 2


def test_sdist_carries_licence_changelog_and_the_whole_test_suite(unpacked: Path):
    for name in ("LICENSE", "NOTICE", "CHANGELOG.md", "README.md", "pyproject.toml"):
        assert (unpacked / name).is_file(), name
    assert "Apache License" in (unpacked / "LICENSE").read_text(encoding="utf-8")
    tests = unpacked / "tests"
    for name in ("conftest.py", "hostile_data.py", "browser_fixture/index.html", "roots/test-basic-md/conf.py"):
        assert (tests / name).is_file(), name
    ours = {path.relative_to(ROOT / "tests") for path in (ROOT / "tests").rglob("*") if _shipped(path)}
    shipped = {path.relative_to(tests) for path in tests.rglob("*") if _shipped(path)}
    assert ours <= shipped, sorted(map(str, ours - shipped))
    assert (unpacked / "tools" / "make_seed_fixtures.py").is_file()


def test_unpacked_sdist_runs_its_own_tests(unpacked: Path):
    """A module that builds a root, and the damaged-file fixtures: nothing from outside the tree."""
    env = {**os.environ, "PYTHONPATH": str(unpacked)}
    located = subprocess.check_output(
        [sys.executable, "-c", "import sphinxcontrib_mlglossary as m; print(m.__file__)"],
        cwd=unpacked,
        env=env,
        text=True,
    )
    assert located.startswith(str(unpacked))
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-p",
            "no:cacheprovider",
            "-q",
            "tests/test_build.py",
            "tests/test_import_markdown.py",
            "tests/test_encoding.py",
            "-k",
            "inventory and basic-md or seed",
        ],
        cwd=unpacked,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    summary = done.stdout.strip().splitlines()[-1]
    assert "skipped" not in summary and "passed" in summary, summary
    passed = int(summary.split(" passed")[0].split()[-1])
    assert passed >= 12  # the inventory build and the seed stand-ins of both modules


def _shipped(path: Path) -> bool:
    return path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc"
