"""Real Sphinx builds of the MyST and reST twins, checked by parsing the HTML."""

from __future__ import annotations

import pytest

from sphinxcontrib_mlglossary.loader import bundled_glossary

from .conftest import inventory_terms, read_html

TWINS = pytest.mark.parametrize("twin", ["basic-md", "basic-rst"])

#: link text (as written) -> entry id it must land on
GUIDE_CITATIONS = {
    "attention mask": "attention-mask",
    "input IDs": "input-ids",
    "MLM": "masked-language-modeling",
    "causal language modeling": "causal-language-modeling",
    "tokenizer’s tokens": "token",  # smart quotes apply to link text
    "ZeRO": "zero-redundancy-optimizer",
    "token type IDs": "token-type-ids",
    "position IDs": "position-ids",
    "Attention Mask": "attention-mask",
}


@TWINS
def test_every_citation_links_to_its_entry(built_root, twin):
    app = built_root(twin)
    assert app.warning.getvalue() == ""
    soup = read_html(app.outdir / "guide.html")
    links = {
        a.get_text(): a["href"]
        for a in soup.select("div.body a.reference.internal")
        if "#term-" in a["href"] and not a.find_parent(class_="mlglossary-card")
    }
    assert links == {text: f"glossary.html#term-{entry_id}" for text, entry_id in GUIDE_CITATIONS.items()}


@TWINS
def test_glossary_page_lists_every_entry_grouped_by_letter(built_root, twin):
    app = built_root(twin)
    soup = read_html(app.outdir / "glossary.html")
    glossary = bundled_glossary("en")
    terms = soup.select("div.mlglossary dl.glossary > dt")
    assert {dt["id"] for dt in terms} == {entry.anchor for entry in glossary}
    assert len(terms) == len(glossary) >= 150
    headings = soup.select("div.mlglossary h2.mlglossary-letter")
    letters = [heading.get_text().rstrip("¶") for heading in headings]
    assert letters == sorted(set(letters))
    assert letters[:3] == ["A", "B", "C"]
    # entries under each letter start with that letter, alphabetically
    for heading, letter in zip(headings, letters, strict=True):
        names = [dt.get_text().rstrip("¶").lower() for dt in heading.find_next_sibling("dl").select("dt")]
        assert all(name.startswith(letter.lower()) for name in names)
        assert names == sorted(names)


@TWINS
def test_entry_anchors_and_content(built_root, twin):
    app = built_root(twin)
    soup = read_html(app.outdir / "glossary.html")
    mlm = soup.find(id="term-masked-language-modeling")
    assert mlm.name == "dt"
    assert "masked language modeling (MLM)" in mlm.get_text()
    # the Transformers-style anchor keeps old deep links working
    assert soup.find(id="masked-language-modeling-mlm").find_parent("dt") is mlm
    attention = soup.find(id="term-attention-mask").find_next_sibling("dd")
    assert "[1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]" in attention.get_text()
    assert attention.select("div.highlight")
    # API objects stay code literals when no intersphinx knows them
    assert attention.select("code.xref.py-class")
    see_also = attention.select_one("p.mlglossary-see-also")
    assert see_also is not None
    assert all(a["href"].startswith("#term-") for a in see_also.select("a"))


@TWINS
def test_inventory_lists_terms_and_aliases(built_root, twin):
    app = built_root(twin)
    terms = inventory_terms(app.outdir / "objects.inv", "https://example.org")
    for entry in bundled_glossary("en"):
        for name in entry.names:
            assert terms[name] == f"https://example.org/glossary.html#{entry.anchor}"


@TWINS
def test_subset_by_terms_and_tags(root_app, twin, tmp_path):
    app = root_app("html", twin)
    ext = "md" if twin.endswith("md") else "rst"
    page = app.srcdir / f"glossary.{ext}"
    if ext == "md":
        page.write_text("# Glossary\n\n```{mlglossary}\n:terms: attention-mask, MLM, ZeRO\n:tags: audio\n```\n")
    else:
        page.write_text(
            "Glossary\n========\n\n.. mlglossary::\n   :terms: attention-mask, MLM, ZeRO\n   :tags: audio\n"
        )
    app.build()
    soup = read_html(app.outdir / "glossary.html")
    ids = {dt["id"] for dt in soup.select("dl.glossary > dt")}
    audio = {e.anchor for e in bundled_glossary("en") if "audio" in e.tags}
    assert audio
    assert ids == {"term-attention-mask", "term-masked-language-modeling", "term-zero-redundancy-optimizer"} | audio
