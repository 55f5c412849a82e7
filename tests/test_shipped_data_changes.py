"""An upgrade of the package changes the shipped glossary: an incremental build follows it.

The glossary page depends on the shipped data file, as it does on a ``:source:`` file,
so Sphinx reads it again when the file is newer; entries added by the new version then
appear without a clean build, and the page equals the one a clean build writes.
"""

from __future__ import annotations

import os
import shutil

import pytest

from sphinxcontrib_mlglossary import directives, loader

from .conftest import read_html

PROBE = '''
[[term]]
id = "zzz-probe"
name = "zzz probe"
abbreviations = []
aliases = []
autolink = []
summary = "An entry that only a newer version of the shipped data holds, to see builds pick it up."
tags = ["general"]
see_also = []
body = """
Added by the test after the first build.
"""
'''


@pytest.fixture
def shipped(tmp_path, monkeypatch):
    """The shipped English data, copied where the test may change it."""
    folder = tmp_path / "shipped"
    folder.mkdir()
    shutil.copy(loader.bundled_path("en"), folder / "en.toml")

    def bundled_path(language: str):
        return folder / f"{language}.toml"

    monkeypatch.setattr(loader, "bundled_path", bundled_path)
    monkeypatch.setattr(directives, "bundled_path", bundled_path)
    loader.bundled_glossary.cache_clear()
    yield folder / "en.toml"
    loader.bundled_glossary.cache_clear()


def _project(root):
    (root / "conf.py").write_text('extensions = ["myst_parser", "sphinxcontrib_mlglossary"]\n', encoding="utf-8")
    (root / "index.md").write_text(
        "# Home\n\n```{toctree}\nglossary\n```\n\nBatches need an {term}`attention mask`.\n", encoding="utf-8"
    )
    (root / "glossary.md").write_text("# Glossary\n\n```{mlglossary}\n```\n", encoding="utf-8")


def test_an_entry_added_to_the_shipped_data_appears_on_an_incremental_build(make_app, tmp_path, shipped):
    src = tmp_path / "src"
    src.mkdir()
    _project(src)
    first = make_app("html", srcdir=src, freshenv=True)
    first.build()
    assert read_html(first.outdir / "glossary.html").select_one("#term-zzz-probe") is None

    shipped.write_text(shipped.read_text(encoding="utf-8") + PROBE, encoding="utf-8")
    later = shipped.stat().st_mtime + 10
    os.utime(shipped, (later, later))
    loader.bundled_glossary.cache_clear()

    incremental = make_app("html", srcdir=src)
    incremental.build()
    page = (incremental.outdir / "glossary.html").read_text(encoding="utf-8")
    assert read_html(incremental.outdir / "glossary.html").select_one("#term-zzz-probe") is not None

    clean_src = tmp_path / "clean"
    shutil.copytree(src, clean_src, ignore=shutil.ignore_patterns("_build"))
    clean = make_app("html", srcdir=clean_src, freshenv=True)
    clean.build()
    assert page == (clean.outdir / "glossary.html").read_text(encoding="utf-8")
