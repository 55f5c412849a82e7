"""The documentation site (``docs/``) in Spanish and Arabic, from the catalogs in ``docs/locales``.

The docs are translated the way the "Translate your documentation" how-to tells users to
translate theirs (sphinx-build -b gettext, sphinx-intl update, fill in the .po files). Each
language is built from a copy of ``docs/`` without compiled catalogs, so the test also proves
Sphinx compiles the committed ``.po`` files itself, and nothing is written into the checkout.
"""

from __future__ import annotations

import importlib.util
import re
import shutil
from collections import Counter
from pathlib import Path
from typing import Any
from urllib.parse import urljoin, urlsplit

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po
from bs4 import BeautifulSoup

from sphinxcontrib_mlglossary.loader import bundled_glossary

from .conftest import read_html_with_cards
from .test_example_docs import Build, build

DOCS = Path(__file__).parents[1] / "docs"
LOCALES = DOCS / "locales"
TRANSLATED = ["es", "ar"]
#: the headings of a page's own content, in Furo and in the default theme
HEADINGS = "[role=main] h1, [role=main] h2, [role=main] h3"
#: inline code, roles, link targets and the product's name: what a translation keeps as written
KEPT_AS_WRITTEN = re.compile(r"\{[\w:-]+\}`[^`]*`|``.*?``|`[^`]*`|\]\([^)]*\)|<[^>]*>|sphinxcontrib-mlglossary")

#: words spelt the same in English and in the language (or borrowed as they are, as Spanish
#: technical writing borrows JSON's "array"), which a translation may keep
SPELT_ALIKE = {"es": {"Tutorial", "array"}}

pytestmark = pytest.mark.filterwarnings(
    # MyST-Parser's resolver of links between pages reads an attribute Sphinx 9 deprecates
    r"ignore:'myst_parser\.sphinx_ext\.myst_refs\.MystReferenceResolver\.app' is deprecated"
)


class Site:
    """One finished build of the docs in one language, each page parsed once (the tests only read them)."""

    def __init__(self, built: Build) -> None:
        self.outdir = built.outdir
        self.warnings = built.warnings
        self._pages: dict[str, Any] = {}

    def page(self, name: str):
        if name not in self._pages:
            self._pages[name] = read_html_with_cards(self.outdir / f"{name}.html")
        return self._pages[name]

    def title(self, name: str):
        """The page up to the end of its first ``<h1>``, for a test reading that title alone.

        The heading and everything before it parse as in the whole page; parsing the whole
        glossary page with its cards (2 MB) costs about 4 s of CPU.
        """
        if name in self._pages:
            return self._pages[name]
        text = (self.outdir / f"{name}.html").read_text(encoding="utf-8")
        end = re.search(r"</h1\s*>", text, re.IGNORECASE)
        assert end is not None, name
        return BeautifulSoup(text[: end.end()], "html.parser")


def build_docs(destination: Path, buildername: str, **confoverrides: str) -> Site:
    """A copy of ``docs/`` without compiled catalogs, built as example_docs' tests build theirs."""
    srcdir = destination / "docs"
    shutil.copytree(DOCS, srcdir, ignore=shutil.ignore_patterns("_build", "*.mo"))
    if not importlib.util.find_spec("furo"):  # the tox matrix installs no theme
        confoverrides.setdefault("html_theme", "alabaster")
    return Site(build(srcdir, buildername, **confoverrides))


@pytest.fixture(scope="module")
def sites(tmp_path_factory) -> dict[str, Site]:
    return {
        language: build_docs(tmp_path_factory.mktemp(f"docs-{language}"), "html", language=language)
        for language in ["en", *TRANSLATED]
    }


@pytest.fixture(scope="module")
def templates(tmp_path_factory) -> dict[str, set[str]]:
    """Each page's messages, as ``sphinx-build -b gettext`` extracts them today."""
    site = build_docs(tmp_path_factory.mktemp("docs-gettext"), "gettext")
    assert site.warnings == ""
    found = {}
    for pot in site.outdir.rglob("*.pot"):
        with pot.open("rb") as stream:
            found[pot.relative_to(site.outdir).with_suffix("").as_posix()] = {m.id for m in read_po(stream) if m.id}
    return found


def catalog(language: str, page: str) -> Catalog:
    with (LOCALES / language / "LC_MESSAGES" / f"{page}.po").open("rb") as stream:
        return read_po(stream, locale=language)


def pages() -> list[str]:
    return sorted(path.relative_to(DOCS).with_suffix("").as_posix() for path in DOCS.rglob("*.md"))


def translated_pages() -> list[str]:
    """The pages whose whole text comes from the catalogs: the glossary page's body is the bundled glossary's."""
    return [page for page in pages() if page != "glossary"]


def heading_text(element, *, code: bool = True) -> str:
    """A heading's text, without the theme's permalink sign (and without its code, if asked)."""
    return "".join(
        text
        for text in element.find_all(string=True)
        if not text.find_parent("a", class_="headerlink") and (code or not text.find_parent("code"))
    ).strip()


def heading(soup) -> str:
    """A page's title, as its <h1> shows it."""
    return heading_text(soup.find("h1"))


def prose(message: str, language: str = "") -> str:
    """The words of a message a translator must translate: everything but code, roles and targets."""
    words = re.findall(r"[^\W\d_]{3,}", KEPT_AS_WRITTEN.sub(" ", message))
    return " ".join(word for word in words if word not in SPELT_ALIKE.get(language, ()))


def test_every_page_has_a_catalog_in_each_language(templates):
    assert sorted(templates) == pages()
    for language in TRANSLATED:
        committed = sorted(
            po.relative_to(LOCALES / language / "LC_MESSAGES").with_suffix("").as_posix()
            for po in (LOCALES / language / "LC_MESSAGES").rglob("*.po")
        )
        assert committed == pages(), f"run `make translations` to add the {language} catalogs of new pages"


@pytest.mark.parametrize("language", TRANSLATED)
def test_catalogs_hold_exactly_the_pages_messages(templates, language):
    for page, extracted in templates.items():
        held = {m.id for m in catalog(language, page) if m.id}
        assert held == extracted, f"docs/locales/{language}/{page}.po is stale: run `make translations`"


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_message_is_translated(language):
    untranslated, fuzzy, copied = [], [], []
    for page in pages():
        for message in catalog(language, page):
            if not message.id:
                continue
            where = f"{language}/{page}.po: {message.id[:60]!r}"
            if not message.string:
                untranslated.append(where)
            elif message.fuzzy:
                fuzzy.append(where)
            elif message.string == message.id and prose(message.id, language):
                copied.append(where)
    assert (untranslated, fuzzy, copied) == ([], [], [])


@pytest.mark.parametrize("language", ["en", *TRANSLATED])
def test_each_language_builds_without_a_warning(sites, language):
    assert sites[language].warnings == ""


@pytest.mark.parametrize("language", TRANSLATED)
def test_pages_are_in_the_language_and_its_direction(sites, language):
    for page in pages():
        english, translated = sites["en"].title(page), sites[language].page(page)
        html = translated.find("html")
        assert html["lang"] == language
        assert html.get("dir") == ("rtl" if language == "ar" else None), page
        words = prose(heading_text(english.find("h1"), code=False), language)
        assert heading(translated) != heading(english) or not words, page


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_heading_shows_its_translation(sites, language):
    """Sphinx silently keeps the English text when a msgstr parses into another kind of node.

    ``1. Instalar`` for the heading ``1. Install`` is a list item to the parser, so the
    page would keep "1. Install" with no warning; the translation must read ``1\\. Instalar``.
    """
    kept = []
    for page in translated_pages():
        english = sites["en"].page(page).select(HEADINGS)
        translated = sites[language].page(page).select(HEADINGS)
        assert len(translated) == len(english), page
        for original, translation in zip(english, translated, strict=True):
            text = heading_text(original)
            if heading_text(translation) == text and prose(heading_text(original, code=False), language):
                kept.append(f"{page}: {text!r}")
    assert kept == []


@pytest.mark.parametrize("language", TRANSLATED)
def test_links_between_pages_land_where_the_english_ones_do(sites, language):
    """A translated paragraph links the same sections as its original, in any order.

    Sphinx matches a translated message's references to the original's by kind and page
    only, so a paragraph linking two sections of one page would send both links to one of
    them; the English pages avoid that, and this keeps them avoiding it.
    """
    moved = {}
    for page in translated_pages():
        links = {}
        for name in ("en", language):
            soup = sites[name].page(page)
            links[name] = sorted(
                a["href"]
                for a in soup.select("[role=main] a.reference.internal[href]")
                if "mlglossary-term" not in a.get("class", [])
                # a page-terms box shows summaries, whose own links differ between languages
                and not a.find_parent(class_=["mlglossary-backlinks", "mlglossary-cards", "mlglossary-page-terms"])
            )
        if links["en"] != links[language]:  # (where English links only, where the translation links only)
            english, translated = Counter(links["en"]), Counter(links[language])
            moved[page] = (sorted((english - translated).elements()), sorted((translated - english).elements()))
    assert moved == {}


@pytest.mark.parametrize("language", TRANSLATED)
def test_term_links_land_on_the_localized_glossary(sites, language):
    terms = {term["id"]: term for term in sites[language].page("glossary").select("dt[id]")}
    entries = bundled_glossary(language)
    linked = 0
    for page in pages():
        for link in sites[language].page(page).select("a.mlglossary-term"):
            target = urlsplit(urljoin(f"{page}.html", link["href"]))
            assert target.path == "glossary.html", (page, link["href"])
            entry = entries.get(target.fragment.removeprefix("term-"))
            assert entry is not None, (page, link["href"])
            term = terms.get(target.fragment)
            assert term is not None and term.get_text().startswith(entry.name), (page, link["href"])
            linked += 1
    assert linked >= 30


@pytest.mark.parametrize("language", TRANSLATED)
def test_cards_speak_the_language(sites, language):
    entries = bundled_glossary(language)
    soup = sites[language].page("tutorial/getting-started")
    cards = soup.select("div.mlglossary-cards > div.mlglossary-card")
    assert cards
    for card in cards:
        entry = entries.get(card["data-mlglossary-href"].split("#term-")[1])
        assert card["aria-label"] == entry.name


@pytest.mark.parametrize("language", TRANSLATED)
def test_backlinks_name_the_translated_pages(sites, language):
    """The "Cited in" lists name each citing page by its translated title, as its own <h1> shows it."""
    glossary = sites[language].page("glossary")
    blocks = glossary.select("div.mlglossary-backlinks")
    assert len(blocks) >= 10
    for block in blocks:
        for item in block.select("li"):
            link = item.select_one("a[href]")  # the page link; citation numbers follow it
            page = urlsplit(link["href"]).path.removesuffix(".html")
            assert link.get_text().split(" › ")[0] == heading(sites[language].page(page)), link["href"]
