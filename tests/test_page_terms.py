"""``mlglossary-page-terms``: the terms a page or section cites, with summaries and links, in every builder."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from .conftest import ROOTS, read_html
from .sphinx_process import quiet_build

FIRST_BOX = [
    "masked language modeling (MLM)",
    "attention mask",
    "large language models (LLM)",
    "low-rank adaptation (LoRA)",
    "savepoint",
]
SECTION_BOX = sorted(FIRST_BOX[:4], key=str.casefold)  # alphabetical; the section cites no savepoint
ANCHORS = {
    "masked language modeling (MLM)": "term-masked-language-modeling",
    "attention mask": "term-attention-mask",
    "large language models (LLM)": "term-large-language-models",
    "low-rank adaptation (LoRA)": "term-lora",
    "savepoint": "term-savepoint",
}


def boxes(page: Path) -> list[list[tuple[str, str, str]]]:
    """Per box on the page: (term shown, link, summary shown) per item."""
    found = []
    for box in read_html(page).select("div.mlglossary-page-terms"):
        items = []
        for item in box.select("li"):
            link = item.select_one("a")
            summary = " ".join(item.get_text().split()).removeprefix(link.get_text().strip()).strip()
            items.append((link.get_text(strip=True), link["href"], summary.removeprefix("—").strip()))
        found.append(items)
    return found


def summaries(outdir: Path) -> dict[str, str]:
    data = json.loads((outdir / "glossary.json").read_text(encoding="utf-8"))
    return {term["url"].partition("#")[2]: term["summary"]["text"] for term in data["terms"]}


@pytest.mark.parametrize("root", ["page-terms-md", "page-terms-rst"])
def test_boxes_list_the_cited_terms_with_summaries_and_links(root_app, root):
    app = root_app("html", root)
    app.build()
    assert app.warning.getvalue() == ""
    texts = summaries(app.outdir)
    first, section = boxes(app.outdir / "tutorial.html")
    assert [name for name, _href, _summary in first] == FIRST_BOX  # document order, each term once
    assert [name for name, _href, _summary in section] == SECTION_BOX
    for name, href, summary in first + section:
        assert href == f"glossary.html#{ANCHORS[name]}"
        assert " ".join(summary.split()) == texts[ANCHORS[name]]
    soup = read_html(app.outdir / "tutorial.html")
    assert [p.get_text() for p in soup.select("div.mlglossary-page-terms p.rubric")] == [
        "Terms used here",
        "In this section",
    ]
    # the list's links are no citations: no card repeats the summary beside them
    assert not soup.select("div.mlglossary-page-terms a.mlglossary-term")
    glossary = read_html(app.outdir / "glossary.html")
    backlinks = [a["href"] for a in glossary.select("div.mlglossary-backlinks a")]
    assert backlinks and all("#mlglossary-cite-" in href for href in backlinks)
    # a page citing nothing shows no empty box
    assert boxes(app.outdir / "quiet.html") == []


@pytest.mark.parametrize(
    ("builder", "page", "link"),
    [
        ("singlehtml", "index.html", "#term-lora"),
        ("dirhtml", "tutorial/index.html", "../glossary/#term-lora"),
        ("epub", "tutorial.xhtml", "glossary.xhtml#term-lora"),
    ],
)
def test_html_builders_link_each_term(root_app, builder, page, link):
    app = root_app(builder, "page-terms-md")
    app.build()
    assert app.warning.getvalue() == ""
    first = boxes(app.outdir / page)[0]
    assert [name for name, _href, _summary in first] == FIRST_BOX
    assert dict((name, href) for name, href, _summary in first)["low-rank adaptation (LoRA)"] == link


@pytest.mark.parametrize(
    ("builder", "suffix"), [("text", ".txt"), ("latex", ".tex"), ("man", ".1"), ("texinfo", ".texi")]
)
def test_other_builders_get_a_plain_list(root_app, builder, suffix):
    app = root_app(builder, "page-terms-rst")
    app.build()
    assert app.warning.getvalue() == ""
    written = "".join(p.read_text(encoding="utf-8") for p in app.outdir.rglob(f"*{suffix}"))
    assert "Terms used here" in written and "In this section" in written
    assert "adaptation (LoRA)" in written and "A snapshot of the training state" in written
    assert "<a " not in written and "<span" not in written


def test_an_unknown_section_is_a_warning(root_app):
    app = root_app("html", "page-terms-rst")
    (app.srcdir / "quiet.rst").write_text(
        "Quiet\n=====\n\nCites :term:`LoRA`.\n\n.. mlglossary-page-terms:: Here\n   :section: nowhere\n",
        encoding="utf-8",
    )
    app.build()
    warnings = app.warning.getvalue()
    assert "quiet.rst:6" in warnings and "no section 'nowhere'" in warnings
    assert "[mlglossary.option]" in warnings
    assert boxes(app.outdir / "quiet.html") == []


def build(src: Path, out: Path, *extra: str) -> None:
    assert quiet_build(src, out, *extra) == ""


def test_parallel_and_incremental_builds_equal_a_clean_one(tmp_path):
    src = tmp_path / "src"
    shutil.copytree(ROOTS / "test-page-terms-md", src)
    serial, parallel = tmp_path / "serial", tmp_path / "parallel"
    build(src, serial, "-E")
    build(src, parallel, "-E", "-j", "2")
    for page in ("tutorial.html", "glossary.html", "quiet.html"):
        assert (serial / page).read_text(encoding="utf-8") == (parallel / page).read_text(encoding="utf-8"), page

    # a citation added on the page: its boxes follow on the incremental build
    tutorial = src / "tutorial.md"
    tutorial.write_text(
        tutorial.read_text(encoding="utf-8").replace("then {term}`MLM` again", "then {term}`input IDs`"),
        encoding="utf-8",
    )
    build(src, parallel, "-j", "2")
    clean = tmp_path / "clean"
    build(src, clean, "-E")
    assert (parallel / "tutorial.html").read_text(encoding="utf-8") == (clean / "tutorial.html").read_text(
        encoding="utf-8"
    )
    first, section = boxes(parallel / "tutorial.html")
    assert "input IDs" in [name for name, _href, _summary in first]
    assert [name for name, _href, _summary in section] == [
        "attention mask",
        "input IDs",
        "large language models (LLM)",
        "low-rank adaptation (LoRA)",
    ]

    # only another page changes: the tutorial is not written again
    written = (parallel / "tutorial.html").stat().st_mtime_ns
    (src / "quiet.md").write_text("# Quiet\n\nNow it cites {term}`LoRA`.\n", encoding="utf-8")
    build(src, parallel, "-j", "2")
    assert (parallel / "tutorial.html").stat().st_mtime_ns == written
