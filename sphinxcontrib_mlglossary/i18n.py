"""The extension's own message catalog (UI strings such as "See also")."""

from __future__ import annotations

from pathlib import Path

from sphinx.locale import get_translation, get_translator

CATALOG = "sphinxcontrib_mlglossary"
LOCALE_DIR = Path(__file__).parent / "locales"

_ = get_translation(CATALOG)


def ngettext(singular: str, plural: str, count: int) -> str:
    """A message with plural forms ("1 citation", "3 citations"; Arabic has six forms).

    Sphinx's ``get_translation`` takes one message only from Sphinx 8 on; the catalog's
    translator applies the language's own plural rule.
    """
    return get_translator(CATALOG).ngettext(singular, plural, count)
