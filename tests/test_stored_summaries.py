"""Shipped summaries made from stored nodes: the nodes, text and pages that parsing them gives."""

from __future__ import annotations

import dataclasses
import json

import pytest
from docutils import nodes
from sphinx.util.docutils import new_document

from sphinxcontrib_mlglossary import rendering, stored_summaries
from sphinxcontrib_mlglossary.domain import glossary_domain
from sphinxcontrib_mlglossary.loader import BUNDLED_LANGUAGES, bundled_glossary
from sphinxcontrib_mlglossary.prerendered import bundled_prerendered
from sphinxcontrib_mlglossary.stored_summaries import StoredSummaryCheck

from .conftest import read_html


def _form(node: nodes.Node) -> str:
    """Everything a node holds, attributes included."""
    return node.pformat() if isinstance(node, nodes.Element) else repr(str(node))


@pytest.mark.parametrize("language", BUNDLED_LANGUAGES)
def test_every_shipped_summary_is_made_as_parsing_makes_it(root_app, monkeypatch, language):
    app = root_app("html", "basic-md", confoverrides={"language": language})  # set up, not built
    domain = glossary_domain(app.env)
    document = new_document("<test>")
    document.settings.env = app.env
    parsed_texts = []
    parse = rendering.parse_summary

    def counted(domain, text, document, **kwargs):
        parsed_texts.append(text)
        return parse(domain, text, document, **kwargs)

    monkeypatch.setattr(rendering, "parse_summary", counted)
    glossary = bundled_glossary(language)
    made = {entry.id: rendering.our_summary(domain, entry, document) for entry in glossary}
    # the stored canary was parsed, and nothing else: every summary came from the stored data
    assert parsed_texts == [bundled_prerendered(language).summary_canary[0]]
    assert domain.session.keep(StoredSummaryCheck, StoredSummaryCheck).usable == {language: True}
    monkeypatch.setattr(rendering, "parse_summary", parse)
    for entry in glossary:
        inline, text = made[entry.id]
        parsed = rendering.parse_summary(domain, entry.summary, document)
        assert [_form(node) for node in inline] == [_form(node) for node in parsed], entry.id
        assert text == "".join(node.astext() for node in parsed)


def test_a_summary_edited_without_regenerating_is_parsed():
    stored = bundled_prerendered("en")
    entry = next(iter(bundled_glossary("en")))
    assert stored.summary(entry.id, entry.summary) is not None
    assert stored.summary(entry.id, entry.summary + " More.") is None


def _web_output(app) -> dict[str, str]:
    """What the summaries reach: the page's structured data, glossary.json and the card asset."""
    out = app.outdir
    page = read_html(out / "glossary.html")
    script = page.find("script", type="application/ld+json")
    assets = sorted((out / "_static").glob("mlglossary-cards*.js"))
    assert script is not None and assets
    return {
        "structured data": script.string,
        "glossary.json": json.dumps(json.loads((out / "glossary.json").read_text(encoding="utf-8")), sort_keys=True),
        "cards": "\n".join(asset.read_text(encoding="utf-8") for asset in assets),
    }


def test_a_build_parsing_the_canary_differently_parses_every_summary(root_app, built_root, monkeypatch):
    shipped = bundled_prerendered("en")
    assert shipped is not None
    changed = dataclasses.replace(shipped, summary_canary=(shipped.summary_canary[0], ("another parse",)))
    monkeypatch.setattr(stored_summaries, "bundled_prerendered", lambda language: changed)
    app = root_app("html", "basic-md")
    app.build()
    assert "parses summaries differently from the stored ones" in app.status.getvalue()
    assert glossary_domain(app.env).session.keep(StoredSummaryCheck, StoredSummaryCheck).usable == {"en": False}
    assert _web_output(app) == _web_output(built_root("basic-md"))
