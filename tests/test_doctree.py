"""Snippet-level doctree checks (sphinx-pytest): the node structure Sphinx's glossary uses."""

from __future__ import annotations

from docutils import nodes
from sphinx import addnodes


def test_directive_emits_sphinx_glossary_structure(sphinx_doctree):
    sphinx_doctree.set_conf({"extensions": ["sphinxcontrib_mlglossary"]})
    result = sphinx_doctree(".. mlglossary::\n   :terms: MLM, attention mask\n")
    assert result.warnings.strip() == ""
    doctree = result.doctrees["index"]
    wrapper = next(iter(doctree.findall(nodes.container)))
    assert "mlglossary" in wrapper["classes"]
    glossaries = list(wrapper.findall(addnodes.glossary))
    assert len(glossaries) == 2  # letters A and M
    assert all(g["sorted"] is False for g in glossaries)
    terms = list(doctree.findall(nodes.term))
    assert [t["ids"] for t in terms] == [
        ["term-attention-mask", "attention-mask"],
        ["term-masked-language-modeling", "masked-language-modeling-mlm"],
    ]
    for term in terms:
        item = term.parent
        assert isinstance(item, nodes.definition_list_item)
        assert isinstance(item.parent, nodes.definition_list)
        assert "glossary" in item.parent["classes"]
        index = next(iter(term.findall(addnodes.index)))
        assert index["entries"][0][2] == term["ids"][0]
    std = result.env.get_domain("std")
    assert std.objects[("term", "MLM")] == ("index", "term-masked-language-modeling")
    assert std.objects[("term", "masked language modeling")] == ("index", "term-masked-language-modeling")


def test_myst_page_gets_the_same_structure(sphinx_doctree):
    sphinx_doctree.set_conf({"extensions": ["myst_parser", "sphinxcontrib_mlglossary"]})
    result = sphinx_doctree("# Title\n\n```{mlglossary}\n:terms: ZeRO\n```\n", filename="index.md")
    assert result.warnings.strip() == ""
    terms = list(result.doctrees["index"].findall(nodes.term))
    assert [t["ids"] for t in terms] == [["term-zero-redundancy-optimizer", "zero-redundancy-optimizer-zero"]]


def test_citations_add_nothing_to_the_read_doctree(sphinx_doctree):
    """Sphinx keeps every read doctree in memory until its page is written.

    A citation is recorded in the environment, and its id attached only when the page
    is written, so a term reference leaves reading exactly as Sphinx's own role makes
    it: no id, and no attribute beyond the role's (case variants included, which need
    no note of the written form).
    """
    source = "See :term:`attention mask`, :term:`Attention Mask` and :term:`input ids <Input IDs>`.\n"
    sphinx_doctree.set_conf({"extensions": ["sphinxcontrib_mlglossary"]})
    ours = sphinx_doctree(".. mlglossary::\n   :terms: attention mask, input IDs\n\n" + source)
    sphinx_doctree.set_conf({"extensions": []})
    plain = sphinx_doctree(".. glossary::\n\n   attention mask\n      a\n\n   input IDs\n      b\n\n" + source)

    def xrefs(result):
        # the page's own three (our glossary's definitions cite terms too)
        return [x for x in result.doctrees["index"].findall(addnodes.pending_xref) if x["reftype"] == "term"][-3:]

    assert [x["reftarget"] for x in xrefs(ours)] == ["attention mask", "attention mask", "input ids"]
    for mine, sphinx_own in zip(xrefs(ours), xrefs(plain), strict=True):
        assert mine["ids"] == []
        assert sorted(mine.attributes) == sorted(sphinx_own.attributes)
