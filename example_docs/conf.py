"""Example project for sphinxcontrib-mlglossary: read it, build it, copy what you need."""

project = "Tiny Transformers Handbook"
author = "sphinxcontrib-mlglossary"
extensions = ["myst_parser", "sphinxcontrib_mlglossary"]
exclude_patterns = ["_build"]
html_title = "Tiny Transformers Handbook"

# Translations of these pages (sphinx-intl workflow, see README "Languages"):
#   sphinx-build -b gettext example_docs example_docs/_build/gettext
#   sphinx-intl update -p example_docs/_build/gettext -l es -l ar -d example_docs/locales
# then build with `-D language=es` or `-D language=ar`. Sphinx compiles the .po files
# to .mo itself (gettext_auto_build), so only the .po files are kept in version control.
# The glossary entries are not in these catalogs: the extension ships their translations.
locale_dirs = ["locales"]
gettext_compact = False  # one catalog per page, mirroring the source tree
