"""``dir="rtl"`` on every page's ``<html>`` tag, in themes that write that tag themselves.

Furo writes its ``<html>`` tag outside any template block, so it stands for the themes a
context value cannot reach (``tests/test_themes.py`` checks all five themes in a browser).
Builds are real: the ``test-themes`` root with each HTML builder, the project of
``tests/test_parallel.py`` for ``-j 2`` and incremental builds.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import shutil
import xml.etree.ElementTree as ElementTree
from pathlib import Path
from typing import Any

import pytest
from sphinx.application import TemplateBridge
from sphinx.jinja2glue import BuiltinTemplateLoader

from sphinxcontrib_mlglossary.page_direction import TEMPLATES, with_direction

from .conftest import read_html_head
from .sphinx_process import run_sphinx
from .test_parallel import assert_same_output, write_project

MARKED = ' dir="rtl" data-mlglossary-dir=""'
HTML_TAG = re.compile(r"<html[\s>][^>]*>")


@pytest.fixture
def furo():
    """Skips without Furo (the tox matrix installs no theme), except under CI=true."""
    if importlib.util.find_spec("furo") is None:
        if os.environ.get("CI") == "true":
            pytest.fail("CI=true but furo is not installed (pip install -e '.[themes]')")
        pytest.skip("furo is not installed")
    return "furo"


def pages(outdir: Path) -> list[Path]:
    """The pages a builder renders from the theme (not epub's navigation file, which Sphinx makes alone)."""
    found = sorted(
        p
        for p in outdir.rglob("*")
        if p.suffix in {".html", ".xhtml"} and "_static" not in p.parts and p.name != "nav.xhtml"
    )
    assert found, outdir
    return found


def html_tag(page: Path) -> str:
    match = HTML_TAG.search(page.read_text(encoding="utf-8"))
    assert match, page
    return match.group()


# -- the tag ------------------------------------------------------------------------------------------


def test_dir_goes_on_the_html_tag_only():
    page = '<!DOCTYPE html>\n<html class="no-js" lang="ar">\n<body><pre>&lt;html&gt;</pre><p>html</p></body></html>'
    assert with_direction(page) == page.replace("<html class", f"<html{MARKED} class")
    assert with_direction("<!doctype html><HTML>x</HTML>") == f"<!doctype html><HTML{MARKED}>x</HTML>"
    # a tag with its own dir keeps it; so does a page without a tag
    assert with_direction('<html lang="ar" dir="ltr">') == '<html lang="ar" dir="ltr">'
    assert with_direction("<html\tDIR = 'rtl'>") == "<html\tDIR = 'rtl'>"
    assert with_direction("<p>no page</p>") == "<p>no page</p>"
    # neither an element whose name starts with "html" nor a data-dir attribute counts
    assert with_direction("<htmlish><html data-dir='x'>") == f"<htmlish><html{MARKED} data-dir='x'>"


# -- every page, every HTML builder --------------------------------------------------------------------


@pytest.mark.parametrize("builder", ["html", "dirhtml", "singlehtml", "epub"])
def test_every_page_of_every_html_builder_is_right_to_left(root_app, furo, builder):
    app = root_app(builder, "themes", confoverrides={"html_theme": furo, "language": "ar"})
    app.build()
    assert app.warning.getvalue() == ""
    for page in pages(app.outdir):
        assert f"<html{MARKED}" in html_tag(page), page
        if page.suffix == ".xhtml":
            ElementTree.parse(page)  # epub pages stay well-formed XML
    if builder == "html":
        assert {p.name for p in pages(app.outdir)} >= {"index.html", "glossary.html", "genindex.html", "search.html"}


def test_left_to_right_pages_are_left_alone(root_app, furo):
    app = root_app("html", "themes", confoverrides={"html_theme": furo, "language": "es"})
    app.build()
    assert app.warning.getvalue() == ""
    for page in pages(app.outdir):
        assert "dir=" not in html_tag(page), page
    # not even our template is made findable
    assert isinstance(app.builder.templates, BuiltinTemplateLoader)
    assert not any(str(TEMPLATES) in loader.searchpath for loader in app.builder.templates.loaders)


@pytest.mark.filterwarnings(
    # the json builder itself reads an attribute Sphinx 9 deprecates
    r"ignore:'sphinxcontrib\.serializinghtml\.JSONHTMLBuilder\.app' is deprecated"
)
def test_json_output_holds_no_context_of_ours(root_app):
    """The json builder writes each page's context, not a page: nothing of ours goes into it."""
    app = root_app("json", "themes", confoverrides={"language": "ar"})
    app.build()
    assert app.warning.getvalue() == ""
    context = json.loads((app.outdir / "index.fjson").read_text(encoding="utf-8"))
    assert "mlglossary-term" in context["body"]  # the page is ours all the same (its term links marked)
    assert [key for key in context if "mlglossary" in key or key == "html_tag"] == []


class ProjectBridge(TemplateBridge):
    """A project's own ``template_bridge`` (here Sphinx's loader, wrapped): ours can't join it."""

    def init(self, builder: Any, theme: Any = None, dirs: list[str] | None = None) -> None:
        self.inner = BuiltinTemplateLoader()
        self.inner.init(builder, theme, dirs)

    def newest_template_mtime(self) -> float:
        return self.inner.newest_template_mtime()

    def render(self, template: str, context: dict[str, Any]) -> str:
        return self.inner.render(template, context)

    def render_string(self, source: str, context: dict[str, Any]) -> str:
        return self.inner.render_string(source, context)


def test_the_theme_writes_the_same_page_but_for_dir(root_app, furo):
    """Rendered through our template, each page is the theme's own, byte for byte, plus ``dir``.

    The comparison is a build whose project has its own template bridge, where our template
    cannot be used: Furo then writes no ``dir``; a basic-layout theme still gets it from
    ``html_tag``.
    """
    bridge = f"{__name__}.ProjectBridge"
    ours = root_app("html", "themes", confoverrides={"html_theme": furo, "language": "ar"})
    ours.build()
    plain = root_app("html", "themes", confoverrides={"html_theme": furo, "language": "ar", "template_bridge": bridge})
    plain.build()
    # a second application in one process registers Sphinx's own nodes and directives again
    assert [line for line in plain.warning.getvalue().splitlines() if "already registered" not in line] == []
    compared = 0
    for page in pages(plain.outdir):
        theirs = page.read_text(encoding="utf-8")
        assert "dir=" not in html_tag(page)
        mine = (ours.outdir / page.relative_to(plain.outdir)).read_text(encoding="utf-8")
        assert mine == theirs.replace("<html", f"<html{MARKED}", 1), page
        compared += 1
    assert compared >= 4

    basic = root_app(
        "html", "themes", confoverrides={"html_theme": "alabaster", "language": "ar", "template_bridge": bridge}
    )
    basic.build()
    for page in pages(basic.outdir):
        assert read_html_head(page).find("html")["dir"] == "rtl", page


# -- -j 2 and incremental builds -------------------------------------------------------------------------

ARABIC_FURO = ("-D", "language=ar", "-D", "html_theme=furo")


def build(src: Path, out: Path, *extra: str) -> str:
    result = run_sphinx(["-b", "html", *ARABIC_FURO, *extra, str(src), str(out)])
    assert result.returncode == 0, result.stderr
    assert "WARNING" not in result.stderr, result.stderr
    return result.stdout


def test_parallel_and_incremental_builds_equal_a_clean_serial_one(tmp_path, furo):
    src = tmp_path / "src"
    write_project(src)
    serial, parallel = tmp_path / "serial", tmp_path / "parallel"
    build(src, serial, "-q")
    build(src, parallel, "-q", "-j", "2")
    assert_same_output(serial, parallel)
    assert all(f"<html{MARKED}" in html_tag(page) for page in pages(parallel))

    # nothing changed: nothing to do, and no configuration value of ours or the project's reported
    # changed (Furo sets pygments_dark_style itself, and Sphinx reports it, with or without us)
    again = build(src, parallel, "-j", "2")
    assert re.findall(r"configuration has changed \((.*)\)", again) in ([], ["1 option: 'pygments_dark_style'"])
    assert "no targets are out of date" in again

    page = src / "page03.md"
    page.write_text(page.read_text() + "\nAnd now {term}`token`.\n")
    build(src, parallel, "-q", "-j", "2")
    clean = tmp_path / "clean"
    shutil.rmtree(clean, ignore_errors=True)
    build(src, clean, "-q", "-E")
    assert_same_output(clean, parallel)
