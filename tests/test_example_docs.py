"""example_docs in English, Spanish and Arabic: the sphinx-intl workflow on pages that cite the glossary.

Each language is built once per module, from a copy of example_docs without compiled
catalogs, so the build also proves that Sphinx compiles the committed ``.po`` files itself.
"""

from __future__ import annotations

import re
import shutil
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
import sphinx
from babel.messages.pofile import read_po
from sphinx.testing.util import SphinxTestApp

from sphinxcontrib_mlglossary.loader import bundled_glossary

from .conftest import card_key, read_html, read_html_head, read_html_with_cards

EXAMPLE = Path(__file__).parent.parent / "example_docs"
PAGES = ["index", "tokenization", "training", "scaling", "glossary"]
LANGUAGES = ["en", "es", "ar"]
TRANSLATED = ["es", "ar"]
#: a ``{term}`` role, with or without an explicit title
TERM_ROLE = re.compile(r"\{term\}`(?:([^`<]*?)\s*<([^`>]+)>|([^`]+))`")


class Build:
    """One finished build: its HTML, warnings and the catalogs it was built from."""

    def __init__(self, srcdir: Path, outdir: Path, warnings: str) -> None:
        self.srcdir = srcdir
        self.outdir = outdir
        self.warnings = warnings
        self._read: dict[str, Any] = {}

    def page(self, name: str):
        """A fresh copy of the page, with its cards, for a caller that changes it (``visible_text``)."""
        return read_html_with_cards(self.outdir / f"{name}.html")

    def read_page(self, name: str):
        """The page with its cards, parsed once for the build: for callers that only read it."""
        if name not in self._read:
            self._read[name] = self.page(name)
        return self._read[name]


def copy_example(destination: Path) -> Path:
    srcdir = destination / "src"
    shutil.copytree(EXAMPLE, srcdir, ignore=shutil.ignore_patterns("_build", "*.mo"))
    return srcdir


def build(srcdir: Path, buildername: str, **confoverrides: str) -> Build:
    warnings = StringIO()
    app = SphinxTestApp(buildername, srcdir=srcdir, confoverrides=confoverrides, status=StringIO(), warning=warnings)
    try:
        app.build()
    finally:
        app.cleanup()  # also forgets the cached translators, so the next language starts clean
    return Build(srcdir, Path(app.outdir), warnings.getvalue())


@pytest.fixture(scope="module")
def builds(tmp_path_factory) -> dict[str, Build]:
    return {
        language: build(copy_example(tmp_path_factory.mktemp(f"example-{language}")), "html", language=language)
        for language in LANGUAGES
    }


def catalog(language: str, page: str):
    with (EXAMPLE / "locales" / language / "LC_MESSAGES" / f"{page}.po").open("rb") as stream:
        return read_po(stream, locale=language)


def rendered(markup: str) -> str:
    """The text a reader sees for one message: role titles (or targets) and code without backticks."""
    text = TERM_ROLE.sub(lambda m: m.group(1) or m.group(3), markup)
    return " ".join(text.replace("`", "").split())


def visible_text(soup) -> str:
    body = soup.select_one("[role=main]")  # alabaster: div.body, Furo: article
    for hidden in body.select("div.mlglossary-cards, div.mlglossary-card"):
        hidden.decompose()
    # example_docs spells out each page's first abbreviation ("masked language modeling
    # (MLM)"): the source wrote only what is in the parentheses
    for expanded in body.select(".mlglossary-first-use"):
        expanded.string = re.search(r"\(([^()]*)\)$", expanded.get_text()).group(1)
    text = body.get_text().replace("¶", "").replace("\u2019", "'")  # undo smart quotes
    return " ".join(text.split())


def term_links(soup) -> list[tuple[str, str]]:
    """(href, link text) of each term reference in the page text, cards and page-terms boxes
    (summaries, whose own links differ between languages) left out."""
    return [
        (a["href"], a.get_text())
        for a in soup.select("[role=main] a.reference.internal")
        if a.find("span", class_="std-term") and not a.find_parent(class_=["mlglossary-card", "mlglossary-page-terms"])
    ]


@pytest.mark.parametrize("language", LANGUAGES)
def test_builds_without_a_warning(builds, language):
    assert "inconsistent term references" not in builds[language].warnings
    assert builds[language].warnings == ""


@pytest.mark.parametrize("language", TRANSLATED)
@pytest.mark.parametrize("page", PAGES)
def test_every_message_is_translated_and_shown(builds, language, page):
    text = visible_text(builds[language].page(page))
    for message in catalog(language, page):
        if not message.id:
            continue
        assert message.string, f"{language}/{page}: untranslated {message.id!r}"
        assert not message.fuzzy
        assert rendered(message.string) in text, f"{language}/{page}: {message.string!r} not on the page"
        if message.string != message.id:
            assert rendered(message.id) not in text, f"{language}/{page}: English left on the page"


@pytest.mark.parametrize("page", PAGES)
def test_english_pages_show_the_source_text(builds, page):
    text = visible_text(builds["en"].page(page))
    for message in catalog("es", page):
        if message.id:
            assert rendered(message.id) in text


KNOWN_SENTENCES = {
    "es": {
        "index": "Un manual de tres páginas",
        "tokenization": "Un modelo nunca ve caracteres.",
        "training": "Objetivos de preentrenamiento",
        "scaling": "reparte el trabajo.",
        "glossary": "esta página solo contiene la directiva.",
    },
    "ar": {
        "index": "دليل من ثلاث صفحات",
        "tokenization": "لا يرى النموذج الحروف أبدًا.",
        "training": "أهداف التدريب المسبق",
        "scaling": "وزّع العمل.",
        "glossary": "فلا تضمّ سوى التوجيه.",
    },
}


@pytest.mark.parametrize("language", TRANSLATED)
def test_known_sentences(builds, language):
    for page, sentence in KNOWN_SENTENCES[language].items():
        assert sentence in visible_text(builds[language].page(page)), page


@pytest.mark.parametrize("language", TRANSLATED)
@pytest.mark.parametrize("page", ["tokenization", "training", "scaling"])
def test_translated_pages_cite_the_same_entries(builds, language, page):
    """Translators change the link text, never the target: every link lands where the English one does."""
    english = term_links(builds["en"].read_page(page))
    translated = term_links(builds[language].read_page(page))
    ids = {entry.id for entry in bundled_glossary("en")}
    assert english, page
    assert all(href.startswith("glossary.html#term-") and href.split("#term-")[1] in ids for href, _text in english)
    assert sorted(href for href, _text in translated) == sorted(href for href, _text in english)
    localized = {href: text for href, text in translated}
    if page == "tokenization":
        expected = {"es": "IDs de entrada", "ar": "معرّفات الإدخال"}[language]
        assert localized["glossary.html#term-input-ids"] == expected


@pytest.mark.parametrize("language", LANGUAGES)
def test_glossary_names_and_cards_are_localized(builds, language):
    terms = {dt["id"]: dt for dt in builds[language].read_page("glossary").select("dt[id]")}
    entries = bundled_glossary(language)
    for entry in entries:
        term = terms.get(entry.anchor)
        assert term is not None, entry.id
        assert term.get_text().startswith(entry.name), entry.id
    card = (
        builds[language]
        .read_page("tokenization")
        .select_one('div.mlglossary-card[data-mlglossary-href$="#term-attention-mask"]')
    )
    summary = card.select_one(".mlglossary-card-summary").get_text()
    assert summary.split()[:3] == rendered(entries.get("attention-mask").summary).split()[:3]


@pytest.mark.parametrize("language", LANGUAGES)
def test_only_arabic_pages_are_right_to_left(builds, language):
    for page in PAGES:
        html = read_html_head(builds[language].outdir / f"{page}.html").find("html")
        assert html["lang"] == language
        assert html.get("dir") == ("rtl" if language == "ar" else None), page


def test_catalogs_match_the_pages(tmp_path):
    """`sphinx-build -b gettext` extracts the pages' own text, which the committed catalogs cover exactly."""
    result = build(copy_example(tmp_path), "gettext")
    assert result.warnings == ""
    english = bundled_glossary("en")
    for page in PAGES:
        with (result.outdir / f"{page}.pot").open("rb") as stream:
            extracted = {m.id for m in read_po(stream) if m.id}
        for language in TRANSLATED:
            assert {m.id for m in catalog(language, page) if m.id} == extracted, (
                f"{language}/{page}.po is stale: run the sphinx-intl commands in example_docs/conf.py"
            )
        pot = (result.outdir / f"{page}.pot").read_text(encoding="utf-8")
        for entry in english:
            assert entry.summary.split(".")[0] not in pot, f"{page}.pot holds the entry {entry.id}"


def test_localized_targets_in_translations(tmp_path):
    """A translator who cites the localized name lands on the entry, without a warning.

    Sphinx 9 compares the targets of term references in a translated message with the
    original's and warns when they differ; the extension gives every name of an entry one
    canonical target on both sides, so two names of one entry compare equal. ``#noqa``
    at the end of a message still works as Sphinx documents it.
    """
    srcdir = copy_example(tmp_path)
    po = srcdir / "locales" / "es" / "LC_MESSAGES" / "tokenization.po"
    text = po.read_text(encoding="utf-8")
    for before, after in [
        ('msgstr "{term}`máscara de atención <attention mask>`"', 'msgstr "{term}`máscara de atención`"'),
        ('msgstr "{term}`IDs de entrada <input IDs>`"', 'msgstr "{term}`IDs de entrada` #noqa"'),
    ]:
        assert before in text
        text = text.replace(before, after)
    po.write_text(text, encoding="utf-8")
    result = build(srcdir, "html", language="es")
    links = dict((text, href) for href, text in term_links(result.page("tokenization")))
    assert links["máscara de atención"] == "glossary.html#term-attention-mask"
    assert links["IDs de entrada"] == "glossary.html#term-input-ids"
    assert "inconsistent term references" not in result.warnings
    assert result.warnings == ""


def test_a_different_term_in_a_translation_is_still_reported(tmp_path):
    """Canonical targets hide only renamings: citing another entry is a real inconsistency."""
    srcdir = copy_example(tmp_path)
    po = srcdir / "locales" / "es" / "LC_MESSAGES" / "tokenization.po"
    text = po.read_text(encoding="utf-8")
    before = 'msgstr "{term}`máscara de atención <attention mask>`"'
    assert before in text
    po.write_text(text.replace(before, 'msgstr "{term}`token`"'), encoding="utf-8")
    result = build(srcdir, "html", language="es")
    inconsistent = [line for line in result.warnings.splitlines() if "inconsistent term references" in line]
    if sphinx.version_info >= (9,):
        assert len(inconsistent) == 1
    else:
        assert inconsistent == []  # Sphinx 7.3 and 8.x compare only the number of references


TITLES = {"en": "Tiny Transformers Handbook", "es": "Pequeño manual de Transformers", "ar": "دليل المحوّلات المصغّر"}


@pytest.mark.parametrize("language", LANGUAGES)
def test_project_title_and_copyright_in_each_language(builds, language):
    """conf.py names the project in the page's language, and every footer credits its authors."""
    for page in PAGES:
        soup = builds[language].read_page(page)
        assert TITLES[language] in soup.title.get_text(), page
        footer = " ".join(soup.select_one("footer, div.footer").get_text().split())
        assert "2026, the sphinxcontrib-mlglossary authors" in footer, page
        assert "©." not in footer
        if language != "en":
            assert TITLES["en"] not in soup.title.get_text()


#: the terms tokenization.md cites from the other site (other_site/, mapped with intersphinx),
#: and the first words of their definitions in each language of that site
OTHER_SITE_TERMS = {
    "code point": {"en": "The number Unicode gives", "es": "El número que Unicode", "ar": "الرقم الذي يمنحه Unicode"},
    "UTF-8": {"en": "The encoding that writes", "es": "La codificación que escribe", "ar": "الترميز الذي يكتب"},
    "grapheme cluster": {"en": "What a reader takes", "es": "Lo que un lector toma", "ar": "ما يراه القارئ"},
}


def other_site_cards(build: Build) -> dict[str, tuple[str, object]]:
    """Term -> (href of its link on tokenization.html, the card the link names) for the other site's terms."""
    page = build.read_page("tokenization")
    found = {}
    for link in page.select("a.mlglossary-term.external"):
        card = page.select_one(f'div.mlglossary-card[data-mlglossary-href="{link["href"]}"]')
        assert card is not None and card["id"].endswith(card_key(link)), link
        found[link["href"].rpartition("#term-")[2]] = (link["href"], card)
    return found


@pytest.mark.parametrize("language", LANGUAGES)
def test_terms_another_site_defines_get_cards_from_its_glossary(builds, language):
    """tokenization.md cites three terms of a plain Sphinx site built with the handbook: each
    link reaches that site's copy in the output, and its card shows the site's definition,
    in the page's language, as plain text."""
    cards = other_site_cards(builds[language])
    assert sorted(cards) == ["UTF-8", "code-point", "grapheme-cluster"]
    other_page = read_html(builds[language].outdir / "encoding-notes" / "index.html")
    assert other_page.find("html")["lang"] == language
    anchors = {dt.get_text().replace("¶", ""): dt["id"] for dt in other_page.select("dl.glossary dt")}
    for name, opening in OTHER_SITE_TERMS.items():
        href, card = cards[name.replace(" ", "-")]
        assert href == f"encoding-notes/index.html#{anchors[name]}"
        assert card.select_one(".mlglossary-card-title").get_text() == name
        summary = card.select_one(".mlglossary-card-summary")
        assert summary.get_text().startswith(opening[language])
        assert summary.find_all(True) == []  # text only, whatever the other site's markup
        assert card.select_one(".mlglossary-card-more a")["href"] == href


def test_the_other_site_is_built_without_the_extension_and_needs_no_network(builds):
    conf = (EXAMPLE / "other_site" / "conf.py").read_text(encoding="utf-8")
    assert "extensions" not in conf  # a plain Sphinx site: the cards come from its glossary page
    assert not (builds["en"].outdir / "encoding-notes" / "glossary.json").exists()
    mapping = builds["en"].srcdir / "_build" / "other_site" / "en" / "html" / "encoding-notes" / "objects.inv"
    assert mapping.is_file()  # intersphinx read a file: no request was made


def test_parallel_build_gives_the_same_pages_and_cards(builds, tmp_path):
    """-j 2 (reading and writing in two processes) writes what the serial build wrote."""
    srcdir = copy_example(tmp_path)
    warnings = StringIO()
    app = SphinxTestApp(
        "html", srcdir=srcdir, confoverrides={"language": "en"}, parallel=2, status=StringIO(), warning=warnings
    )
    try:
        app.build()
    finally:
        app.cleanup()
    assert warnings.getvalue() == ""
    serial = builds["en"].outdir
    for name in ["tokenization.html", "_static/mlglossary-cards.js", "encoding-notes/index.html"]:
        assert (Path(app.outdir) / name).read_text(encoding="utf-8") == (serial / name).read_text(encoding="utf-8")
