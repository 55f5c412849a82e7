"""The stored bodies' words reach Sphinx's search once each, and the index is unchanged.

Sphinx's search index holds no word counts, so indexing each space-separated piece of the
stored bodies once gives the index that indexing every occurrence gave, for far less work
(``search_words``). Checked end to end: a build with the pooling and one without it write
the same ``searchindex.js`` and the same glossary page.
"""

from __future__ import annotations

import pytest
from docutils import nodes

from sphinxcontrib_mlglossary import search_words
from sphinxcontrib_mlglossary.prerendered import prerendered_body
from sphinxcontrib_mlglossary.search_words import NO_SEARCH, searchable_text

from .conftest import resolved_doctree


def _words_in(node: nodes.Node) -> list[str]:
    return [piece for text in searchable_text(node) for piece in text.split()]


@pytest.mark.parametrize("language", ["en", "ar"])
def test_the_index_and_the_page_are_what_every_occurrence_gave(root_app, monkeypatch, language):
    pooled = root_app("html", "basic-md", confoverrides={"language": language})
    pooled.build()
    with monkeypatch.context() as patch:
        patch.setattr(search_words, "pool_body_words", lambda app, doctree, docname: None)
        plain = root_app("html", "basic-md", confoverrides={"language": language})
        plain.build()
    for name in ("searchindex.js", "glossary.html", "index.html"):
        assert (pooled.outdir / name).read_bytes() == (plain.outdir / name).read_bytes(), name

    doctree = resolved_doctree(pooled, "glossary")
    bodies = list(doctree.findall(prerendered_body))
    assert len(bodies) > 150
    assert all(NO_SEARCH in body["classes"] for body in bodies)
    (pool,) = doctree.findall(search_words.search_words)
    # the bodies as the indexer read them before: every piece of every body
    every_occurrence = [word for body in bodies for child in body.children for word in _words_in(child)]
    # each piece once: far fewer than the bodies hold, and none missing
    assert len(_words_in(pool)) < len(every_occurrence) / 2
    assert set(_words_in(pool)) == set(every_occurrence)


def test_a_project_searching_japanese_keeps_the_bodies_as_they_are(root_app):
    app = root_app("html", "basic-md", confoverrides={"html_search_language": "ja"})
    app.build()
    doctree = resolved_doctree(app, "glossary")
    assert not list(doctree.findall(search_words.search_words))
    assert not any(NO_SEARCH in body["classes"] for body in doctree.findall(prerendered_body))


def test_raw_html_is_read_as_sphinx_reads_it():
    raw = nodes.raw("", "<p>one <em>two</em><style>p {}</style><script>x()</script> th<b>re</b>e</p>", format="html")
    assert searchable_text(raw) == ["one two three"]
    assert searchable_text(nodes.raw("", "<p>latex</p>", format="latex")) == []
    assert searchable_text(nodes.comment("", "hidden")) == []
