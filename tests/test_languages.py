"""Spanish and Arabic: complete glossaries, translated UI, right-to-left output."""

from __future__ import annotations

import pytest

from sphinxcontrib_mlglossary.loader import bundled_glossary

from .conftest import TWIN_CITED, read_html, read_html_with_cards


@pytest.mark.parametrize("language", ["es", "ar"])
def test_translation_is_complete(language):
    english = bundled_glossary("en")
    translated = bundled_glossary(language)
    assert [e.id for e in translated] == [e.id for e in english]
    for entry in translated:
        original = english.get(entry.id)
        assert entry.summary != original.summary, f"{language}: {entry.id} summary left in English"
        assert entry.body != original.body, f"{language}: {entry.id} body left in English"
        assert translated.find(original.name) is entry  # the English name stays citable
        assert entry.legacy_anchor == original.legacy_anchor


LABELS = {"en": ("Cited in:", "See also:"), "es": ("Citado en:", "Véase también:"), "ar": ("ورد في:", "انظر أيضًا:")}


@pytest.mark.parametrize("language", ["en", "es", "ar", "es", "en"])
def test_build_in_each_language(root_app, language):
    """Languages in turn in one process: each build uses its own UI catalog."""
    app = root_app("html", "basic-md", confoverrides={"language": language})
    page = app.srcdir / "index.md"
    localized = bundled_glossary(language).get("attention-mask").name
    page.write_text(page.read_text() + f"\nLocalized: {{term}}`{localized}`.\n")
    app.build()
    assert app.warning.getvalue() == ""
    glossary = read_html(app.outdir / "glossary.html")
    index = read_html_with_cards(app.outdir / "index.html")
    hrefs = {
        a["href"]
        for a in index.select("a.reference.internal")
        if "#term-" in a["href"] and not a.find_parent(class_="mlglossary-card")
    }
    assert hrefs == {"glossary.html#term-attention-mask"}
    block = glossary.select_one("div.mlglossary")
    assert block["lang"] == language
    cited, see_also = LABELS[language]
    assert glossary.select_one(".mlglossary-backlinks-label").get_text() == cited
    assert glossary.select_one(".mlglossary-see-also strong").get_text() == see_also
    # items of "See also" are separated by the script's own comma
    see_also_text = glossary.find(id="term-attention-mask").find_next_sibling("dd").select_one(".mlglossary-see-also")
    assert ("، " in see_also_text.get_text()) == (language == "ar")
    assert (", " in see_also_text.get_text()) == (language != "ar")
    assert {dt["id"] for dt in glossary.select("dl.glossary > dt")} == {e.anchor for e in bundled_glossary("en")}
    html_tag = glossary.find("html")
    if language == "ar":
        assert block["dir"] == "rtl"
        assert html_tag["dir"] == "rtl"
        assert index.select_one("div.mlglossary-card")["dir"] == "rtl"
        assert glossary.select_one("h2.mlglossary-letter").get_text().rstrip("¶") == "ا"
    else:
        assert not block.get("dir")
        assert not html_tag.get("dir")


def test_regional_tags_and_override(root_app):
    # the wrapper's language is read: a page of the cited entries
    app = root_app("html", "basic-md", page=TWIN_CITED, confoverrides={"language": "es_MX"})
    app.build()
    assert read_html(app.outdir / "glossary.html").select_one("div.mlglossary")["lang"] == "es"
    app = root_app("html", "basic-md", page=TWIN_CITED, confoverrides={"language": "es", "mlglossary_language": "en"})
    app.build()
    assert read_html(app.outdir / "glossary.html").select_one("div.mlglossary")["lang"] == "en"


def test_unsupported_language_falls_back_with_one_info_line(root_app):
    app = root_app("html", "basic-md", page=TWIN_CITED, confoverrides={"language": "fr"})
    app.build()
    assert app.warning.getvalue() == ""
    assert app.status.getvalue().count("no glossary in 'fr'") == 1
    assert read_html(app.outdir / "glossary.html").select_one("div.mlglossary")["lang"] == "en"


def test_english_glossary_on_a_right_to_left_page_stays_left_to_right(root_app):
    app = root_app("html", "basic-md", page=TWIN_CITED, confoverrides={"language": "ar", "mlglossary_language": "en"})
    app.build()
    glossary = read_html(app.outdir / "glossary.html")
    assert glossary.select_one("div.mlglossary")["dir"] == "ltr"
    card = read_html_with_cards(app.outdir / "index.html").select_one("div.mlglossary-card")
    assert (card["dir"], card["lang"]) == ("ltr", "en")


def test_text_direction_is_babels_for_every_locale_it_knows():
    """Whatever Babel is installed, every locale it knows gets its character order."""
    from babel import Locale, localedata

    from sphinxcontrib_mlglossary.text_direction import direction

    checked = 0
    for identifier in localedata.locale_identifiers():
        expected = {"right-to-left": "rtl"}.get(Locale.parse(identifier).character_order, "ltr")
        assert direction(identifier) == expected, identifier
        assert direction(identifier.replace("_", "-")) == expected, identifier
        checked += 1
    assert checked > 1000
    assert direction("brh") == "rtl"  # Brahui: Babel 2.19 knows it, the old hand-kept table did not
    assert direction("ar") == "rtl" and direction("es") == "ltr" and direction(None) == "ltr"


@pytest.fixture
def fresh_direction():
    from sphinxcontrib_mlglossary.text_direction import direction

    direction.cache_clear()
    yield direction
    direction.cache_clear()


def test_a_language_babel_learns_later_follows_babel(monkeypatch, fresh_direction):
    """A locale added in a future Babel release is right to left as soon as Babel says so."""
    import babel

    class FutureLocale:
        character_order = "right-to-left"

    asked = []

    def parse(identifier, *args, **kwargs):
        asked.append(identifier)
        if identifier == "qaa":
            return FutureLocale()
        raise babel.UnknownLocaleError(identifier)

    monkeypatch.setattr(babel.Locale, "parse", staticmethod(parse))
    assert fresh_direction("qaa") == "rtl"
    assert fresh_direction("qaa-PK") == "rtl"  # unknown region: the language decides
    assert fresh_direction("qab") == "ltr"  # unknown to Babel too: left to right, no error
    assert asked == ["qaa", "qaa_PK", "qaa", "qab"]


@pytest.mark.parametrize("language", ["en", "es", "ar", "es_MX", "ar-EG", "EN"])
def test_bundled_languages_are_answered_without_loading_babel_locales(monkeypatch, fresh_direction, language):
    """The common case stays free: the glossary's own languages load no locale data."""
    import babel

    def parse(*args, **kwargs):
        raise AssertionError(f"Babel locale data loaded for {language}")

    monkeypatch.setattr(babel.Locale, "parse", staticmethod(parse))
    assert fresh_direction(language) == ("rtl" if language.lower().startswith("ar") else "ltr")
