"""Cards for terms another site defines, read at build time through intersphinx (local sites only)."""

from __future__ import annotations

import functools
import http.server
import shutil
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
import sphinx
from bs4 import BeautifulSoup

from sphinxcontrib_mlglossary.untrusted_text import MAX_SUMMARY, definitions_on_page

from .conftest import card_asset_data, card_key, read_html
from .sphinx_process import quiet_build

HOSTILE = "<script>alert(1)</script>"


def plain_site(tmp_path: Path, *, hostile: bool = False) -> Path:
    """A Sphinx site without this extension: one ``glossary`` directive, built to HTML."""
    src = tmp_path / "plain-src"
    src.mkdir()
    (src / "conf.py").write_text("project = 'Plain'\n")
    definition = "      A vessel in which tea is brewed and served.\n"
    if hostile:
        definition += (
            "\n      .. raw:: html\n\n"
            f"         {HOSTILE}<style>body{{display:none}}</style>"
            '<a href="javascript:alert(2)" onclick="alert(3)">click</a>'
            "<img src=x onerror=alert(4)>\n\n"
            "      " + "very long words " * 60 + "\n"
        )
    (src / "index.rst").write_text(
        "Plain\n=====\n\n.. glossary::\n\n   teapot\n"
        + definition
        + "\n   kettle\n      A pot for boiling water.\n"
        + "\n   parameter\n      A name in a function's definition.\n"
    )
    out = tmp_path / "plain-out"
    quiet_build(src, out)
    return out


def citing_project(tmp_path: Path, target: str, inventory: str, text: str, *, on: bool = True) -> Path:
    """A project WITHOUT a glossary page of its own, citing the mapped site's terms."""
    src = tmp_path / "citing"
    src.mkdir(exist_ok=True)
    (src / "conf.py").write_text(
        'extensions = ["myst_parser", "sphinx.ext.intersphinx", "sphinxcontrib_mlglossary"]\n'
        f"intersphinx_mapping = {{'site': ({target!r}, {inventory!r})}}\n"
        f"mlglossary_external_cards = {on}\n"
        "show_warning_types = True\n"  # Sphinx 7.3 leaves the [type.subtype] suffix out by default
    )
    (src / "index.md").write_text(f"# Citing\n\n{text}\n\n```{{toctree}}\nsecond\n```\n")
    (src / "second.md").write_text("# Second\n\nNo terms here.\n")
    return src


def _cards(out: Path, page: str = "index.html") -> dict[str, str]:
    """Link text -> the card HTML its key names, for the page's term links."""
    soup = read_html(out / page)
    data = card_asset_data(out / "_static" / "mlglossary-cards.js")
    found = {}
    for link in soup.select("a.mlglossary-term"):
        key = card_key(link)
        if key is not None:
            found[link.get_text()] = data["cards"][key]
    return found


class _SlowGlossaryHandler(http.server.SimpleHTTPRequestHandler):
    """Serves a folder, but takes 3 seconds to answer for ``glossary.json``."""

    def do_GET(self) -> None:
        if self.path.endswith("/glossary.json"):
            time.sleep(3)
        super().do_GET()


class _RecordingHandler(http.server.SimpleHTTPRequestHandler):
    """Serves a folder and records each request's path and User-Agent on the server."""

    def do_GET(self) -> None:
        self.server.seen.append((self.path, self.headers.get("User-Agent")))  # type: ignore[attr-defined]
        super().do_GET()


@contextmanager
def _served(
    folder: Path, handler_class: type = http.server.SimpleHTTPRequestHandler, seen: list | None = None
) -> Iterator[str]:
    """``folder`` served over HTTP on 127.0.0.1 (a free port) while the block runs."""
    handler = functools.partial(handler_class, directory=str(folder))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    server.seen = seen if seen is not None else []  # type: ignore[attr-defined]
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


def test_a_site_built_with_this_extension_gives_cards_from_its_glossary_json(built_root, tmp_path: Path):
    site = Path(built_root("basic-md").outdir)
    assert (site / "glossary.json").exists()
    src = citing_project(
        tmp_path, str(site), str(site / "objects.inv"), "{term}`attention mask` and {term}`site:MLM`, {term}`epochs`."
    )
    out = tmp_path / "out"
    assert quiet_build(src, out) == ""
    cards = _cards(out)
    assert set(cards) == {"attention mask", "MLM", "epochs"}  # a plural reaches its entry too
    mask = BeautifulSoup(cards["attention mask"], "html.parser")
    assert mask.select_one(".mlglossary-card-title").get_text() == "attention mask"
    assert "padding" in mask.select_one(".mlglossary-card-summary").get_text()
    assert mask.select_one(".mlglossary-card-more a")["href"] == f"{site}/glossary.html#term-attention-mask"
    mlm = BeautifulSoup(cards["MLM"], "html.parser")
    assert mlm.select_one(".mlglossary-card-title").get_text(" ", strip=True) == "masked language modeling (MLM)"
    # the link's title is the summary, not intersphinx's "(in Project)"
    link = read_html(out / "index.html").find("a", string="attention mask")
    assert "padding" in link["title"]
    # the page loads the script; the page citing nothing doesn't
    assert read_html(out / "index.html").select_one('script[src*="mlglossary.js"]') is not None
    assert read_html(out / "second.html").select_one('script[src*="mlglossary.js"]') is None


def test_a_relative_mapping_gives_cards_on_pages_in_folders_too(tmp_path: Path):
    """With a relative target (a site copied beside this one, as example_docs does), intersphinx
    writes each link from its page (``../notes/...`` in a folder): every page gets the card."""
    site = plain_site(tmp_path)
    src = citing_project(tmp_path, "notes/", str(site / "objects.inv"), "{term}`teapot`")
    (src / "guide").mkdir()
    (src / "guide" / "deep.md").write_text("# Deep\n\nA {term}`teapot` again.\n")
    (src / "index.md").write_text("# Citing\n\n{term}`teapot`\n\n```{toctree}\nsecond\nguide/deep\n```\n")
    out = tmp_path / "out"
    assert quiet_build(src, out) == ""
    top = read_html(out / "index.html").find("a", string="teapot")
    deep = read_html(out / "guide" / "deep.html").find("a", string="teapot")
    assert top["href"] == "notes/index.html#term-teapot"
    assert deep["href"] == "../notes/index.html#term-teapot"
    assert card_key(deep) is not None and card_key(deep) == card_key(top)
    assert deep["title"] == "A vessel in which tea is brewed and served."


def test_off_by_default(built_root, tmp_path: Path):
    site = Path(built_root("basic-md").outdir)
    src = citing_project(tmp_path, str(site), str(site / "objects.inv"), "{term}`attention mask`", on=False)
    out = tmp_path / "out"
    assert quiet_build(src, out) == ""
    link = read_html(out / "index.html").find("a", string="attention mask")
    assert link["href"] == f"{site}/glossary.html#term-attention-mask"
    assert "mlglossary-term" not in link.get("class", [])
    assert not (out / "_static" / "mlglossary-cards.js").exists()


def test_a_plain_sphinx_site_over_http_gives_cards_from_its_definitions_as_plain_text(tmp_path: Path):
    site = plain_site(tmp_path, hostile=True)
    assert HOSTILE in (site / "index.html").read_text(encoding="utf-8")  # the other site does carry it
    with _served(site) as url:
        src = citing_project(tmp_path, url + "/", url + "/objects.inv", "{term}`teapot`, {term}`kettle`.")
        out = tmp_path / "out"
        assert quiet_build(src, out) == ""
    cards = _cards(out)
    assert set(cards) == {"teapot", "kettle"}
    teapot = BeautifulSoup(cards["teapot"], "html.parser")
    summary = teapot.select_one(".mlglossary-card-summary")
    assert summary.get_text().startswith("A vessel in which tea is brewed and served.")
    # nothing of the other site's markup survives: one text node, length-limited
    assert summary.find_all(True) == []
    assert len(summary.get_text()) <= MAX_SUMMARY
    for card in cards.values():
        soup = BeautifulSoup(card, "html.parser")
        assert soup.find_all(["script", "style", "img"]) == []
        assert [a["href"] for a in soup.find_all("a")] == [f"{url}/index.html#term-{card_name(soup)}"]
        assert "alert" not in card and "onclick" not in card and "javascript" not in card
    assert BeautifulSoup(cards["kettle"], "html.parser").select_one(".mlglossary-card-summary").get_text() == (
        "A pot for boiling water."
    )


def card_name(card: BeautifulSoup) -> str:
    return card.select_one(".mlglossary-card-title").get_text()


def test_requests_carry_the_projects_user_agent(built_root, tmp_path: Path):
    """Sphinx's ``user_agent`` setting names every request, as it does intersphinx's own."""
    site = Path(built_root("basic-md").outdir)
    seen: list[tuple[str, str]] = []
    with _served(site, _RecordingHandler, seen) as url:
        src = citing_project(tmp_path, url + "/", url + "/objects.inv", "{term}`attention mask`")
        (src / "conf.py").write_text((src / "conf.py").read_text() + "user_agent = 'handbook-builder/1.0'\n")
        assert quiet_build(src, tmp_path / "out") == ""
    assert ("/glossary.json", "handbook-builder/1.0") in seen
    assert "attention mask" in _cards(tmp_path / "out")


def test_tls_settings_follow_sphinxs_documented_values():
    from sphinx.config import Config

    from sphinxcontrib_mlglossary.site_requests import tls_verification, user_agent

    per_host = Config({"tls_cacerts": {"docs.example": "/ca/docs.pem"}})
    assert tls_verification("https://user:secret@docs.example/objects.inv", per_host) == "/ca/docs.pem"
    assert tls_verification("https://other.example/objects.inv", per_host) is True
    assert tls_verification("https://any.example/x", Config({"tls_cacerts": "/ca/all.pem"})) == "/ca/all.pem"
    assert tls_verification("https://docs.example/x", Config({"tls_verify": False, "tls_cacerts": "/ca.pem"})) is False
    assert user_agent(Config({})).startswith(f"Sphinx/{sphinx.__version__} sphinxcontrib-mlglossary/")
    assert user_agent(Config({"user_agent": "mine"})) == "mine"


def test_a_site_read_over_http_is_kept_in_the_cache_while_intersphinx_keeps_its_inventory(tmp_path: Path):
    site = plain_site(tmp_path)
    out = tmp_path / "out"
    with _served(site) as url:
        src = citing_project(tmp_path, url + "/", url + "/objects.inv", "{term}`kettle`")
        assert quiet_build(src, out) == ""
    first = _cards(out)
    # the server is gone: intersphinx and the cards both come from the build's cache
    (src / "index.md").write_text("# Citing again\n\n{term}`kettle`\n\n```{toctree}\nsecond\n```\n")
    assert quiet_build(src, out) == ""
    assert _cards(out) == first


def test_an_unreadable_site_is_one_warning_and_bare_links(tmp_path: Path):
    site = plain_site(tmp_path)
    (site / "index.html").unlink()  # the inventory names a glossary page that isn't there
    src = citing_project(tmp_path, str(site), str(site / "objects.inv"), "{term}`teapot`, {term}`kettle`")
    out = tmp_path / "out"
    warnings = [line for line in quiet_build(src, out).splitlines() if "WARNING" in line]
    assert len(warnings) == 1
    assert "[mlglossary.external_cards]" in warnings[0]
    assert "'site'" in warnings[0]
    link = read_html(out / "index.html").find("a", string="kettle")
    assert link["href"] == f"{site}/index.html#term-kettle"
    assert "mlglossary-term" not in link.get("class", [])


def test_parallel_and_incremental_builds_match_a_clean_serial_one(built_root, tmp_path: Path):
    site = tmp_path / "site"
    shutil.copytree(Path(built_root("basic-md").outdir), site)
    src = citing_project(tmp_path, str(site), str(site / "objects.inv"), "{term}`attention mask`, {term}`MLM`")
    incremental = tmp_path / "incremental"
    assert quiet_build(src, incremental) == ""
    before = _cards(incremental)
    # the other site's glossary changes: an incremental build rewrites the citing page
    glossary = site / "glossary.json"
    glossary.write_text(glossary.read_text(encoding="utf-8").replace("padding", "PADDING"), encoding="utf-8")
    assert quiet_build(src, incremental) == ""
    serial, parallel = tmp_path / "serial", tmp_path / "parallel"
    assert quiet_build(src, serial, "-E") == ""
    assert quiet_build(src, parallel, "-E", "-j", "2") == ""
    assert "PADDING" in _cards(serial)["attention mask"]
    assert _cards(serial) != before
    for name in ("index.html", "second.html"):
        expected = (serial / name).read_text(encoding="utf-8")
        assert (parallel / name).read_text(encoding="utf-8") == expected, name
        assert (incremental / name).read_text(encoding="utf-8") == expected, name
    for name in ("mlglossary-cards.js", "mlglossary.js"):
        expected = (serial / "_static" / name).read_text(encoding="utf-8")
        assert (parallel / "_static" / name).read_text(encoding="utf-8") == expected, name
        assert (incremental / "_static" / name).read_text(encoding="utf-8") == expected, name


def test_definitions_on_a_glossary_page_are_text_only():
    html = (
        '<dl class="simple"><dt id="x">not a glossary</dt><dd>ignored</dd></dl>'
        '<dl class="glossary"><dt id="term-a">A<a class="headerlink" href="#term-a">¶</a></dt>'
        "<dd><p>First <b>bold</b> <script>evil()</script>para\x00graph.</p><p>Second paragraph.</p>"
        '<dl><dt id="inner">nested</dt><dd>inside</dd></dl></dd>'
        '<dt id="term-b">B</dt><dt id="term-bee">Bee</dt><dd><p>' + "x " * 400 + "</p></dd></dl>"
    )
    found = definitions_on_page(html)
    assert set(found) == {"term-a", "term-b", "term-bee"}
    assert found["term-a"] == ("A", "First bold para graph.")
    assert found["term-b"][0] == "B" and found["term-bee"][0] == "Bee"
    assert len(found["term-b"][1]) <= MAX_SUMMARY and found["term-b"][1].endswith("…")


def test_a_hostile_glossary_json_gives_text_only_and_the_sites_own_terms_only():
    from sphinxcontrib_mlglossary.external_terms import terms_from_glossary_json
    from sphinxcontrib_mlglossary.untrusted_text import MAX_NAME

    data = {
        "terms": [
            {
                "name": "<b>bold</b>\u202e\x07name" + "n" * 500,
                "abbreviations": ["<i>X</i>"],
                "summary": {"text": f"{HOSTILE} said\n\n" + "word " * 200, "html": HOSTILE},
                "url": "glossary.html#term-a",
            },
            {"name": "elsewhere", "summary": {"text": "x"}, "url": "https://evil.example/x.html#a"},
            {"name": "up", "summary": {"text": "x"}, "url": "../../secret.html#a"},
            {"name": "rooted", "summary": {"text": "x"}, "url": "/etc/passwd"},
            {"name": 3, "url": "glossary.html#term-b"},
            "not a term",
        ]
    }
    found = terms_from_glossary_json(data, "https://site.example/docs")
    assert list(found) == ["https://site.example/docs/glossary.html#term-a"]
    term = found["https://site.example/docs/glossary.html#term-a"]
    # kept as text (the card escapes it), on one line, without control or bidi characters, and short
    assert term.summary.startswith(HOSTILE + " said word word")
    assert len(term.summary) <= MAX_SUMMARY and "\n" not in term.summary
    assert term.name.startswith("<b>bold</b> name") and len(term.name) <= MAX_NAME
    assert "\u202e" not in term.name and "\x07" not in term.name
    assert term.abbreviation == "<i>X</i>"


def test_a_site_slower_than_intersphinx_timeout_is_one_warning(built_root, tmp_path: Path):
    site = Path(built_root("basic-md").outdir)
    with _served(site, _SlowGlossaryHandler) as url:
        src = citing_project(tmp_path, url + "/", url + "/objects.inv", "{term}`attention mask`")
        (src / "conf.py").write_text((src / "conf.py").read_text() + "intersphinx_timeout = 0.5\n")
        started = time.monotonic()
        warnings = quiet_build(src, tmp_path / "out").splitlines()
        took = time.monotonic() - started
    assert [line for line in warnings if "WARNING" in line] == [
        line for line in warnings if "[mlglossary.external_cards]" in line and "Timeout" in line
    ]
    assert len(warnings) == 1
    assert took < 30
    link = read_html(tmp_path / "out" / "index.html").find("a", string="attention mask")
    assert link["href"] == f"{url}/glossary.html#term-attention-mask"
    assert "mlglossary-term" not in link.get("class", [])


@pytest.mark.parametrize("builder", ["dirhtml", "singlehtml", "epub", "text", "latex", "man", "texinfo", "gettext"])
def test_every_builder_builds_and_html_ones_show_the_card(tmp_path: Path, builder: str):
    site = plain_site(tmp_path)
    src = citing_project(tmp_path, str(site), str(site / "objects.inv"), "{term}`teapot`")
    (src / "conf.py").write_text((src / "conf.py").read_text() + "version = '1'\ncopyright = 'us'\n")
    out = tmp_path / "out"
    assert quiet_build(src, out, "-d", str(tmp_path / "doctrees"), builder=builder) == ""
    if builder in {"dirhtml", "singlehtml"}:
        page = out / "index.html"
        assert set(_cards(out)) == {"teapot"}
        assert "A vessel in which tea is brewed" in _cards(out)["teapot"]
        assert read_html(page).select_one('script[src*="mlglossary.js"]') is not None
    elif builder == "epub":
        # no scripts in e-books: the summary is the link's title, and no card file is written
        link = read_html(out / "index.xhtml").find("a", string="teapot")
        assert link["title"] == "A vessel in which tea is brewed and served."
        assert not (out / "_static" / "mlglossary-cards.js").exists()


def test_a_name_the_bundled_glossary_spells_otherwise_reaches_the_plain_sites_term(tmp_path: Path):
    """Our entry is "parameters"; the plain site defines "parameter": intersphinx gets what was written."""
    site = plain_site(tmp_path)
    src = citing_project(tmp_path, str(site), str(site / "objects.inv"), "{term}`parameter`", on=False)
    out = tmp_path / "out"
    assert quiet_build(src, out) == ""
    link = read_html(out / "index.html").find("a", string="parameter")
    assert link["href"] == f"{site}/index.html#term-parameter"
    src = citing_project(tmp_path, str(site), str(site / "objects.inv"), "{term}`parameter`")
    assert quiet_build(src, out, "-E") == ""
    card = BeautifulSoup(_cards(out)["parameter"], "html.parser")
    assert (
        card.select_one(".mlglossary-card-summary").get_text() == "A name in a function’s definition."
    )  # as the site shows it
