"""Example project for sphinxcontrib-mlglossary: read it, build it, copy what you need."""

from importlib.util import find_spec

project = "Tiny Transformers Handbook"
author = "the sphinxcontrib-mlglossary authors"
copyright = "2026, the sphinxcontrib-mlglossary authors"
extensions = ["myst_parser", "sphinxcontrib_mlglossary"]
exclude_patterns = ["_build"]

# Furo where it is installed (`pip install furo`), Sphinx's default theme otherwise; in
# every language: the extension gives Arabic pages dir="rtl" in either.
MODERN_THEME = "furo" if find_spec("furo") else "alabaster"
html_theme = MODERN_THEME

# Translations of these pages (sphinx-intl workflow, see docs/how-to/translate.md):
#   sphinx-build -b gettext example_docs example_docs/_build/gettext
#   sphinx-intl update -p example_docs/_build/gettext -l es -l ar -d example_docs/locales
# (`make translations` runs both and counts what is left to translate), then build with
# `-D language=es` or `-D language=ar`. Sphinx compiles the .po files to .mo itself
# (gettext_auto_build), so only the .po files are kept in version control.
# The glossary entries are not in these catalogs: the extension ships their translations.
# the first citation of an abbreviation on each page is spelt out: "masked language modeling (MLM)"
mlglossary_first_use = True

locale_dirs = ["locales"]
gettext_compact = False  # one catalog per page, mirroring the source tree

#: the project's name in each language (as the home page's title in locales/*/index.po)
TITLES = {
    "en": "Tiny Transformers Handbook",
    "es": "Pequeño manual de Transformers",
    "ar": "دليل المحوّلات المصغّر",
}


def localize(app, config):
    """`-D language=xx` is applied after this file runs: pick the title once it is known."""
    language = (config.language or "en").split("_")[0]
    config.project = config.html_title = TITLES.get(language, TITLES["en"])


def setup(app):
    app.connect("config-inited", localize)
