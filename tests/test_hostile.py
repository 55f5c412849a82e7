"""Odd or hostile input never crashes a build: it is linked, reported, or refused clearly.

Glossary files: empty, without terms, 10 MB, 10,000 terms, 1,000-character names,
names that differ only by case or accents, right-to-left and combining characters,
names that look like HTML entities. Pages: empty term targets and citations in every
context a page can put them (tables, footnotes, admonitions, ``only``, included files,
literal blocks).
"""

from __future__ import annotations

import re
import time
import unicodedata
from pathlib import Path

import pytest
from bs4 import BeautifulSoup

from sphinxcontrib_mlglossary.loader import GlossaryDataError, parse_glossary

from .conftest import glossary_dt_count, ids_of, read_html_with_cards
from .hostile_data import ONE_ENTRY, entry, glossary_toml


def soup_of(app, page: str) -> BeautifulSoup:
    """The page with the cards its links name, as the script puts them in it."""
    return read_html_with_cards(Path(app.outdir) / page)


def term_links(soup: BeautifulSoup) -> dict[str, str]:
    """Link text -> href of every resolved term link on a page."""
    return {a.get_text(): a["href"] for a in soup.select("a.reference") if a.find(class_="std-term")}


def no_crash(app) -> str:
    warnings = app.warning.getvalue()
    assert "Traceback" not in warnings and "Exception occurred" not in warnings
    return warnings


# -- glossary files -----------------------------------------------------------------------------


@pytest.mark.parametrize("data", [b"", b"\xef\xbb\xbf", b"  \n\n", b"# just a comment\n"])
def test_an_empty_file_is_a_clear_error(data):
    with pytest.raises(GlossaryDataError) as caught:
        parse_glossary(data, "empty.toml")
    assert caught.value.field == "format"
    assert str(caught.value).startswith("empty.toml: field 'format': unsupported or missing 'format' None")


def test_a_glossary_without_terms_builds(use_glossary, project, make_app):
    use_glossary('format = 1\nlanguage = "en"\n')
    srcdir = project({"page.md": "# Page\n\nNo citation, and {term}`token` that matches nothing.\n"})
    app = make_app("html", srcdir=srcdir, freshenv=True)
    app.build()
    warnings = no_crash(app).splitlines()
    assert len(warnings) == 1 and "term not in glossary: 'token'" in warnings[0]
    glossary = soup_of(app, "glossary.html")
    assert glossary.select_one(".mlglossary") is not None
    assert glossary.select("dl.glossary") == []


def test_a_ten_megabyte_file_loads(tmp_path):
    body = ("A long body line with `code`, *emphasis* and a [link](https://example.org). " * 64).strip()
    entries = [entry(f"term-{i}", f"term {i}", body=body, aliases=[f"alias {i}"]) for i in range(2_100)]
    text = glossary_toml(entries)
    assert len(text.encode()) > 10_000_000
    started = time.perf_counter()
    glossary = parse_glossary(text, tmp_path / "big.toml")
    elapsed = time.perf_counter() - started
    assert len(glossary) == 2_100
    assert glossary.get("term-1999").line == 1 + 3 + 1999 * 7
    assert glossary.find("ALIAS 1234").id == "term-1234"
    assert elapsed < 60, f"{elapsed:.1f} s to load 10 MB"


@pytest.mark.slow
def test_ten_thousand_terms_build(use_glossary, project, make_app):
    count = 10_000
    entries = [
        entry(
            f"t{i}",
            f"term number {i}",
            summary=f"Summary {i}.",
            body=f"Body {i}, see {{term}}`term number {(i + 1) % count}`.",
        )
        for i in range(count)
    ]
    use_glossary(glossary_toml(entries))
    cited = range(0, count, 997)
    srcdir = project({"page.md": "# Page\n\n" + "\n".join(f"- {{term}}`term number {i}`" for i in cited) + "\n"})
    app = make_app("html", srcdir=srcdir, freshenv=True)
    app.build()
    assert no_crash(app) == ""
    links = term_links(soup_of(app, "page.html"))
    assert links == {f"term number {i}": f"glossary.html#term-t{i}" for i in cited}
    # counted with the tokenizer: BeautifulSoup's tree of this 5 MB page cost 5 s of CPU
    assert glossary_dt_count(Path(app.outdir) / "glossary.html") == count


def test_a_thousand_character_name(use_glossary, project, make_app):
    name = ("very long name " * 67)[:1000].strip()
    use_glossary(glossary_toml([entry("long", name, abbreviations=["VLN"])]))
    srcdir = project({"page.md": f"# Page\n\nThe {{term}}`{name}` and the {{term}}`VLN`.\n"})
    app = make_app("html", srcdir=srcdir, freshenv=True)
    app.build()
    assert no_crash(app) == ""
    page = soup_of(app, "page.html")
    assert term_links(page) == {name: "glossary.html#term-long", "VLN": "glossary.html#term-long"}
    assert page.select_one(".mlglossary-card-title strong").get_text() == name
    assert name in soup_of(app, "glossary.html").find(id="term-long").get_text()


@pytest.mark.parametrize(
    ("first", "second"),
    [("Token", "token"), ("ATTENTION", "attention"), ("Straße", "STRASSE"), ("caf\u00e9", "cafe\u0301")],
)
def test_names_equal_but_for_case_or_composition_are_refused(first, second):
    data = glossary_toml([entry("one", first), entry("two", second)])
    with pytest.raises(GlossaryDataError) as caught:
        parse_glossary(data, "twins.toml")
    assert caught.value.entry == "two" and caught.value.field == "name"
    assert "is already a name of entry 'one'" in str(caught.value)


def test_accents_right_to_left_and_combining_characters(use_glossary, project, make_app):
    entries = [
        entry("resume", "resume", summary="Start again."),
        entry("resume-cv", "résumé", summary="A CV."),
        entry("cafe", "cafe\u0301 latte", summary="Written with a combining accent."),
        entry("hebrew", "\u05e9\u05db\u05d1\u05d4", summary="\u05e9\u05db\u05d1\u05d4 in Hebrew."),
        entry(
            "arabic",
            "\u0627\u0644\u0627\u0646\u062a\u0628\u0627\u0647",
            aliases=["\u0627\u0646\u062a\u0628\u0627\u0647\u200f"],
        ),
        entry("marks", "n\u0303o\u0308", summary="Stacked combining marks."),
    ]
    use_glossary(glossary_toml(entries))
    nfc = unicodedata.normalize("NFC", "cafe\u0301 latte")
    page = (
        "# Page\n\n"
        "{term}`resume` {term}`résumé` {term}`RÉSUMÉ` "
        f"{{term}}`{nfc}` "
        "{term}`\u05e9\u05db\u05d1\u05d4` {term}`\u0627\u0644\u0627\u0646\u062a\u0628\u0627\u0647` "
        "{term}`\u0627\u0646\u062a\u0628\u0627\u0647\u200f` {term}`n\u0303o\u0308`\n"
    )
    app = make_app("html", srcdir=project({"page.md": page}), freshenv=True)
    app.build()
    assert no_crash(app) == ""
    links = term_links(soup_of(app, "page.html"))
    assert links == {
        "resume": "glossary.html#term-resume",
        "résumé": "glossary.html#term-resume-cv",
        "RÉSUMÉ": "glossary.html#term-resume-cv",
        nfc: "glossary.html#term-cafe",
        "\u05e9\u05db\u05d1\u05d4": "glossary.html#term-hebrew",
        "\u0627\u0644\u0627\u0646\u062a\u0628\u0627\u0647": "glossary.html#term-arabic",
        "\u0627\u0646\u062a\u0628\u0627\u0647\u200f": "glossary.html#term-arabic",
        "n\u0303o\u0308": "glossary.html#term-marks",
    }


def test_names_that_look_like_html_entities(use_glossary, project, make_app):
    entries = [
        entry("amp", "&amp;", summary="Named like an entity: &amp; and &lt;b&gt;."),
        entry("lt", "&lt;tag&gt;"),
        entry("numeric", "&#60;x&#62;"),
    ]
    use_glossary(glossary_toml(entries))
    page = "# Page\n\n{term}`&amp;`, {term}`&lt;tag&gt;` and {term}`&#60;x&#62;`.\n"
    app = make_app("html", srcdir=project({"page.md": page}), freshenv=True)
    app.build()
    assert no_crash(app) == ""
    soup = soup_of(app, "page.html")
    assert term_links(soup) == {
        "&amp;": "glossary.html#term-amp",
        "&lt;tag&gt;": "glossary.html#term-lt",
        "&#60;x&#62;": "glossary.html#term-numeric",
    }
    # the names stay the characters they are, never decoded into markup
    glossary = soup_of(app, "glossary.html")
    assert glossary.find(id="term-amp").get_text().startswith("&amp;")
    assert glossary.find(id="term-lt").get_text().startswith("&lt;tag&gt;")
    assert soup.select_one(".mlglossary-card-title strong").get_text() == "&amp;"


def test_odd_markup_in_entry_bodies(use_glossary, project, make_app):
    body = (
        "# A heading inside a body\n\nText under it.\n\n"
        "A footnote[^n] and {term}` ` and {term}`<>`.\n\n[^n]: The note.\n\n"
        "| a | b |\n|---|---|\n| {term}`plain` | 2 |\n\n"
        + "> " * 15
        + "deeply quoted\n\n"
        + "> " * 200
        + "too deep to render, but no crash\n\n"
        + "x" * 20_000
        + "\n\n```{note}\n```{tip}\nnested\n```\n```\n"
    )
    use_glossary(glossary_toml([entry("odd", "odd", body=body), entry("plain", "plain")]))
    app = make_app("html", srcdir=project({"page.md": "# Page\n\n{term}`odd`\n"}), freshenv=True)
    app.build()
    no_crash(app)
    glossary = soup_of(app, "glossary.html")
    definition = glossary.find(id="term-odd").find_next_sibling("dd")
    assert "Text under it." in definition.get_text() and "deeply quoted" in definition.get_text()
    assert definition.select_one('a[href="#term-plain"]') is not None


TAKEOVER_BODY = """\
---
orphan: true
nosearch: true
title: Hijacked title
---

Body text stays.

(genindex)=
(project-label)=
## A heading

```{topic} A topic
:name: mlglossary-card-1
Topic text.
```

```{math}
:label: project-equation
y = 2
```

```{figure} https://example.org/figure.png
---
name: project-figure
---
A caption.
```
"""

TAKEOVER_PAGE = """\
# Project page

(project-label)=
## Project section

See {ref}`genindex`, {ref}`project-label`, {eq}`project-equation` and {numref}`project-figure`.

```{math}
:label: project-equation
x = 1
```

```{figure} https://example.org/ours.png
:name: project-figure
Ours.
```
"""


@pytest.mark.parametrize("buildername", ["html", "dirhtml", "singlehtml", "epub"])
def test_entry_bodies_cannot_take_over_labels_ids_or_page_metadata(buildername, use_glossary, project, make_app):
    use_glossary(glossary_toml([entry("taker", "taker", body=TAKEOVER_BODY)]))
    app = make_app(
        buildername, srcdir=project({"page.md": TAKEOVER_PAGE}), freshenv=True, confoverrides={"numfig": True}
    )
    app.build()
    warnings = no_crash(app)
    # the project's labels, equations and figures stay the project's
    labels = app.env.get_domain("std").labels
    assert labels["genindex"][0] == "genindex"
    assert labels["project-label"][0] == "page" and labels["project-figure"][0] == "page"
    assert app.env.get_domain("math").equations["project-equation"][0] == "page"
    assert "duplicate label" not in warnings
    # the glossary page's metadata and title are its own
    assert app.env.metadata["glossary"].keys() <= {"wordcount"}
    assert app.env.titles["glossary"].astext() == "Glossary"
    markup = [line for line in warnings.splitlines() if "[mlglossary.markup]" in line]
    for left_out in (
        "front matter",
        "label (genindex)=",
        "label (project-label)=",
        "option :name: of directive 'topic'",
        "option :label: of directive 'math'",
        "option :name: of directive 'figure'",
    ):
        assert any(left_out in line and "entry 'taker'" in line for line in markup), left_out
    if buildername in ("html", "dirhtml", "singlehtml"):
        page = next(Path(app.outdir).rglob("index.html" if buildername != "html" else "glossary.html"))
        if buildername == "dirhtml":
            page = Path(app.outdir) / "glossary" / "index.html"
        soup = BeautifulSoup(page.read_text(encoding="utf-8"), "html.parser")
        ids = [element["id"] for element in soup.find_all(id=True)]
        assert len(ids) == len(set(ids))
        assert "mlglossary-card-1" not in ids
        assert "Body text stays." in soup.get_text() and "Topic text." in soup.get_text()
        assert "Hijacked title" not in soup.get_text()


# -- pages ----------------------------------------------------------------------------------------

CONTEXTS_MD = """\
# Contexts

| term | use |
| --- | --- |
| {term}`token` | a table cell |

A footnote[^1].

[^1]: A footnote citing the {term}`attention mask`.

```{note}
In a note: {term}`MLM`.
```

```{only} html
Only in HTML: {term}`input IDs`.
```

```{only} latex
Only in LaTeX: {term}`ZeRO`.
```

```{include} _included.md
```

> A quote citing {term}`pipeline`.

- a list
  - nested, citing {term}`token type IDs`

        literal {term}`seq2seq` stays text

```
fenced {term}`seq2seq` stays text
```

Empty and odd targets: {term}` `, {term}`<>`, {term}`x <>`, {term}`< >`.
"""

CONTEXTS_RST = """\
Contexts in reST
================

.. only:: latex

   Only in LaTeX: :term:`ZeRO`.

.. only:: html

   Only in HTML: :term:`DP`.

A footnote [#f]_.

.. [#f] A footnote citing :term:`token`.

.. include:: _included.rst

+-----------------+----+
| :term:`LLM`     | b  |
+-----------------+----+

.. warning:: A warning citing :term:`seq2seq`.

::

   literal :term:`pipeline` stays text

Odd targets: :term:`<>` and :term:`x <>`.
"""

LINKED_MD = {"token", "attention mask", "MLM", "input IDs", "included LLM", "pipeline", "token type IDs"}
LINKED_RST = {"DP", "token", "included seq2seq", "LLM", "seq2seq"}


#: every bundled entry the context pages name, linked or not: their glossary page shows these
CONTEXT_ENTRIES = (
    "attention-mask",
    "dataparallel",
    "input-ids",
    "large-language-models",
    "masked-language-modeling",
    "pipeline",
    "sequence-to-sequence",
    "token",
    "token-type-ids",
    "zero-redundancy-optimizer",
)


@pytest.fixture
def contexts(project):
    """The context pages, with a glossary page of the entries they name (the tests read the
    links, the backlinks of those entries and the warnings, nothing of other entries)."""
    return project(
        {
            "contexts.md": CONTEXTS_MD,
            "contexts_rst.rst": CONTEXTS_RST,
            "_included.md": "Included: {term}`included LLM <LLM>`.\n",
            "_included.rst": "Included: :term:`included seq2seq <seq2seq>`.\n",
        },
        page=CONTEXT_ENTRIES,
    )


def test_citations_in_every_context_are_linked(contexts, make_app):
    app = make_app("html", srcdir=contexts, freshenv=True)
    app.build()
    warnings = no_crash(app)
    odd = [line for line in warnings.splitlines() if line.strip()]
    assert odd and all("[mlglossary.unknown_term]" in line for line in odd)
    assert set(term_links(soup_of(app, "contexts.html"))) == LINKED_MD
    assert set(term_links(soup_of(app, "contexts_rst.html"))) == LINKED_RST
    # literal blocks keep the role as text
    markdown = soup_of(app, "contexts.html").get_text()
    assert "literal {term}`seq2seq` stays text" in markdown and "fenced {term}`seq2seq` stays text" in markdown
    assert "literal :term:`pipeline` stays text" in soup_of(app, "contexts_rst.html").get_text()


@pytest.mark.parametrize("buildername", ["html", "singlehtml", "latex"])
def test_every_backlink_lands_on_a_citation_of_this_output(contexts, make_app, buildername):
    """Citations inside ``only`` blocks another format keeps are not listed (their anchor is gone)."""
    app = make_app(buildername, srcdir=contexts, freshenv=True)
    app.build()
    no_crash(app)
    out = Path(app.outdir)
    if buildername == "latex":
        tex = next(out.glob("*.tex")).read_text(encoding="utf-8")
        labels = set(re.findall(r"\\label\{([^}]*)\}", tex))
        pagerefs = set(re.findall(r"\\pageref\{([^}]*)\}", tex))
        assert pagerefs and pagerefs <= labels
        assert "Only in HTML" not in tex
        return
    glossary_page = "index.html" if buildername == "singlehtml" else "glossary.html"
    glossary = soup_of(app, glossary_page)
    backlinks = glossary.select(".mlglossary-backlinks a")
    assert len(backlinks) >= 10
    ids: dict[str, dict] = {glossary_page: ids_of(glossary)}
    for link in backlinks:
        page, _sep, anchor = link["href"].partition("#")
        page = page or glossary_page
        if page not in ids:
            ids[page] = ids_of(soup_of(app, page))
        assert anchor in ids[page], link["href"]


# -- data files that break parsers ----------------------------------------------------------------

#: 2 KB files whose nesting made the TOML parser recurse past Python's limit
TOO_DEEP = {
    "arrays.toml": 'format = 1\nlanguage = "en"\nx = ' + "[" * 2000 + "\n",
    "tables.toml": 'format = 1\nlanguage = "en"\nx = ' + "{a=" * 700 + "\n",
    "in-an-entry.toml": glossary_toml([entry("deep", "deep")]) + "aliases = " + "[" * 2000 + "\n",
}


@pytest.mark.parametrize("name", sorted(TOO_DEEP))
def test_a_deeply_nested_file_is_a_data_warning_in_a_build(name, project, make_app):
    # the warnings are read, not the root's bundled page
    srcdir = project({"theirs.md": f"# Theirs\n\n```{{mlglossary}}\n:source: {name}\n```\n"}, page=ONE_ENTRY)
    (srcdir / name).write_text(TOO_DEEP[name], encoding="utf-8")
    app = make_app("html", srcdir=srcdir, freshenv=True)
    app.build()
    warnings = [line for line in no_crash(app).splitlines() if "[mlglossary.data]" in line]
    assert len(warnings) == 1, app.warning.getvalue()
    assert "theirs.md" in warnings[0] and name in warnings[0] and "nested too deeply" in warnings[0]


@pytest.mark.parametrize("name", sorted(TOO_DEEP))
def test_a_deeply_nested_file_is_an_error_of_check_without_traceback(name, tmp_path):
    import subprocess
    import sys

    path = tmp_path / name
    path.write_text(TOO_DEEP[name], encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "sphinxcontrib_mlglossary", "check", str(path)],
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    assert done.stderr.startswith(f"error: {path}: ") and "nested too deeply" in done.stderr


def test_any_exception_of_a_parser_becomes_our_error(tmp_path, monkeypatch):
    """A parser's own bug (whatever it raises) names the file instead of ending the build."""
    from sphinxcontrib_mlglossary.importing import reader

    def broken(*args, **kwargs):
        raise IndexError("list index out of range")

    monkeypatch.setattr(reader, "read_transformers_markdown", broken)
    path = tmp_path / "g.md"
    path.write_text("# Glossary\n\n## A\n\n### Term\n\nText.\n", encoding="utf-8")
    with pytest.raises(GlossaryDataError) as caught:
        reader.read_source(path)
    assert str(caught.value).startswith(f"{path}: the file could not be read (IndexError: list index out of range)")


# -- ids the page already uses ---------------------------------------------------------------------


@pytest.mark.parametrize("section_first", [False, True])
def test_an_entry_never_takes_an_id_its_page_uses(section_first, use_glossary, project, make_app):
    """An entry named "license" keeps ``#term-license``; ``#license`` stays the page's own section's."""
    use_glossary(glossary_toml([entry("license", "license"), entry("model-card", "model card")]))
    directive = "```{mlglossary}\n```\n"
    section = "## License\n\nThe page's own license text.\n"
    parts = [section, directive] if section_first else [directive, section]
    srcdir = project({"glossary.md": "# Glossary\n\n" + "\n".join(parts)})
    app = make_app("html", srcdir=srcdir, freshenv=True)
    app.build()
    no_crash(app)
    page = soup_of(app, "glossary.html")
    ids = [element["id"] for element in page.find_all(id=True)]
    assert len(ids) == len(set(ids))
    assert page.find(id="license").name == "section" and "own license text" in page.find(id="license").get_text()
    assert page.find(id="term-license").name == "dt"
    # an entry whose old anchor is free still answers to it (HTML writes a second id as a span)
    old_anchor = page.find(id="model-card")
    assert page.find(id="term-model-card") in (old_anchor, old_anchor.find_parent("dt"))
