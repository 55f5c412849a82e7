"""The built wheel carries its data: install it into a fresh venv and build a project with it."""

from __future__ import annotations

import os
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    outdir = tmp_path_factory.mktemp("dist")
    subprocess.run(
        [sys.executable, "-m", "build", "--wheel", "--no-isolation", "--outdir", str(outdir), str(ROOT)],
        check=True,
        capture_output=True,
    )
    (built,) = outdir.glob("*.whl")
    return built


def test_wheel_contains_package_data(wheel: Path):
    names = set(zipfile.ZipFile(wheel).namelist())
    for language in ("en",):
        assert f"sphinxcontrib_mlglossary/glossaries/{language}.toml" in names
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
