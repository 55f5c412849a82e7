"""The project's own documentation (``docs/``) builds without a warning and documents everything.

The reference must not fall behind the code: every configuration value the extension
registers and every warning subtype it can emit has its own heading in the reference,
and the docs' own glossary page lists the docs pages citing its entries.
"""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from bs4 import BeautifulSoup

from sphinxcontrib_mlglossary.diagnostics import MlGlossaryWarning

from .conftest import read_html

DOCS = Path(__file__).parents[1] / "docs"

# MyST-Parser's resolver of links between pages (``page.md#anchor``) reads an attribute
# Sphinx 9 deprecates; that is MyST's to change, not ours
pytestmark = pytest.mark.filterwarnings(
    r"ignore:'myst_parser\.sphinx_ext\.myst_refs\.MystReferenceResolver\.app' is deprecated"
)


@pytest.fixture(scope="module")
def docs_site(make_app_module):
    """One HTML build of ``docs/`` for the module (it takes a few seconds)."""
    # The site uses furo (the ``themes`` extra). The tox matrix installs no theme: there the
    # content is checked with Sphinx's default theme, so every supported Sphinx builds it.
    overrides = {} if importlib.util.find_spec("furo") else {"html_theme": "alabaster"}
    app = make_app_module(overrides)
    app.build()
    return app


@pytest.fixture(scope="module")
def make_app_module(tmp_path_factory):
    """A Sphinx test app over the repository's ``docs/``, writing into a temporary folder."""
    from sphinx.testing.util import SphinxTestApp

    apps: list[SphinxTestApp] = []

    def factory(overrides: dict[str, object]) -> SphinxTestApp:
        builddir = tmp_path_factory.mktemp("docs-site") / "_build"
        overrides = {"show_warning_types": True, **overrides}
        app = SphinxTestApp("html", srcdir=DOCS, builddir=builddir, freshenv=True, confoverrides=overrides)
        apps.append(app)
        return app

    yield factory
    for app in apps:
        app.cleanup()


def _warnings(app) -> list[str]:
    # a second app in one process re-registers Sphinx's own nodes: that notice is not the docs'
    return [line for line in app.warning.getvalue().splitlines() if line and "already registered" not in line]


def _page(app, name: str) -> BeautifulSoup:
    return read_html(Path(app.outdir) / name)


def _heading_codes(soup: BeautifulSoup) -> dict[str, str]:
    """Text of each ``<code>`` heading -> the id of its section."""
    found: dict[str, str] = {}
    for heading in soup.select("h2, h3"):
        code = heading.find("code")
        section = heading.find_parent("section")
        if code is not None and section is not None:
            found[code.get_text()] = section.get("id", "")
    return found


def test_docs_build_without_warnings(docs_site):
    assert _warnings(docs_site) == []
    for page in ("index.html", "tutorial/getting-started.html", "reference/index.html", "glossary.html"):
        assert (Path(docs_site.outdir) / page).is_file(), page


def test_every_config_value_has_a_reference_entry(docs_site):
    registered = sorted(name for name in docs_site.config.values if name.startswith("mlglossary_"))
    assert len(registered) >= 10, registered  # the extension was set up with its values
    documented = _heading_codes(_page(docs_site, "reference/configuration.html"))
    missing = [name for name in registered if name not in documented]
    assert missing == []
    unknown = [name for name in documented if name.startswith("mlglossary_") and name not in registered]
    assert unknown == [], "the reference documents values the extension does not register"
    assert all(documented[name] for name in registered)  # each can be linked to


def test_every_warning_subtype_has_a_reference_entry(docs_site):
    documented = _heading_codes(_page(docs_site, "reference/warnings.html"))
    subtypes = [kind.value for kind in MlGlossaryWarning]
    assert [subtype for subtype in subtypes if subtype not in documented] == []
    assert sorted(documented) == sorted(subtypes), "the reference lists a subtype diagnostics.py lacks"


def test_every_directive_option_has_a_reference_entry(docs_site):
    from sphinxcontrib_mlglossary.directives import MlGlossaryDirective

    documented = _heading_codes(_page(docs_site, "reference/directive.html"))
    assert sorted(documented) == sorted(f":{option}:" for option in MlGlossaryDirective.option_spec)


def test_every_page_terms_option_has_a_reference_entry(docs_site):
    from sphinxcontrib_mlglossary.page_terms import PageTermsDirective

    documented = _heading_codes(_page(docs_site, "reference/page-terms-directive.html"))
    assert sorted(documented) == sorted(f":{option}:" for option in PageTermsDirective.option_spec)


def test_glossary_lists_the_docs_pages_citing_its_entries(docs_site):
    outdir = Path(docs_site.outdir)
    glossary = _page(docs_site, "glossary.html")
    cited_from: set[str] = set()
    blocks = glossary.select("div.mlglossary-backlinks")
    assert len(blocks) >= 10
    for block in blocks:
        for link in block.select("a[href]"):
            parts = urlsplit(link["href"])
            cited_from.add(parts.path)
            # each backlink lands on a citation the citing page really holds
            page = read_html(outdir / parts.path)
            target = page.find(id=parts.fragment)
            assert target is not None, link["href"]
            assert "mlglossary-term" in target.get("class", []), link["href"]
    for page in ("tutorial/getting-started.html", "how-to/cite-terms.html", "explanation/how-it-works.html"):
        assert page in cited_from, sorted(cited_from)
    assert any(page.startswith("reference/") for page in cited_from), sorted(cited_from)


def _help(capsys, *args: str) -> str:
    """What ``python -m sphinxcontrib_mlglossary [args] -h`` prints."""
    from sphinxcontrib_mlglossary.cli import main

    with pytest.raises(SystemExit):
        main([*args, "-h"])
    return capsys.readouterr().out


def test_every_command_and_option_of_the_cli_is_documented(docs_site, capsys):
    top = _help(capsys)
    commands = re.findall(r"^ {4}(\w+) {2,}", top, flags=re.MULTILINE)
    assert commands, top
    page = _page(docs_site, "reference/cli.html")
    headings = _heading_codes(page)
    literal = " ".join(element.get_text() for element in page.select("code, pre"))
    undocumented = []
    for command in commands:
        if command not in headings:
            undocumented.append(command)
        options = set(re.findall(r"(?<![\w-])(--?[a-z][a-z-]*)", _help(capsys, command))) - {"-h", "--help"}
        assert options or command == "list", command
        undocumented += [
            f"{command} {option}"
            for option in sorted(options)
            if not re.search(rf"(?<![\w-]){re.escape(option)}(?![\w-])", literal)
        ]
    top_options = set(re.findall(r"(?<![\w-])(--?[a-z][a-z-]*)", top.split("options:", 1)[-1])) - {"-h", "--help"}
    undocumented += [option for option in sorted(top_options) if option not in literal]
    assert undocumented == []
