"""The extension's own message catalog (UI strings such as "See also")."""

from __future__ import annotations

from pathlib import Path

from sphinx.locale import get_translation

CATALOG = "sphinxcontrib_mlglossary"
LOCALE_DIR = Path(__file__).parent / "locales"

_ = get_translation(CATALOG)
