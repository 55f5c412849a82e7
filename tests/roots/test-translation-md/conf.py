# A small MyST project translated the sphinx-intl way (tests/test_translation_workflow.py):
# its catalogs are made by the test, under locales/, one per page.
project = "translation-md"
extensions = ["myst_parser", "sphinxcontrib_mlglossary"]
exclude_patterns = ["_build"]
copyright = "2026, sphinxcontrib-mlglossary tests"
locale_dirs = ["locales"]
gettext_compact = False
