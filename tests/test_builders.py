"""Every builder takes a project using the extension, without warnings, tracebacks or stray HTML.

The matrix runs on the MyST and reST test roots and on a copy of ``example_docs``
(English only: its translations are built elsewhere) and of the documentation in Arabic;
the builders that write the doctree itself (xml, pseudoxml, dummy) on the twin roots only.
``linkcheck`` runs with every
URL ignored and the network taken away, so it checks the extension's links without
making a request.

The documentation in Arabic (21 pages) and example_docs are each read once by their HTML
build; dirhtml, singlehtml, epub (but example_docs', which needs a version setting of its
own), latex, texinfo and linkcheck write them from a copy of that build's environment and
doctrees, as ``sphinx-build`` does when several builders share a doctree folder: what
depends on the builder (stored entry bodies or parsed ones, cards, backlinks, stray HTML)
happens when pages are written, where each builder's warnings and output are checked as
before. Text and man read without smart quotes (Sphinx's ``smartquotes_excludes``): man
writes from the text build's read. gettext (no translation) reads its own.
"""

from __future__ import annotations

import html
import json
import re
import shutil
import socket
from pathlib import Path

import pytest
import requests

from sphinxcontrib_mlglossary.loader import BUNDLED_LANGUAGES
from sphinxcontrib_mlglossary.prerendered import bundled_prerendered

from .conftest import TWIN_CITED, finished_build, write_from_read

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
    return refuse_network(monkeypatch)


def refuse_network(monkeypatch) -> list[str]:
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
    return check_build(app, buildername, offline)


def glossary_web_links(language: str | None) -> set[str]:
    """The web addresses the bundled glossary's entries link to (as their stored HTML has them)."""
    stored = bundled_prerendered(language if language in BUNDLED_LANGUAGES else "en")
    assert stored is not None
    found = re.compile(r'<a class="reference external" href="(https://[^"]+)"')
    return {
        html.unescape(uri)
        for _digest, fragment in stored.entries.values()
        for piece in fragment.pieces
        for uri in found.findall(piece)
    }


def check_build(app, buildername: str, offline: list[str]) -> list[Path]:
    """No warning, no network, output without stray HTML (``app`` has been built)."""
    assert app.warning.getvalue() == ""
    assert offline == []
    outputs = [p for p in Path(app.outdir).rglob("*") if p.is_file()]
    if buildername == "dummy":
        return outputs
    assert outputs
    if buildername == "linkcheck":
        lines = (Path(app.outdir) / "output.json").read_text(encoding="utf-8").splitlines()
        report = [json.loads(line) for line in lines if line.strip()]
        web = {result["uri"] for result in report if result["uri"].startswith("https://")}
        shown = glossary_web_links(app.config.language)
        assert len(shown) >= 5
        assert shown <= web  # the glossary's own web links were seen; none was fetched
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
            # (the configuration reference names the id's prefix in prose, "mlglossary-cite-…")
            assert re.findall(r"mlglossary-cite-[\w-]*\d", text) == []
    return outputs


def overrides_for(buildername: str) -> dict[str, object]:
    return {"linkcheck_ignore": [r".*"], "linkcheck_timeout": 1} if buildername == "linkcheck" else {}


def twin_page(twin: str, buildername: str) -> tuple[str, ...] | None:
    """The glossary page a twin shows (None: every bundled entry).

    A twin shows the entries its pages cite to the builders in BUILDERS: entry text is
    rendered by the same MyST renderer in either syntax, and every builder in BUILDERS also
    meets the full page in ``example_docs`` (MyST, English) and in the Arabic documentation,
    so a third full page per builder added time, not cases. Full pages stay where they are
    the only ones: the doctree builders (xml, pseudoxml, dummy) on the reST twin, and
    linkcheck, which checks that the glossary's own web links (at least ten) were seen.
    """
    if buildername == "linkcheck" or (twin == "basic-rst" and buildername in DOCTREE_BUILDERS):
        return None
    return TWIN_CITED


@pytest.mark.parametrize("buildername", BUILDERS + DOCTREE_BUILDERS)
@pytest.mark.parametrize("twin", ["basic-md", "basic-rst"])
def test_builder(root_app, twin, buildername, offline):
    app = root_app(buildername, twin, page=twin_page(twin, buildername), confoverrides=overrides_for(buildername))
    build_and_check(app, buildername, offline)


#: builders that read a project with smart quotes off (Sphinx's ``smartquotes_excludes``):
#: they write from one read of their own, made by the first of them (text)
UNQUOTED = ("text", "man")
#: epub insists on a version and a copyright, which the example leaves out; ``version`` is
#: a setting of the environment (a new value reads every page again), so epub reads its own
EXAMPLE_EPUB = {"version": "1.0", "copyright": "the example's authors"}
#: MyST-Parser's resolver of links between pages reads an attribute Sphinx 9 deprecates
MYST_APP_DEPRECATED = r"ignore:'myst_parser\.sphinx_ext\.myst_refs\.MystReferenceResolver\.app' is deprecated"


def copy_example_docs(destination: Path) -> Path:
    srcdir = destination / "example_docs"
    shutil.copytree(EXAMPLE_DOCS, srcdir, ignore=shutil.ignore_patterns("_build", "locales"))
    return srcdir


def copy_docs(destination: Path) -> Path:
    srcdir = destination / "docs"
    shutil.copytree(DOCS, srcdir, ignore=shutil.ignore_patterns("_build", "*.mo"))
    return srcdir


#: the projects below: how each is copied and the language it is built in
PROJECTS = {"example_docs": (copy_example_docs, "en"), "arabic-docs": (copy_docs, "ar")}


@pytest.fixture(scope="module")
def project_read(tmp_path_factory):
    """``project_read("arabic-docs", "html")``: a clean offline build of a copy of the project
    by that builder, and the network attempts it made, made once per module: its doctrees are
    what the builders reading as it does write from (``write_from_read``)."""
    made: dict[tuple[str, str], tuple[object, list[str]]] = {}

    def read(project: str, buildername: str):
        if (project, buildername) not in made:
            copy, language = PROJECTS[project]
            srcdir = copy(tmp_path_factory.mktemp(f"{project}-{buildername}"))
            with pytest.MonkeyPatch.context() as patch:
                attempts = refuse_network(patch)
                app = finished_build(
                    buildername,
                    srcdir,
                    builddir=srcdir.parent / f"build-{buildername}",
                    freshenv=True,
                    confoverrides={"language": language, **overrides_for(buildername)},
                )
            made[project, buildername] = (app, attempts)
        return made[project, buildername]

    return read


def check_builder_on(project: str, buildername: str, project_read, tmp_path: Path, offline: list[str]) -> None:
    """Checks ``buildername``'s output of ``project``: written from the module's shared read
    (html's, or text's for text and man), or its own build for gettext, which reads the
    project untranslated."""
    language = PROJECTS[project][1]
    if buildername == "gettext":
        srcdir = PROJECTS[project][0](tmp_path)
        app = finished_build(buildername, srcdir, freshenv=True, confoverrides={"language": language})
        check_build(app, buildername, offline)
        return
    reader = UNQUOTED[0] if buildername in UNQUOTED else "html"
    read_app, read_attempts = project_read(project, reader)
    assert read_app.warning.getvalue() == ""  # what reading warned
    assert read_attempts == []
    if buildername == reader:
        check_build(read_app, buildername, read_attempts)
    else:
        app = write_from_read(
            read_app, buildername, tmp_path / "build", {"language": language, **overrides_for(buildername)}
        )
        check_build(app, buildername, offline)


@pytest.mark.parametrize("buildername", BUILDERS)
def test_builder_on_example_docs(project_read, make_app, tmp_path, buildername, offline):
    if buildername == "epub":
        app = make_app(
            buildername,
            srcdir=copy_example_docs(tmp_path),
            freshenv=True,
            confoverrides={"language": "en", **EXAMPLE_EPUB},
        )
        build_and_check(app, buildername, offline)
        return
    check_builder_on("example_docs", buildername, project_read, tmp_path, offline)


@pytest.mark.filterwarnings(MYST_APP_DEPRECATED)
@pytest.mark.parametrize("buildername", BUILDERS)
def test_builder_on_the_arabic_documentation(project_read, tmp_path, buildername, offline):
    """Our own docs in Arabic: translated from catalogs, right to left, deflists, cards, backlinks."""
    check_builder_on("arabic-docs", buildername, project_read, tmp_path, offline)


def test_dirhtml_links(built_root):
    app = built_root("basic-md", "dirhtml", page=TWIN_CITED)  # reads a citation's link only
    html = (app.outdir / "guide" / "index.html").read_text()
    assert 'href="../glossary/#term-attention-mask"' in html


def test_singlehtml_links(built_root):
    app = built_root("basic-md", "singlehtml", page=TWIN_CITED)  # a citation's link and its target
    html = (app.outdir / "index.html").read_text()
    assert 'href="#term-attention-mask"' in html
    assert 'id="term-attention-mask"' in html
