"""The UI message catalogs can't go stale: .pot covers the code, .mo matches .po."""

from __future__ import annotations

import gettext
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po

PACKAGE = Path(__file__).resolve().parents[1] / "sphinxcontrib_mlglossary"
LOCALES = PACKAGE / "locales"
DOMAIN = "sphinxcontrib_mlglossary"


#: what ``tox -e catalogs`` extracts: ``_`` and Babel's default ``ngettext`` (plural forms)
KEYWORDS = {"_": None, "ngettext": (1, 2)}


def test_pot_lists_every_ui_string():
    in_code = {
        message for _file, _line, message, _comments, _context in extract_from_dir(str(PACKAGE), keywords=KEYWORDS)
    }
    with open(LOCALES / f"{DOMAIN}.pot", "rb") as stream:
        in_pot = {m.id for m in read_po(stream) if m.id}
    assert in_code == in_pot, "run `tox -e catalogs` to refresh the catalogs"


@pytest.mark.parametrize("language", ["es", "ar"])
def test_mo_is_compiled_from_po(language):
    folder = LOCALES / language / "LC_MESSAGES"
    with open(folder / f"{DOMAIN}.po", "rb") as stream:
        catalog = read_po(stream)
    expected = {m.id: m.string for m in catalog if m.id}
    singular = {key: text for key, text in expected.items() if isinstance(key, str)}
    plural = {key: forms for key, forms in expected.items() if not isinstance(key, str)}
    assert plural, "the count messages have plural forms"
    assert all(singular.values()) and all(all(forms) for forms in plural.values()), (
        f"untranslated strings in {language}"
    )
    with open(folder / f"{DOMAIN}.mo", "rb") as stream:
        compiled = gettext.GNUTranslations(stream)
    assert {key: compiled.gettext(key) for key in singular} == singular, "run `tox -e catalogs`"
    form = gettext.c2py(catalog.plural_expr)  # the .po header's rule: which form a count takes
    for (one, many), forms in plural.items():
        assert len(forms) == catalog.num_plurals
        for count in (0, 1, 2, 3, 11, 100):
            assert compiled.ngettext(one, many, count) == forms[form(count)], "run `tox -e catalogs`"
