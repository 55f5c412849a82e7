"""The suite's template cache (``tests/template_cache.py``) changes no output.

Every in-process build of the suite loads Sphinx's compiled templates from it; this checks
that a build which loads them writes what a build that compiles them writes, in a
language whose templates use the i18n extension's translations.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from sphinx.jinja2glue import BuiltinTemplateLoader

from . import template_cache


def written_pages(outdir: Path) -> dict[str, bytes]:
    return {str(path.relative_to(outdir)): path.read_bytes() for path in sorted(outdir.rglob("*.html"))}


@pytest.mark.parametrize("language", ["en", "ar"])
def test_a_build_from_cached_templates_writes_what_compiling_them_writes(make_app, tmp_path, rootdir, language):
    shutil.copytree(rootdir / "test-basic-md", tmp_path / "src")
    overrides = {"language": language}

    warm = make_app("html", srcdir=tmp_path / "src", builddir=tmp_path / "warm", confoverrides=overrides)
    warm.build()
    loaded_before = template_cache.CACHE.loaded
    cached = make_app(
        "html", srcdir=tmp_path / "src", builddir=tmp_path / "cached", confoverrides=overrides, freshenv=True
    )
    cached.build()
    assert cached.builder.templates.environment.bytecode_cache is template_cache.CACHE
    assert template_cache.CACHE.loaded > loaded_before, "the second build compiled its templates again"

    compiled = make_app(
        "html", srcdir=tmp_path / "src", builddir=tmp_path / "compiled", confoverrides=overrides, freshenv=True
    )
    assert isinstance(compiled.builder.templates, BuiltinTemplateLoader)
    compiled.builder.templates.environment.bytecode_cache = None
    compiled.build()

    cached_pages = written_pages(cached.outdir)
    assert cached_pages, "no page written"
    assert cached_pages == written_pages(compiled.outdir)
