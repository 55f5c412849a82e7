"""Backlinks under glossary entries: content, options and every builder."""

from __future__ import annotations

import shutil
import subprocess

import pytest
from docutils import nodes
from sphinx import addnodes

from .conftest import TWIN_CITED, read_html

#: the bundled entries the pages of roots/test-tooltips cite
TOOLTIPS_CITED = ("attention-mask", "input-ids", "masked-language-modeling", "token", "zero-redundancy-optimizer")


def backlink_box(soup, anchor):
    return soup.find(id=anchor).find_next_sibling("dd").select_one("div.mlglossary-backlinks")


@pytest.mark.parametrize("twin", ["basic-md", "basic-rst"])
def test_backlinks_name_pages_and_sections(built_root, twin):
    app = built_root(twin)
    soup = read_html(app.outdir / "glossary.html")
    box = backlink_box(soup, "term-attention-mask")
    assert box.select_one(".mlglossary-backlinks-label").get_text() == "Cited in:"
    items = box.select("li")
    assert [li.select("a")[0].get_text() for li in items] == ["Basic project", "Guide › Batching"]
    # cited once on the front page: its link alone, no count, no numbers
    assert items[0].get_text() == "Basic project" and len(items[0].select("a")) == 1
    guide = items[1]
    # cited twice on the guide page: the count in words, then a link to each citation,
    # numbered 1 and 2 and named for screen readers
    assert guide.select_one(".mlglossary-cites-count").get_text() == "2 citations"
    numbers = guide.select(".mlglossary-cites a")
    assert [a.get_text() for a in numbers] == ["1", "2"]
    assert [a["aria-label"] for a in numbers] == ["citation 1 on Guide", "citation 2 on Guide"]
    hrefs = [a["href"] for a in guide.select("a")]
    assert hrefs[0].startswith("guide.html#mlglossary-cite-")
    assert hrefs[1] == hrefs[0] != hrefs[2]  # the page's link lands where citation 1 is
    # each backlink lands on an element with that id
    guide_page = read_html(app.outdir / "guide.html")
    for href in hrefs:
        target = guide_page.find(id=href.split("#")[1])
        assert target is not None
        assert "#term-attention-mask" in target.get("href", "")
    # entries nobody cites say nothing
    assert backlink_box(soup, "term-pooling") is None


def test_limit_and_overflow(root_app):
    app = root_app("html", "basic-md", page=TWIN_CITED, confoverrides={"mlglossary_backlinks_max": 1})
    app.build()
    box = backlink_box(read_html(app.outdir / "glossary.html"), "term-attention-mask")
    assert len(box.select("li")) == 1
    assert box.select_one(".mlglossary-backlinks-overflow").get_text() == "and 1 more page"


def test_switched_off(root_app):
    # the cited entries are all shown: with backlinks on, each would have a box
    app = root_app("html", "basic-md", page=TWIN_CITED, confoverrides={"mlglossary_backlinks": False})
    app.build()
    assert not read_html(app.outdir / "glossary.html").select("div.mlglossary-backlinks")


def test_citations_inside_the_glossary_are_left_out_by_default(root_app, built_root):
    app = built_root("basic-md")
    soup = read_html(app.outdir / "glossary.html")
    assert all(
        "glossary.html" not in a["href"] and not a["href"].startswith("#")
        for a in soup.select("div.mlglossary-backlinks a")
    )
    # nothing lands on the entries' own links, so they carry no citation ids
    in_entries = soup.select("dl.glossary dd a.reference.internal")
    assert in_entries and not [a["id"] for a in in_entries if a.get("id", "").startswith("mlglossary-cite-")]
    # the attention mask's text cites token and input IDs, both shown
    app = root_app("html", "basic-md", page=TWIN_CITED, confoverrides={"mlglossary_backlinks_from_glossary": True})
    app.build()
    soup = read_html(app.outdir / "glossary.html")
    landing = [
        a["href"] for a in soup.select("div.mlglossary-backlinks a") if a["href"].startswith("#mlglossary-cite-")
    ]
    assert landing and all(soup.find(id=href[1:]) is not None for href in landing)


@pytest.mark.parametrize(("builder", "page"), [("html", "glossary.html"), ("singlehtml", "index.html")])
def test_cited_only(root_app, builder, page):
    app = root_app(builder, "basic-md")
    (app.srcdir / "glossary.md").write_text("# Glossary\n\n```{mlglossary}\n:cited-only:\n```\n")
    app.build()
    assert app.warning.getvalue() == ""
    soup = read_html(app.outdir / page)
    ids = {dt["id"] for dt in soup.select("dl.glossary > dt")}
    assert ids == {
        "term-attention-mask",
        "term-input-ids",
        "term-masked-language-modeling",
        "term-causal-language-modeling",
        "term-token",
        "term-zero-redundancy-optimizer",
        "term-token-type-ids",
        "term-position-ids",
    }
    headings = soup.select(".mlglossary-letter")
    assert headings and all(heading.find_next_sibling("dl") for heading in headings)
    # the letter bar links exactly the letters left on the page
    bar = soup.select_one("nav.mlglossary-letters")
    assert [a["href"] for a in bar.select("a")] == ["#" + heading["id"] for heading in headings]
    assert not soup.select('a[href="#term-pooling"]')


def test_dirhtml_backlinks(built_root):
    app = built_root("basic-md", "dirhtml", page=TWIN_CITED)
    box = backlink_box(read_html(app.outdir / "glossary" / "index.html"), "term-attention-mask")
    assert [a["href"].split("#")[0] for a in box.select("a")][:2] == ["../", "../guide/"]


@pytest.mark.parametrize("buildername", ["text", "man", "texinfo"])
def test_plain_formats_show_a_cited_in_line(root_app, buildername):
    app = root_app(buildername, "basic-rst", page=TWIN_CITED)
    app.build()
    assert app.warning.getvalue() == ""
    text = "".join(p.read_text() for p in app.outdir.rglob("*") if p.suffix in {".txt", ".1", ".texi"})
    assert "Cited in:" in text
    # the count in words, and no numbers or "#id" targets that would lead nowhere
    lines = [line for line in text.splitlines() if "Guide › Batching" in line]
    assert any(line.strip().endswith("Guide › Batching} (2 citations)") for line in lines) == (buildername == "texinfo")
    assert any(line.strip().endswith("* Guide › Batching (2 citations)") for line in lines) == (buildername == "text")
    assert any(line.strip() == "Guide › Batching (2 citations)" for line in lines) == (buildername == "man")
    assert not any("×" in line or "#" in line.replace("@ref{", "") for line in lines)
    assert "mlglossary-letter" not in text and "Jump to letter" not in text


def test_latex_page_references(root_app):
    app = root_app("latex", "basic-rst", page=TWIN_CITED)
    app.build()
    tex = next(app.outdir.glob("*.tex")).read_text()
    assert r"\pageref{\detokenize{guide:mlglossary-cite-" in tex
    assert r"\hyperref[\detokenize{guide:mlglossary-cite-" in tex


@pytest.mark.skipif(shutil.which("latexmk") is None or shutil.which("pdflatex") is None, reason="no TeX toolchain")
def test_latex_compiles_with_page_numbers(root_app):
    app = root_app("latex", "basic-rst")
    app.build()
    subprocess.run(
        ["latexmk", "-pdf", "-interaction=nonstopmode", "-quiet"], cwd=app.outdir, check=True, capture_output=True
    )
    assert list(app.outdir.glob("*.pdf"))


def test_gettext_extracts_the_label_only_from_the_catalog(root_app):
    app = root_app("gettext", "basic-md", page=TWIN_CITED)  # MLM's text among them
    app.build()
    pot = "".join(p.read_text() for p in app.outdir.rglob("*.pot"))
    assert "Cited in" not in pot
    assert "masked language modeling" not in pot  # our entries ship their own translations
    assert "When batching, pass the" in pot  # the project's own text is extracted


@pytest.mark.parametrize("enabled", [True, False])
def test_backlinks_for_the_projects_own_glossary(root_app, enabled):
    app = root_app(
        "html", "tooltips", page=TOOLTIPS_CITED, confoverrides={"mlglossary_backlinks_user_glossaries": enabled}
    )
    app.build()
    soup = read_html(app.outdir / "user.html")
    box = backlink_box(soup, "term-savepoint")
    if enabled:
        assert [a["href"] for a in box.select("a")] == ["#mlglossary-cite-user-0"]
    else:
        assert box is None
    # our own glossary keeps its backlinks either way
    assert backlink_box(read_html(app.outdir / "glossary.html"), "term-attention-mask") is not None


def test_a_reference_added_after_reading_shifts_no_backlink(root_app):
    """Ids are attached when pages are written, counted as recorded at read time.

    Another extension adding a term reference later (here at the top of the guide,
    after our collector ran) must not move the other citations' ids: the added
    reference gets none, and every backlink still lands on the citation it names.
    """
    app = root_app("html", "basic-md", page=TWIN_CITED)

    def add_reference(app, doctree):
        if app.env.docname == "guide":
            xref = addnodes.pending_xref(
                "",
                nodes.inline("", "added later", classes=["xref", "std", "std-term"]),
                refdomain="std",
                reftype="term",
                reftarget="input ids",
                refdoc="guide",
                refexplicit=True,
                refwarn=True,
            )
            next(doctree.findall(nodes.paragraph)).insert(0, xref)

    app.connect("doctree-read", add_reference, priority=900)
    app.build()
    guide = read_html(app.outdir / "guide.html")
    added = guide.find("a", string="added later")
    assert added is not None and not added.get("id")
    glossary = read_html(app.outdir / "glossary.html")
    for anchor, text in [("term-attention-mask", "attention mask"), ("term-input-ids", "input IDs")]:
        hrefs = [a["href"] for a in backlink_box(glossary, anchor).select("a") if a["href"].startswith("guide.html")]
        assert hrefs
        for href in hrefs:
            landing = guide.find(id=href.split("#")[1])
            assert landing is not None and landing.get("href", "").endswith("#" + anchor)
        first = guide.find(id=hrefs[0].split("#")[1])
        assert first.get_text() == text


@pytest.mark.parametrize(
    ("twin", "unknown"), [("basic-md", "{term}`no such term`"), ("basic-rst", ":term:`no such term`")]
)
def test_an_unknown_term_takes_no_citation_id(root_app, twin, unknown):
    """A reference to a term nobody defines lands nowhere: it takes no id, and the
    citations after it on the page are numbered as if it weren't there."""
    suppress = {"suppress_warnings": ["mlglossary.unknown_term", "ref.term"]}
    app = root_app("html", twin, page=TWIN_CITED, confoverrides=suppress)
    page = next(app.srcdir.glob("guide.*"))
    title, rest = page.read_text(encoding="utf-8").split("\n", 1)
    if page.suffix == ".rst":
        underline, rest = rest.split("\n", 1)
        title = f"{title}\n{underline}"
    page.write_text(f"{title}\n\nFirst, an unknown one: {unknown}.\n{rest}", encoding="utf-8")
    app.build()
    guide = read_html(app.outdir / "guide.html")
    ids = [element["id"] for element in guide.select("[id^=mlglossary-cite-]")]
    assert ids[0] == "mlglossary-cite-guide-0"
    assert ids == [f"mlglossary-cite-guide-{number}" for number in range(len(ids))]
    assert guide.find(id="mlglossary-cite-guide-0").get_text() == "attention mask"
    unknown_text = guide.find(string=lambda s: "no such term" in s)
    assert unknown_text is not None
    assert not any(str(parent.get("id", "")).startswith("mlglossary-cite-") for parent in unknown_text.parents)
    glossary = read_html(app.outdir / "glossary.html")
    hrefs = [a["href"] for a in backlink_box(glossary, "term-attention-mask").select("a")]
    assert "guide.html#mlglossary-cite-guide-0" in hrefs
    for href in (h for h in hrefs if h.startswith("guide.html")):
        assert guide.find(id=href.split("#")[1]).get("href", "").endswith("#term-attention-mask")


# -- the glossary page: letter bar, letter headings, counts in each language --------------------------

ALPHABETS = {
    "en": list("ABCDEFGHIJKLMNOPQRSTUVWXYZ"),
    "es": list("ABCDEFGHIJKLMNÑOPQRSTUVWXYZ"),
    "ar": list("ابتثجحخدذرزسشصضطظعغفقكلمنهوي"),
}
#: per language: the bar's name, the guide's two citations of "attention mask", the first numbered link's name
PAGE_TEXT = {
    "en": ("Jump to letter", "2 citations", "citation 1 on Guide", "and 1 more page"),
    "es": ("Ir a la letra", "2 citas", "cita 1 en Guide", "y 1 página más"),
    "ar": ("الانتقال إلى حرف", "استشهادان", "الاستشهاد 1 في Guide", "وصفحة أخرى"),
}


@pytest.mark.parametrize("language", ["en", "es", "ar"])
def test_glossary_page_in_each_language(root_app, language):
    """The letter bar shows the language's alphabet and links the letters that have entries,
    each to a real heading; counts and link names come from the extension's catalog."""
    app = root_app("html", "basic-md", confoverrides={"language": language, "mlglossary_backlinks_max": 1})
    app.build()
    assert app.warning.getvalue() == ""
    soup = read_html(app.outdir / "glossary.html")
    label, count, first_number, overflow = PAGE_TEXT[language]
    bar = soup.select_one("div.mlglossary > nav.mlglossary-letters")
    assert bar["aria-label"] == label
    headings = soup.select("div.mlglossary h2.mlglossary-letter")
    letters = [heading.get_text().rstrip("¶") for heading in headings]
    # every letter of the alphabet, in order; those with entries link to their heading
    shown = [item.get_text() for item in bar.find_all(["a", "span"])]
    assert shown == ALPHABETS[language]
    linked = {a.get_text(): a["href"] for a in bar.select("a")}
    assert linked == {letter: "#" + heading["id"] for letter, heading in zip(letters, headings, strict=True)}
    assert all(span["aria-hidden"] == "true" for span in bar.select("span"))
    assert len(linked) >= 20
    # headings are targets with a permalink of their own, ids in ASCII
    for heading in headings:
        assert heading["id"].isascii()
        assert heading.select_one("a.headerlink")["href"] == "#" + heading["id"]
    if language == "ar":
        assert headings[0]["id"] == "mlglossary-letter-u0627"
    box = backlink_box(soup, "term-attention-mask")
    assert box.select_one(".mlglossary-backlinks-overflow").get_text() == overflow
    # with every citing page kept, the guide's two citations show (a page of the cited entries)
    app = root_app("html", "basic-md", page=TWIN_CITED, confoverrides={"language": language})
    app.build()
    guide = backlink_box(read_html(app.outdir / "glossary.html"), "term-attention-mask").select("li")[1]
    assert guide.select_one(".mlglossary-cites-count").get_text() == count
    assert guide.select_one(".mlglossary-cites a")["aria-label"] == first_number


def test_several_glossaries_on_one_page(root_app):
    """Each glossary's bar links its own headings; a glossary with one letter has no bar."""
    app = root_app("html", "basic-md")
    (app.srcdir / "glossary.md").write_text(
        "# Glossary\n\n"
        "```{mlglossary}\n:terms: attention mask, token\n```\n\n"
        "```{mlglossary}\n:terms: activation function, tokenizer\n```\n\n"
        "```{mlglossary}\n:terms: batch\n```\n"
    )
    app.build()
    soup = read_html(app.outdir / "glossary.html")
    blocks = soup.select("div.mlglossary")
    assert len(blocks) == 3
    bars = [[a["href"] for a in block.select("nav.mlglossary-letters a")] for block in blocks]
    assert bars == [
        ["#mlglossary-letter-a", "#mlglossary-letter-t"],
        ["#mlglossary-letter-a-2", "#mlglossary-letter-t-2"],
        [],
    ]
    assert not blocks[2].select("nav")
    for block, hrefs in zip(blocks, bars, strict=True):
        for href in hrefs:
            assert block.find(id=href[1:]).name == "h2"
