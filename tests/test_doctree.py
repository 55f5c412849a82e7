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
