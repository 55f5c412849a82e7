"""Example project for sphinxcontrib-mlglossary: read it, build it, copy what you need."""

import subprocess
import sys
from importlib.util import find_spec
from pathlib import Path

from sphinx.errors import ConfigError

project = "Tiny Transformers Handbook"
author = "the sphinxcontrib-mlglossary authors"
copyright = "2026, the sphinxcontrib-mlglossary authors"
extensions = ["myst_parser", "sphinx.ext.intersphinx", "sphinxcontrib_mlglossary"]
exclude_patterns = ["_build", "other_site"]

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


# Cards for another site's terms (docs/how-to/intersphinx.md): tokenization.md cites three
# terms of "Text Encoding Notes", a one-page plain Sphinx site whose source is other_site/.
# build_other_site() below builds it first, in this build's language, and maps it with
# intersphinx; HTML builds copy it into their output as encoding-notes/, so its links work
# and its cards (read from its glossary page while this build starts) need no network.
mlglossary_external_cards = True
#: where the other site's pages go in this project's HTML output (intersphinx's link target)
OTHER_SITE_FOLDER = "encoding-notes"


def build_other_site(app, config):
    """Build other_site/ with plain Sphinx, then point intersphinx at its inventory."""
    language = (config.language or "en").split("_")[0]
    built = Path(app.confdir) / "_build" / "other_site" / language
    html = built / "html" / OTHER_SITE_FOLDER
    command = [sys.executable, "-m", "sphinx", "-b", "html", "-q", "-W", "-D", f"language={language}"]
    command += ["-d", str(built / "doctrees"), str(Path(app.confdir) / "other_site"), str(html)]
    result = subprocess.run(command, capture_output=True, text=True, check=False)
    if result.returncode != 0:
        raise ConfigError(f"other_site/ could not be built:\n{result.stderr}")
    # a relative target: intersphinx writes links from each page to encoding-notes/
    config.intersphinx_mapping = {"notes": (OTHER_SITE_FOLDER + "/", str(html / "objects.inv"))}


def copy_other_site(app):
    """HTML pages link to encoding-notes/: copy the other site there (not into e-books)."""
    if app.builder.name in {"html", "dirhtml", "singlehtml"}:
        language = (app.config.language or "en").split("_")[0]
        app.config.html_extra_path = [str(Path(app.confdir) / "_build" / "other_site" / language / "html")]


def setup(app):
    app.connect("config-inited", localize)
    app.connect("config-inited", build_other_site)  # before intersphinx reads the mapping (priority 800)
    app.connect("builder-inited", copy_other_site)
