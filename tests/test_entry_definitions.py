"""Shipped entries' definitions are made when the glossary page is written.

The read doctree (walked by every read transform, pickled, held in memory until written)
keeps each entry's term, anchor and index entries and a placeholder; the written page is
the one a fully read page gave (``test_prerendered`` compares pages with and without stored
bodies, every builder's output is checked in ``test_builders``). What is checked here: the
read page is small, the citations recorded from the data are the ones written, and a body
whose stored HTML went stale between reading and writing is parsed in its place.
"""

from __future__ import annotations

import re

from docutils import nodes
from sphinx import addnodes

from sphinxcontrib_mlglossary import entry_definitions
from sphinxcontrib_mlglossary.citations import ID_PREFIX
from sphinxcontrib_mlglossary.loader import bundled_glossary
from sphinxcontrib_mlglossary.nodes import deferred_definition, glossary_block
from sphinxcontrib_mlglossary.prerendered import bundled_prerendered

from .conftest import glossary_entries, read_html


def test_the_read_page_holds_terms_and_placeholders_only(built_root):
    app = built_root("basic-md")
    block = next(app.env.get_doctree("glossary").findall(glossary_block))
    items = list(block.findall(nodes.definition_list_item))
    stored = bundled_prerendered("en").entries
    deferred = [item for item in items if list(item.findall(deferred_definition))]
    assert len(deferred) == len([item for item in items if _entry_id(item) in stored])
    assert len(deferred) >= len(items) - 5  # a body holding a label or an image is read in full
    for item in deferred:
        assert not list(item.findall(addnodes.pending_xref))  # no body link, no "See also" yet
        assert not list(item.findall(nodes.raw))
    # the index collector reads the terms' index entries from the read page
    assert sum(1 for _ in block.findall(addnodes.index)) >= len(items)
    assert (app.doctreedir / "glossary.doctree").stat().st_size < 500_000  # 4.5 MB when read in full


def _entry_id(item: nodes.definition_list_item) -> str:
    anchor = item.children[0]["ids"][0]
    return next(entry.id for entry in bundled_glossary("en") if entry.anchor == anchor)


def test_recorded_citations_are_the_written_ones(root_app):
    """Ids and backlinks rest on the record made when the page was read: it must match the
    links the written page holds, one for one, in order (the page's own links get ids
    where backlinks count them)."""
    app = root_app("html", "basic-md", confoverrides={"mlglossary_backlinks_from_glossary": True})
    app.build()
    domain = app.env.get_domain("mlglossary")
    record = domain.citations["glossary"]
    terms = domain.term_index()
    landing = [target for target in record.targets if terms.place(target) is not None]
    assert len(landing) > 500  # bodies and "See also" lists cite other entries
    soup = read_html(app.outdir / "glossary.html")
    prefix = f"{ID_PREFIX}glossary-"
    written = [element for element in soup.find_all(id=re.compile("^" + re.escape(prefix)))]
    assert [element["id"] for element in written] == [f"{prefix}{n}" for n in range(len(landing))]
    for element, target in zip(written, landing, strict=True):
        _docname, anchor = terms.place(target)
        link = element if element.name == "a" else element.find("a")
        assert link is not None and link["href"].endswith(f"#{anchor}"), (target, str(element)[:200])


def test_a_body_gone_stale_before_writing_is_parsed(built_root, root_app, monkeypatch):
    """Stored HTML that no longer matches when the page is written (the data changed during
    the build) is parsed in its place: the page is the same as with the stored HTML (the
    shared clean build, which the stale one copies but for the hook)."""
    stored_app = built_root("basic-md")

    def drop_stored_bodies(app, env):
        monkeypatch.setattr(entry_definitions, "bundled_prerendered", lambda language: None)

    stale_app = root_app("html", "basic-md")
    stale_app.connect("env-updated", drop_stored_bodies)
    stale_app.build()
    assert len(list(stale_app.env.get_doctree("glossary").findall(deferred_definition))) > 200
    stored = glossary_entries(stored_app.outdir / "glossary.html")
    assert stored == glossary_entries(stale_app.outdir / "glossary.html")
