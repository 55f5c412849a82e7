"""The documentation of sphinxcontrib-mlglossary, built with the extension itself."""

from importlib import metadata

project = "sphinxcontrib-mlglossary"
author = "the sphinxcontrib-mlglossary authors"
copyright = "2026, the sphinxcontrib-mlglossary authors"
try:
    release = version = metadata.version("sphinxcontrib-mlglossary")
except metadata.PackageNotFoundError:  # run from a checkout that was never installed
    release = version = ""

extensions = ["myst_parser", "sphinxcontrib_mlglossary"]
exclude_patterns = ["_build"]
myst_heading_anchors = 3
myst_enable_extensions = ["deflist"]  # the "term / : definition" lists of the reference
html_theme = "furo"
html_title = "sphinxcontrib-mlglossary"

# The site shows what it documents: the first plain mention of an ML term on each page
# becomes a term link with its card (pages can opt out with front matter).
mlglossary_autolink = "first"

# Translations (sphinx-intl, see "Translate your documentation"): one catalog per page.
locale_dirs = ["locales"]
gettext_compact = False
