"""Glossary data from a file the project didn't write can't put script or files into the output.

A hostile glossary carries script in term names, abbreviations, aliases, summaries and
bodies (raw HTML, event-handler attributes, ``javascript:``/``data:`` links, reST and
file-reading directives). The built HTML, the tooltip cards and their ``title``
fallback, backlinks and the index must hold that text only as text; what was dropped
is reported as ``mlglossary.markup``. A browser test checks that nothing runs.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from bs4 import BeautifulSoup

from sphinxcontrib_mlglossary.loader import GlossaryDataError, parse_glossary
from sphinxcontrib_mlglossary.markup import is_unsafe_url

from .conftest import read_html_with_cards
from .hostile_data import ONE_ENTRY, entry, glossary_toml

NAME = "<script>window.__pwned=1;alert(1)</script> term"
ABBREVIATION = '"><svg onload="window.__pwned=2;alert(2)">'
ALIAS = 'quote\'s "alias" & <b>bold</b> &amp;'
SUMMARY = (
    "Summary <script>window.__pwned=3;alert(3)</script> with "
    '<img src=x onerror="window.__pwned=4;alert(4)"> and '
    "[a link](javascript:window.__pwned=5) and *emphasis*."
)
BODY = """\
Body text <img src=x onerror="window.__pwned=6;alert(6)"> inline.

<script>window.__pwned=7;alert(7)</script>

<div onmouseover="window.__pwned=8;alert(8)">block html</div>

[data link](data:text/html;base64,PHNjcmlwdD5hbGVydCg5KTwvc2NyaXB0Pg==)
[vb link](vbscript:msgbox) [ref link][bad] [good link](https://example.org/ok)

[bad]: javascript:window.__pwned=10

![pixel](data:image/png;base64,iVBORw0KGgo=)

```{eval-rst}
.. raw:: html

   <script>window.__pwned=11;alert(11)</script>

`rst link <javascript:window.__pwned=12>`_
```

```{raw} html
<script>window.__pwned=13;alert(13)</script>
```

```{image} https://example.org/logo.png
:target: javascript:window.__pwned=14
```

```{note}
A note with a {term}`plain term` reference stays.
```
"""
PAGE = f"""\
# Citing page

Citing {{term}}`plain term`, the {{term}}`{NAME}`, its abbreviation
{{term}}`abbr <{ABBREVIATION}>` and its alias {{term}}`{ALIAS}`.

## Section \\<script\\>window.__pwned=15\\</script\\>

Again: {{term}}`plain term`.
"""


def hostile_glossary() -> str:
    return glossary_toml(
        [
            entry("script-term", NAME, abbreviations=[ABBREVIATION], aliases=[ALIAS], summary=SUMMARY, body=BODY),
            entry("plain-term", "plain term", summary="A plain summary.", body="Plain body."),
        ]
    )


def unsmart(text: str) -> str:
    """Undo Sphinx's smart quotes, which apply to term names like any text."""
    return text.translate(str.maketrans("“”‘’", "\"\"''"))


def html_pages(outdir: Path) -> dict[str, BeautifulSoup]:
    """Every page with the cards its links name (as the script puts them in it)."""
    return {p.name: read_html_with_cards(p) for p in outdir.glob("*.html")}


def assert_inert(soup: BeautifulSoup, page: str) -> None:
    """No element or attribute that runs script or loads a document from the glossary text."""
    for element in soup.find_all(True):
        handlers = [name for name in element.attrs if name.lower().startswith("on")]
        assert not handlers, f"{page}: {element.name} has {handlers}"
        for attribute in ("href", "src", "action", "formaction", "data"):
            value = element.get(attribute)
            if isinstance(value, str):
                assert not is_unsafe_url(value), f"{page}: {element.name} {attribute}={value!r}"
    for script in soup.find_all("script"):
        if script.get("type") == "application/ld+json":
            # a data block browsers never run (the glossary page's schema.org terms): it may
            # quote the hostile names, as JSON a reader parses, but can't end the element early
            assert "<" not in script.get_text() and json.loads(script.get_text()), page
            continue
        assert "__pwned" not in script.get_text(), page
    assert not soup.find_all(["svg", "iframe", "object", "embed"]), page
    assert not soup.find("img", src="x"), page


@pytest.fixture
def hostile_site(use_glossary, project, make_app):
    use_glossary(hostile_glossary())
    srcdir = project({"citing.md": PAGE})
    app = make_app("html", srcdir=srcdir, freshenv=True)
    app.build()
    return app


def test_hostile_glossary_builds_inert_html(hostile_site):
    pages = html_pages(hostile_site.outdir)
    assert {"index.html", "glossary.html", "citing.html", "genindex.html"} <= set(pages)
    for name, soup in pages.items():
        assert_inert(soup, name)

    # the names show as the text they are, on the glossary page and in the index
    glossary = pages["glossary.html"]
    term = glossary.find(id="term-script-term")
    assert NAME in term.get_text()
    assert ABBREVIATION in unsmart(term.get_text())
    # (the index splits names at ";" into entry and sub-entry, as for Sphinx's own glossary)
    assert "<script>window.__pwned=1" in pages["genindex.html"].get_text()
    assert ALIAS in {unsmart(a.get_text()) for a in pages["citing.html"].select("a.mlglossary-term")}

    # the body keeps its text and safe parts; the dropped parts leave no trace in HTML
    body = term.find_next_sibling("dd")
    text = body.get_text()
    assert "Body text" in text and "inline." in text and "block html" not in text
    assert body.select_one('a[href="https://example.org/ok"]').get_text() == "good link"
    assert "ref link" in text and "rst link" not in text  # eval-rst is left out entirely
    assert body.select_one(".admonition.note a.reference") is not None
    # the data: image is gone; the web image is a link (never fetched), without its script target
    assert body.find_all("img") == []
    assert body.select_one('a[href="https://example.org/logo.png"]').get_text() == "https://example.org/logo.png"


def test_tooltip_cards_and_title_fallback_hold_plain_text(hostile_site):
    citing = html_pages(hostile_site.outdir)["citing.html"]
    links = citing.select("a.mlglossary-term")
    assert len(links) == 5
    hostile = [link for link in links if link["href"].endswith("#term-script-term")]
    assert len(hostile) == 3
    for link in hostile:
        title = link["title"]
        assert title.startswith("Summary ") and title.endswith("and emphasis.")
        assert "<" not in title and ">" not in title  # the tags were dropped, not escaped into view
    card = citing.find(attrs={"data-mlglossary-href": hostile[0]["href"]})
    assert card.select_one(".mlglossary-card-title strong").get_text() == NAME
    assert unsmart(card.select_one(".mlglossary-card-abbr").get_text()) == f"({ABBREVIATION})"
    summary = card.select_one(".mlglossary-card-summary")
    assert summary.find("em").get_text() == "emphasis"
    assert summary.find(["script", "img", "a"]) is None
    assert "[a link](javascript:" in summary.get_text()  # never parsed as a link: stays text


def test_backlinks_hold_titles_as_text(hostile_site):
    glossary = html_pages(hostile_site.outdir)["glossary.html"]
    backlinks = glossary.find(id="term-plain-term").find_next_sibling("dd").select(".mlglossary-backlinks a")
    texts = [a.get_text() for a in backlinks]
    assert "Citing page" in texts
    assert "Citing page › Section <script>window.__pwned=15</script>" not in texts  # first citation wins
    assert all(a["href"].startswith("citing.html#mlglossary-cite-") for a in backlinks)


def test_dropped_markup_is_reported_as_markup_warnings(hostile_site):
    warnings = [line for line in hostile_site.warning.getvalue().splitlines() if "[mlglossary.markup]" in line]
    text = "\n".join(warnings)
    assert "raw html markup '<script>window.__pwned=7;alert(7)</script>' was dropped" in text
    assert "'<div onmouseover" in text
    assert "{eval-rst} block is not allowed" in text
    assert "directive 'raw' is not allowed" in text
    assert "link to 'javascript:window.__pwned=14' is not allowed" in text
    assert "image 'data:image/png;base64,iVBORw0KGgo=' is not allowed" in text
    # summary problems point at the data file and the entry's line, not at a citing page
    summary_warnings = [line for line in warnings if "alert(4)" in line]
    assert summary_warnings and all("en.toml:" in line for line in summary_warnings)


def test_glossary_json_summaries_hold_no_markup_from_the_data(hostile_site):
    data = json.loads((Path(hostile_site.outdir) / "glossary.json").read_text(encoding="utf-8"))
    hostile = next(term for term in data["terms"] if term["id"] == "script-term")
    assert hostile["name"] == NAME  # plain data: whoever shows it escapes it
    summary = BeautifulSoup(hostile["summary"]["html"], "html.parser")
    assert_inert(summary, "glossary.json")
    assert summary.find(["script", "img", "a"]) is None
    assert summary.find("em").get_text() == "emphasis"


def test_a_hostile_file_named_by_the_directive(project, make_app):
    """The user-facing path: ``:source:`` names the file (skipped before that option exists)."""
    pytest.importorskip("sphinxcontrib_mlglossary.sources")
    srcdir = project(
        {
            "theirs.md": "# Their glossary\n\n```{mlglossary}\n:source: hostile.toml\n```\n",
            "citing.md": PAGE,
        }
    )
    (srcdir / "glossary.md").unlink()  # only the hostile file defines terms here
    (srcdir / "hostile.toml").write_text(hostile_glossary(), encoding="utf-8")
    app = make_app("html", srcdir=srcdir, freshenv=True)
    app.build()
    pages = html_pages(Path(app.outdir))
    for name, soup in pages.items():
        assert_inert(soup, name)
    assert NAME in pages["theirs.html"].find(id="term-script-term").get_text()
    assert len(pages["citing.html"].select("a.mlglossary-term")) == 5
    warnings = app.warning.getvalue()
    assert "raw html markup '<script>window.__pwned=7;alert(7)</script>' was dropped" in warnings
    assert "Traceback" not in warnings


def test_entries_cannot_read_files_outside_the_project(use_glossary, project, make_app):
    srcdir = project()
    secret = srcdir.parent / "secret.txt"
    secret.write_text("TOP-SECRET-4711\n")
    shutil.copy(secret, srcdir.parent / "secret.png")
    body = """\
Reading files:

```{include} ../secret.txt
```

```{literalinclude} ../secret.txt
```

```{csv-table}
:file: ../secret.txt
```

```{eval-rst}
.. include:: ../secret.txt
```

![leak](../secret.png)
"""
    use_glossary(glossary_toml([entry("reader", "reader", body=body)]))
    app = make_app("html", srcdir=srcdir, freshenv=True)
    app.build()
    outputs = [path for path in Path(app.outdir).rglob("*") if path.is_file()]
    assert not any(path.name.startswith("secret") for path in outputs)
    for path in outputs:
        assert b"TOP-SECRET-4711" not in path.read_bytes(), path
    warnings = app.warning.getvalue()
    for left_out in ("'include'", "'literalinclude'", "{eval-rst}", "image '../secret.png'"):
        assert left_out in warnings
    assert "Reading files:" in (Path(app.outdir) / "glossary.html").read_text()


@pytest.mark.parametrize(
    ("url", "unsafe"),
    [
        ("javascript:alert(1)", True),
        ("JavaScript:alert(1)", True),
        (" \tjava\nscript:alert(1)", True),
        ("\x01javascript:alert(1)", True),
        ("vbscript:msgbox", True),
        ("data:text/html,<script>", True),
        ("DATA:image/svg+xml;base64,AAAA", True),
        ("https://example.org/javascript:", False),
        ("javascript-guide.html", False),
        ("mailto:someone@example.org", False),
        ("#term-data", False),
        ("../data/file.html", False),
    ],
)
def test_unsafe_url_detection(url, unsafe):
    assert is_unsafe_url(url) is unsafe


@pytest.mark.parametrize(
    ("field", "value", "code"),
    [
        ("name", "tab\tin name", "U+0009"),
        ("name", "line\nbreak", "U+000A"),
        ("aliases", "escape\x1b[31m", "U+001B"),
        ("abbreviations", "null\x00", "U+0000"),
        ("name", "para\u2029graph", "U+2029"),
        ("summary", "bell\x07 summary", "U+0007"),
        ("body", "delete\x7f body", "U+007F"),
    ],
)
def test_loader_refuses_control_characters(field, value, code):
    fields = {"abbreviations": [], "aliases": []}
    fields[field] = [value] if field in fields else value
    data = glossary_toml([entry("odd", fields.pop("name", "odd"), **fields)])
    with pytest.raises(GlossaryDataError) as caught:
        parse_glossary(data, "odd.toml")
    error = caught.value
    assert (error.entry, error.field) == ("odd", field)
    assert code in error.problem and error.line == 4
    assert str(error).startswith("odd.toml:4: entry 'odd': field")


def test_loader_removes_invisible_name_characters_and_keeps_text_whitespace():
    """Direction marks, overrides and joiners between Latin letters leave names with a warning (tests/test_names.py)."""
    data = glossary_toml(
        [
            entry(
                "marks",
                "\u05e9\u05dc\u05d5\u05dd\u200f (RLM)",
                aliases=["zero\u200dwidth joiner", "abc\u202edcba"],
                summary="Tab\there.",
                body="Line one\r\nline two\n\n\tindented code",
            )
        ]
    )
    warnings: list[tuple[int, str]] = []
    found = parse_glossary(data, "marks.toml", warnings=warnings).get("marks")
    assert found is not None and found.name == "\u05e9\u05dc\u05d5\u05dd (RLM)"
    assert found.aliases == ("zerowidth joiner", "abcdcba")
    assert [line for line, _message in warnings] == [4, 4, 4]
    assert found.summary == "Tab\there."


@pytest.mark.skipif(shutil.which("chromium") is None and os.environ.get("CI") != "true", reason="no chromium")
@pytest.mark.browser
def test_no_script_runs_in_a_browser(hostile_site):
    """Hover, focus and open every card on every page: no dialog, no flag set by a payload."""
    playwright_api = pytest.importorskip("playwright.sync_api")
    chromium = shutil.which("chromium")
    assert chromium, "CI=true but chromium is not installed"
    dialogs: list[str] = []
    with playwright_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium, args=["--no-sandbox", "--disable-gpu"])
        try:
            page = browser.new_page()
            page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
            opened = 0
            for name in ("citing.html", "glossary.html", "genindex.html", "index.html"):
                page.goto((Path(hostile_site.outdir) / name).as_uri())
                links = page.locator("a.mlglossary-term")
                for index in range(links.count()):
                    links.nth(index).hover()
                    page.wait_for_timeout(250)
                    opened += page.locator(".mlglossary-card.mlglossary-open").count()
                    page.keyboard.press("Escape")
                    page.mouse.move(0, 0)
                    links.nth(index).focus()
                    page.keyboard.press("Escape")
                for element in page.locator("dt, dd").all()[:40]:
                    element.hover()
                page.wait_for_timeout(300)
                assert page.evaluate("typeof window.__pwned") == "undefined", name
        finally:
            browser.close()
    assert opened >= 5  # every card of the citing page was really shown
    assert dialogs == []


# -- the project's own glossary definitions, shown away from their page -----------------------

OWN_GLOSSARY = """\
# Own glossary

```{glossary}
widget
   A widget <script>window.__pwned=20;alert(20)</script> with <b onclick="window.__pwned=21">bold</b>
   and [a link](javascript:window.__pwned=22) that markdown-it keeps as text.

gadget
   A plain gadget.
```
"""


OWN_GLOSSARY_RST = """\
Own glossary
============

.. role:: raw-html(raw)
   :format: html

.. glossary::

   widget
      A widget :raw-html:`<script>window.__pwned=20;alert(20)</script>` with :raw-html:`<b onclick="x">bold</b>`
      and `a link <javascript:window.__pwned=22>`_ that runs.

   gadget
      A plain gadget.
"""


@pytest.mark.parametrize(
    ("builder", "page"),
    [("html", "own.md"), ("dirhtml", "own.md"), ("singlehtml", "own.md"), ("html", "own.rst")],
)
def test_raw_html_of_a_project_definition_stays_on_its_own_page(builder, page, project, make_app):
    own_text = OWN_GLOSSARY if page.endswith(".md") else OWN_GLOSSARY_RST
    pages = {page: own_text, "citing.md": "# Citing\n\nA {term}`widget` and a {term}`gadget`.\n"}
    srcdir = project(pages, page=ONE_ENTRY)  # about the project's own definitions: the bundled page only builds
    app = make_app(builder, srcdir=srcdir, freshenv=True)
    app.build()
    outdir = Path(app.outdir)
    cards = [card for page in outdir.rglob("*.html") for card in read_html_with_cards(page).select(".mlglossary-card")]
    widget_cards = [card for card in cards if card.select_one("strong").get_text() == "widget"]
    if builder != "singlehtml":  # (cards on singlehtml are another change's)
        assert widget_cards
    for card in widget_cards:
        assert_inert(card, "card")
        summary = card.select_one(".mlglossary-card-summary")
        assert summary.find(["script", "b"]) is None
        assert "A widget" in summary.get_text() and "a link" in summary.get_text()
        assert summary.find("a") is None and summary.find(id=True) is None
    data = json.loads((outdir / "glossary.json").read_text(encoding="utf-8"))
    widget = next(term for term in data["terms"] if term["name"] == "widget")
    html = BeautifulSoup(widget["summary"]["html"], "html.parser")
    assert_inert(html, "glossary.json")
    assert html.find(["script", "b"]) is None and "<script>" not in widget["summary"]["text"]
    # the project's own page keeps what MyST made of its text
    own = next(outdir.rglob("own.html" if builder == "html" else "*.html"))
    if builder == "html":
        assert "window.__pwned=20" in own.read_text(encoding="utf-8")
    warnings = [line for line in app.warning.getvalue().splitlines() if "[mlglossary.markup]" in line]
    assert len(warnings) == 1, warnings  # one per definition, none for the plain one
    assert page in warnings[0] and "glossary term 'widget'" in warnings[0]
    assert "own." in warnings[0] and "'<b onclick=" in warnings[0]
    if page.endswith(".rst"):
        assert "link to 'javascript:window.__pwned=22' is not allowed" in warnings[0]


def test_summary_warnings_name_the_file_the_entry_comes_from(project, make_app):
    theirs = glossary_toml([entry("theirs-only", "theirs only", summary="Summary with <b>raw</b> markup.")])
    srcdir = project(
        {
            "theirs.md": "# Theirs\n\n```{mlglossary}\n:source: data/theirs.toml\n```\n",
            "citing.md": "# Citing\n\nThe {term}`theirs only` term.\n",
        },
        page=ONE_ENTRY,  # the warnings of their file are read, not the root's bundled page
    )
    (srcdir / "data").mkdir()
    (srcdir / "data" / "theirs.toml").write_text(theirs, encoding="utf-8")
    app = make_app("html", srcdir=srcdir, freshenv=True)
    app.build()
    warnings = [line for line in app.warning.getvalue().splitlines() if "'<b>'" in line]
    assert warnings
    assert all(f"{srcdir / 'data' / 'theirs.toml'}:4" in line for line in warnings), warnings
    assert not any("en.toml" in line for line in warnings)
    assert all("entry 'theirs-only'" in line for line in warnings)


def test_body_warnings_of_a_merged_glossary_name_each_entry_s_own_file(use_glossary, project, make_app):
    bundled = use_glossary(glossary_toml([entry("base", "base", body="Base <b>raw</b> body.")]))
    srcdir = project({"theirs.md": "# Theirs\n\n```{mlglossary}\n:source: theirs.toml\n:merge:\n```\n"})
    (srcdir / "glossary.md").unlink()
    theirs = srcdir / "theirs.toml"
    theirs.write_text(glossary_toml([entry("extra", "extra", body="Extra <i>raw</i> body.")]), encoding="utf-8")
    app = make_app("html", srcdir=srcdir, freshenv=True)
    app.build()
    warnings = app.warning.getvalue().splitlines()
    (base,) = [line for line in warnings if "'<b>'" in line]
    (extra,) = [line for line in warnings if "'<i>'" in line]
    assert f"{bundled}:4:" in base and "entry 'base'" in base
    assert f"{theirs}:4:" in extra and "entry 'extra'" in extra


@pytest.mark.skipif(shutil.which("chromium") is None and os.environ.get("CI") != "true", reason="no chromium")
@pytest.mark.browser
def test_a_project_definition_s_html_runs_nowhere_but_its_own_page(project, make_app):
    """Before: the image's handler ran on every page citing the term (its card held the tag)."""
    playwright_api = pytest.importorskip("playwright.sync_api")
    chromium = shutil.which("chromium")
    assert chromium, "CI=true but chromium is not installed"
    own = '# Own\n\n```{glossary}\nwidget\n   A widget <img src=x onerror="window.__pwned=23"> here.\n```\n'
    srcdir = project({"own.md": own, "citing.md": "# Citing\n\nA {term}`widget`.\n"}, page=ONE_ENTRY)
    app = make_app("html", srcdir=srcdir, freshenv=True)
    app.build()
    with playwright_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium, args=["--no-sandbox", "--disable-gpu"])
        try:
            page = browser.new_page()
            page.goto((Path(app.outdir) / "citing.html").as_uri())
            link = page.locator("a.mlglossary-term").first
            link.hover()
            page.wait_for_timeout(400)
            assert page.locator(".mlglossary-card.mlglossary-open").count() == 1
            assert page.evaluate("typeof window.__pwned") == "undefined"
            # the project's own page keeps its HTML, so there it runs: the author wrote it for that page
            page.goto((Path(app.outdir) / "own.html").as_uri())
            page.wait_for_timeout(300)
            assert page.evaluate("window.__pwned") == 23
        finally:
            browser.close()
