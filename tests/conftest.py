"""Shared fixtures: Sphinx's own testing plugin, with our test roots."""

from __future__ import annotations

import gc
import inspect
import json
import os
import re
import shutil
from collections.abc import Sequence
from html.parser import HTMLParser
from io import StringIO
from pathlib import Path

import pytest
import sphinx
from bs4 import BeautifulSoup, Tag
from sphinx.util.inventory import InventoryFile

from . import template_cache

# hostile_data: builds with a glossary file of the test's own (security, hostile-input tests)
pytest_plugins = ("sphinx.testing.fixtures", "tests.hostile_data")

ROOTS = Path(__file__).parent / "roots"

#: for tests that need the stored entry bodies written as stored: they are HTML of Sphinx 8
#: and later, and Sphinx 7 writes some of their markup otherwise, so its builds rightly
#: parse every body (the canary check refuses the stored ones; tests that hold either way
#: still run there)
needs_stored_html = pytest.mark.skipif(
    sphinx.version_info < (8,), reason="Sphinx 7 writes the stored bodies' markup otherwise: its builds parse them"
)

# Sphinx colours its messages when CI=true (as CI sets it); tests read them as plain text,
# including the sphinx-build processes they start
os.environ.setdefault("NO_COLOR", "1")

# A test process keeps many finished builds alive (shared builds, module fixtures), and
# each build makes hundreds of thousands of objects: with Python's default thresholds the
# collector ran a full collection every ten young ones, a quarter of a second each, and
# took 30 % of a test file's CPU (test_matching with test_autolink_rules: 24 of 79 s).
# Full collections five times rarer: 13 s of 67, about 50 MiB more at the peak.
gc.set_threshold(700, 10, 50)

# Sphinx's HTML templates compiled once per test process (Jinja's bytecode cache, in
# memory), not again by each of its in-process builds: about 0.1 s of a small build's 1 s
template_cache.install()


@pytest.fixture(scope="session")
def rootdir() -> Path:
    return ROOTS


#: the bundled entries the twin roots (test-basic-md, test-basic-rst) cite
TWIN_CITED = (
    "attention-mask",
    "causal-language-modeling",
    "input-ids",
    "masked-language-modeling",
    "position-ids",
    "token",
    "token-type-ids",
    "zero-redundancy-optimizer",
)

#: a bare ``mlglossary`` directive (no options) in each syntax
_BARE_DIRECTIVE = {
    ".md": re.compile(r"^```\{mlglossary\}\n```$", re.M),
    ".rst": re.compile(r"^\.\. mlglossary::\n(?![ \t]+:)", re.M),
}


def show_only(srcdir: Path, terms: Sequence[str]) -> None:
    """Make the copied root's glossary page (``glossary.md`` or ``.rst``, a bare ``mlglossary``
    directive) show only ``terms``, with the directive's ``:terms:`` option.

    A build of the full bundled page (about 260 entries) costs about 1.3 s of CPU more than
    one of a few entries; a test that is not about the page itself, and finds every entry it
    names on the page, builds the small one (``page=...`` of ``root_app``, ``built_root`` and
    ``project``). A page's citation of an entry the page leaves out warns "term not in
    glossary", and an unknown id in ``terms`` warns too, so a wrong list fails loudly.
    """
    assert terms, "an empty :terms: shows the whole glossary"
    pages = [srcdir / f"glossary{suffix}" for suffix in _BARE_DIRECTIVE if (srcdir / f"glossary{suffix}").exists()]
    assert len(pages) == 1, pages
    page = pages[0]
    text = page.read_text(encoding="utf-8")
    bare = _BARE_DIRECTIVE[page.suffix]
    assert len(bare.findall(text)) == 1, f"{page.name} has no single bare mlglossary directive to narrow"
    listed = ", ".join(terms)
    option = (
        f"```{{mlglossary}}\n:terms: {listed}\n```"
        if page.suffix == ".md"
        else f".. mlglossary::\n   :terms: {listed}\n"
    )
    page.write_text(bare.sub(lambda _match: option, text), encoding="utf-8")


def read_html(path: Path) -> BeautifulSoup:
    return BeautifulSoup(path.read_text(encoding="utf-8"), "html.parser")


def read_html_head(path: Path) -> BeautifulSoup:
    """The page up to its ``<body>`` tag: the ``<html>`` element, its attributes and the head.

    For a test that reads nothing else: parsing a glossary page's body (1-2 MB) costs about
    1.6 s of CPU, its start a few milliseconds; the ``<html>`` start tag comes before the
    body's, so it is parsed exactly as in the whole page.
    """
    text = path.read_text(encoding="utf-8")
    body = re.search(r"<body[\s>]", text, re.IGNORECASE)
    return BeautifulSoup(text if body is None else text[: body.start()], "html.parser")


class _EntrySlices(HTMLParser):
    """Finds, in one pass of the tokenizer, each entry of a ``div.mlglossary`` block: the
    id of each ``dt`` holding one and the source text of the ``dd`` after it (see
    ``glossary_entries``). Only ``div``, ``dl``, ``dt`` and ``dd`` are followed: Sphinx
    closes each of them, and an end tag out of place fails here."""

    TRACKED = frozenset({"div", "dl", "dt", "dd"})

    def __init__(self, text: str) -> None:
        super().__init__(convert_charrefs=False)
        self.text = text
        self.line_starts = [0] + [m.end() for m in re.finditer("\n", text)]
        # open tracked elements: (name, inside a div.mlglossary, the ids of the dt children
        # still waiting for their dd, where the element's start tag starts, its classes)
        self.open: list[tuple[str, bool, list[str], int, list[str]]] = []
        self.found: dict[str, str] = {}
        #: for each ``dt`` on the page (in a glossary block or not), in order: the classes of
        #: the ``dl`` holding it (None: its nearest followed element is no ``dl``)
        self.dt_holders: list[list[str] | None] = []

    def position(self) -> int:
        line, column = self.getpos()
        return self.line_starts[line - 1] + column

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag not in self.TRACKED:
            return
        values = dict(attrs)
        inside = bool(self.open) and self.open[-1][1]
        if tag == "dt":
            holder = self.open[-1] if self.open else None
            self.dt_holders.append(holder[4] if holder is not None and holder[0] == "dl" else None)
        if tag == "div" and "mlglossary" in (values.get("class") or "").split():
            inside = True
        if inside and tag == "dt" and values.get("id") and self.open:
            self.open[-1][2].append(str(values["id"]))
        self.open.append((tag, inside, [], self.position(), (values.get("class") or "").split()))

    def handle_endtag(self, tag: str) -> None:
        if tag not in self.TRACKED:
            return
        assert self.open and self.open[-1][0] == tag, (tag, self.getpos())
        _name, _inside, _waiting, start, _classes = self.open.pop()
        if tag == "dd" and self.open and self.open[-1][2]:
            end = self.text.index(">", self.position()) + 1
            for dt_id in self.open[-1][2]:
                self.found.setdefault(dt_id, self.text[start:end])
            self.open[-1][2].clear()


def glossary_dt_count(path: Path) -> int:
    """How many ``dt`` elements a ``dl.glossary`` holds on the page: what
    ``len(soup.select("dl.glossary > dt"))`` counts (Sphinx closes every ``div``, ``dl``,
    ``dt`` and ``dd``), with the tokenizer alone (see ``glossary_entries``)."""
    parser = _EntrySlices(path.read_text(encoding="utf-8"))
    parser.feed(parser.text)
    parser.close()
    assert not parser.open, [name for name, *_rest in parser.open]
    return sum(1 for classes in parser.dt_holders if classes is not None and "glossary" in classes)


def glossary_entries(path: Path) -> dict[str, str]:
    """Each entry's definition as written, keyed by its anchor: for each ``dt`` with an id in
    a ``div.mlglossary`` block, the source text of the ``dd`` that follows it.

    What ``{dt["id"]: str(dt.find_next_sibling("dd")) for dt in soup.select("div.mlglossary
    dt[id]")}`` gives, but the definition's own bytes rather than BeautifulSoup's rewriting
    of them, for about a seventh of the CPU: building the tree of a glossary page (2 MB)
    costs about 3 s, Python's tokenizer alone about 0.5 s.
    """
    parser = _EntrySlices(path.read_text(encoding="utf-8"))
    parser.feed(parser.text)
    parser.close()
    assert not parser.open, [name for name, *_rest in parser.open]
    return parser.found


def ids_of(soup: BeautifulSoup) -> dict[str, Tag]:
    """Each id on the page -> the first element holding it, in one walk: ``soup.find(id=...)``
    walks the whole page (36,000 elements on a glossary page) on every call."""
    found: dict[str, Tag] = {}
    for element in soup.find_all(id=True):
        found.setdefault(str(element["id"]), element)
    return found


#: the class naming a term link's card, and the id the script gives the card
CARD_KEY = re.compile(r"^mlglossary-key-([0-9a-f]+)$")
CARD_ID = "mlglossary-card--"


def build_html_quietly(srcdir: Path):
    """A fresh HTML build of ``srcdir`` in this process: the app and its warnings' text."""
    from sphinx.testing.util import SphinxTestApp

    warnings = StringIO()
    app = SphinxTestApp("html", srcdir=srcdir, freshenv=True, status=StringIO(), warning=warnings)
    try:
        app.build()
    finally:
        app.cleanup()
    return app, warnings.getvalue()


def card_asset_data(asset: Path) -> dict:
    """``{"trigger": ..., "cards": {key: HTML}}`` as the site's card script defines it."""
    text = asset.read_text(encoding="utf-8")
    start = text.index("window.mlglossaryCards=") + len("window.mlglossaryCards=")
    return json.loads(text[start : text.rindex(";")])


def card_key(link) -> str | None:
    """The key of the card a term link names (None: the link names none)."""
    return next((m.group(1) for c in link.get("class", ()) if (m := CARD_KEY.match(c))), None)


def read_html_with_cards(path: Path) -> BeautifulSoup:
    """A page with the cards its term links name, as ``mlglossary.js`` puts them in it.

    The page holds only the marks on its links; the cards are in the site's card script,
    next to ``mlglossary.js``. Each card the page names goes, once, into a hidden
    ``div.mlglossary-cards`` block at the end of the body (with the site's trigger), with
    its id and its links rebased on the page's content root, the way the script does it
    in a browser (tests/test_browser.py checks the script itself).
    """
    soup = read_html(path)
    script = soup.select_one('script[src*="mlglossary.js"]')
    if script is None or soup.body is None:
        return soup
    asset = (path.parent / script["src"].partition("?")[0]).parent / "mlglossary-cards.js"
    data = card_asset_data(asset)
    root = soup.html.get("data-content_root") if soup.html is not None else None
    if root is None:
        root = os.path.relpath(asset.parent.parent, path.parent).replace(os.sep, "/") + "/"
    root = "" if root == "./" else root  # the site's root: links stay as written
    block = soup.new_tag(
        "div", attrs={"class": "mlglossary-cards", "hidden": "", "data-mlglossary-trigger": data["trigger"]}
    )
    for link in soup.select("a.mlglossary-term"):
        key = card_key(link)
        if key is None or key not in data["cards"] or block.find(id=CARD_ID + key):
            continue
        card = BeautifulSoup(data["cards"][key], "html.parser").find("div")
        card["id"] = CARD_ID + key
        for element, attribute in [(card, "data-mlglossary-href"), *((a, "href") for a in card.select("a[href]"))]:
            value = element.get(attribute, "")
            if value and not re.match(r"^([#/]|[\w+.-]+:)", value):
                element[attribute] = root + value
        block.append(card)
    if block.contents:
        soup.body.append(block)
    return soup


def inventory_terms(path: Path, base: str = "https://example.org") -> dict[str, str]:
    """``std:term`` name -> URI, read from an ``objects.inv``.

    Sphinx 8.2 and later give items with a ``uri`` attribute (indexing them warns: removed in
    Sphinx 10); Sphinx 7.3 gives plain tuples (project, version, uri, display name).
    """
    with path.open("rb") as stream:
        inventory = InventoryFile.load(stream, base, lambda base, uri: f"{base}/{uri}")
    return {name: item.uri if hasattr(item, "uri") else item[2] for name, item in inventory.get("std:term", {}).items()}


def resolved_doctree(app, docname: str):
    """A page's doctree after post-transforms, as a writer gets it.

    Sphinx 9 wants the build's tags (a deprecation warning without them); 7.3 takes none.
    """
    resolve = app.env.get_and_resolve_doctree
    if "tags" in inspect.signature(resolve).parameters:
        return resolve(docname, app.builder, tags=app.tags)
    return resolve(docname, app.builder)


@pytest.fixture
def root_app(make_app, tmp_path_factory):
    """``root_app(builder, "basic-md", **kwargs)``: a fresh copy of ``roots/test-<name>``, ready to build.

    ``page=TWIN_CITED`` (any entry ids): its glossary page shows only those (``show_only``).
    """

    def factory(buildername: str, name: str, page: Sequence[str] | None = None, **kwargs):
        srcdir = tmp_path_factory.mktemp(name) / "src"
        shutil.copytree(ROOTS / f"test-{name}", srcdir)
        if page is not None:
            show_only(srcdir, page)
        kwargs.setdefault("freshenv", True)
        return make_app(buildername, srcdir=srcdir, **kwargs)

    return factory


@pytest.fixture(scope="session")
def built_root(tmp_path_factory):
    """``built_root("basic-md", "html")``: a clean build of ``roots/test-<name>`` with its own settings,
    made once per test process and shared by the tests that only read what it made (its
    output files, warnings and environment).

    A build of the full glossary page costs seconds, and many tests check different parts
    of the same output. A test that changes the sources, the settings or the environment
    builds its own copy with ``root_app``.
    """
    from sphinx.testing.util import SphinxTestApp

    builds: dict[tuple[str, str, tuple[str, ...] | None], SphinxTestApp] = {}

    def factory(name: str, buildername: str = "html", page: Sequence[str] | None = None) -> SphinxTestApp:
        """``page``: the entries the glossary page shows (``show_only``; None: the root's page as written)."""
        key = (name, buildername, None if page is None else tuple(page))
        if key not in builds:
            srcdir = tmp_path_factory.mktemp(f"shared-{name}-{buildername}") / "src"
            shutil.copytree(ROOTS / f"test-{name}", srcdir)
            if page is not None:
                show_only(srcdir, page)
            app = finished_build(buildername, srcdir, freshenv=True)
            builds[key] = app
        return builds[key]

    return factory


@pytest.fixture
def make_app(make_app):
    """Sphinx's ``make_app``, with warning types shown (Sphinx 7.3 hides them by default).

    Tests check the ``[mlglossary.<subtype>]`` suffix; Sphinx 8 and later show it anyway.
    """

    def factory(*args, **kwargs):
        overrides = dict(kwargs.pop("confoverrides", None) or {})
        overrides.setdefault("show_warning_types", True)
        return make_app(*args, confoverrides=overrides, **kwargs)

    return factory


def write_from_read(read_app, buildername: str, builddir: Path, confoverrides: dict | None = None):
    """A build of ``read_app``'s sources by ``buildername`` that reads no page again.

    It starts from a copy of ``read_app``'s environment and doctrees, as ``sphinx-build -b
    <name>`` does with the doctree folder another builder left (Sphinx's own make mode keeps
    one for every builder): the read doctree is the same for every builder, and the
    extension's builder-dependent work happens when pages are written (``body_expansion``).
    ``confoverrides`` must be ``read_app``'s, plus settings that need no new read (a changed
    setting of the environment would read every page again: that fails here). Only for a
    builder that reads as ``read_app``'s does: Sphinx reads for gettext without translating,
    and for the builders in ``smartquotes_excludes`` (text, man) without smart quotes.
    """
    assert "gettext" not in (buildername, read_app.builder.name)
    unquoted = read_app.config.smartquotes_excludes.get("builders", [])
    assert (buildername in unquoted) == (read_app.builder.name in unquoted), "smart quotes differ when reading"
    shutil.copytree(read_app.doctreedir, builddir / "doctrees")
    app = finished_build(buildername, read_app.srcdir, builddir=builddir, freshenv=False, confoverrides=confoverrides)
    assert "0 added, 0 changed, 0 removed" in app.status.getvalue(), "the pages were read again"
    return app


def finished_build(buildername: str, srcdir: Path, confoverrides: dict | None = None, *, write: bool = True, **kwargs):
    """A build made outside ``make_app`` (in a session or module fixture, which can't use it),
    with warning types shown as ``make_app`` shows them; its output, ``app.status``,
    ``app.warning`` and ``app.env`` stay for the tests that read them.

    ``write=False``: the pages are read (and the environment and doctrees saved, as every
    build saves them before writing) but none is written: ``build_specific([])`` writes the
    pages it names, none. For a read that only ``write_from_read`` uses: a builder's write
    resolves every page (for a builder other than HTML, parsing each stored entry body).
    """
    from sphinx.testing.util import SphinxTestApp

    overrides = {"show_warning_types": True, **(confoverrides or {})}
    app = SphinxTestApp(
        buildername, srcdir=srcdir, confoverrides=overrides, status=StringIO(), warning=StringIO(), **kwargs
    )
    try:
        if write:
            app.build()
        else:
            app.builder.build_specific([])
    finally:
        app.cleanup()
    return app
