"""Property test: random MyST pages mixing citations with other markup always build and link.

Hypothesis writes a small project of random pages: citations of glossary names (in any
case, bare or with an explicit title) and of names that match nothing, inside
paragraphs, nested lists, tables, admonitions, footnotes, quotes, sections,
``only`` blocks and literal blocks. One HTML build per example must finish; every
resolvable citation that HTML keeps must link to its entry, every unknown one must
be reported, literal blocks must stay text, and every backlink must land on a
citation that exists. Kept cheap for CI: one build per example, a few pages each, 12
examples; ``MLGLOSSARY_PROPERTY_EXAMPLES=200`` asks for a longer search.

The glossary page of each example shows exactly the entries its citations name (``:terms:``,
``show_only``), a few instead of the whole glossary (about 1.5 s of CPU less per example,
and a page a hundredth the size to parse). Citations still resolve against every name of
every entry (the names are drawn from the whole glossary), and nothing a wrong match could
do goes unseen: a citation resolved to a listed entry other than its own links to the wrong
anchor, one resolved to an entry the page leaves out warns "term not in glossary", which
the count of reported citations catches, and a literal block's role taken for a citation
either links or warns.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections import Counter
from dataclasses import dataclass, field
from io import StringIO
from pathlib import Path

from bs4 import BeautifulSoup
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sphinx.testing.util import SphinxTestApp

from sphinxcontrib_mlglossary.loader import bundled_glossary

from .conftest import read_html_with_cards, show_only

ROOT = Path(__file__).parent / "roots" / "test-hostile"
GLOSSARY = bundled_glossary("en")
NAMES = sorted({name for entry in GLOSSARY for name in entry.names})
EXAMPLES = int(os.environ.get("MLGLOSSARY_PROPERTY_EXAMPLES", "12"))
#: the glossary page of an example that cites no entry (an empty ``:terms:`` shows them all)
UNCITED = next(iter(GLOSSARY)).id
WORDS = st.sampled_from(["the", "model", "reads", "a", "batch", "of", "data", "and", "then", "stops", "here"])


@dataclass
class Page:
    """A generated page and what its HTML must show."""

    lines: list[str] = field(default_factory=list)
    #: (link text, entry anchor) of every citation HTML keeps
    linked: Counter[tuple[str, str]] = field(default_factory=Counter)
    unknown: int = 0
    footnotes: int = 0
    #: ids of the entries every resolvable citation names, shown by HTML or not
    cited: set[str] = field(default_factory=set)


@st.composite
def citation(draw: st.DrawFn) -> tuple[str, str, str | None, str | None]:
    """(markup, link text, anchor and entry id, or None and None for an unknown target)."""
    if draw(st.integers(0, 5)) == 0:
        target = "zzq" + draw(st.text("bcdfghjk", min_size=2, max_size=6))
        anchor = entry_id = None
    else:
        name = draw(st.sampled_from(NAMES))
        target = draw(st.sampled_from([name, name.lower(), name.upper(), name.title()]))
        entry = GLOSSARY.find(target)
        assert entry is not None
        anchor, entry_id = entry.anchor, entry.id
    if draw(st.booleans()):
        text = " ".join(draw(st.lists(WORDS, min_size=1, max_size=3)))
        return f"{{term}}`{text} <{target}>`", text, anchor, entry_id
    return f"{{term}}`{target}`", target, anchor, entry_id


@st.composite
def sentence(draw: st.DrawFn, page: Page, kept: bool) -> str:
    """Words and citations; ``kept`` says whether HTML shows this text."""
    parts = []
    for _ in range(draw(st.integers(1, 3))):
        parts.append(" ".join(draw(st.lists(WORDS, min_size=1, max_size=4))))
        markup, text, anchor, entry_id = draw(citation())
        if anchor is None or entry_id is None:
            page.unknown += 1
        else:
            page.cited.add(entry_id)
            if kept:
                page.linked[(text, anchor)] += 1
        parts.append(draw(st.sampled_from(["{}", "*{}*", "**{}**", "({})"])).format(markup))
    return " ".join(parts) + "."


CONTEXTS = ["paragraph", "list", "table", "note", "footnote", "quote", "section", "only-html", "only-latex", "literal"]


@st.composite
def page_text(draw: st.DrawFn, title: str) -> Page:
    page = Page(lines=[f"# {title}", ""])
    for context in draw(st.lists(st.sampled_from(CONTEXTS), min_size=2, max_size=7)):
        add = page.lines.extend
        if context == "paragraph":
            add([draw(sentence(page, True)), ""])
        elif context == "list":
            add([f"- {draw(sentence(page, True))}", f"  - nested {draw(sentence(page, True))}", ""])
        elif context == "table":
            add(["| a | b |", "| --- | --- |", f"| {draw(sentence(page, True))} | x |", ""])
        elif context == "note":
            add(["```{note}", draw(sentence(page, True)), "```", ""])
        elif context == "footnote":
            page.footnotes += 1
            label = f"n{page.footnotes}"
            add([f"Noted[^{label}].", "", f"[^{label}]: {draw(sentence(page, True))}", ""])
        elif context == "quote":
            add([f"> {draw(sentence(page, True))}", ""])
        elif context == "section":
            add([f"## Part {len(page.lines)}", "", draw(sentence(page, True)), ""])
        elif context in ("only-html", "only-latex"):
            add([f"```{{only}} {context[5:]}", draw(sentence(page, context == "only-html")), "```", ""])
        else:  # a literal block: roles stay text, nothing is linked or reported
            add(["```text", f"{{term}}`{draw(st.sampled_from(NAMES))}` as text", "```", ""])
    return page


def term_links(soup: BeautifulSoup) -> Counter[tuple[str, str]]:
    found: Counter[tuple[str, str]] = Counter()
    for link in soup.select("a.reference"):
        if link.find(class_="std-term") is not None and link.find_parent(class_="mlglossary-card") is None:
            found[(link.get_text(), link["href"].partition("#")[2])] += 1
    return found


@settings(
    max_examples=EXAMPLES,
    deadline=None,
    database=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(st.data())
def test_random_pages_build_and_every_resolvable_citation_links(data: st.DataObject) -> None:
    count = data.draw(st.integers(1, 3), label="pages")
    pages = {f"page{i}": data.draw(page_text(f"Page {i}"), label=f"page{i}") for i in range(count)}
    with tempfile.TemporaryDirectory() as tmp:
        srcdir = Path(tmp) / "src"
        shutil.copytree(ROOT, srcdir)
        for name, page in pages.items():
            (srcdir / f"{name}.md").write_text("\n".join(page.lines), encoding="utf-8")
        # the entries the pages cite, resolvable or not in HTML (only-latex blocks)
        show_only(srcdir, sorted(set().union(*(page.cited for page in pages.values()))) or [UNCITED])
        warnings = StringIO()
        app = SphinxTestApp(
            "html",
            srcdir=srcdir,
            freshenv=True,
            confoverrides={"show_warning_types": True},  # Sphinx 7.3 hides the [type.subtype] suffix
            status=StringIO(),
            warning=warnings,
        )
        try:
            app.build()
        finally:
            app.cleanup()
        out = Path(app.outdir)
        reported = warnings.getvalue().splitlines()
        assert not [line for line in reported if "[mlglossary.unknown_term]" not in line], reported
        assert len(reported) == sum(page.unknown for page in pages.values())

        soups = {name: read_html_with_cards(out / f"{name}.html") for name in pages}
        for name, page in pages.items():
            assert term_links(soups[name]) == page.linked, name
            # the literal blocks kept their text; cards exist exactly for the linked entries
            cards = {card["data-mlglossary-href"] for card in soups[name].select(".mlglossary-card")}
            assert cards == {f"glossary.html#{anchor}" for _text, anchor in page.linked}

        glossary = BeautifulSoup((out / "glossary.html").read_text("utf-8"), "html.parser")
        backlinks = glossary.select(".mlglossary-backlinks a")
        cited = {anchor for page in pages.values() for _text, anchor in page.linked}
        assert {a.find_parent("dd").find_previous_sibling("dt")["id"] for a in backlinks} == cited
        for link in backlinks:
            target_page, _sep, anchor = link["href"].partition("#")
            assert soups[target_page.removesuffix(".html")].find(id=anchor) is not None, link["href"]
