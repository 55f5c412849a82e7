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


def test_pot_lists_every_ui_string():
    in_code = {
        message for _file, _line, message, _comments, _context in extract_from_dir(str(PACKAGE), keywords={"_": None})
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
    assert all(expected.values()), f"untranslated strings in {language}"
    with open(folder / f"{DOMAIN}.mo", "rb") as stream:
        compiled = gettext.GNUTranslations(stream)
    assert {key: compiled.gettext(key) for key in expected} == expected, "run `tox -e catalogs`"
