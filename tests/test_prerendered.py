"""Entry bodies rendered ahead of time: the same page as parsing them, for a fraction of the cost.

Each comparison builds a project twice, once with the shipped stored bodies and once with
them taken away (the path every build takes when they are missing, stale or unusable),
and compares what the reader gets. Every test here is about the glossary page itself and
keeps the full page. The default build of the MyST twin, which several tests only read, is
``built_root``'s; the builders other than HTML write from one read of the reST twin with
stored bodies and one without (``write_from_read``: whether a stored body is kept or parsed
is decided when a page is written), but text, for which Sphinx reads without smart quotes.
"""

from __future__ import annotations

import json
import re
import shutil

import pytest
from bs4 import BeautifulSoup
from docutils import nodes

from sphinxcontrib_mlglossary import directives, prerender
from sphinxcontrib_mlglossary.loader import BUNDLED_LANGUAGES, bundled_glossary
from sphinxcontrib_mlglossary.nodes import deferred_definition
from sphinxcontrib_mlglossary.prerendered import bundled_prerendered, prerendered_path

from .conftest import ROOTS, finished_build, glossary_entries, needs_stored_html, write_from_read


def _without_stored_bodies(monkeypatch):
    monkeypatch.setattr(directives, "bundled_prerendered", lambda language: None)


def _stored_count(app, docname="glossary"):
    """Entries whose stored body the page takes: deferred when read, made when written (.entry_definitions)."""
    return len(list(app.env.get_doctree(docname).findall(deferred_definition)))


@needs_stored_html
def test_stored_bodies_are_current(tmp_path, monkeypatch):
    """The shipped files are what the generator makes of the shipped data (regenerate: see CONTRIBUTING).

    Run from a folder holding another copy of the package, as from a checkout while a copy is
    measured: the generator's per-language processes import the package it was run from (they
    took the working folder's, rendered its data and left the copy's stale).
    """
    decoy = tmp_path / "sphinxcontrib_mlglossary"
    decoy.mkdir()
    (decoy / "__init__.py").write_text("", encoding="utf-8")
    (decoy / "prerender.py").write_text(
        'raise SystemExit("the working folder\'s copy was imported")\n', encoding="utf-8"
    )
    monkeypatch.chdir(tmp_path)
    assert prerender.main(["--check"]) == 0


def test_generator_is_deterministic_and_covers_the_glossary():
    for language in BUNDLED_LANGUAGES:
        stored = bundled_prerendered(language)
        assert stored is not None
        ids = {entry.id for entry in bundled_glossary(language)}
        # every shipped body is stored: one parsed in the page costs its parse in every build,
        # and Sphinx's Python roles then keep the page's whole document alive after it is written
        assert set(stored.entries) == ids, sorted(ids - set(stored.entries))
        assert prerender.serialized(stored) == prerendered_path(language).read_text(encoding="utf-8")


def test_a_body_edited_without_regenerating_is_parsed():
    stored = bundled_prerendered("en")
    entry = next(e for e in bundled_glossary("en") if e.id in stored.entries)
    assert stored.fragment(entry.id, entry.body) is not None
    assert stored.fragment(entry.id, entry.body + "\nMore text.") is None


@needs_stored_html
@pytest.mark.parametrize("language", BUNDLED_LANGUAGES)
def test_html_page_equals_the_parsed_page(root_app, built_root, monkeypatch, language):
    if language == "en":  # the twin's own setting (Sphinx's default): the shared default build
        stored_app = built_root("basic-md")
        assert stored_app.config.language == "en"
    else:
        stored_app = root_app("html", "basic-md", confoverrides={"language": language})
        stored_app.build()
    assert _stored_count(stored_app) > 150
    # the stored HTML itself was written: the canary matched (before, the Arabic bodies held
    # Spanish fold labels from a shared process, and every Arabic build parsed every body)
    assert "writes entry bodies differently" not in stored_app.status.getvalue()
    with monkeypatch.context() as patch:
        _without_stored_bodies(patch)
        parsed_app = root_app("html", "basic-md", confoverrides={"language": language})
        parsed_app.build()
    assert _stored_count(parsed_app) == 0
    stored = glossary_entries(stored_app.outdir / "glossary.html")
    parsed = glossary_entries(parsed_app.outdir / "glossary.html")
    assert len(stored) > 150
    assert stored == parsed
    for page in ("index.html", "guide.html"):
        assert (stored_app.outdir / page).read_text(encoding="utf-8") == (parsed_app.outdir / page).read_text(
            encoding="utf-8"
        )


def _read_rst_twin(tmp_path_factory, name: str):
    """A read of a copy of the reST twin: its environment and doctrees, no page written or
    resolved (the dummy builder writes nothing, but resolving each page for it parsed every
    stored body: 2.7 s of CPU)."""
    srcdir = tmp_path_factory.mktemp(name) / "src"
    shutil.copytree(ROOTS / "test-basic-rst", srcdir)
    return finished_build("dummy", srcdir, freshenv=True, write=False)


@pytest.fixture(scope="module")
def rst_twin_read(tmp_path_factory):
    """The reST twin read with the stored bodies, and read with them taken away."""
    stored = _read_rst_twin(tmp_path_factory, "stored-bodies")
    with pytest.MonkeyPatch.context() as patch:
        _without_stored_bodies(patch)
        parsed = _read_rst_twin(tmp_path_factory, "parsed-bodies")
    return stored, parsed


@pytest.mark.parametrize("buildername", ["text", "latex", "singlehtml", "epub"])
def test_other_builders_write_what_parsing_writes(request, root_app, tmp_path, monkeypatch, buildername):
    if buildername == "text":  # Sphinx reads for text without smart quotes: builds of its own
        stored_app = root_app(buildername, "basic-rst")
        stored_app.build()
        with monkeypatch.context() as patch:
            _without_stored_bodies(patch)
            parsed_app = root_app(buildername, "basic-rst")
            parsed_app.build()
    else:
        stored_read, parsed_read = request.getfixturevalue("rst_twin_read")
        stored_app = write_from_read(stored_read, buildername, tmp_path / "stored")
        with monkeypatch.context() as patch:
            _without_stored_bodies(patch)
            parsed_app = write_from_read(parsed_read, buildername, tmp_path / "parsed")
    assert _stored_count(stored_app) > 150  # the read doctree is the same for every builder
    assert _stored_count(parsed_app) == 0
    outputs = {
        "text": "glossary.txt",
        "latex": "basic-rst.tex",
        "singlehtml": "index.html",
        "epub": "glossary.xhtml",
    }
    name = outputs[buildername]
    if buildername == "latex":
        name = next(p.name for p in stored_app.outdir.glob("*.tex"))
    written = (stored_app.outdir / name).read_text(encoding="utf-8")
    assert written == (parsed_app.outdir / name).read_text(encoding="utf-8")
    assert "mlglossary-link" not in written


def test_bodies_stay_searchable(built_root):
    app = built_root("basic-md")
    assert _stored_count(app) > 150
    index = (app.outdir / "searchindex.js").read_text(encoding="utf-8")
    terms = json.loads(re.search(r'"terms":\s*(\{.*?\})', index).group(1))
    # words that appear only in entry bodies (not in names or summaries) are indexed
    glossary = bundled_glossary("en")
    entry = glossary.get("attention")
    body_only = {
        word.lower()
        for word in re.findall(r"[A-Za-z]{6,}", nodes.Text(entry.body).astext())
        if word.lower() not in entry.summary.lower() and word.lower() not in entry.name.lower()
    }
    stemmed_hits = [word for word in body_only if any(term.startswith(word[:5]) for term in terms)]
    assert len(stemmed_hits) >= len(body_only) * 0.8


def test_a_builder_writing_bodies_differently_gets_them_parsed(root_app, built_root, monkeypatch):
    """smartquotes off changes the quotes in the canary: the stored HTML is not used."""
    overrides = {"smartquotes": False}
    stored_app = root_app("html", "basic-md", confoverrides=overrides)
    stored_app.build()
    with monkeypatch.context() as patch:
        _without_stored_bodies(patch)
        parsed_app = root_app("html", "basic-md", confoverrides=overrides)
        parsed_app.build()
    stored = glossary_entries(stored_app.outdir / "glossary.html")
    assert stored == glossary_entries(parsed_app.outdir / "glossary.html")
    shipped = glossary_entries(built_root("basic-md").outdir / "glossary.html")
    assert stored != shipped  # the setting does change the bodies: the check had something to see


def test_a_theme_translator_gets_bodies_parsed(root_app):
    """A translator writing code blocks otherwise (as some themes' do) fails the canary."""
    from sphinx.writers.html5 import HTML5Translator

    class Marked(HTML5Translator):
        def visit_literal_block(self, node):
            self.body.append('<div class="theme-code">')
            super().visit_literal_block(node)

        def depart_literal_block(self, node):
            super().depart_literal_block(node)
            self.body.append("</div>")

    app = root_app("html", "basic-md")
    app.set_translator("html", Marked, override=True)
    app.build()
    page = BeautifulSoup((app.outdir / "glossary.html").read_text(encoding="utf-8"), "html.parser")
    code_in_entries = page.select("div.mlglossary dd div.highlight")
    assert code_in_entries
    assert all(block.find_parent("div", class_="theme-code") for block in code_in_entries)
