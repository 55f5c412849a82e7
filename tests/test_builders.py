"""Every builder takes a project using the extension, without warnings, tracebacks or stray HTML.

The matrix runs on the MyST and reST test roots and on a copy of ``example_docs``
(English only: its translations are built elsewhere) and of the documentation in Arabic;
the builders that write the doctree itself (xml, pseudoxml, dummy) on the twin roots only.
``linkcheck`` runs with every
URL ignored and the network taken away, so it checks the extension's links without
making a request.
"""

from __future__ import annotations

import json
import shutil
import socket
from pathlib import Path

import pytest
import requests

from .conftest import TWIN_CITED

#: the builders that write a format for readers (and linkcheck), on every project below
BUILDERS = [
    "html",
    "dirhtml",
    "singlehtml",
    "epub",
    "latex",
    "text",
    "man",
    "texinfo",
    "gettext",
    "linkcheck",
]
#: Sphinx's other builders, which write the doctree itself: checked on the twin roots only,
#: where they meet every node the extension makes (a docs-site build of each adds time, not cases)
DOCTREE_BUILDERS = ["xml", "pseudoxml", "dummy"]
#: output suffixes of the formats where HTML markup would show as text
PLAIN_OUTPUTS = {"text": ".txt", "man": ".1", "texinfo": ".texi", "latex": ".tex"}
#: what leaked HTML (cards, backlinks, glossary markup) would look like
STRAY_HTML = ("<span", "<div", "<dt", "<dd", "<p ", "<a href", "mlglossary-card", "data-mlglossary")
EXAMPLE_DOCS = Path(__file__).parent.parent / "example_docs"
DOCS = Path(__file__).parent.parent / "docs"


@pytest.fixture
def offline(monkeypatch):
    """Record, and refuse, every HTTP request and socket connection the build attempts."""
    attempts: list[str] = []

    def refuse(target):
        attempts.append(str(target))
        raise OSError(f"network access during a test build: {target}")

    monkeypatch.setattr(requests.Session, "request", lambda self, method, url, *a, **k: refuse(url))
    monkeypatch.setattr(socket.socket, "connect", lambda self, address: refuse(address))
    monkeypatch.setattr(socket, "create_connection", lambda address, *a, **k: refuse(address))
    return attempts


def build_and_check(app, buildername: str, offline: list[str]) -> list[Path]:
    app.build()
    assert app.warning.getvalue() == ""
    assert offline == []
    outputs = [p for p in Path(app.outdir).rglob("*") if p.is_file()]
    if buildername == "dummy":
        return outputs
    assert outputs
    if buildername == "linkcheck":
        lines = (Path(app.outdir) / "output.json").read_text(encoding="utf-8").splitlines()
        report = [json.loads(line) for line in lines if line.strip()]
        web = [result for result in report if result["uri"].startswith("https://")]
        assert len(web) >= 10  # the glossary's own web links were seen; none was fetched
        assert {result["status"] for result in report} == {"ignored"}
    if buildername in PLAIN_OUTPUTS:
        text = "\n".join(
            p.read_text(encoding="utf-8", errors="replace") for p in outputs if p.suffix == PLAIN_OUTPUTS[buildername]
        )
        assert "masked language modeling (MLM)" in text
        leaked = [marker for marker in STRAY_HTML if marker in text]
        assert leaked == []
        # "Cited in" prints no "#id" link targets where links lead nowhere
        if buildername in {"text", "man"}:
            assert "mlglossary-cite" not in text
    return outputs


def overrides(buildername: str) -> dict[str, object]:
    return {"linkcheck_ignore": [r".*"], "linkcheck_timeout": 1} if buildername == "linkcheck" else {}


def twin_page(twin: str, buildername: str) -> tuple[str, ...] | None:
    """The glossary page a twin shows (None: every bundled entry).

    The reST twin shows the full page to every builder. The MyST twin shows the entries its
    pages cite: entry text is rendered by the same MyST renderer in either syntax, and every
    builder in BUILDERS also meets the full page in a MyST project in ``example_docs``, so a
    second full page per builder added time, not cases. linkcheck keeps the full page: it
    checks that the glossary's own web links (at least ten) were seen.
    """
    return TWIN_CITED if twin == "basic-md" and buildername != "linkcheck" else None


@pytest.mark.parametrize("buildername", BUILDERS + DOCTREE_BUILDERS)
@pytest.mark.parametrize("twin", ["basic-md", "basic-rst"])
def test_builder(root_app, twin, buildername, offline):
    app = root_app(buildername, twin, page=twin_page(twin, buildername), confoverrides=overrides(buildername))
    build_and_check(app, buildername, offline)


@pytest.mark.parametrize("buildername", BUILDERS)
def test_builder_on_example_docs(make_app, tmp_path, buildername, offline):
    srcdir = tmp_path / "example_docs"
    shutil.copytree(EXAMPLE_DOCS, srcdir, ignore=shutil.ignore_patterns("_build", "locales"))
    # epub insists on a version and a copyright, which the example leaves out
    epub = {"version": "1.0", "copyright": "the example's authors"} if buildername == "epub" else {}
    app = make_app(
        buildername, srcdir=srcdir, freshenv=True, confoverrides={"language": "en", **epub, **overrides(buildername)}
    )
    build_and_check(app, buildername, offline)


@pytest.mark.filterwarnings(
    # MyST-Parser's resolver of links between pages reads an attribute Sphinx 9 deprecates
    r"ignore:'myst_parser\.sphinx_ext\.myst_refs\.MystReferenceResolver\.app' is deprecated"
)
@pytest.mark.parametrize("buildername", BUILDERS)
def test_builder_on_the_arabic_documentation(make_app, tmp_path, buildername, offline):
    """Our own docs in Arabic: translated from catalogs, right to left, deflists, cards, backlinks."""
    srcdir = tmp_path / "docs"
    shutil.copytree(DOCS, srcdir, ignore=shutil.ignore_patterns("_build", "*.mo"))
    app = make_app(
        buildername, srcdir=srcdir, freshenv=True, confoverrides={"language": "ar", **overrides(buildername)}
    )
    build_and_check(app, buildername, offline)


def test_dirhtml_links(built_root):
    app = built_root("basic-md", "dirhtml", page=TWIN_CITED)  # reads a citation's link only
    html = (app.outdir / "guide" / "index.html").read_text()
    assert 'href="../glossary/#term-attention-mask"' in html


def test_singlehtml_links(built_root):
    app = built_root("basic-md", "singlehtml", page=TWIN_CITED)  # a citation's link and its target
    html = (app.outdir / "index.html").read_text()
    assert 'href="#term-attention-mask"' in html
    assert 'id="term-attention-mask"' in html
