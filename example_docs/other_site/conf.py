"""Text Encoding Notes: the site example_docs cites through intersphinx, built with plain Sphinx.

It does not load sphinxcontrib-mlglossary: the handbook's cards for its terms are made
from the definitions on its glossary page, as for any Sphinx site. The handbook's conf.py
builds it (in the handbook's language) before its own build starts.
"""

project = "Text Encoding Notes"
author = "the sphinxcontrib-mlglossary authors"
copyright = "2026, the sphinxcontrib-mlglossary authors"
html_theme = "alabaster"
locale_dirs = ["locales"]
gettext_compact = False
