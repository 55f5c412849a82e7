"""What a maintainer uploads: the sdist and the wheel, built once (the wheel from the sdist).

The wheel carries its data and licence files and builds a project from a fresh venv; the
sdist carries the whole test suite and its tests run unpacked, with nothing from outside it;
both pass ``twine check --strict``. One module, so that parallel test workers never run two
builds in the source tree at once.
"""

from __future__ import annotations

import os
import subprocess
import sys
import sysconfig
import tarfile
import zipfile
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
def wheel(dist: Path) -> Path:
    (built,) = dist.glob("*.whl")
    return built


def test_wheel_contains_package_data(wheel: Path):
    names = set(zipfile.ZipFile(wheel).namelist())
    for language in ("en",):
        assert f"sphinxcontrib_mlglossary/glossaries/{language}.toml" in names
    # what builds use instead of parsing: stored bodies and the data file's tables
    for language in ("en", "es", "ar"):
        assert f"sphinxcontrib_mlglossary/glossaries/prerendered/{language}.json" in names
        assert f"sphinxcontrib_mlglossary/glossaries/prerendered/{language}.tables.json" in names
    assert "sphinxcontrib_mlglossary/py.typed" in names


def test_wheel_carries_license_and_notice(wheel: Path):
    archive = zipfile.ZipFile(wheel)
    licenses = {Path(name).name: name for name in archive.namelist() if ".dist-info/licenses/" in name}
    assert set(licenses) == {"LICENSE", "NOTICE"}
    assert "Apache License" in archive.read(licenses["LICENSE"]).decode()
    assert "Hugging Face Transformers" in archive.read(licenses["NOTICE"]).decode()
    metadata = archive.read(next(n for n in archive.namelist() if n.endswith(".dist-info/METADATA"))).decode()
    assert "License-Expression: Apache-2.0" in metadata
    assert "License-File: NOTICE" in metadata


def test_fresh_venv_builds_a_project(wheel: Path, tmp_path: Path):
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    python = venv / "bin" / "python"
    env = {**os.environ, "PYTHONPATH": ""}  # a source tree on PYTHONPATH would hide the wheel
    subprocess.run([str(python), "-m", "pip", "install", "--quiet", "--no-deps", str(wheel)], check=True, env=env)
    # Dependencies (Sphinx, MyST) come from this environment, without network; our package
    # must come from the wheel, not from the source tree.
    site = Path(
        subprocess.check_output(
            [str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"], text=True
        ).strip()
    )
    (site / "zz_test_deps.pth").write_text(sysconfig.get_path("purelib") + "\n")
    located = subprocess.check_output(
        [str(python), "-c", "import sphinxcontrib_mlglossary as m; print(m.__file__)"], text=True, cwd=tmp_path, env=env
    )
    assert located.startswith(str(venv))

    project = tmp_path / "project"
    project.mkdir()
    (project / "conf.py").write_text('extensions = ["myst_parser", "sphinxcontrib_mlglossary"]\n')
    (project / "index.md").write_text("# Home\n\n```{toctree}\nglossary\n```\n\nSee {term}`attention mask`.\n")
    (project / "glossary.md").write_text("# Glossary\n\n```{mlglossary}\n```\n")
    subprocess.run(
        [str(python), "-m", "sphinx", "-W", "-q", "-b", "html", str(project), str(project / "_build")],
        check=True,
        cwd=tmp_path,
        env=env,
    )
    html = (project / "_build" / "index.html").read_text()
    assert 'href="glossary.html#term-attention-mask"' in html


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
    for language in ("es", "ar"):  # the documentation's translations, as sources only
        catalogs = {
            path.relative_to(unpacked / "docs" / "locales" / language)
            for path in (unpacked / "docs" / "locales" / language).rglob("*.po")
        }
        assert Path("LC_MESSAGES/reference/configuration.po") in catalogs, language
    assert not list((unpacked / "docs").rglob("*.mo")) + list((unpacked / "example_docs").rglob("*.mo"))


def test_long_description_has_no_link_that_breaks_off_the_repository(wheel: Path):
    """The README is the package's page on the index: a relative link or picture there points nowhere."""
    from email.parser import Parser

    from markdown_it import MarkdownIt

    with zipfile.ZipFile(wheel) as archive:
        [metadata] = [name for name in archive.namelist() if name.endswith(".dist-info/METADATA")]
        message = Parser().parsestr(archive.read(metadata).decode("utf-8"))
    assert message["Description-Content-Type"] == "text/markdown"
    description = message.get_payload()
    assert description.startswith("# sphinxcontrib-mlglossary")
    relative = []
    for token in MarkdownIt("commonmark").parse(description):
        for child in [token, *(token.children or [])]:
            target = child.attrGet("href") or child.attrGet("src")
            if target is not None and not str(target).startswith("https://"):
                relative.append(target)
    assert "<img" not in description and relative == []


def test_unpacked_sdist_runs_its_own_tests(unpacked: Path):
    """A module that builds a root, the damaged-file fixtures and the documentation in its three
    languages: nothing from outside the tree."""
    # the outer run's PYTEST_ADDOPTS (``--durations``, ``--junitxml``, ``-m``) is not the
    # inner run's: its summary line is what is read below
    env = {**os.environ, "PYTHONPATH": str(unpacked)}
    env.pop("PYTEST_ADDOPTS", None)
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
            "tests/test_docs_translations.py",
            "-k",
            "inventory and basic-md or seed or each_language_builds",
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
    assert passed >= 15  # the inventory build, the seed stand-ins of both modules, the docs in en, es, ar


def _shipped(path: Path) -> bool:
    return path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc"
