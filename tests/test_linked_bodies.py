"""Linked bodies (stored bodies whose term links stay data until written) write what their nodes write.

On html and dirhtml the glossary page's stored bodies keep their term links as data
(``linked_bodies``); every other builder, and any body with a link the standard domain
does not resolve, gets the nodes. Both paths must give the same page, byte for byte: the
same links, citation ids, card marks and "See also" lines, and the same search index.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from docutils import nodes

from sphinxcontrib_mlglossary import entry_definitions, link_resolution, linked_bodies
from sphinxcontrib_mlglossary.entry_definitions import related_entries, see_also
from sphinxcontrib_mlglossary.loader import bundled_glossary
from sphinxcontrib_mlglossary.prerendered import bundled_prerendered

from .conftest import needs_stored_html


def outputs(outdir: Path) -> dict[str, bytes]:
    return {
        str(path.relative_to(outdir)): path.read_bytes()
        for path in sorted(outdir.rglob("*"))
        if path.is_file() and path.suffix in {".html", ".js", ".json"}
    }


@needs_stored_html
@pytest.mark.parametrize(
    ("name", "buildername"),
    [("basic-md", "html"), ("tooltips", "html"), ("basic-rst", "dirhtml")],
)
def test_linked_bodies_write_what_their_nodes_write(root_app, monkeypatch, name, buildername):
    written: list[str] = []
    visit = linked_bodies.visit_linked_body

    def counted(translator, node):
        written.append(node["entry"])
        visit(translator, node)

    monkeypatch.setattr(linked_bodies, "visit_linked_body", counted)
    linked = root_app(buildername, name)
    linked.build()
    linked.cleanup()  # the next app registers its nodes again
    assert linked.warning.getvalue() == ""
    assert len(written) > 200  # nearly every shown entry took the linked path

    monkeypatch.setattr(link_resolution, "BUILDERS", frozenset())  # every body becomes its nodes
    written.clear()
    as_nodes = root_app(buildername, name)
    as_nodes.build()
    assert written == []
    assert as_nodes.warning.getvalue() == ""

    linked_files, node_files = outputs(Path(linked.outdir)), outputs(Path(as_nodes.outdir))
    assert linked_files.keys() == node_files.keys()
    differing = [page for page in linked_files if linked_files[page] != node_files[page]]
    assert differing == []
    if name == "tooltips":  # links on the glossary page that have cards are marked on both paths
        assert b"mlglossary-term mlglossary-key-" in linked_files["glossary.html"]


def test_see_also_records_stand_for_the_references_nodes():
    """A linked body's "See also" links are made as records, never as nodes: they give the nodes the line holds elsewhere."""
    glossary = bundled_glossary("en")
    stored = bundled_prerendered("en")
    entry = next(e for e in glossary if len(related_entries(e, glossary)) >= 3 and stored.fragment(e.id, e.body))
    related = related_entries(entry, glossary)
    body = linked_bodies.linked(entry.id, "en", stored.fragment(entry.id, entry.body), "guide")
    linked_bodies.add_see_also(body, see_also(related, "en", "guide", entry_definitions._see_also_slot(body)))
    assert len(body["links"]) == body["body_links"] + len(related)
    _made_body, line = linked_bodies.as_nodes(body)
    assert line.pformat() == see_also(related, "en", "guide").pformat()


def _search_index(root_app, language: str, as_nodes: bool, monkeypatch) -> bytes:
    with monkeypatch.context() as patch:
        if as_nodes:
            patch.setattr(link_resolution, "BUILDERS", frozenset())
        app = root_app("html", "basic-md", confoverrides={"language": language})
        app.build()
        app.cleanup()
    assert app.warning.getvalue() == ""
    return (Path(app.outdir) / "searchindex.js").read_bytes()


@pytest.mark.parametrize("language", ["es", "ar"])
def test_each_word_indexed_once_gives_the_same_search_index(root_app, monkeypatch, language):
    """The linked bodies give the indexer each text once (search_once): the index is byte for byte the nodes' one."""
    linked = _search_index(root_app, language, as_nodes=False, monkeypatch=monkeypatch)
    assert linked == _search_index(root_app, language, as_nodes=True, monkeypatch=monkeypatch)


def _body_with_text(text: str) -> linked_bodies.linked_body:
    return linked_bodies.linked_body("", "", nodes.raw("", text, format="html"), links=[], body_links=0)


def test_search_once_keeps_each_token_where_it_first_appears():
    first = _body_with_text('<p>The model <code class="x">the</code> model, the</p><style>p {}</style>')
    second = _body_with_text("<p>A model and <em>the</em> data</p>")
    linked_bodies.search_once([first, second], "en_GB")
    assert [first[0].astext(), second[0].astext()] == ["The model the model,", "A and data"]


def test_a_segmenting_search_language_gets_the_full_text():
    html = "<p>the model the model</p>"
    body = _body_with_text(html)
    linked_bodies.search_once([body], "ja")
    assert body[0].astext() == html
